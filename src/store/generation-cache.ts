/**
 * The generation cache of the result store (`crucible generate`, `crucible eval --endpoint`): every sample a
 * model endpoint returned, under its content address (sha256 of endpoint, model, prompt hash, sampling hash,
 * sample index; `src/generate/address.ts`), written the moment its answer arrives, so a killed run resumes
 * without asking the server for anything it already answered. The prompts and sampling specs are kept once each,
 * by hash, so the store holds the whole exchange (what was asked, with which parameters, what came back).
 *
 * Three tables of their own beside the result store's tables (same file or database), made by the store's migration
 * step 4 (`db/migrations.ts`, SQL in `db/schema.ts` `GENERATION_TABLES`):
 * - `generation_prompts (prompt_hash PK, api, prompt_json)`: the prompt as sent (messages or prompt text).
 * - `generation_sampling (sampling_hash PK, sampling_json)`: sampling parameters and stop sequences.
 * - `generation_samples (cache_key PK, endpoint, model, prompt_hash, sampling_hash, sample_index, content,
 *   reasoning, finish_reason, usage_json, request_json, response_id, created_ms)`: one answer per sample;
 *   `content` NULL when the server sent none; `request_json` the sampling fields the request carried (its n,
 *   seed, stop), `usage_json` the token counts of that request (all its choices).
 * Rows are never updated: a key is written once (`ON CONFLICT DO NOTHING`). Rows put within a few milliseconds of each
 * other (`PUT_WINDOW_MS`) are committed in one transaction; a `put` resolves only once its rows are committed.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SqlDriver, SqlValue } from './db/driver.js';
import { migrateStore } from './db/migrate.js';
import { openPostgres } from './db/postgres-driver.js';
import { openSqlite } from './db/sqlite-driver.js';
import { StoreError } from './errors.js';
import { resolveStoreLocation } from './open.js';

/** One cached sample. `usage` and `request` are JSON-able values the generator defines. */
export interface GenerationRow {
  readonly key: string;
  readonly endpoint: string;
  readonly model: string;
  readonly promptHash: string;
  readonly samplingHash: string;
  readonly sampleIndex: number;
  readonly content: string | null;
  readonly reasoning: string | null;
  readonly finishReason: string | null;
  readonly usage: unknown;
  readonly request: unknown;
  readonly responseId: string | null;
  /** Epoch ms. */
  readonly createdMs: number;
}

/** A prompt, by hash. */
export interface PromptRow {
  readonly hash: string;
  readonly api: string;
  /** The prompt as sent (JSON-able). */
  readonly prompt: unknown;
}

/** A sampling spec, by hash. */
export interface SamplingRow {
  readonly hash: string;
  readonly sampling: unknown;
}

/** The cache's operations. Every method rejects with the engine's error on failure. */
export interface GenerationCache {
  /** Where it is (no password), for messages. */
  readonly location: string;
  /** The rows of the keys that are cached. */
  lookup(keys: readonly string[]): Promise<Map<string, GenerationRow>>;
  addPrompts(rows: readonly PromptRow[]): Promise<void>;
  addSampling(rows: readonly SamplingRow[]): Promise<void>;
  /** Write rows (one transaction); resolves once they are committed. */
  put(rows: readonly GenerationRow[]): Promise<void>;
  close(): Promise<void>;
}

const LOOKUP_BATCH = 500;
/**
 * Longest wait of a row for its commit, ms. A process killed within it loses answers it had received (a resume
 * asks for them again); nothing is reported done before its commit.
 */
export const PUT_WINDOW_MS = 10;
const SAMPLE_COLUMNS = ['cache_key', 'endpoint', 'model', 'prompt_hash', 'sampling_hash', 'sample_index', 'content', 'reasoning',
  'finish_reason', 'usage_json', 'request_json', 'response_id', 'created_ms'] as const;

interface SampleDb {
  key: string; endpoint: string; model: string; promptHash: string; samplingHash: string; sampleIndex: number; content: string | null;
  reasoning: string | null; finishReason: string | null; usageJson: string | null; requestJson: string; responseId: string | null; createdMs: number;
}

/** Rows waiting for the next commit, and who waits for it. */
interface PendingPut {
  readonly rows: readonly GenerationRow[];
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

class SqlGenerationCache implements GenerationCache {
  private pending: PendingPut[] = [];
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly db: SqlDriver, readonly location: string) {}

