/**
 * Ground truth on disk: references a judging mode computes once per problem (EvalPlus expected outputs from the
 * canonical solution), kept across runs under the dataset hash, as EvalPlus keeps its ground truth
 * (`evalplus/evaluate.py`, `get_groundtruth`: a pickle per dataset hash under `~/.cache/evalplus`). A second
 * eval of the same problems file, with any samples, then runs no canonical solution.
 *
 * Layout: `<dir>/ground-truth/<kind>/<datasetHash>/<sha256(taskId)[0:32]>.json` holding
 * `{format, kind, version, taskId, fingerprint, value}`. An entry is used only when every field matches what the
 * mode expects now (same version, same fingerprint of what the reference depends on) and its value passes the
 * mode's schema; anything else (missing, unreadable, corrupt, stale) is ignored and recomputed. Writes go to a
 * temporary file renamed into place, so a reader never sees half an entry; a failed write is ignored (the
 * cache is an optimisation, never a source of verdicts it has not checked).
 * Only problems of a dataset (a `datasetHash`) are cached on disk; inline problems live in memory only.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';

/** Version of the entry layout (not of a mode's reference, which has its own). */
const FORMAT = 1;

/** Where one reference lives and what it must match. */
export interface GroundTruthKey {
  readonly kind: string;
  readonly datasetHash: string;
  readonly taskId: string;
  readonly version: number;
  readonly fingerprint: string;
}

/** A directory of cached references (see the module comment). */
export class GroundTruthCache {
  constructor(readonly dir: string) {}

  private path(key: GroundTruthKey): string {
    const file = createHash('sha256').update(key.taskId).digest('hex').slice(0, 32);
    return join(this.dir, 'ground-truth', safeName(key.kind), safeName(key.datasetHash), `${file}.json`);
  }

  /** The cached reference for `key` if it is there, matches, and passes `schema`; else undefined. Never throws. */
  load<R>(key: GroundTruthKey, schema: z.ZodType<R, z.ZodTypeDef, unknown>): R | undefined {
    let entry: unknown;
    try {
      entry = JSON.parse(readFileSync(this.path(key), 'utf8'));
    } catch {
      return undefined;
    }
    if (typeof entry !== 'object' || entry === null) return undefined;
    const e = entry as Record<string, unknown>;
    if (e.format !== FORMAT || e.kind !== key.kind || e.version !== key.version || e.taskId !== key.taskId
      || e.fingerprint !== key.fingerprint) return undefined;
    const value = schema.safeParse(e.value);
    return value.success ? value.data : undefined;
  }

  /** Store a reference (atomically); failures to write are ignored. */
  save(key: GroundTruthKey, value: unknown): void {
    const path = this.path(key);
    const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(tmp, JSON.stringify({ format: FORMAT, kind: key.kind, version: key.version, taskId: key.taskId,
        fingerprint: key.fingerprint, value }));
      renameSync(tmp, path);
    } catch {
      try {
        rmSync(tmp, { force: true });
      } catch {
        // nothing more to do: the entry is simply not cached
      }
    }
  }
}

/** A path component from an id: hex and simple names pass, anything else is hashed. */
function safeName(text: string): string {
  return /^[A-Za-z0-9_-]{1,128}$/.test(text) ? text : createHash('sha256').update(text).digest('hex');
}
