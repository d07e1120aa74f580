/**
 * Training runs in SQL (both engines): appending reward events once per idempotency key, and the series the
 * dashboard's training page draws (`TrainingSeries`: per-step buckets, a per-step reward histogram, per-problem pass
 * counts, reward-call latency and throughput over time).
 *
 * Axis rule: a run whose events carry steps is drawn by step, and its events without a step (a validation call, a
 * stray curl) are counted apart (`unstepped`) instead of turning the axis into minutes; only a run with no stepped
 * event is drawn by minute since its first event.
 */
import {
  TRAINING_CALL_BUCKETS, TRAINING_HISTOGRAM_BINS, TRAINING_HISTOGRAM_COLUMNS, type TrainingBatchResult, type TrainingBucketRow,
  type TrainingCallsRow, type TrainingHistogram, type TrainingProblemBucketRow, type TrainingSeries,
} from '../result-store.js';
import type { TrainingEvent } from '../training-event.js';
import { MAX_PARAMETERS, type SqlDriver, type SqlValue } from './driver.js';

/**
 * Add a batch of training events to the per-problem, per-step counts (`problem_steps`, difficulty tracking) in the
 * batch's transaction: one upsert per (problem, step), events without a step under step -1.
 */
async function addProblemSteps(tx: SqlDriver, trainingRunId: number, events: readonly TrainingEvent[]): Promise<void> {
  const sums = new Map<string, { taskId: string; step: number; rollouts: number; passed: number; rewardSum: number }>();
  for (const e of events) {
    const step = e.step ?? -1;
    const key = JSON.stringify([e.taskId, step]);
    const sum = sums.get(key) ?? { taskId: e.taskId, step, rollouts: 0, passed: 0, rewardSum: 0 };
    sum.rollouts++;
    if (e.passed) sum.passed++;
    sum.rewardSum += e.reward;
    sums.set(key, sum);
  }
  const rows = [...sums.values()];
  for (let i = 0; i < rows.length; i += 100) {
    const chunk = rows.slice(i, i + 100);
    await tx.run(`INSERT INTO problem_steps (training_run_id, task_id, step, rollouts, passed, reward_sum) VALUES ${
      chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}
      ON CONFLICT (training_run_id, task_id, step) DO UPDATE SET rollouts = problem_steps.rollouts + excluded.rollouts,
        passed = problem_steps.passed + excluded.passed, reward_sum = problem_steps.reward_sum + excluded.reward_sum`,
    chunk.flatMap((r) => [trainingRunId, r.taskId, r.step, r.rollouts, r.passed, r.rewardSum]));
  }
}

/** Keys of `keys` the training run holds already. */
async function storedKeys(tx: SqlDriver, runId: number, keys: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const per = MAX_PARAMETERS - 1;
  for (let start = 0; start < keys.length; start += per) {
    const chunk = keys.slice(start, start + per);
    const rows = await tx.all<{ key: string }>(
      `SELECT event_key AS "key" FROM training_events WHERE training_run_id = ? AND event_key IN (${chunk.map(() => '?').join(', ')})`,
      [runId, ...chunk]);
    for (const r of rows) found.add(r.key);
  }
  return found;
}

/**
 * Append `events` to training run `name` (created on first use) inside transaction `tx`: an event whose `eventKey`
 * the run holds (or an earlier event of the same call had) is skipped; the rest are numbered after the run's last
 * and added to the run's per-problem, per-step counts (`problem_steps`).
 */
export async function insertTrainingEvents(tx: SqlDriver, name: string, events: readonly TrainingEvent[]): Promise<TrainingBatchResult> {
  const now = Date.now();
  await tx.run('INSERT INTO training_runs (name, created_ms, updated_ms, events) VALUES (?, ?, ?, 0) ON CONFLICT DO NOTHING', [name, now, now]);
  // The row lock first: concurrent writers of one run then see each other's keys and never share a number.
  const run = (await tx.get<{ id: number }>('UPDATE training_runs SET updated_ms = ? WHERE name = ? RETURNING id AS "id"', [now, name]))!;
  const keys = events.flatMap((e) => (e.eventKey === undefined ? [] : [e.eventKey]));
  const seen = keys.length === 0 ? new Set<string>() : await storedKeys(tx, run.id, [...new Set(keys)]);
  const fresh = events.filter((e) => {
    if (e.eventKey === undefined) return true;
    if (seen.has(e.eventKey)) return false;
    seen.add(e.eventKey);
    return true;
  });
  const counted = (await tx.get<{ events: number }>('UPDATE training_runs SET events = events + ? WHERE id = ? RETURNING events AS "events"',
    [fresh.length, run.id]))!;
  const first = counted.events - fresh.length;
  await addProblemSteps(tx, run.id, fresh);
  await tx.insertMany('training_events', ['training_run_id', 'seq', 'time_ms', 'step', 'task_id', 'group_id', 'reward', 'status',
    'passed', 'cpu_ms', 'wall_ms', 'latency_ms', 'event_key'], fresh.map((e, i) => [run.id, first + i, e.timeMs, e.step ?? null, e.taskId,
    e.groupId ?? null, e.reward, e.status, e.passed ? 1 : 0, e.cpuMs ?? null, e.wallMs ?? null, e.latencyMs ?? null, e.eventKey ?? null]), false);
  return { trainingRunId: run.id, recorded: fresh.length, duplicates: events.length - fresh.length };
}

