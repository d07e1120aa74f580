/**
 * Reads a run directory back (format: `src/store/records.ts`): `verdicts.jsonl`, every line validated
 * against the `SampleRecord` shape, and `summary.json` if present (kept as opaque JSON: its shape belongs
 * to `crucible eval`). Errors name the file and, for JSONL, the 1-based line number.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { EXECUTION_STATUSES } from '../sandbox/types.js';
import type { SampleRecord, SampleStatus } from '../store/records.js';

/** Every `SampleStatus`, in a stable order for counts and reports. */
export const SAMPLE_STATUSES: readonly SampleStatus[] = [
  'passed',
  'wrong_answer',
  'no_tests',
  'no_code',
  ...EXECUTION_STATUSES.filter((s): s is Exclude<typeof s, 'ok'> => s !== 'ok'),
];

const statusSet = new Set<string>(SAMPLE_STATUSES);
const statusSchema = z.custom<SampleStatus>((v) => typeof v === 'string' && statusSet.has(v), {
  message: `status must be one of ${SAMPLE_STATUSES.join(', ')}`,
});
const nonNegative = z.number().finite().nonnegative();

const testResultSchema = z.object({
  index: z.number().int().nonnegative(),
  status: statusSchema,
  cpuMs: nonNegative.optional(),
  wallMs: nonNegative.optional(),
  reason: z.string().optional(),
});

/** Schema of one `verdicts.jsonl` line (unknown extra keys are dropped). */
export const sampleRecordSchema: z.ZodType<SampleRecord, z.ZodTypeDef, unknown> = z.object({
  taskId: z.string().min(1),
  sampleIndex: z.number().int().nonnegative(),
  programHash: z.string(),
  status: statusSchema,
  passed: z.boolean(),
  plusStatus: statusSchema.optional(),
  plusPassed: z.boolean().optional(),
  tests: z.array(testResultSchema),
  cpuMs: nonNegative,
  wallMs: nonNegative,
  reason: z.string().optional(),
});

export type RunLoadErrorCode = 'RUN_FILE_UNREADABLE' | 'RUN_MALFORMED_LINE' | 'RUN_MALFORMED_SUMMARY' | 'RUN_EMPTY';

/** A run directory that cannot be read. `line` is 1-based and set for `RUN_MALFORMED_LINE`. */
export class RunLoadError extends Error {
  constructor(
    readonly code: RunLoadErrorCode,
    readonly file: string,
    message: string,
    readonly line?: number,
  ) {
    super(message);
    this.name = 'RunLoadError';
  }
}

export interface LoadedRun {
  readonly dir: string;
  readonly records: readonly SampleRecord[];
  /** Parsed `summary.json`, or undefined when the file does not exist (e.g. an interrupted run). */
  readonly summary: unknown;
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new RunLoadError('RUN_FILE_UNREADABLE', file, `cannot read ${file}: ${(error as Error).message}`);
  }
}

/**
 * Parses the text of a `verdicts.jsonl` file; blank lines are skipped.
 * @throws RunLoadError `RUN_MALFORMED_LINE` naming `file` and the line number of the first bad line.
 */
export function parseVerdictLines(text: string, file: string): SampleRecord[] {
  const records: SampleRecord[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new RunLoadError('RUN_MALFORMED_LINE', file, `${file}:${i + 1}: not valid JSON (${(error as Error).message})`, i + 1);
    }
    const parsed = sampleRecordSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
      throw new RunLoadError('RUN_MALFORMED_LINE', file, `${file}:${i + 1}: not a sample record${where}: ${issue?.message ?? 'invalid'}`, i + 1);
    }
    records.push(parsed.data);
  });
  return records;
}

/**
 * Loads `DIR/verdicts.jsonl` (required, at least one record) and `DIR/summary.json` (optional).
 * @throws RunLoadError with a stable `code`: unreadable or missing verdicts, malformed line, malformed
 * summary, or no records.
 */
export async function loadRun(dir: string): Promise<LoadedRun> {
  const verdictsFile = join(dir, 'verdicts.jsonl');
  const text = await readText(verdictsFile);
  if (text === undefined) throw new RunLoadError('RUN_FILE_UNREADABLE', verdictsFile, `${verdictsFile} does not exist: is ${dir} a run directory?`);
  const records = parseVerdictLines(text, verdictsFile);
  if (records.length === 0) throw new RunLoadError('RUN_EMPTY', verdictsFile, `${verdictsFile} holds no sample records`);

  const summaryFile = join(dir, 'summary.json');
  const summaryText = await readText(summaryFile);
  let summary: unknown;
  if (summaryText !== undefined) {
    try {
      summary = JSON.parse(summaryText);
    } catch (error) {
      throw new RunLoadError('RUN_MALFORMED_SUMMARY', summaryFile, `${summaryFile}: not valid JSON (${(error as Error).message})`);
    }
  }
  return { dir, records, summary };
}
