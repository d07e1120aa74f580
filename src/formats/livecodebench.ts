/**
 * LiveCodeBench code generation problems -> `IoProblem` (stdin) or `ExpectedCallProblem` (LeetCode functional).
 *
 * Source format: the `livecodebench/code_generation_lite` (and `code_generation`) rows, as loaded by
 * LiveCodeBench/LiveCodeBench `lcb_runner/benchmarks/code_generation.py` (`CodeGenerationProblem`): one JSON object
 * per line with `question_title`, `question_content`, `platform` (`leetcode`, `codeforces`, `atcoder`),
 * `question_id`, `contest_id`, `contest_date` (ISO 8601), `starter_code`, `difficulty` (`easy`, `medium`, `hard`),
 * `public_test_cases` (a JSON string: a list of `{input, output, testtype}`, `testtype` `stdin` or `functional`),
 * `private_test_cases` (the same JSON, either as is or as base64 of zlib of a pickled str: `pickled-str.ts`
 * decodes that one shape without an unpickler), `metadata` (a JSON string; `func_name` present = functional).
 * Tests are public then private, as LiveCodeBench's `get_evaluation_sample` orders them.
 * - Functional (`metadata.func_name`): each input line is one JSON argument and the output is JSON
 *   (`grade_call_based`); the problem is `expected_call` with the LiveCodeBench rule, prompt = `starter_code`.
 * - Otherwise stdin: an `io` problem in Python with the `livecodebench` comparator (`grade_stdio`).
 * Time limit: 6 s per test, LiveCodeBench's default `--timeout` (`lcb_runner/runner/parser.py`).
 * `contest_date` is kept as `releaseDate`; `withinReleaseWindow` applies `--start_date`/`--end_date` as
 * `load_code_generation_dataset` does.
 * Errors: `DatasetError` (file, line, field, e.g. `private_test_cases[3].input`).
 */
import { z } from 'zod';
import type { PyValue } from '../verdict/index.js';
import { DatasetError } from './errors.js';
import { readJsonl } from './jsonl.js';
import { PickledStrError, decodeCompressedPickledStr } from './pickled-str.js';
import { parsePyJson, toPyValue } from './pyjson.js';
import type { ExpectedCallProblem, IoProblem, ProblemBase } from './types.js';

/** LiveCodeBench's default per-test time-out, ms. */
export const LCB_TIME_LIMIT_MS = 6000;

const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO 8601 date');

/** One `code_generation_lite` row (test cases and metadata are JSON strings, decoded after this schema). */
export const LiveCodeBenchRecordSchema = z.object({
  question_id: z.union([z.string().min(1), z.number().int().transform(String)]),
  question_title: z.string().optional(),
  question_content: z.string(),
  platform: z.enum(['leetcode', 'codeforces', 'atcoder']),
  contest_id: z.union([z.string(), z.number()]).optional(),
  contest_date: isoDate,
  starter_code: z.string(),
  difficulty: z.enum(['easy', 'medium', 'hard']),
  public_test_cases: z.string(),
  private_test_cases: z.string(),
  metadata: z.string(),
});

const TestSchema = z.object({ input: z.string(), output: z.string(), testtype: z.enum(['stdin', 'functional']) });
const MetadataSchema = z.object({ func_name: z.string().regex(/^[A-Za-z_]\w*$/, 'expected a Python identifier').optional() })
  .passthrough();

type Test = z.infer<typeof TestSchema>;

