/**
 * Crucible-native stdin/stdout problems -> `IoProblem` (any language). Documented with a full example in
 * `docs/FORMATS.md`.
 *
 * Files: a `.json` document `{"problems": [ ... ]}`, or JSONL with one problem object per line (either may be
 * gzipped; gzip is detected by magic bytes). Field names are the `IoProblem` names (camelCase), units in the
 * name: `timeLimitMs` is CPU time per test in milliseconds, `memoryLimitKiB` is KiB. Unknown fields are an
 * error (a misspelt limit must not be silently ignored).
 * Defaults: `comparator` = `{"kind": "tokens"}`; `tokens.caseInsensitive` = false; `float_tokens.absTol` =
 * `relTol` = 1e-6 when omitted; no per-problem limits (the run's limits apply); `language` = the reference
 * solution's language when one is given.
 * Errors: `DatasetError` with file, line (JSONL only) and field path (`problems[3].tests[0].output`).
 */
import { z } from 'zod';
import { DatasetError, datasetErrorFromZod } from './errors.js';
import { readDecompressedText, readJsonl } from './jsonl.js';
import type { Comparator, IoProblem } from './types.js';

export const ComparatorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('exact') }).strict(),
  z.object({ kind: z.literal('tokens'), caseInsensitive: z.boolean().default(false) }).strict(),
  z
    .object({
      kind: z.literal('float_tokens'),
      absTol: z.number().nonnegative().default(1e-6),
      relTol: z.number().nonnegative().default(1e-6),
      caseInsensitive: z.boolean().default(false),
    })
    .strict(),
  z.object({ kind: z.literal('livecodebench') }).strict(),
  z.object({ kind: z.literal('apps') }).strict(),
  z.object({ kind: z.literal('codecontests') }).strict(),
]);

export const IoTestCaseSchema = z.object({ input: z.string(), output: z.string() }).strict();

export const CrucibleProblemSchema = z
  .object({
    taskId: z.string().min(1).describe('Unique id of the problem within the file.'),
    statement: z.string().optional().describe('Problem text shown to the model (not used for judging).'),
    language: z.string().min(1).optional().describe('Language of the reference solution; samples carry their own.'),
    tests: z.array(IoTestCaseSchema).min(1).describe('stdin given to the program, stdout expected from it.'),
    comparator: ComparatorSchema.default({ kind: 'tokens' }).describe('How stdout is compared to `output`.'),
    timeLimitMs: z.number().int().positive().optional().describe('CPU time limit per test, milliseconds.'),
    memoryLimitKiB: z.number().int().positive().optional().describe('Memory limit, KiB.'),
    referenceSolution: z
      .object({ language: z.string().min(1), code: z.string() })
      .strict()
      .optional()
      .describe('A known-correct program, used to validate the tests and scale time limits.'),
  })
  .strict();

export type CrucibleProblemInput = z.input<typeof CrucibleProblemSchema>;

const CrucibleDocumentSchema = z.object({ problems: z.array(CrucibleProblemSchema) }).strict();

function toIoProblem(p: z.output<typeof CrucibleProblemSchema>): IoProblem {
  const language = p.language ?? p.referenceSolution?.language;
  return {
    kind: 'io',
    taskId: p.taskId,
    ...(language === undefined ? {} : { language }),
    ...(p.statement === undefined ? {} : { statement: p.statement }),
    tests: p.tests,
    comparator: p.comparator as Comparator,
    ...(p.timeLimitMs === undefined ? {} : { timeLimitMs: p.timeLimitMs }),
    ...(p.memoryLimitKiB === undefined ? {} : { memoryLimitKiB: p.memoryLimitKiB }),
    ...(p.referenceSolution === undefined ? {} : { referenceSolution: p.referenceSolution }),
  };
}

/** First non-whitespace character of a string, or undefined. */
function firstNonSpace(text: string): string | undefined {
  const m = /\S/.exec(text);
  return m?.[0];
}

/**
 * Read Crucible-native problems. A file whose content is one JSON document with a `problems` array is read as
 * a document; otherwise as JSONL. Duplicate `taskId`s are an error.
 */
export async function readCrucibleProblems(path: string): Promise<IoProblem[]> {
  const text = await readDecompressedText(path);
  let doc: unknown;
  let isDocument = false;
  if (firstNonSpace(text) === '{') {
    try {
      doc = JSON.parse(text);
      isDocument = typeof doc === 'object' && doc !== null && 'problems' in doc;
    } catch {
      isDocument = false; // several lines: JSONL
    }
  }
  const out: IoProblem[] = [];
  const seen = new Set<string>();
  const add = (p: IoProblem, line: number | undefined, field: string): void => {
    if (seen.has(p.taskId)) throw new DatasetError(path, line, field, `duplicate taskId "${p.taskId}"`);
    seen.add(p.taskId);
    out.push(p);
  };
  if (isDocument) {
    const parsed = CrucibleDocumentSchema.safeParse(doc);
    if (!parsed.success) throw datasetErrorFromZod(path, undefined, parsed.error);
    parsed.data.problems.forEach((p, k) => add(toIoProblem(p), undefined, `problems[${k}].taskId`));
    return out;
  }
  for await (const { line, value } of readJsonl(path, CrucibleProblemSchema)) add(toIoProblem(value), line, 'taskId');
  return out;
}
