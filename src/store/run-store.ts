/**
 * A run directory on disk (`crucible eval --out DIR`): append-only `verdicts.jsonl`, `run.json` (what the
 * run is: dataset hashes and options, so a resume against other data is refused), and `summary.json`.
 *
 * Durability: each record is written with one `write(2)` of a whole line as soon as its sample finishes, and
 * only then counted as done. Data handed to the kernel survives the death of the process (SIGKILL included),
 * so nothing reported as done is lost; `fdatasync` runs every second and at the end for machine crashes.
 * A resumed run ignores a torn last line (a crash mid-write) and skips every sample it already has, except those
 * the caller wants judged again (`rejudge`, e.g. Crucible's own failures): their lines are removed from
 * `verdicts.jsonl` (the file is rewritten whole, then renamed into place) so each sample keeps one line.
 */
import { closeSync, existsSync, fdatasyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { sampleRecordSchema } from './record-schema.js';
import type { SampleRecord } from './records.js';

/** Identity of a run: a resume must match it exactly. */
export interface RunIdentity {
  readonly problemsHash: string;
  readonly samplesHash: string;
  readonly options: Readonly<Record<string, unknown>>;
  /** Model, tags and generation settings (`run-labels.ts`); describe the run, never part of its identity. */
  readonly labels?: Readonly<Record<string, unknown>>;
}

/** Thrown when a run directory cannot be used (unreadable, malformed line, other data). Names file and line. */
export class RunStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunStoreError';
  }
}

/** Key of a sample within a run. */
export function sampleKey(taskId: string, sampleIndex: number): string {
  return `${taskId}\0${sampleIndex}`;
}

/** How to open a run directory. */
export interface RunStoreOptions {
  /** Records to judge again on resume: they are dropped from the directory (default: none). */
  readonly rejudge?: (record: SampleRecord) => boolean;
}

/** An open run directory. */
export class RunStore {
  private fd: number;
  private lastSync = Date.now();

  private constructor(readonly dir: string, readonly existing: ReadonlyMap<string, SampleRecord>) {
    this.fd = openSync(join(dir, 'verdicts.jsonl'), 'a');
  }

  /**
   * Open (or create) a run directory for `identity`. Existing records are loaded for resumption.
   * @throws RunStoreError when the directory belongs to another dataset/options or holds a malformed line.
   */
  static open(dir: string, identity: RunIdentity, options: RunStoreOptions = {}): RunStore {
    mkdirSync(dir, { recursive: true });
    const identityPath = join(dir, 'run.json');
    if (existsSync(identityPath)) {
      const previous = JSON.parse(readFileSync(identityPath, 'utf8')) as RunIdentity;
      for (const field of ['problemsHash', 'samplesHash'] as const) {
        if (previous[field] !== identity[field]) {
          throw new RunStoreError(`${identityPath}: field "${field}" differs from this run's (${previous[field]} vs ${identity[field]}): use another --out`);
        }
      }
      if (JSON.stringify(previous.options) !== JSON.stringify(identity.options)) {
        throw new RunStoreError(`${identityPath}: field "options" differs from this run's (${JSON.stringify(previous.options)}): use another --out`);
      }
    } else {
      writeFileSync(identityPath, JSON.stringify(identity, null, 2) + '\n');
    }
    return new RunStore(dir, RunStore.load(join(dir, 'verdicts.jsonl'), options.rejudge ?? (() => false)));
  }

  /**
   * The records of an existing `verdicts.jsonl` (later lines win), less those to judge again; rewrites the file
   * when it has a torn last line or records to drop.
   * @throws RunStoreError naming file and line for a malformed line.
   */
  private static load(verdictsPath: string, rejudge: (record: SampleRecord) => boolean): Map<string, SampleRecord> {
    const existing = new Map<string, SampleRecord>();
    if (!existsSync(verdictsPath)) return existing;
    const text = readFileSync(verdictsPath, 'utf8');
    const lines = text.split('\n');
    const complete = lines.length - 1; // the last piece is '' or a torn line
    const kept: string[] = [];
    for (let i = 0; i < complete; i++) {
      const line = lines[i]!;
      if (line.trim() === '') continue;
      const record = RunStore.parseLine(line, `${verdictsPath}:${i + 1}`);
      const key = sampleKey(record.taskId, record.sampleIndex);
      if (rejudge(record)) existing.delete(key);
      else {
        existing.set(key, record);
        kept.push(line);
      }
    }
    const dropped = kept.length < lines.slice(0, complete).filter((l) => l.trim() !== '').length;
    if (dropped || (!text.endsWith('\n') && text.length > 0)) {
      // Rewrite whole and rename: dropped records (and a torn tail) vanish, and a crash leaves either file intact.
      const tmp = `${verdictsPath}.tmp`;
      writeFileSync(tmp, kept.map((l) => l + '\n').join(''));
      renameSync(tmp, verdictsPath);
    }
    return existing;
  }

  private static parseLine(line: string, where: string): SampleRecord {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new RunStoreError(`${where}: not valid JSON`);
    }
    const record = sampleRecordSchema.safeParse(parsed);
    if (!record.success) {
      const issue = record.error.issues[0]!;
      throw new RunStoreError(`${where}: field "${issue.path.join('.')}": ${issue.message}`);
    }
    return record.data;
  }

  /** Append one finished sample (one write of one line). */
  append(record: SampleRecord): void {
    writeSync(this.fd, JSON.stringify(record) + '\n');
    if (Date.now() - this.lastSync > 1000) {
      fdatasyncSync(this.fd);
      this.lastSync = Date.now();
    }
  }

  /** Atomically replace `summary.json`. */
  writeSummary(summary: unknown): void {
    const tmp = join(this.dir, 'summary.json.tmp');
    writeFileSync(tmp, JSON.stringify(summary, null, 2) + '\n');
    renameSync(tmp, join(this.dir, 'summary.json'));
  }

  /** Flush and close. */
  close(): void {
    fdatasyncSync(this.fd);
    closeSync(this.fd);
  }
}
