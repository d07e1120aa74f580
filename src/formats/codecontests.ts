/**
 * CodeContests problems -> `IoProblem`.
 *
 * Source format: google-deepmind/code_contests (`contest_problem.proto`, README; Li et al. 2022, "Competition-Level
 * Code Generation with AlphaCode"), as exported to JSON rows (e.g. `deepmind/code_contests` on the Hugging Face
 * hub): `name`, `description`, `public_tests`, `private_tests`, `generated_tests` (each `{input: [str],
 * output: [str]}`), `solutions` and `incorrect_solutions` (`{language: [int], solution: [str]}`, languages by the
 * proto's enum: 0 UNKNOWN_LANGUAGE, 1 PYTHON (2), 2 CPP, 3 PYTHON3, 4 JAVA), `time_limit` (`{seconds, nanos}` or
 * null), `memory_limit_bytes`, `source`, `difficulty`, `cf_*` fields.
 * Every test counts (public, then private, then generated, as AlphaCode's evaluation uses them all); outputs are
 * compared by CodeContests' own `OutputsMatch` (`codecontests` comparator). The time limit is the problem's, the
 * memory limit `memory_limit_bytes` / 1024 (KiB). The first correct PYTHON3, else CPP, else JAVA solution is kept
 * as the reference solution (Python 2 solutions cannot run here). Problems are named by `name`.
 * Errors: `DatasetError` (file, line, field).
 */
import { z } from 'zod';
import { DatasetError } from './errors.js';
import { readJsonl } from './jsonl.js';
import type { IoProblem } from './types.js';

const TestsSchema = z.object({ input: z.array(z.string()), output: z.array(z.string()) })
  .refine((t) => t.input.length === t.output.length, 'as many outputs as inputs expected');
const SolutionsSchema = z.object({ language: z.array(z.number().int()), solution: z.array(z.string()) })
  .refine((s) => s.language.length === s.solution.length, 'as many languages as solutions expected');

/** One CodeContests row (the proto's fields as JSON; unused fields are ignored). */
export const CodeContestsRecordSchema = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  public_tests: TestsSchema,
  private_tests: TestsSchema,
  generated_tests: TestsSchema.optional(),
  solutions: SolutionsSchema.optional(),
  time_limit: z.object({ seconds: z.number().int().nonnegative().default(0), nanos: z.number().int().nonnegative().default(0) })
    .nullable().optional(),
  memory_limit_bytes: z.number().int().nonnegative().optional(),
});

/** The proto's language numbers -> Crucible language ids, in the order a reference is preferred. */
const REFERENCE_LANGUAGES: readonly (readonly [number, string])[] = [[3, 'python'], [2, 'cpp'], [4, 'java']];

/** Read a CodeContests JSONL(.gz) file. Duplicate names are an error. */
export async function readCodeContests(path: string): Promise<IoProblem[]> {
  const out: IoProblem[] = [];
  const seen = new Set<string>();
  for await (const { line, value: r } of readJsonl(path, CodeContestsRecordSchema)) {
    if (seen.has(r.name)) throw new DatasetError(path, line, 'name', `duplicate name "${r.name}"`);
    seen.add(r.name);
    const groups = [r.public_tests, r.private_tests, r.generated_tests ?? { input: [], output: [] }];
    const tests = groups.flatMap((g) => g.input.map((input, i) => ({ input, output: g.output[i]! })));
    if (tests.length === 0) throw new DatasetError(path, line, 'public_tests', 'no tests at all');
    const timeLimitMs = r.time_limit ? r.time_limit.seconds * 1000 + Math.round(r.time_limit.nanos / 1e6) : 0;
    const memoryLimitKiB = r.memory_limit_bytes === undefined ? 0 : Math.floor(r.memory_limit_bytes / 1024);
    let reference: { language: string; code: string } | undefined;
    for (const [number, language] of REFERENCE_LANGUAGES) {
      const at = r.solutions?.language.indexOf(number) ?? -1;
      if (at >= 0) {
        reference = { language, code: r.solutions!.solution[at]! };
        break;
      }
    }
    out.push({
      kind: 'io', taskId: r.name, tests, comparator: { kind: 'codecontests' },
      ...(r.description === undefined ? {} : { statement: r.description }),
      ...(timeLimitMs > 0 ? { timeLimitMs } : {}),
      ...(memoryLimitKiB > 0 ? { memoryLimitKiB } : {}),
      ...(reference === undefined ? {} : { referenceSolution: reference }),
    });
  }
  return out;
}
