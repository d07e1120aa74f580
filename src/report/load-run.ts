/**
 * Reads a run directory back (format: `src/store/records.ts`): `verdicts.jsonl`, every line validated
 * against the `SampleRecord` shape, and `summary.json` if present (kept as opaque JSON: its shape belongs
 * to `crucible eval`). Errors name the file and, for JSONL, the 1-based line number. `loadRunOrStored` also takes a
 * run of the result store (src/store/).
 */
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { StoreError } from '../store/errors.js';
import { openResultStore } from '../store/open.js';
import type { SampleRecord } from '../store/records.js';

export { sampleRecordSchema } from '../store/record-schema.js';
export { SAMPLE_STATUSES } from '../verdict/index.js';
import { sampleRecordSchema } from '../store/record-schema.js';

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

/**
 * A run given on the command line: a run directory when `ref` is a folder holding `verdicts.jsonl`, else a run
 * of the result store (`ref` is its id or name; `storeSpec` as `--store`). Store runs load without per-test
 * results (reports and comparisons need the sample verdicts only); `dir` is then `store:<id> (<name>)`.
 * @throws RunLoadError as `loadRun` for directories; StoreError (`run_not_found`, `store_unavailable`) for store runs.
 */
export async function loadRunOrStored(ref: string, storeSpec?: string): Promise<LoadedRun> {
  if (existsSync(join(ref, 'verdicts.jsonl')) || (existsSync(ref) && statSync(ref).isDirectory())) return loadRun(ref);
  const store = await openResultStore(storeSpec);
  try {
    const run = await store.resolveRun(ref).catch((error: unknown) => {
      if (error instanceof StoreError && error.code === 'run_not_found') {
        throw new RunLoadError('RUN_FILE_UNREADABLE', ref, `${ref} is neither a run directory nor a run of the store ${store.location}`);
      }
      throw error;
    });
    const records = await store.records(run.id, { tests: false });
    if (records.length === 0) throw new RunLoadError('RUN_EMPTY', `store:${run.id}`, `store run ${run.id} (${run.name}) holds no samples`);
    return { dir: `store:${run.id} (${run.name})`, records, summary: run.summary };
  } finally {
    await store.close();
  }
}
