/**
 * The `sql` kind (issue #26): text-to-SQL judged by execution (Spider, BIRD), on the plan.
 *
 * - The reference: the gold texts the problem's comparators execute (`goldQueries`), run once per problem by the
 *   in-box runner (`harness/sql/crucible_sql.py`) in a box of their own on copies of every database instance; the
 *   runner's output is kept as the cached reference (JSON lines, exact values) and read on the trusted side.
 *   A gold query that fails, or a runner that does not finish, is `GroundTruthError`: the problem's verdicts are
 *   `reference_failed` (`internal_error` when the box itself failed), never a verdict on a sample.
 * - The plan: one `program_runs` run of the runner (Python, `languages/python.yaml`) whose box holds copies of the
 *   database instances (`files`) and whose stdin is the job naming the prediction's texts (the candidate's own
 *   query, and Spider's rewriting of it); nothing of the gold query enters the box.
 * - `judgeRun`: the runner's output parsed as data (`readRunnerOutput`), compared by the named comparators outside
 *   the box (`judgeSql`). A box stopped at its limit is the query's (`time_limit_exceeded`, `memory_limit_exceeded`,
 *   `output_limit_exceeded`); a runner whose output cannot be read is Crucible's (`internal_error`).
 *
 * Limits: each query has `problem.timeLimitMs` (default the request's `cpuMs`) of wall time, enforced in the box by
 * SQLite's progress handler; the box's CPU limit is the sum over the job's queries plus the runner's start-up, so a
 * query the handler cannot interrupt is still killed from outside. A result holds at most `SQL_MAX_ROWS` rows and
 * the request's `outputBytes` of cells (more is `output_limit_exceeded`).
 *
 * `engine: "postgres"`: the reference and the sample are `sql_engine` plans instead (`enginePlan`): the same job
 * (texts, per-query limit, caps) for the judge's PostgreSQL server (`src/environments/postgres/`), which answers
 * in the runner's protocol, read and judged the same way in `verdict` (no box, no `judgeRun`); the server's own
 * failure is `internal_error`, an instance text that does not build is `reference_failed`.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { SqlProblem } from '../../formats/types.js';
import type { JudgeLimits } from '../../limits.js';
import { defineMode, defineReference, GroundTruthError, type JudgingMode } from '../../judge/mode.js';
import type { ProgramRunsOutcome, ProgramRunsPlan, SqlEngineOutcome, SqlEnginePlan } from '../../judge/plan.js';
import type { ExecutionResult } from '../../sandbox/types.js';
import { aggregateTests, shortReason, type TestResult, type Verdict } from '../../verdict/index.js';
import { databaseFiles, databaseIdentity, runnerJob, sqlRunnerSource } from './box-files.js';
import { comparatorQueries, goldQueries, judgeSql, SqlJudgingError, type QueryOutcome, type SqlJudgement } from './judging.js';
import { readRunnerOutput, RunnerOutputError, SQL_MAX_ROWS } from './runner-protocol.js';

/** The runner's output for the gold texts: the texts in job order and its stdout (what `readRunnerOutput` reads). */
export interface SqlGoldReference {
  readonly queries: readonly string[];
  readonly stdout: string;
}

/** CPU ms the runner needs besides its queries (Python's start-up, opening and copying the databases). */
const RUNNER_BASE_MS = 2000;

/** The per-query wall limit of a problem (ms). */
function queryLimitMs(problem: SqlProblem, limits: JudgeLimits): number {
  return problem.timeLimitMs ?? limits.cpuMs;
}

/** A runner plan for `queries` on every instance of the problem (module comment). */
function runnerPlan<C>(problem: SqlProblem, queries: readonly string[], limits: JudgeLimits, check: C, failFast: boolean): ProgramRunsPlan<C> {
  const { names, files } = databaseFiles(problem.databases);
  const perQuery = queryLimitMs(problem, limits);
  const results = Math.max(1, queries.length * names.length);
  const job = runnerJob(names, queries, perQuery, SQL_MAX_ROWS, limits.outputBytes);
  const boxLimits: JudgeLimits = {
    cpuMs: RUNNER_BASE_MS + Math.ceil(perQuery * 1.2) * results,
    memoryKiB: limits.memoryKiB,
    outputBytes: (limits.outputBytes + 4096) * results + 4096,
  };
  return {
    kind: 'program_runs', program: { language: 'python', source: sqlRunnerSource() },
    runs: [{ stdin: JSON.stringify(job), check, files }], limits: boxLimits, failFast,
  };
}

/**
 * The `postgres` engine's plan for `queries` on every instance: a job for the judge's PostgreSQL server
 * (`src/judge/sql-engine.ts`), the same per-query limit and caps as the SQLite runner's.
 * @throws GroundTruthError when an instance is a file (the engine loads SQL texts): the problem's fault.
 */