function parseJsonField<T>(path: string, line: number, field: string, text: string, schema: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new DatasetError(path, line, field, `invalid JSON: ${(err as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
    throw new DatasetError(path, line, `${field}${at}`, issue.message);
  }
  return parsed.data;
}

/** `private_test_cases`: JSON text, or base64(zlib(pickle(str))) holding the JSON text (LiveCodeBench tries both). */
function privateTests(path: string, line: number, text: string): Test[] {
  const trimmed = text.trim();
  let json = trimmed;
  if (!trimmed.startsWith('[')) {
    try {
      json = decodeCompressedPickledStr(trimmed);
    } catch (err) {
      if (err instanceof PickledStrError) {
        throw new DatasetError(path, line, 'private_test_cases', `neither JSON nor base64(zlib(pickled str)): ${err.message}`);
      }
      throw err;
    }
  }
  return parseJsonField(path, line, 'private_test_cases', json, z.array(TestSchema));
}

function jsonValue(path: string, line: number, field: string, text: string): PyValue {
  try {
    return toPyValue(parsePyJson(text));
  } catch (err) {
    throw new DatasetError(path, line, field, `expected a JSON value: ${(err as Error).message}`);
  }
}

/** Read a LiveCodeBench code-generation JSONL(.gz) file. Duplicate `question_id`s are an error. */
export async function readLiveCodeBench(path: string): Promise<(IoProblem | ExpectedCallProblem)[]> {
  const out: (IoProblem | ExpectedCallProblem)[] = [];
  const seen = new Set<string>();
  for await (const { line, value: r } of readJsonl(path, LiveCodeBenchRecordSchema)) {
    if (seen.has(r.question_id)) throw new DatasetError(path, line, 'question_id', `duplicate question_id "${r.question_id}"`);
    seen.add(r.question_id);
    const named = [
      ...parseJsonField(path, line, 'public_test_cases', r.public_test_cases, z.array(TestSchema)).map((t, i) => ({ t, field: `public_test_cases[${i}]` })),
      ...privateTests(path, line, r.private_test_cases).map((t, i) => ({ t, field: `private_test_cases[${i}]` })),
    ];
    const metadata = parseJsonField(path, line, 'metadata', r.metadata, MetadataSchema);
    const common = { taskId: r.question_id, statement: r.question_content, timeLimitMs: LCB_TIME_LIMIT_MS, releaseDate: r.contest_date,
      difficulty: r.difficulty, platform: r.platform, ...(r.question_title === undefined ? {} : { title: r.question_title }) };
    if (metadata.func_name !== undefined) {
      const tests = named.map(({ t, field }) => ({
        args: t.input.split('\n').map((text, k) => jsonValue(path, line, `${field}.input (line ${k + 1})`, text)),
        expected: jsonValue(path, line, `${field}.output`, t.output),
      }));
      out.push({ kind: 'expected_call', language: 'python', prompt: r.starter_code, entryPoint: metadata.func_name, tests,
        rule: 'livecodebench', ...common });
    } else {
      out.push({ kind: 'io', language: 'python', tests: named.map(({ t }) => ({ input: t.input, output: t.output })),
        comparator: { kind: 'livecodebench' }, ...common });
    }
  }
  return out;
}

/** A release window: problems released on or after `since` and on or before `until` (`YYYY-MM-DD`, inclusive). */
export interface ReleaseWindow {
  readonly since?: string;
  readonly until?: string;
}

/**
 * Whether a problem's release date lies in the window, as LiveCodeBench's `--start_date`/`--end_date` filter
 * (`start <= contest_date <= end`, both dates at midnight). A problem without a date is outside any window that
 * has a bound. @throws RangeError for a bound that is not a date.
 */
export function withinReleaseWindow(problem: ProblemBase & { readonly releaseDate?: string }, window: ReleaseWindow): boolean {
  const bound = (s: string | undefined): number | undefined => {
    if (s === undefined) return undefined;
    const t = Date.parse(`${s}T00:00:00Z`);
    if (Number.isNaN(t)) throw new RangeError(`not a YYYY-MM-DD date: "${s}"`);
    return t;
  };
  const since = bound(window.since);
  const until = bound(window.until);
  if (since === undefined && until === undefined) return true;
  if (problem.releaseDate === undefined) return false;
  const withTime = problem.releaseDate.includes('T') ? problem.releaseDate : `${problem.releaseDate}T00:00:00`;
  const date = Date.parse(/(?:[zZ]|[+-]\d\d:\d\d)$/.test(withTime) ? withTime : `${withTime}Z`);
  return (since === undefined || since <= date) && (until === undefined || date <= until);
}
