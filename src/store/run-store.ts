/**
 * A run directory on disk (`crucible eval --out DIR`): append-only `verdicts.jsonl`, `run.json` (what the
 * run is: dataset hashes and options, so a resume against other data is refused), and `summary.json`.
 *
 * Durability: each record is written with one `write(2)` of a whole line as soon as its sample finishes, and
 * only then counted as done. Data handed to the kernel survives the death of the process (SIGKILL included),
 * so nothing reported as done is lost; `fdatasync` runs every second and at the end for machine crashes.
 * A resumed run ignores a torn last line (a crash mid-write) and skips every sample it already has.
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
  static open(dir: string, identity: RunIdentity): RunStore {
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
    const existing = new Map<string, SampleRecord>();
    const verdictsPath = join(dir, 'verdicts.jsonl');
    if (existsSync(verdictsPath)) {
      const text = readFileSync(verdictsPath, 'utf8');
      const lines = text.split('\n');
      const complete = text.endsWith('\n') ? lines.length - 1 : lines.length - 1; // last piece is '' or torn
      for (let i = 0; i < complete; i++) {
        const line = lines[i]!;
        if (line.trim() === '') continue;
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch {
          throw new RunStoreError(`${verdictsPath}:${i + 1}: not valid JSON`);
        }
        const record = sampleRecordSchema.safeParse(parsed);
        if (!record.success) {
          const issue = record.error.issues[0]!;
          throw new RunStoreError(`${verdictsPath}:${i + 1}: field "${issue.path.join('.')}": ${issue.message}`);
        }
        existing.set(sampleKey(record.data.taskId, record.data.sampleIndex), record.data);
      }
      if (!text.endsWith('\n') && text.length > 0) {
        // Drop the torn tail so the next append starts on a fresh line.
        writeFileSync(verdictsPath, lines.slice(0, complete).map((l) => l + '\n').join(''));
      }
    }
    return new RunStore(dir, existing);
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
