/**
 * The SQL text of the result store's first tables, one text for both engines, for the migration steps
 * (`migrations.ts`) that create them. FROZEN: these are the tables as schema version 1 created them, and a
 * store written then must migrate to the same shape as a new one; a change to the tables is a new migration
 * step, never an edit here (docs/STORE.md, "How to add a store column").
 *
 * Placeholders, replaced by `forDialect`: `{ID}` becomes SQLite's `INTEGER PRIMARY KEY` or PostgreSQL's identity
 * column, `{BLOB}` BLOB or BYTEA, `{COMPACT}` SQLite's `WITHOUT ROWID` (tables of small rows keyed by their
 * primary key, no hidden rowid index; the tables that hold compressed blobs, `{BLOBS}`, stay rowid tables, where
 * SQLite stores large values without waste). Booleans are SMALLINT 0/1; times are epoch milliseconds (BIGINT) or
 * durations in ms (DOUBLE PRECISION); memory in KiB. docs/STORE.md describes every column.
 *
 * Compactness (the store keeps ≤ 10% of a run directory's `verdicts.jsonl`): tasks and programs are numbered
 * per run and samples refer to them by number; a program that is its problem's prompt followed by the
 * completion stores the completion only; a passing test is a count and a run of indices (`passed_ranges`,
 * e.g. `0-749`) unless the run keeps every test; the failing tests of a sample (index, status, times, reason)
 * are one compressed value (`samples.tests`, `blob.ts`), and what each printed or returned and its stderr one
 * per program (`programs.detail`: identical programs are judged once); the inputs and expected outputs of a
 * problem's tests are one compressed value per dataset and problem (`test_cases`, keyed by the problems file's
 * hash), stored when a sample first fails one of them. Who judged a sample judged by a worker of a queue's
 * fleet (`SampleRecord.judgedBy`) is a number per sample (`sample_judges`) into the run's few distinct
 * worker-and-toolchain rows (`judges`).
 */
import type { SqlDialect } from './driver.js';

/** The bookkeeping table of the migrations (`migrate.ts`): `schema_version` and one row per applied step. */
export const META_TABLE = `CREATE TABLE IF NOT EXISTS crucible_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
)`;

/** Runs, problems, programs, samples, test cases and training events: schema version 1. */
export const VERSION_1_TABLES = `
CREATE TABLE IF NOT EXISTS runs (
  id {ID},
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  updated_ms BIGINT NOT NULL,
  finished_ms BIGINT,
  model TEXT NOT NULL,
  dataset TEXT NOT NULL,
  problems_file TEXT,
  samples_file TEXT,
  format TEXT,
  problems_hash TEXT NOT NULL,
  samples_hash TEXT NOT NULL,
  crucible_version TEXT NOT NULL,
  options_json TEXT NOT NULL,
  provenance_json TEXT NOT NULL,
  keep_tests TEXT NOT NULL,
  total_samples INTEGER NOT NULL,
  done_samples INTEGER NOT NULL DEFAULT 0,
  passed_samples INTEGER NOT NULL DEFAULT 0,
  progress_json TEXT,
  summary_json TEXT,
  analysis_json TEXT,
  analysis_done INTEGER
);
CREATE INDEX IF NOT EXISTS runs_updated ON runs (updated_ms);
CREATE TABLE IF NOT EXISTS problems (
  run_id BIGINT NOT NULL,
  problem_id INTEGER NOT NULL,
  task_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  prompt TEXT,
  test_count INTEGER NOT NULL,
  PRIMARY KEY (run_id, problem_id),
  UNIQUE (run_id, task_id)
){COMPACT};
CREATE TABLE IF NOT EXISTS programs (
  run_id BIGINT NOT NULL,
  program_id INTEGER NOT NULL,
  hash TEXT NOT NULL,
  language TEXT,
  completion TEXT,
  source TEXT,
  extraction_json TEXT,
  memory_kib INTEGER,
  stderr TEXT,
  detail {BLOB},
  PRIMARY KEY (run_id, program_id),
  UNIQUE (run_id, hash)
){BLOBS};
CREATE TABLE IF NOT EXISTS samples (
  run_id BIGINT NOT NULL,
  problem_id INTEGER NOT NULL,
  sample_index INTEGER NOT NULL,
  program_id INTEGER NOT NULL,
  status TEXT NOT NULL,
  passed SMALLINT NOT NULL,
  plus_status TEXT,
  plus_passed SMALLINT,
  cpu_ms DOUBLE PRECISION NOT NULL,
  wall_ms DOUBLE PRECISION NOT NULL,
  reason TEXT,
  tests_run INTEGER NOT NULL,
  tests_passed INTEGER NOT NULL,
  passed_ranges TEXT NOT NULL,
  tests {BLOB},
  PRIMARY KEY (run_id, problem_id, sample_index)
){BLOBS};
CREATE TABLE IF NOT EXISTS test_cases (
  problems_hash TEXT NOT NULL,
  task_id TEXT NOT NULL,
  cases {BLOB} NOT NULL,
  PRIMARY KEY (problems_hash, task_id)
){BLOBS};
CREATE TABLE IF NOT EXISTS training_runs (
  id {ID},
  name TEXT NOT NULL UNIQUE,
  created_ms BIGINT NOT NULL,
  updated_ms BIGINT NOT NULL,
  events INTEGER NOT NULL DEFAULT 0,
  config_json TEXT
);
CREATE TABLE IF NOT EXISTS training_events (
  training_run_id BIGINT NOT NULL,
  seq BIGINT NOT NULL,
  time_ms BIGINT NOT NULL,
  step INTEGER,
  task_id TEXT NOT NULL,
  group_id TEXT,
  reward DOUBLE PRECISION NOT NULL,
  status TEXT NOT NULL,
  passed SMALLINT NOT NULL,
  cpu_ms DOUBLE PRECISION,
  wall_ms DOUBLE PRECISION,
  PRIMARY KEY (training_run_id, seq)
){COMPACT};
CREATE INDEX IF NOT EXISTS training_events_step ON training_events (training_run_id, step);
CREATE INDEX IF NOT EXISTS training_events_time ON training_events (training_run_id, time_ms);
`;

