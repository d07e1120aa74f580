/**
 * A toy SQL kind, written the way docs/ARCHITECTURE.md ("How to add: a problem kind that needs files per run")
 * walks through it: one module, registered with one line (`defaultModes().with(toySqlMode)`), no engine code
 * touched. It has the shape of Spider's execution accuracy (taoyds/test-suite-sql-eval): the candidate's query runs
 * on each of the problem's databases, and its result must equal the gold query's result on that database.
 *
 * - Files per run: each run gets its database as `data.db` in its box (`PlannedRun.files`); the program is
 *   `.open --readonly /box/data.db` followed by the candidate's query, run by the `sql` language (SQLite's shell).
 * - The gold query's results are the kind's reference (`ReferenceSpec`): a plan of its own, run once per problem
 *   in boxes that never hold the candidate's code, cached on disk by the judge; they travel to each run's
 *   judgement in `check`, which never enters a box.
 * - Comparison outside the box: the rows as a multiset (Spider compares result sets without order unless the gold
 *   query orders them; a toy keeps the unordered rule).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ProblemBase } from '../../../src/formats/types.js';
import { defineMode, defineReference, GroundTruthError, type JudgingMode } from '../../../src/judge/mode.js';
import { aggregateTests, runStatus, shortReason, type TestResult, type Verdict } from '../../../src/verdict/index.js';

/** A toy SQL problem: the gold query, and the databases (SQLite files, base64) its result is asked on. */
export interface ToySqlProblem extends ProblemBase {
  readonly kind: 'toy_sql';
  readonly gold: string;
  readonly databases: readonly string[];
}

/** The program of a query: open the run's database read-only, then the query. */
function onDatabase(query: string): string {
  return `.open --readonly /box/data.db\n${query}\n`;
}

/** A run on database `i` of the problem: its file, and `check` (what Crucible alone keeps). */
function runOn<C>(problem: ToySqlProblem, i: number, check: C): { stdin: string; check: C; files: Record<string, Uint8Array> } {
  return { stdin: '', check, files: { 'data.db': new Uint8Array(Buffer.from(problem.databases[i]!, 'base64')) } };
}

/** Rows of SQLite's list output, as a sorted multiset. */
function rows(stdout: string): string[] {
  return stdout.split('\n').map((l) => l.replace(/\r$/, '')).filter((l) => l !== '').sort();
}

/** The gold query's rows on every database: computed once per problem, in boxes of their own. */
const goldRows = defineReference<ToySqlProblem, readonly (readonly string[])[], 'program_runs'>({
  version: 1,
  fingerprint: (problem) => createHash('sha256').update(JSON.stringify([problem.gold, problem.databases])).digest('hex'),
  plan: (problem, limits) => ({
    kind: 'program_runs', program: { language: 'sql', source: onDatabase(problem.gold) },
    runs: problem.databases.map((_, i) => runOn(problem, i, null)), limits, failFast: false,
  }),
  parse: (problem, outcome) => outcome.runs.map((run, i) => {
    if (run.status !== 'ok') throw new GroundTruthError(`${problem.taskId}: the gold query failed on database ${i}: ${run.stderr.slice(0, 200)}`);
    return rows(run.stdout);
  }),
  schema: z.array(z.array(z.string())),
});

const toySql: JudgingMode<ToySqlProblem, 'program_runs', readonly string[], readonly (readonly string[])[]> = {
  kind: 'toy_sql',
  description: 'toy: a SQL query\'s result on each database equals the gold query\'s',
  language: () => 'sql',
  acceptsLanguage: (_problem, languageId) => languageId === 'sql',
  assemble: (_problem, code) => code,
  testCount: (problem) => problem.databases.length,
  reference: goldRows,
  plan: (problem, program, { limits, failFast, reference }) => ({
    kind: 'program_runs', program: { language: 'sql', source: onDatabase(program.source) },
    runs: problem.databases.map((_, i) => runOn(problem, i, reference[i]!)), limits, failFast,
  }),
  judgeRun: (_problem, run, index, result): TestResult => {
    const base = { index, cpuMs: result.cpuMs, wallMs: result.wallMs };
    if (result.status !== 'ok') return { ...base, status: runStatus(result), reason: shortReason(result.stderr || result.reason)! };
    const got = rows(result.stdout);
    const same = got.length === run.check.length && got.every((r, i) => r === run.check[i]);
    return same ? { ...base, status: 'passed' } : { ...base, status: 'wrong_answer', reason: `rows ${JSON.stringify(got.slice(0, 5))}` };
  },
  verdict: (problem, outcome): Verdict => {
    const testCount = problem.databases.length;
    if (!outcome.compiled) return { status: 'compile_error', passed: false, tests: [], testCount, cpuMs: 0, wallMs: 0 };
    const { status, reason } = aggregateTests(outcome.tests, testCount);
    return { status, passed: status === 'passed', tests: outcome.tests, testCount,
      cpuMs: outcome.runs.reduce((s, r) => s + r.cpuMs, 0), wallMs: outcome.runs.reduce((s, r) => s + r.wallMs, 0),
      ...(reason === undefined ? {} : { reason }) };
  },
};

/** The toy SQL kind's mode, for `defaultModes().with(toySqlMode)`. */
export const toySqlMode = defineMode(toySql);
