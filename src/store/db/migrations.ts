/**
 * The result store's schema as an ordered list of migration steps: step N takes a store from schema version
 * N − 1 to N. A new store runs every step; an older one runs the steps it lacks (`migrate.ts` applies them in
 * one transaction and records the version in `crucible_meta`). A step is SQL for each engine, or a function
 * over the driver when SQL alone cannot do it (moving data, a rebuilt table).
 *
 * Steps are append-only: a released step is never edited or removed, since stores exist that ran it as it was;
 * a change is a new step at the end. docs/STORE.md ("Migrations", "How to add a store column") has the rules.
 */
import type { SqlDialect, SqlDriver } from './driver.js';
import { EFFICIENCY_TABLES, forDialect, GENERATION_TABLES, JUDGES_TABLES, LEADERBOARD_COLUMNS, VERSION_1_TABLES } from './schema.js';

/** What every step has: its version (1, 2, … in order, no gaps) and one line saying what it changes. */
interface MigrationHead {
  /** The schema version the step takes a store to. */
  readonly version: number;
  /** What the step changes, shown when a migration fails and kept in `crucible_meta`. */
  readonly description: string;
}

/**
 * One migration step: `sql` (a script of `;`-separated statements without parameters, per engine) or `apply`
 * (runs inside the migration's transaction on `tx`; it rejects to abort the whole migration).
 */
export type Migration = MigrationHead & (
  | { readonly sql: Readonly<Record<SqlDialect, string>> }
  | { readonly apply: (tx: SqlDriver) => Promise<void> }
);

/** The same text, with its type placeholders (`schema.ts`) written for each engine. */
function bothEngines(sql: string): Readonly<Record<SqlDialect, string>> {
  return { sqlite: forDialect(sql, 'sqlite'), postgres: forDialect(sql, 'postgres') };
}

/**
 * Difficulty per problem of a training run (step 5): rollouts, passes and the reward sum of one problem at one
 * trainer step (`step` -1: events without a step), kept up to date by every batch of training events
 * (`recordTrainingEvents`) and filled here from the events a store already had.
 */
const PROBLEM_STEPS_TABLE = `
CREATE TABLE problem_steps (
  training_run_id BIGINT NOT NULL,
  task_id TEXT NOT NULL,
  step INTEGER NOT NULL,
  rollouts INTEGER NOT NULL,
  passed INTEGER NOT NULL,
  reward_sum DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (training_run_id, task_id, step)
){COMPACT};
INSERT INTO problem_steps (training_run_id, task_id, step, rollouts, passed, reward_sum)
  SELECT training_run_id, task_id, COALESCE(step, -1), COUNT(*), SUM(passed), SUM(reward)
  FROM training_events GROUP BY training_run_id, task_id, COALESCE(step, -1);
`;

/**
 * Step 9: results of the signals computed outside an eval run (issue #28, item 8): `crucible tests-quality` and
 * `crucible elo` reports, one row each. `kind` is `tests-quality` or `elo`; `headline_json` the few numbers a list
 * shows (TPR/TNR/mutation score; rating and interval); `result_json` the whole report as the command's `--json`
 * prints it; `inputs_json` the files and settings it was computed from.
 */
const SIGNAL_RESULTS_TABLE = `
CREATE TABLE signal_results (
  id {ID},
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  inputs_json TEXT NOT NULL,
  headline_json TEXT NOT NULL,
  result_json TEXT NOT NULL
);
CREATE INDEX signal_results_kind ON signal_results (kind, created_ms);
`;

/** Every step, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'runs, problems, programs, samples, test cases and training events',
    sql: bothEngines(VERSION_1_TABLES),
  },
  {
    version: 2,
    description: 'judges and sample_judges: who judged a sample of a queue run (some version-1 stores have them already)',
    sql: bothEngines(JUDGES_TABLES),
  },
  {
    version: 3,
    description: 'samples.score: partial credit in [0, 1] of the kinds that grade (IOI subtasks, checkers with points)',
    sql: bothEngines('ALTER TABLE samples ADD COLUMN score DOUBLE PRECISION'),
  },
  {
    version: 4,
    description: 'generation_prompts, generation_sampling, generation_samples: the generation cache of crucible generate',
    sql: bothEngines(GENERATION_TABLES),
  },
  {
    version: 5,
    description: 'problem_steps: rollouts and passes per problem and trainer step of each training run (difficulty tracking), filled from the stored events',
    sql: bothEngines(PROBLEM_STEPS_TABLE),
  },
  {
    version: 6,
    description: 'runs as a leaderboard (tags, generation settings, headline pass@k, content hash of imports), problem statements and labels, '
      + 'training events with reward-call latency and idempotency keys',
    sql: bothEngines(LEADERBOARD_COLUMNS),
  },
  {
    version: 7,
    description: 'sample_efficiency: instruction counts, wall time, peak memory and efficiency scores of measured passing samples (eval --efficiency)',
    sql: bothEngines(EFFICIENCY_TABLES),
  },
  {
    version: 8,
    description: 'samples.completion_kind and samples.completion: each sample\'s model text (or its sha256) as verdicts.jsonl carried it, '
      + 'kept only where it differs from its program\'s',
    sql: bothEngines('ALTER TABLE samples ADD COLUMN completion_kind SMALLINT; ALTER TABLE samples ADD COLUMN completion TEXT'),
  },
  {
    version: 9,
    description: 'signal_results: crucible tests-quality and crucible elo reports (headline numbers and the whole report)',
    sql: bothEngines(SIGNAL_RESULTS_TABLE),
  },
  {
    version: 10,
    description: 'samples.formal_json: the formal check of a verilog design beside its verdict (eval --formal: proven, refuted or unknown)',
    sql: bothEngines('ALTER TABLE samples ADD COLUMN formal_json TEXT'),
  },
  {
    version: 11,
    description: 'sample_efficiency.memory_kib_ms and ntmu: the memory integral sampled from outside the box and EffiBench\'s NTMU',
    sql: bothEngines('ALTER TABLE sample_efficiency ADD COLUMN memory_kib_ms DOUBLE PRECISION; ALTER TABLE sample_efficiency ADD COLUMN ntmu DOUBLE PRECISION'),
  },
];

/** The schema version this code writes and reads: the last step's. */
export const SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]!.version;