/** How a run's events are bucketed: the SQL of a bucket, its parameters, and the filter of the bucketed events. */
interface Axis {
  readonly unit: 'step' | 'minute';
  readonly bucket: string;
  readonly params: readonly SqlValue[];
  readonly filter: string;
}

/** A bucket width for `span` units that keeps at most `most` buckets: 1, 2, 5, 10, 20, 50, … */
export function niceWidth(span: number, most: number): number {
  const raw = Math.max(1, Math.ceil(span / most));
  for (let scale = 1; ; scale *= 10) {
    for (const m of [1, 2, 5]) if (m * scale >= raw) return m * scale;
  }
}

async function bucketRows(db: SqlDriver, runId: number, axis: Axis): Promise<TrainingBucketRow[]> {
  const rows = await db.all<{ bucket: number; events: number; mean: number; meanSquare: number; lo: number; hi: number; passed: number;
    timeouts: number; internalErrors: number; latencyMean: number | null; latencyMax: number | null; firstMs: number; lastMs: number }>(
    `SELECT ${axis.bucket} AS "bucket", COUNT(*) AS "events", AVG(reward) AS "mean", AVG(reward * reward) AS "meanSquare",
       MIN(reward) AS "lo", MAX(reward) AS "hi", SUM(passed) AS "passed",
       SUM(CASE WHEN status = 'time_limit_exceeded' THEN 1 ELSE 0 END) AS "timeouts",
       SUM(CASE WHEN status = 'internal_error' THEN 1 ELSE 0 END) AS "internalErrors",
       AVG(latency_ms) AS "latencyMean", MAX(latency_ms) AS "latencyMax", MIN(time_ms) AS "firstMs", MAX(time_ms) AS "lastMs"
     FROM training_events WHERE training_run_id = ?${axis.filter} GROUP BY 1 ORDER BY 1`, [...axis.params, runId]);
  const groups = await db.all<{ bucket: number; groups: number; zero: number }>(
    `SELECT g.bucket AS "bucket", COUNT(*) AS "groups", SUM(CASE WHEN g.hi = g.lo THEN 1 ELSE 0 END) AS "zero"
     FROM (SELECT ${axis.bucket} AS bucket, group_id, MAX(reward) AS hi, MIN(reward) AS lo FROM training_events
           WHERE training_run_id = ?${axis.filter} AND group_id IS NOT NULL GROUP BY 1, group_id HAVING COUNT(*) >= 2) g
     GROUP BY g.bucket`, [...axis.params, runId]);
  const byBucket = new Map(groups.map((g) => [g.bucket, g]));
  return rows.map((b) => ({
    bucket: b.bucket, events: b.events, rewardMean: b.mean, rewardStd: Math.sqrt(Math.max(0, b.meanSquare - b.mean * b.mean)),
    rewardMin: b.lo, rewardMax: b.hi, passed: b.passed, timeouts: b.timeouts, internalErrors: b.internalErrors,
    latencyMeanMs: b.latencyMean, latencyMaxMs: b.latencyMax, firstMs: b.firstMs, lastMs: b.lastMs,
    groups: byBucket.get(b.bucket)?.groups ?? 0, zeroVarianceGroups: byBucket.get(b.bucket)?.zero ?? 0,
  }));
}

/**
 * Rewards per column of steps: one bin per distinct reward when the run has at most `TRAINING_HISTOGRAM_BINS` of
 * them (binary and graded rewards), else equal-width bins over the run's reward range.
 */