function enginePlan<C>(problem: SqlProblem, queries: readonly string[], limits: JudgeLimits, check: C): SqlEnginePlan<C> {
  const databases = problem.databases.map((db, i) => {
    if ('path' in db) throw new GroundTruthError(`${problem.taskId}: database instance ${i} is a file; the postgres engine takes SQL texts ({"sql": ...})`);
    return db.sql;
  });
  return { kind: 'sql_engine', engine: 'postgres', check,
    job: { databases, queries: [...queries], timeLimitMs: queryLimitMs(problem, limits), maxRows: SQL_MAX_ROWS, maxBytes: limits.outputBytes } };
}

/** The reference's runner output from a plan's outcome (either engine). @throws GroundTruthError. */
function goldOutput(problem: SqlProblem, outcome: ProgramRunsOutcome | SqlEngineOutcome): string {
  if (outcome.kind === 'sql_engine') {
    const result = outcome.result;
    if ('error' in result) throw new GroundTruthError(`${problem.taskId}: ${result.error}`, result.cause === 'engine');
    return result.stdout;
  }
  const run = outcome.runs[0];
  if (run === undefined || run.status !== 'ok') {
    throw new GroundTruthError(`${problem.taskId}: the gold query's runner ended ${run?.status ?? 'without running'}: ${shortReason(run?.stderr || run?.reason) ?? ''}`,
      run?.status === 'internal_error');
  }
  return run.stdout;
}

const goldResults = defineReference<SqlProblem, SqlGoldReference, 'program_runs' | 'sql_engine'>({
  version: 1,
  fingerprint: (problem) => createHash('sha256').update(JSON.stringify([problem.gold, databaseIdentity(problem.databases), problem.comparators,
    problem.keepDistinct ?? false, problem.timeLimitMs ?? null, ...problem.engine === 'sqlite' ? [] : [problem.engine]])).digest('hex'),
  plan: (problem, limits) => problem.engine === 'postgres'
    ? enginePlan(problem, goldQueries(problem, problem.gold), limits, null)
    : runnerPlan(problem, goldQueries(problem, problem.gold), limits, null, false),
  parse: (problem, outcome) => {
    const queries = goldQueries(problem, problem.gold);
    const stdout = goldOutput(problem, outcome);
    const read = readGold(problem, queries, stdout);
    if (read !== undefined) throw new GroundTruthError(`${problem.taskId}: ${read}`);
    return { queries, stdout };
  },
  schema: z.object({ queries: z.array(z.string()), stdout: z.string() }),
});

/** Why the gold's runner output cannot be a reference, or undefined when it can. */
function readGold(problem: SqlProblem, queries: readonly string[], stdout: string): string | undefined {
  try {
    const { results, complete } = readRunnerOutput(runnerJob(problem.databases.map((_, i) => String(i)), queries, 0, 0, 0), stdout);
    if (!complete) return 'the gold query\'s runner stopped early';
    for (const [text, outcomes] of results) {
      const bad = outcomes.findIndex((o) => !o.ok);
      if (bad >= 0) return `the gold query ${JSON.stringify(text.slice(0, 200))} failed on instance ${bad}: ${describeFailure(outcomes[bad]!)}`;
    }
    return undefined;
  } catch (error) {
    if (error instanceof RunnerOutputError) return error.message;
    throw error;
  }
}

function describeFailure(outcome: QueryOutcome): string {
  if (outcome.ok) return 'ok';
  return outcome.failure === 'error' ? outcome.message : outcome.failure;
}

/** The prediction texts the comparators execute, deduplicated, in comparator order. */
function predictionTexts(problem: SqlProblem, predicted: string): string[] {
  const texts = comparatorQueries(problem, problem.gold, predicted).map((q) => q.predicted).filter((t): t is string => t !== undefined);
  return [...new Set(texts)];
}

/** The status of a runner box that did not finish its job: the query's doing, or Crucible's failure. */
function stoppedRun(result: ExecutionResult, complete: boolean): Pick<TestResult, 'status' | 'reason'> | undefined {
  if (result.status === 'ok' && complete) return undefined;
  if (result.status === 'time_limit_exceeded' || result.status === 'memory_limit_exceeded' || result.status === 'output_limit_exceeded') {
    return { status: result.status, reason: `the query's box stopped at its limit (${result.status.replaceAll('_', ' ')})` };
  }
  if (result.status === 'runtime_error') return { status: 'runtime_error', reason: shortReason(`the SQL runner died running the query: ${result.stderr || result.reason || ''}`) };
  return { status: 'internal_error', reason: shortReason(result.status === 'ok' ? 'the SQL runner ended without finishing its job' : result.reason ?? result.status) };
}

/**
 * Judge the runner's (or the engine's) output for a prediction (module comment); `stopped` says how a job that did
 * not finish (`complete` false) or whose box did not end `ok` ended, or undefined when it did.
 */
