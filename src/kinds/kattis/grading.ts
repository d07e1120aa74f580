/**
 * How problemtools turns test case results into a submission's result (Kattis/problemtools
 * `problemtools/judge/submission_judge.py` `_judge_group` and `support/default_grader/default_grader`, read for
 * their rules; no code taken):
 *
 * - A group's items (test cases and subgroups, in order) are judged one by one; a test case without a validator
 *   score gets its group's `accept_score` when accepted, else `reject_score`. With `on_reject: break` (the
 *   default) the group stops at its first item that is not accepted.
 * - A judge error among the items is the group's result. Otherwise the default grader aggregates the items'
 *   verdicts (`worst_error`, the default, and `no_errors`: the worst by JE, IF, RTE, MLE, TLE, OLE, WA, PE, AC;
 *   `first_error`; `always_accept`) and scores (`sum`, the default; `avg`, `min`, `max`); `ignore_sample` keeps only
 *   the last of one or two items (the grader fails on any other count); `accept_if_any_accepted` accepts a group
 *   with one accepted item. The grader prints its score with six decimals, which is the score kept.
 * - The submission's result is the root group's (`data/`): its verdict, and for scoring problems its score.
 *
 * Test cases that did not run (a fail-fast stop) are left out, as problemtools leaves out filtered ones.
 */
import type { KattisGroup } from '../../formats/types.js';

/** problemtools' verdicts (the grader's alphabet). */
export type KattisVerdict = 'AC' | 'WA' | 'TLE' | 'RTE' | 'MLE' | 'OLE' | 'PE' | 'IF' | 'JE';

/** One test case's result: its verdict, the validator's score if it gave one, and its CPU time. */
export interface KattisTestOutcome {
  readonly verdict: KattisVerdict;
  readonly score?: number;
  readonly runtimeMs: number;
}

/** A group's (or the submission's) result: verdict, score (the grader's, six decimals), slowest test's CPU time. */
export interface KattisGroupResult {
  readonly verdict: KattisVerdict;
  readonly score: number;
  readonly runtimeMs: number;
}

/** `worst_error`'s order, worst first. */
const WORST_FIRST: readonly KattisVerdict[] = ['JE', 'IF', 'RTE', 'MLE', 'TLE', 'OLE', 'WA', 'PE', 'AC'];

const SCORE_AGGREGATES: Readonly<Record<string, (scores: readonly number[]) => number>> = {
  sum: (s) => s.reduce((a, b) => a + b, 0),
  avg: (s) => s.reduce((a, b) => a + b, 0) / s.length,
  max: (s) => Math.max(...s),
  min: (s) => Math.min(...s),
};

const VERDICT_AGGREGATES: Readonly<Record<string, (verdicts: readonly KattisVerdict[]) => KattisVerdict>> = {
  worst_error: (v) => WORST_FIRST[Math.min(...[...v, 'AC' as const].map((x) => WORST_FIRST.indexOf(x)))]!,
  no_errors: (v) => VERDICT_AGGREGATES['worst_error']!(v),
  first_error: (v) => v.find((x) => x !== 'AC') ?? 'AC',
  always_accept: () => 'AC',
};

/** The default grader on a group's item results (module comment); `JE` when it would fail. */
function defaultGrader(flags: readonly string[], items: readonly KattisGroupResult[]): { verdict: KattisVerdict; score: number } {
  let scoreOf = SCORE_AGGREGATES['sum']!;
  let verdictOf = VERDICT_AGGREGATES['worst_error']!;
  for (const flag of flags) {
    scoreOf = SCORE_AGGREGATES[flag] ?? scoreOf;
    verdictOf = VERDICT_AGGREGATES[flag] ?? verdictOf;
  }
  let kept = items;
  if (flags.includes('ignore_sample')) {
    if (items.length < 1 || items.length > 2) return { verdict: 'JE', score: 0 };
    kept = items.slice(-1);
  }
  const verdicts = kept.map((r) => r.verdict);
  const verdict = flags.includes('accept_if_any_accepted') && verdicts.includes('AC') ? 'AC' : verdictOf(verdicts);
  const score = scoreOf(kept.map((r) => r.score));
  if (!Number.isFinite(score)) return { verdict: 'JE', score: 0 };
  return { verdict, score: Number(score.toFixed(6)) };
}

/**
 * Grade `group` (module comment) on `tests` (indexed as the problem's tests; undefined: did not run). Undefined
 * when none of its test cases ran.
 */
export function gradeGroup(group: KattisGroup, tests: readonly (KattisTestOutcome | undefined)[]): KattisGroupResult | undefined {
  const children: KattisGroupResult[] = [];
  for (const item of group.items) {
    let result: KattisGroupResult | undefined;
    if ('group' in item) {
      result = gradeGroup(item.group, tests);
    } else {
      const test = tests[item.test];
      if (test !== undefined) {
        result = { verdict: test.verdict, runtimeMs: test.runtimeMs,
          score: test.score ?? (test.verdict === 'AC' ? group.acceptScore : group.rejectScore) };
      }
    }
    if (result === undefined) continue;
    children.push(result);
    if (result.verdict !== 'AC' && group.onReject === 'break') break;
  }
  if (children.length === 0) return undefined;
  const runtimeMs = Math.max(...children.map((c) => c.runtimeMs));
  const judgeError = children.find((c) => c.verdict === 'JE');
  if (judgeError !== undefined) return { ...judgeError, runtimeMs };
  return { ...defaultGrader(group.graderFlags, children), runtimeMs };
}

/** The test outcomes with every runtime over `timeLimitMs` turned into TLE (problemtools' cache, `_reclassify`). */
export function atTimeLimit(tests: readonly (KattisTestOutcome | undefined)[], timeLimitMs: number): (KattisTestOutcome | undefined)[] {
  return tests.map((t) => (t !== undefined && t.runtimeMs > timeLimitMs ? { verdict: 'TLE', runtimeMs: t.runtimeMs } : t));
}

/** The best score of a scoring problem (the root group's range's upper end), or undefined when it is unbounded. */
export function bestScore(root: KattisGroup): number | undefined {
  return Number.isFinite(root.range[1]) ? root.range[1] : undefined;
}