async function histogram(db: SqlDriver, runId: number, axis: Axis, buckets: readonly TrainingBucketRow[],
  range: readonly [number, number] | null): Promise<TrainingHistogram> {
  if (range === null || buckets.length === 0) return { discrete: true, edges: [], stepsPerColumn: 1, rows: [] };
  const span = buckets[buckets.length - 1]!.bucket - buckets[0]!.bucket + 1;
  const w = niceWidth(span, TRAINING_HISTOGRAM_COLUMNS);
  const column = `CAST((${axis.bucket}) / ${w} AS INTEGER)`;
  const distinct = await db.all<{ reward: number }>(
    `SELECT DISTINCT reward AS "reward" FROM training_events WHERE training_run_id = ?${axis.filter} ORDER BY 1 LIMIT ${TRAINING_HISTOGRAM_BINS + 1}`,
    [runId]);
  const discrete = distinct.length <= TRAINING_HISTOGRAM_BINS;
  const [lo, hi] = range;
  const width = (hi - lo) / TRAINING_HISTOGRAM_BINS;
  const edges = discrete ? distinct.map((d) => d.reward) : Array.from({ length: TRAINING_HISTOGRAM_BINS + 1 }, (_, i) => lo + i * width);
  // PostgreSQL's cast to integer rounds, SQLite's truncates: FLOOR first on PostgreSQL (SQLite may lack FLOOR).
  const binSql = discrete ? 'reward' : db.dialect === 'postgres' ? 'CAST(FLOOR((reward - ?) / ?) AS INTEGER)' : 'CAST((reward - ?) / ? AS INTEGER)';
  const binParams: SqlValue[] = discrete ? [] : [lo, width];
  const rows = await db.all<{ column: number; bin: number; events: number }>(
    `SELECT ${column} AS "column", ${binSql} AS "bin", COUNT(*) AS "events" FROM training_events
     WHERE training_run_id = ?${axis.filter} GROUP BY 1, 2 ORDER BY 1, 2`, [...axis.params, ...binParams, runId]);
  const index = new Map(edges.map((e, i) => [e, i]));
  const cells = new Map<string, { stepFrom: number; stepTo: number; bin: number; events: number }>();
  for (const r of rows) {
    const bin = discrete ? index.get(r.bin)! : Math.min(TRAINING_HISTOGRAM_BINS - 1, Math.max(0, r.bin));
    const key = `${r.column}:${bin}`;
    const cell = cells.get(key) ?? { stepFrom: r.column * w, stepTo: r.column * w + w - 1, bin, events: 0 };
    cell.events += r.events;
    cells.set(key, cell);
  }
  return { discrete, edges, stepsPerColumn: w, rows: [...cells.values()] };
}

async function calls(db: SqlDriver, runId: number): Promise<TrainingCallsRow[]> {
  const span = await db.get<{ first: number | null; last: number | null }>(
    'SELECT MIN(time_ms) AS "first", MAX(time_ms) AS "last" FROM training_events WHERE training_run_id = ?', [runId]);
  if (span?.first === null || span?.first === undefined || span.last === null) return [];
  const seconds = niceWidth((span.last - span.first) / 1000 + 1, TRAINING_CALL_BUCKETS);
  const rows = await db.all<{ bucket: number; events: number; latencyMean: number | null; latencyMax: number | null }>(
    `SELECT CAST((time_ms - ?) / ${seconds * 1000} AS INTEGER) AS "bucket", COUNT(*) AS "events", AVG(latency_ms) AS "latencyMean",
       MAX(latency_ms) AS "latencyMax" FROM training_events WHERE training_run_id = ? GROUP BY 1 ORDER BY 1`, [span.first, runId]);
  return rows.map((r) => ({ startMs: span.first! + r.bucket * seconds * 1000, seconds, events: r.events, latencyMeanMs: r.latencyMean,
    latencyMaxMs: r.latencyMax }));
}

/** The series of training run `runId` (see the module comment and `TrainingSeries`). */
export async function trainingSeries(db: SqlDriver, runId: number): Promise<TrainingSeries> {
  const shape = await db.get<{ stepped: number; total: number; first: number | null }>(
    `SELECT COUNT(step) AS "stepped", COUNT(*) AS "total", MIN(time_ms) AS "first" FROM training_events WHERE training_run_id = ?`, [runId]);
  const stepped = shape?.stepped ?? 0;
  const axis: Axis = stepped > 0
    ? { unit: 'step', bucket: 'step', params: [], filter: ' AND step IS NOT NULL' }
    : { unit: 'minute', bucket: 'CAST((time_ms - ?) / 60000 AS INTEGER)', params: [shape?.first ?? 0], filter: '' };
  const buckets = await bucketRows(db, runId, axis);
  const range: [number, number] | null = buckets.length === 0 ? null
    : [Math.min(...buckets.map((b) => b.rewardMin)), Math.max(...buckets.map((b) => b.rewardMax))];
  const hist = await histogram(db, runId, axis, buckets, range);
  const w = hist.stepsPerColumn;
  const problems = await db.all<TrainingProblemBucketRow>(
    `SELECT CAST((${axis.bucket}) / ${w} AS INTEGER) * ${w} AS "bucket", task_id AS "taskId", COUNT(*) AS "events", SUM(passed) AS "passed"
     FROM training_events WHERE training_run_id = ?${axis.filter} GROUP BY 1, task_id ORDER BY 1, task_id LIMIT 50000`, [...axis.params, runId]);
  return {
    unit: axis.unit, buckets, problems, unstepped: stepped > 0 ? (shape?.total ?? 0) - stepped : 0, rewardRange: range,
    histogram: hist, calls: await calls(db, runId),
  };
}
