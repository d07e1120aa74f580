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
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { SqlProblem } from '../../formats/types.js';
import type { JudgeLimits } from '../../limits.js';
import { defineMode, defineReference, GroundTruthError, type JudgingMode } from '../../judge/mode.js';
import type { ProgramRunsPlan } from '../../judge/plan.js';
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

const goldResults = defineReference<SqlProblem, SqlGoldReference, 'program_runs'>({
  version: 1,
  fingerprint: (problem) => createHash('sha256').update(JSON.stringify([problem.gold, databaseIdentity(problem.databases), problem.comparators,
    problem.keepDistinct ?? false, problem.timeLimitMs ?? null])).digest('hex'),
  plan: (problem, limits) => {
    // Crucible's missing feature, not the problem's fault: internal_error (a plain Error), never reference_failed.
    if (problem.engine !== 'sqlite') throw new Error(`${problem.taskId}: the ${problem.engine} engine is not supported yet`);
    return runnerPlan(problem, goldQueries(problem, problem.gold), limits, null, false);
  },
  parse: (problem, outcome) => {
    const run = outcome.runs[0];
    const queries = goldQueries(problem, problem.gold);
    if (run === undefined || run.status !== 'ok') {
      throw new GroundTruthError(`${problem.taskId}: the gold query's runner ended ${run?.status ?? 'without running'}: ${shortReason(run?.stderr || run?.reason) ?? ''}`,
        run?.status === 'internal_error');
    }
    const read = readGold(problem, queries, run.stdout);
    if (read !== undefined) throw new GroundTruthError(`${problem.taskId}: ${read}`);
    return { queries, stdout: run.stdout };
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

/** Judge the runner's output for a prediction (module comment). */
function judgePrediction(problem: SqlProblem, reference: SqlGoldReference, predicted: string, result: ExecutionResult): Pick<TestResult, 'status' | 'reason' | 'score'> {
  const instances = problem.databases.map((_, i) => String(i));
  const texts = predictionTexts(problem, predicted);
  try {
    const pred = readRunnerOutput(runnerJob(instances, texts, 0, 0, 0), result.stdout);
    const stopped = stoppedRun(result, pred.complete);
    if (stopped !== undefined) return stopped;
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

const sqlMode: JudgingMode<SqlProblem, 'program_runs', SqlCheck, SqlGoldReference> = {
  kind: 'sql',
  description: 'text-to-SQL by execution: the query and the gold query on every database instance, results compared by named comparators (Spider, BIRD)',
  language: () => 'sql',
  acceptsLanguage: (_problem, languageId) => languageId === 'sql',
  assemble: (_problem, code) => code,
  testCount: () => 1,
  reference: goldResults,
  plan: (problem, program, { limits, failFast, reference }) =>
    runnerPlan(problem, predictionTexts(problem, program.source), limits, { query: program.source, gold: reference }, failFast),
  judgeRun: (problem, run, index, result): TestResult =>
    ({ index, cpuMs: result.cpuMs, wallMs: result.wallMs, ...judgePrediction(problem, run.check.gold, run.check.query, result) }),
  verdict: (problem, outcome): Verdict => {
    const testCount = 1;
    const cpuMs = outcome.runs.reduce((s, r) => s + r.cpuMs, 0);
    const wallMs = outcome.runs.reduce((s, r) => s + r.wallMs, 0);
    if (!outcome.compiled) return { status: 'internal_error', passed: false, tests: [], testCount, cpuMs, wallMs, reason: 'the SQL runner did not start' };
    const { status, reason } = aggregateTests(outcome.tests, testCount);
    const score = problem.comparators[0] === 'soft-f1' || problem.comparators[0] === 'intercode' ? outcome.tests[0]?.score : undefined;
    return { status, passed: status === 'passed', tests: outcome.tests, testCount, cpuMs, wallMs,
      ...(reason === undefined ? {} : { reason }), ...(score === undefined ? {} : { score }) };
  },
};

/** The `sql` kind's mode (module comment). */
export const sqlKindMode = defineMode(sqlMode);
