/**
 * Run directories in and out of the store: `crucible store import DIR` and `crucible export RUN [--out DIR]`.
 * The layout is the one `crucible eval --out` writes (`records.ts`, `run-store.ts`): `run.json` (identity:
 * dataset hashes and options), `verdicts.jsonl` (one `SampleRecord` a line), `summary.json` (optional).
 *
 * Import streams `verdicts.jsonl` twice (a HumanEval+ run's file is near a gigabyte, more than one string can
 * hold): the first pass validates every line and finds the last line of each (task, sample) — a resumed run may
 * have appended one twice, and the later wins as everywhere else — the second stores those lines in batches.
 * A run directory holds no program text, so imported samples have none.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { analyseRun } from './analysis.js';
import { StoreError } from './errors.js';
import { sampleRecordSchema } from './record-schema.js';
import type { SampleRecord } from './records.js';
import type { KeepTests, ResultStore, RunRow } from './result-store.js';
import { labelsFromRunJson, mergeLabels } from './run-labels.js';

/** Records stored per transaction on import. */
const IMPORT_BATCH = 1000;

/** Options of `importRunDirectory`. */
export interface ImportOptions {
  /** Run name (default: the directory's name). */
  readonly name?: string;
  readonly keepTests?: KeepTests;
  /** Model label and tags (over `run.json`'s `labels`). */
  readonly model?: string;
  readonly tags?: readonly string[];
  /** Import even when the store holds this run already (default: refused with `duplicate_import`). */
  readonly allowDuplicate?: boolean;
}

/** sha256 of a file, streamed (a HumanEval+ `verdicts.jsonl` is near a gigabyte). */
async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Refuse a run directory the store holds already: an import of the same `verdicts.jsonl` (by content), or the run
 * the eval that wrote the directory stored (`provenance.runDir`).
 * @throws StoreError `duplicate_import` naming the runs.
 */
async function refuseDuplicate(store: ResultStore, dir: string, contentHash: string): Promise<void> {
  const found = await store.findDuplicates({ contentHash, runDir: dir });
  if (found.length === 0) return;
  const names = found.map((r) => `run ${r.id} (${r.name}, ${r.doneSamples} samples)`).join(', ');
  throw new StoreError('duplicate_import', `${dir} is in ${store.location} already as ${names}: ` +
    'crucible store delete RUN first, or --allow-duplicate to import it again');
}

/** What an import stored. */
export interface ImportResult {
  readonly runId: number;
  readonly samples: number;
  /** Lines superseded by a later line for the same sample. */
  readonly superseded: number;
}

function readJsonFile(path: string): unknown {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new StoreError('import_failed', `${path}: not valid JSON (${(error as Error).message})`);
  }
}

/** Validated records of `path` with their 1-based line numbers; with `dropLast` the last line is skipped. */
async function* verdictLines(path: string, dropLast: boolean): AsyncGenerator<{ line: number; record: SampleRecord }> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let n = 0;
  let held: string | undefined;
  const parse = (text: string, line: number): SampleRecord | undefined => {
    if (text.trim() === '') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new StoreError('import_failed', `${path}:${line}: not valid JSON`);
    }
    const parsed = sampleRecordSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new StoreError('import_failed', `${path}:${line}: field "${issue.path.join('.')}": ${issue.message}`);
    }
    return parsed.data;
  };
  for await (const text of lines) {
    n++;
    // One line of look-ahead, so a torn last line is never parsed.
    if (held !== undefined) {
      const record = parse(held, n - 1);
      if (record !== undefined) yield { line: n - 1, record };
    }
    held = text;
  }
  if (held !== undefined && !dropLast) {
    const record = parse(held, n);
    if (record !== undefined) yield { line: n, record };
  }
}

/** The last line of a file does not end with a newline: a torn write of a killed run (dropped, as a resume does). */
async function tornTail(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    await handle.close();
  }
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Import the run directory `dir` as a new run (status `finished` when it has `summary.json`, else
 * `interrupted`) and compute its analysis.
 * @throws StoreError `import_failed` naming the file and line of the first problem; the run is not kept then.
 */
