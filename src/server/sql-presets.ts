/**
 * Text-to-SQL reward presets on the reward routes (`/v1/rewards`, `/get_reward`): a rollout whose spec is
 * `{kind: "sql_preset", preset}` (`src/reward/spec.ts`) is rewarded as the published recipe rewards it.
 *
 * - Extraction: the raw response goes through the preset's own rule (`sqlR1Extract` / `skyrlSqlExtract`,
 *   `src/kinds/sql/reward-presets.ts`, which cites both sources). A response that fails the preset's format check
 *   is decided without running anything: status `no_code`, reward -1 (both recipes).
 * - Judging: the extracted query is judged by the `sql` kind in the sandbox against the loaded problem as the preset
 *   compares: `sql-r1` by `spider-testsuite` with DISTINCT removed (no `keepDistinct`) on every instance of the
 *   database, its gold query with runs of whitespace collapsed to one space as SQL-R1's `synsql.py` does to both
 *   texts; `skyrl-sql` by `bird-ex` (`frozenset` of rows) on the problem's first database instance (SkyRL-SQL executes
 *   on its one database file). Each query gets the problem's `timeLimitMs`, else the server's CPU limit (the recipes'
 *   own time-outs, 30 s for SQL-R1, are not imposed).
 * - Execution outcome: `passed` is a match, `wrong_answer` a mismatch; `runtime_error` (SQLite refused it, an empty
 *   query), `time_limit_exceeded` and `memory_limit_exceeded` are "not executable"; `output_limit_exceeded` (more
 *   rows or cells than Crucible reads) counts as executed without a match (the gold result fits the limit, so a
 *   result over it is not the gold's, except under `bird-ex`'s set rule, where both presets give a mismatch and a
 *   non-executable query the same 0). `internal_error` and `reference_failed` have no reward (null).
 * - Score: `sqlR1Score` / `skyrlSqlScore` of the extraction and the outcome.
 */
import type { SqlProblem } from '../formats/types.js';
import { SubmissionError } from '../kinds/index.js';
import { prepareSubmission } from '../judge/submission.js';
import {
  skyrlSqlExtract, skyrlSqlScore, sqlR1Extract, sqlR1Score, type SqlPresetExecution, type SqlPresetExtraction, type SqlRewardPreset,
} from '../kinds/sql/reward-presets.js';
import { verdictWithoutTests, type Verdict } from '../verdict/index.js';
import { ServiceError } from './errors.js';
import type { JudgeService, Prepared, Submission } from './service.js';

/** A rollout rewarded by a SQL preset: what the preset's rule extracted and the submission to judge (or decided). */
export interface SqlPresetRollout {
  readonly preset: SqlRewardPreset;
  readonly extraction: SqlPresetExtraction;
  readonly prepared: Prepared;
}

/** The preset's reward of a judged rollout, with how its execution was counted (absent for a format failure). */
export interface SqlPresetReward {
  /** null: Crucible could not judge it (`internal_error`, `reference_failed`). */
  readonly reward: number | null;
  readonly formatOk: boolean;
  readonly execution?: SqlPresetExecution;
}

/** The loaded problem as the preset compares it (module comment). */
export function presetProblem(problem: SqlProblem, preset: SqlRewardPreset): SqlProblem {
  if (preset === 'sql-r1') {
    const { keepDistinct: _keep, ...rest } = problem;
    return { ...rest, gold: problem.gold.replace(/\s+/gu, ' '), comparators: ['spider-testsuite'] };
  }
  return { ...problem, databases: problem.databases.slice(0, 1), comparators: ['bird-ex'] };
}

/**
 * Prepare one rollout of a preset (module comment). `field` prefixes error field names (`items[3].`).
 * @throws ServiceError `invalid_body` without a raw `response` or a loaded `problem`, or for a problem that is not a
 *   `sql` problem; `unknown_problem` for a problem id that is not loaded.
 */
export function prepareSqlPresetRollout(service: JudgeService, sub: Submission, preset: SqlRewardPreset, field: string): SqlPresetRollout {
  if (sub.response === undefined) {
    throw new ServiceError('invalid_body', `${field}response: the ${preset} preset reads the raw response (its own format rule), not "code"`, `${field}response`);
  }
  if (sub.problem === undefined) {
    throw new ServiceError('invalid_body', `${field}problem: the ${preset} preset rewards queries to a loaded sql problem`, `${field}problem`);
  }
  const loaded = service.problems.get(sub.problem);
  if (loaded === undefined) throw new ServiceError('unknown_problem', `${field}problem: no problem "${sub.problem}" is loaded`, `${field}problem`);
  if (loaded.problem.kind !== 'sql') {
    throw new ServiceError('invalid_body', `${field}problem: the ${preset} preset rewards sql problems; "${sub.problem}" is ${loaded.problem.kind}`, `${field}problem`);
  }
  const problemId = loaded.problem.taskId;
  const extraction = preset === 'sql-r1' ? sqlR1Extract(sub.response) : skyrlSqlExtract(sub.response);
  if (!extraction.formatOk || extraction.sql === undefined) {
    const verdict = verdictWithoutTests('no_code', 1, `${preset}: the response fails the preset's format check (reward -1)`);
    return { preset, extraction, prepared: { kind: 'decided', verdict, extraction: { kind: 'code' }, testCount: 1, problemId } };
  }
  const problem = presetProblem(loaded.problem, preset);
  try {
    const prepared = prepareSubmission(problem, { code: extraction.sql, language: 'sql' }, service.submission);
    if (prepared.kind === 'decided') {
      return { preset, extraction, prepared: { kind: 'decided', verdict: prepared.verdict, extraction: prepared.extraction, testCount: 1, problemId } };
    }
    return {
      preset, extraction,
      prepared: { kind: 'judge', request: { problem: { inline: problem }, program: prepared.program, failFast: false }, extraction: prepared.extraction,
        testCount: prepared.testCount, problemId },
    };
  } catch (error) {
    if (error instanceof SubmissionError) throw new ServiceError('invalid_body', `${field}problem: ${error.message}`, `${field}problem`);
    throw error;
  }
}

/** How a verdict's status counts for the presets (module comment); undefined: no reward (Crucible's failure). */
export function presetExecution(verdict: Pick<Verdict, 'status'>): SqlPresetExecution | undefined {
  switch (verdict.status) {
    case 'passed':
      return 'match';
    case 'wrong_answer':
    case 'output_limit_exceeded':
      return 'mismatch';
    case 'internal_error':
    case 'reference_failed':
      return undefined;
    default:
      return 'unexecutable';
  }
}

/** The preset's reward of a judged rollout (module comment). */
export function sqlPresetReward(rollout: SqlPresetRollout, verdict: Verdict): SqlPresetReward {
  const score = rollout.preset === 'sql-r1' ? sqlR1Score : skyrlSqlScore;
  if (!rollout.extraction.formatOk) return { reward: score(rollout.extraction, 'unexecutable'), formatOk: false };
  const execution = presetExecution(verdict);
  if (execution === undefined) return { reward: null, formatOk: true };
  return { reward: score(rollout.extraction, execution), formatOk: true, execution };
}