/**
 * Who judged a sample of a queue run. Version-1 stores gained these tables with `IF NOT EXISTS` before there
 * were migrations, so some version-1 stores have them and some do not: the step keeps `IF NOT EXISTS`.
 */
export const JUDGES_TABLES = `
CREATE TABLE IF NOT EXISTS judges (
  run_id BIGINT NOT NULL,
  judge_id INTEGER NOT NULL,
  worker TEXT NOT NULL,
  crucible_version TEXT NOT NULL,
  toolchain TEXT,
  PRIMARY KEY (run_id, judge_id)
){COMPACT};
CREATE TABLE IF NOT EXISTS sample_judges (
  run_id BIGINT NOT NULL,
  problem_id INTEGER NOT NULL,
  sample_index INTEGER NOT NULL,
  judge_id INTEGER NOT NULL,
  PRIMARY KEY (run_id, problem_id, sample_index)
){COMPACT};
`;

/** `sql` with its type placeholders (see the module comment) written for `dialect`. */
export function forDialect(sql: string, dialect: SqlDialect): string {
  const id = dialect === 'sqlite' ? 'INTEGER PRIMARY KEY' : 'BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY';
  return sql.replace(/\{ID\}/g, id).replace(/\{BLOB\}/g, dialect === 'sqlite' ? 'BLOB' : 'BYTEA')
    .replace(/\{COMPACT\}/g, dialect === 'sqlite' ? ' WITHOUT ROWID' : '').replace(/\{BLOBS\}/g, '');
}

/** The generation cache's tables (`../generation-cache.ts`): prompts and sampling specs by hash, one row per sample. */
export const GENERATION_TABLES = `
CREATE TABLE generation_prompts (
  prompt_hash TEXT PRIMARY KEY,
  api TEXT NOT NULL,
  prompt_json TEXT NOT NULL
);
CREATE TABLE generation_sampling (
  sampling_hash TEXT PRIMARY KEY,
  sampling_json TEXT NOT NULL
);
CREATE TABLE generation_samples (
  cache_key TEXT PRIMARY KEY,
  endpoint TEXT NOT NULL,
  model TEXT NOT NULL,
  prompt_hash TEXT NOT NULL,
  sampling_hash TEXT NOT NULL,
  sample_index INTEGER NOT NULL,
  content TEXT,
  reasoning TEXT,
  finish_reason TEXT,
  usage_json TEXT,
  request_json TEXT NOT NULL,
  response_id TEXT,
  created_ms BIGINT NOT NULL
);
`;

/**
 * Step 5: a run's tags, generation settings and headline pass@k (the runs list as a leaderboard), the sha256 of
 * an imported `verdicts.jsonl` (a second import of the same file is refused), problem statements, prompts and
 * references (`info_json`) and their labels (`labels_json`: LiveCodeBench difficulty, platform, release date),
 * and per training event the latency of the reward call that carried it and an idempotency key (unique per
 * training run: a retried batch is stored once; NULL keys never collide).
 */
export const LEADERBOARD_COLUMNS = `
ALTER TABLE runs ADD COLUMN tags_json TEXT;
ALTER TABLE runs ADD COLUMN generation_json TEXT;
ALTER TABLE runs ADD COLUMN headline_json TEXT;
ALTER TABLE runs ADD COLUMN content_hash TEXT;
ALTER TABLE problems ADD COLUMN info_json TEXT;
ALTER TABLE problems ADD COLUMN labels_json TEXT;
ALTER TABLE training_events ADD COLUMN latency_ms DOUBLE PRECISION;
ALTER TABLE training_events ADD COLUMN event_key TEXT;
CREATE UNIQUE INDEX training_events_key ON training_events (training_run_id, event_key);
CREATE INDEX runs_content_hash ON runs (content_hash);
`;