export async function importRunDirectory(store: ResultStore, dir: string, options: ImportOptions = {}): Promise<ImportResult> {
  const absolute = resolve(dir);
  const verdicts = join(absolute, 'verdicts.jsonl');
  if (!existsSync(verdicts)) throw new StoreError('import_failed', `${verdicts} does not exist: is ${absolute} a run directory?`);
  const identity = readJsonFile(join(absolute, 'run.json')) as { problemsHash?: unknown; samplesHash?: unknown; options?: unknown } | undefined;
  const summary = readJsonFile(join(absolute, 'summary.json')) as Record<string, unknown> | undefined;
  const dropLast = await tornTail(verdicts);
  const contentHash = await fileSha256(verdicts);
  if (options.allowDuplicate !== true) await refuseDuplicate(store, absolute, contentHash);
  const labels = mergeLabels(labelsFromRunJson(identity), {
    ...(options.model === undefined ? {} : { model: options.model }), ...(options.tags === undefined ? {} : { tags: options.tags }) });

  // Pass 1: validate, find each sample's last line, and what the problems look like.
  const lastLine = new Map<string, number>();
  const tests = new Map<string, number>();
  for await (const { line, record } of verdictLines(verdicts, dropLast)) {
    lastLine.set(`${record.taskId}\0${record.sampleIndex}`, line);
    tests.set(record.taskId, Math.max(tests.get(record.taskId) ?? 0, record.tests.length));
  }
  if (lastLine.size === 0) throw new StoreError('import_failed', `${verdicts} holds no sample records`);

  const problemsFile = str(summary?.['problemsFile']);
  const samplesFile = str(summary?.['samplesFile']);
  const { problemsFile: _p, samplesFile: _s, format: _f, crucibleVersion: _v, ...rest } = summary ?? {};
  const runId = await store.createRun({
    name: options.name ?? basename(absolute),
    model: labels.model ?? (samplesFile === undefined ? 'unknown' : basename(samplesFile)),
    tags: labels.tags ?? [], ...(labels.generation === undefined ? {} : { generation: labels.generation }), contentHash,
    dataset: problemsFile === undefined ? 'unknown' : basename(problemsFile),
    ...(problemsFile === undefined ? {} : { problemsFile }),
    ...(samplesFile === undefined ? {} : { samplesFile }),
    ...(str(summary?.['format']) === undefined ? {} : { format: str(summary?.['format'])! }),
    problemsHash: str(identity?.problemsHash) ?? str(summary?.['datasetHash']) ?? 'unknown',
    samplesHash: str(identity?.samplesHash) ?? str(summary?.['samplesHash']) ?? 'unknown',
    crucibleVersion: str(summary?.['crucibleVersion']) ?? 'unknown',
    options: (identity?.options as Record<string, unknown> | undefined) ?? {},
    provenance: { importedFrom: absolute, importedMs: Date.now(), ...(summary === undefined ? {} : { toolchains: rest['toolchains'], limits: rest['limits'], ...(rest['code'] === undefined ? {} : { code: rest['code'] }) }) },
    keepTests: options.keepTests ?? 'failing',
    totalSamples: typeof summary?.['samples'] === 'number' ? summary['samples'] : lastLine.size,
    status: 'running',
  });
  try {
    await store.addProblems(runId, [...tests].map(([taskId, testCount]) => ({ taskId, kind: 'unknown', testCount })));
    let batch: SampleRecord[] = [];
    let lines = 0;
    for await (const { line, record } of verdictLines(verdicts, dropLast)) {
      lines++;
      if (lastLine.get(`${record.taskId}\0${record.sampleIndex}`) !== line) continue;
      batch.push(record);
      if (batch.length >= IMPORT_BATCH) {
        await store.appendSamples(runId, batch.map((r) => ({ record: r })));
        batch = [];
      }
    }
    await store.appendSamples(runId, batch.map((r) => ({ record: r })));
    await store.finishRun(runId, summary === undefined ? 'interrupted' : 'finished', summary);
    const run = await store.getRun(runId);
    await analyseRun(store, run!, await store.problemCounts(runId));
    return { runId, samples: lastLine.size, superseded: lines - lastLine.size };
  } catch (error) {
    await store.deleteRun(runId).catch(() => undefined);
    throw error;
  }
}

/**
 * Write run `run` as a run directory at `dir` (created; refused when it already holds `verdicts.jsonl`):
 * `run.json`, `verdicts.jsonl` (see `compact.ts` for what the records keep), and `summary.json` when the run
 * has one. Files are written under a temporary name and renamed, so a reader never sees half a file.
 * @throws StoreError `export_failed` when `dir` already holds a run; the file system's error.
 */
export async function exportRunDirectory(store: ResultStore, run: RunRow, dir: string): Promise<{ samples: number }> {
  const absolute = resolve(dir);
  if (existsSync(join(absolute, 'verdicts.jsonl'))) {
    throw new StoreError('export_failed', `${absolute} already holds a run (verdicts.jsonl): choose another --out`);
  }
  mkdirSync(absolute, { recursive: true });
  const write = (name: string, text: string): void => {
    writeFileSync(join(absolute, `${name}.tmp`), text);
    renameSync(join(absolute, `${name}.tmp`), join(absolute, name));
  };
  const labels = { model: run.model, tags: run.tags, ...(run.generation === null ? {} : { generation: run.generation }) };
  write('run.json', JSON.stringify({ problemsHash: run.problemsHash, samplesHash: run.samplesHash, options: run.options, labels }, null, 2) + '\n');
  const handle = await open(join(absolute, 'verdicts.jsonl.tmp'), 'w');
  let samples = 0;
  try {
    for (const taskId of await store.taskIds(run.id)) {
      const records = await store.records(run.id, { taskId });
      samples += records.length;
      if (records.length > 0) await handle.write(records.map((r) => JSON.stringify(r) + '\n').join(''));
    }
  } finally {
    await handle.close();
  }
  renameSync(join(absolute, 'verdicts.jsonl.tmp'), join(absolute, 'verdicts.jsonl'));
  if (run.summary !== undefined) write('summary.json', JSON.stringify(run.summary, null, 2) + '\n');
  return { samples };
}
