/**
 * IOI subtask scoring as CMS computes it for IOI tasks (CMS `cms/grading/scoretypes/GroupMin.py`): a subtask is
 * worth its points times the smallest score any of its tests got (each test's score a fraction in [0, 1]); the
 * task's score is the sum over subtasks. A subtask without tests is worth 0. Rounding follows open-r1's
 * `ioi_scoring.SubtaskResult` (`weighted_score`: round(min x points, score_precision)), which mirrors CMS's
 * `score_precision`.
 */

/** One subtask: its points and the scores of its tests (fractions in [0, 1]), in any order. */
export interface SubtaskScores {
  readonly points: number;
  readonly testScores: readonly number[];
}

/** Points of one subtask: `points x min(testScores)`, rounded to `precision` decimals (default 2); 0 without tests. */
export function subtaskPoints(subtask: SubtaskScores, precision = 2): number {
  if (subtask.testScores.length === 0) return 0;
  const worst = Math.min(...subtask.testScores);
  const scale = 10 ** precision;
  return Math.round(worst * subtask.points * scale) / scale;
}

/**
 * The task's score: the sum of `subtaskPoints` over its subtasks (GroupMin), rounded to `precision` decimals.
 * @throws RangeError for a test score outside [0, 1] or negative points (a checker's or caller's bug, never scored).
 */
export function groupMinScore(subtasks: readonly SubtaskScores[], precision = 2): number {
  for (const [i, s] of subtasks.entries()) {
    if (!(s.points >= 0)) throw new RangeError(`subtasks[${i}].points must be >= 0, got ${s.points}`);
    const bad = s.testScores.find((x) => !(x >= 0 && x <= 1));
    if (bad !== undefined) throw new RangeError(`subtasks[${i}].testScores: ${bad} is not in [0, 1]`);
  }
  const scale = 10 ** precision;
  return Math.round(subtasks.reduce((sum, s) => sum + subtaskPoints(s, precision), 0) * scale) / scale;
}