function judgePrediction(problem: SqlProblem, reference: SqlGoldReference, predicted: string, stdout: string,
  stopped: (complete: boolean) => Pick<TestResult, 'status' | 'reason'> | undefined): Pick<TestResult, 'status' | 'reason' | 'score'> {
  const instances = problem.databases.map((_, i) => String(i));
  const texts = predictionTexts(problem, predicted);
  try {
    const pred = readRunnerOutput(runnerJob(instances, texts, 0, 0, 0), stdout);
    const stop = stopped(pred.complete);
    if (stop !== undefined) return stop;
    const gold = readRunnerOutput(runnerJob(instances, reference.queries, 0, 0, 0), reference.stdout);
    const judgement = judgeSql(comparatorQueries(problem, problem.gold, predicted), gold.results, pred.results, instances.length, problem.floatDecimals);
    return { status: judgement.status, score: judgement.score, ...withReason(judgement) };
  } catch (error) {
    if (error instanceof RunnerOutputError || error instanceof SqlJudgingError) return { status: 'internal_error', reason: shortReason(error.message) };
    throw error;
  }
}

/** The judgement's reason, with every comparator's answer when they disagree. */
function withReason(judgement: SqlJudgement): { reason?: string } {
  const parts = judgement.reason === undefined ? [] : [judgement.reason];
  if (judgement.disagreement) parts.push(`comparators disagree: ${judgement.comparisons.map((c) => `${c.comparator} ${c.match ? 'match' : 'no match'}`).join(', ')}`);
  return parts.length === 0 ? {} : { reason: shortReason(parts.join('; '))! };
}

/** A run's trusted data: the candidate's query (as given) and the gold results it is compared with. */
interface SqlCheck {
  readonly query: string;
  readonly gold: SqlGoldReference;
}

/** The test of a `postgres` judgement: the engine's answer judged, or Crucible's failure when it could not run the job. */
function engineTest(problem: SqlProblem, outcome: SqlEngineOutcome): TestResult {
  const result = outcome.result;
  if ('error' in result) return { index: 0, cpuMs: 0, wallMs: 0, status: 'internal_error', reason: shortReason(result.error)! };
  // The check is the one this mode's `plan` put in the plan (the executor hands it back untouched).
  const check = outcome.check as SqlCheck;
  return { index: 0, cpuMs: 0, wallMs: result.wallMs, ...judgePrediction(problem, check.gold, check.query, result.stdout,
    (complete) => complete ? undefined : { status: 'internal_error', reason: 'the PostgreSQL engine answered an incomplete job' }) };
}

const sqlMode: JudgingMode<SqlProblem, 'program_runs' | 'sql_engine', SqlCheck, SqlGoldReference> = {
  kind: 'sql',
  description: 'text-to-SQL by execution: the query and the gold query on every database instance, results compared by named comparators (Spider, BIRD)',
  language: () => 'sql',
  acceptsLanguage: (_problem, languageId) => languageId === 'sql',
  assemble: (_problem, code) => code,
  testCount: () => 1,
  reference: goldResults,
  plan: (problem, program, { limits, failFast, reference }) => {
    const check: SqlCheck = { query: program.source, gold: reference };
    const texts = predictionTexts(problem, program.source);
    return problem.engine === 'postgres' ? enginePlan(problem, texts, limits, check) : runnerPlan(problem, texts, limits, check, failFast);
  },
  judgeRun: (problem, run, index, result): TestResult =>
    ({ index, cpuMs: result.cpuMs, wallMs: result.wallMs, ...judgePrediction(problem, run.check.gold, run.check.query, result.stdout,
      (complete) => stoppedRun(result, complete)) }),
  verdict: (problem, outcome): Verdict => {
    const testCount = 1;
    const tests = outcome.kind === 'sql_engine' ? [engineTest(problem, outcome)] : outcome.tests;
    const measured = outcome.kind === 'sql_engine' ? tests : outcome.runs;
    const cpuMs = measured.reduce((s, r) => s + (r.cpuMs ?? 0), 0);
    const wallMs = measured.reduce((s, r) => s + (r.wallMs ?? 0), 0);
    if (outcome.kind === 'program_runs' && !outcome.compiled) {
      return { status: 'internal_error', passed: false, tests: [], testCount, cpuMs, wallMs, reason: 'the SQL runner did not start' };
    }
    const { status, reason } = aggregateTests(tests, testCount);
    const score = problem.comparators[0] === 'soft-f1' || problem.comparators[0] === 'intercode' ? tests[0]?.score : undefined;
    return { status, passed: status === 'passed', tests, testCount, cpuMs, wallMs,
      ...(reason === undefined ? {} : { reason }), ...(score === undefined ? {} : { score }) };
  },
};

/** The `sql` kind's mode (module comment). */
export const sqlKindMode = defineMode(sqlMode);