  async lookup(keys: readonly string[]): Promise<Map<string, GenerationRow>> {
    const found = new Map<string, GenerationRow>();
    for (let i = 0; i < keys.length; i += LOOKUP_BATCH) {
      const batch = keys.slice(i, i + LOOKUP_BATCH);
      const rows = await this.db.all<SampleDb>(`SELECT cache_key AS "key", endpoint AS "endpoint", model AS "model",
        prompt_hash AS "promptHash", sampling_hash AS "samplingHash", sample_index AS "sampleIndex", content AS "content",
        reasoning AS "reasoning", finish_reason AS "finishReason", usage_json AS "usageJson", request_json AS "requestJson",
        response_id AS "responseId", created_ms AS "createdMs"
        FROM generation_samples WHERE cache_key IN (${batch.map(() => '?').join(', ')})`, batch);
      for (const { usageJson, requestJson, ...row } of rows) {
        found.set(row.key, { ...row, usage: usageJson === null ? null : JSON.parse(usageJson), request: JSON.parse(requestJson) });
      }
    }
    return found;
  }

  addPrompts(rows: readonly PromptRow[]): Promise<void> {
    return this.db.insertMany('generation_prompts', ['prompt_hash', 'api', 'prompt_json'],
      rows.map((r) => [r.hash, r.api, JSON.stringify(r.prompt)]), true);
  }

  addSampling(rows: readonly SamplingRow[]): Promise<void> {
    return this.db.insertMany('generation_sampling', ['sampling_hash', 'sampling_json'], rows.map((r) => [r.hash, JSON.stringify(r.sampling)]), true);
  }

  /**
   * Rows put within `PUT_WINDOW_MS` of each other are committed together (one transaction: a commit per answer
   * costs more CPU than the answer), and each `put` resolves once its rows are committed.
   */
  put(rows: readonly GenerationRow[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.pending.length === 0) setTimeout(() => { this.flushing = this.flushing.then(() => this.flush()); }, PUT_WINDOW_MS);
      this.pending.push({ rows, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      await this.db.insertMany('generation_samples', SAMPLE_COLUMNS, batch.flatMap((p) => p.rows).map((r): SqlValue[] => [r.key, r.endpoint,
        r.model, r.promptHash, r.samplingHash, r.sampleIndex, r.content, r.reasoning, r.finishReason,
        r.usage === null || r.usage === undefined ? null : JSON.stringify(r.usage), JSON.stringify(r.request), r.responseId, r.createdMs]), true);
      for (const p of batch) p.resolve();
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }

  async close(): Promise<void> {
    await this.flushing;
    await this.db.close();
  }
}

/**
 * Open the generation cache in the store named by `spec` (same syntax and defaults as `--store`, `open.ts`),
 * migrating the store to this code's schema if needed (which creates the cache's tables).
 * @throws StoreError `store_unavailable` naming the location and the cause; the migration's errors
 * (`store_schema_newer`, `store_migration_failed`) as `migrateStore` throws them.
 */
export async function openGenerationCache(spec?: string, env: NodeJS.ProcessEnv = process.env): Promise<GenerationCache> {
  const location = resolveStoreLocation(spec, env);
  let driver: SqlDriver | undefined;
  try {
    if (location.backend === 'postgres') {
      driver = await openPostgres(location.target);
    } else {
      if (location.target !== ':memory:') mkdirSync(dirname(location.target), { recursive: true });
      driver = openSqlite(location.target);
    }
    await migrateStore(driver, location.display);
  } catch (error) {
    await driver?.close().catch(() => undefined);
    throw new StoreError('store_unavailable', `cannot open the generation cache in ${location.display}: ${(error as Error).message}`);
  }
  return new SqlGenerationCache(driver, location.display);
}

/** A cache in memory only (`--no-store`): nothing survives the process. */
export function memoryGenerationCache(): GenerationCache {
  const rows = new Map<string, GenerationRow>();
  return {
    location: 'memory',
    lookup: async (keys) => new Map(keys.flatMap((k) => (rows.has(k) ? [[k, rows.get(k)!] as const] : []))),
    addPrompts: async () => undefined,
    addSampling: async () => undefined,
    put: async (batch) => { for (const r of batch) if (!rows.has(r.key)) rows.set(r.key, r); },
    close: async () => undefined,
  };
}
