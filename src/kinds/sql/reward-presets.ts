/**
 * Reward presets of published text-to-SQL RL recipes, each on its own rules: how the response's format is
 * checked, which SQL is taken from it, how it is compared, and the numbers. Pure: the caller executes the
 * queries (`./judging.ts`) and passes what happened.
 *
 * `sql-r1` — SQL-R1 (Ma et al. 2025, arXiv 2504.08600), DataArcTech/SQL-R1 `verl/utils/reward_score/synsql.py`
 * at acb5c0d:
 * - the response is cut after its first `Assistant:` (else after `<|im_start|>assistant`; the reference needs one of
 *   them, Crucible takes the whole response when neither is there);
 * - format: `<think>`, `</think>`, `<answer>`, `</answer>` each exactly once, in that order, and the last
 *   ```` ```sql ... ``` ```` block of the last `<answer>...</answer>` non-empty: +1, else -1 (and nothing else);
 * - the SQL (runs of whitespace collapsed to one space, gold too) is judged by the test-suite rule
 *   (`spider-testsuite`, DISTINCT removed, every instance): not executable (an error or the 30 s time-out) -2;
 *   executable +2, then +3 when the results match, -3 when not;
 * - length (only on a match): with L = |think| + |answer| (characters), `|sql| / |answer| + min(L, 2048) / 2048 * 0.5`.
 * - the reference turns a gold query that fails into a match (`pred_passes == 3` compares instead of assigning);
 *   Crucible gives no reward then (the judgement is `internal_error`).
 *
 * `skyrl-sql` — SkyRL-SQL (NovaSky-AI/SkyRL `skyrl-gym/skyrl_gym/envs/sql/utils.py`, `calculate_reward_single`):
 * - format (`verify_format_and_extract`): exactly one `<solution>`, exactly one `</solution>` after it, no
 *   `<think>`/`<sql>`/`<observation>` tag (opening or closing, any case) inside the solution, at least one
 *   `<think>...</think>`, and every `</observation>` before the solution followed (after whitespace) by `<think>`;
 *   a bad format is -1;
 * - the solution text (stripped) and the gold are executed on the one database; the reward is 1 when both ran
 *   and `frozenset(rows)` agree (`bird-ex`), else 0.
 */

/** A preset's name. */
export type SqlRewardPreset = 'sql-r1' | 'skyrl-sql';

/** What a preset's format check found in a response. */
export interface SqlPresetExtraction {
  readonly formatOk: boolean;
  /** The SQL to execute, as the preset executes it; undefined when the format is bad. */
  readonly sql: string | undefined;
  /** SQL-R1's think and answer texts (stripped), for the length reward. */
  readonly thinkText?: string;
  readonly answerText?: string;
}

/** How the preset's comparison of the executed SQL came out. */
export type SqlPresetExecution = 'unexecutable' | 'mismatch' | 'match';

/** Python's `len` (code points). */
function pyLen(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Python's `str.strip()`. */
export function pyStrip(s: string): string {
  return s.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/gu, '');
}

/** Occurrences of `needle` in `haystack` (non-overlapping, as Python's `str.count`). */
function count(haystack: string, needle: string): number {
  let n = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** The last match's group 1 of a global regex, or undefined. */
function lastGroup(re: RegExp, text: string): string | undefined {
  let last: string | undefined;
  for (const m of text.matchAll(re)) last = m[1];
  return last;
}

/** SQL-R1's `extract_solution` + `validate_response_structure` (module comment). */
export function sqlR1Extract(response: string): SqlPresetExtraction {
  let processed = response;
  if (response.includes('Assistant:')) processed = response.slice(response.indexOf('Assistant:') + 'Assistant:'.length);
  else if (response.includes('<|im_start|>assistant')) {
    processed = response.slice(response.indexOf('<|im_start|>assistant') + '<|im_start|>assistant'.length);
  }
  const answer = lastGroup(/<answer>([\s\S]*?)<\/answer>/g, processed);
  const think = lastGroup(/<think>([\s\S]*?)<\/think>/g, processed);
  const answerText = answer === undefined ? undefined : pyStrip(answer);
  const thinkText = think === undefined ? undefined : pyStrip(think);
  const tags = ['<think>', '</think>', '<answer>', '</answer>'];
  const countsOk = tags.every((t) => count(processed, t) === 1);
  const [p0, p1, p2, p3] = tags.map((t) => processed.indexOf(t)) as [number, number, number, number];
  const orderOk = !(p0 > p1 || p1 > p2 || p2 > p3);
  if (!countsOk || !orderOk || answerText === undefined) return { formatOk: false, sql: undefined };
  const block = lastGroup(/```sql([\s\S]*?)```/g, answerText);
  const sql = block === undefined ? '' : pyStrip(block);
  if (sql === '') return { formatOk: false, sql: undefined };
  return { formatOk: true, sql: sql.replace(/\s+/gu, ' '), thinkText: thinkText ?? '', answerText };
}

/** SQL-R1's limit of the length reward, characters. */
export const SQL_R1_LIMIT_LENGTH = 2048;

/** SQL-R1's total score (module comment). `execution` is ignored when the format is bad. */
export function sqlR1Score(extraction: SqlPresetExtraction, execution: SqlPresetExecution): number {
  if (!extraction.formatOk || extraction.sql === undefined) return -1;
  const format = 1;
  if (execution === 'unexecutable') return format - 2;
  if (execution === 'mismatch') return format + 2 - 3;
  const think = extraction.thinkText ?? '';
  const answer = extraction.answerText ?? '';
  const length = pyLen(think) + pyLen(answer);
  const sqlShare = pyLen(extraction.sql) / pyLen(answer);
  const lengthScore = length <= SQL_R1_LIMIT_LENGTH ? sqlShare + (length / SQL_R1_LIMIT_LENGTH) * 0.5 : 0.5 + sqlShare;
  return format + 2 + 3 + lengthScore;
}

/** SkyRL-SQL's `verify_format_and_extract` (module comment). */
export function skyrlSqlExtract(output: string): SqlPresetExtraction {
  const bad: SqlPresetExtraction = { formatOk: false, sql: undefined };
  if (count(output, '<solution>') !== 1) return bad;
  const at = output.indexOf('<solution>');
  const preSolution = output.slice(0, at);
  const tail = output.slice(at + '<solution>'.length);
  if (count(tail, '</solution>') !== 1) return bad;
  const solution = tail.slice(0, tail.indexOf('</solution>'));
  if (/<\/?(?:think|sql|observation)(?![\p{L}\p{N}_])/iu.test(solution)) return bad;
  if (!/<think>[\s\S]*?<\/think>/.test(output)) return bad;
  for (const m of preSolution.matchAll(/<\/observation>/gi)) {
    const rest = preSolution.slice(m.index! + m[0].length).replace(/^[\s\x1c-\x1f\x85]+/u, '');
    if (!rest.toLowerCase().startsWith('<think>')) return bad;
  }
  return { formatOk: true, sql: pyStrip(solution) };
}

/** SkyRL-SQL's reward: -1 bad format, 1 on a match, else 0. */
export function skyrlSqlScore(extraction: SqlPresetExtraction, execution: SqlPresetExecution): number {
  if (!extraction.formatOk) return -1;
  return execution === 'match' ? 1 : 0;
}
