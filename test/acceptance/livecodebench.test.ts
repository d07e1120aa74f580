/**
 * LiveCodeBench problems judged in the real sandbox as LiveCodeBench judges them: LeetCode-style functional
 * problems by calling `Solution().<func_name>` against the dataset's expected outputs (no reference solution; a
 * tuple answer counts as the list, LiveCodeBench's import header is in place), stdin problems by LiveCodeBench's
 * line/decimal comparison; raw responses from a LiveCodeBench output file are extracted, then judged.
 * Problems: test/formats/data/livecodebench (real public items in the published shape).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readProblems, readSamples } from '../../src/formats/index.js';
import type { Problem } from '../../src/formats/types.js';
import { defaultModes } from '../../src/kinds/index.js';
import { prepareSubmission } from '../../src/judge/submission.js';
import { LanguageRegistry } from '../../src/languages/registry.js';
import { createJudge } from '../../src/engine/factory.js';
import type { Verdict } from '../../src/verdict/index.js';
import { LCB_FIXTURE, tempFile } from '../formats/helpers.js';

const languages = LanguageRegistry.load();
const judge = createJudge({ languages, cacheDir: null });
after(() => judge.close());

const RIGHT: Record<string, string> = {
  '2812': 'class Solution:\n    def theMaximumAchievableX(self, num: int, t: int) -> int:\n        return num + 2 * t\n',
  // `List` comes from LiveCodeBench's import header; a tuple answer is compared as a list.
  '2777': 'class Solution:\n    def distinctDifferenceArray(self, nums: List[int]) -> List[int]:\n'
    + '        return tuple(len(set(nums[:i + 1])) - len(set(nums[i + 1:])) for i in range(len(nums)))\n',
  // Trailing spaces and a blank last line: LiveCodeBench strips them.
  'abc308_a': 's = list(map(int, input().split()))\nok = all(a <= b for a, b in zip(s, s[1:])) and all(100 <= x <= 675 and x % 25 == 0 for x in s)\n'
    + 'print("Yes  " if ok else "No  ")\nprint()\n',
};
const WRONG: Record<string, string> = {
  '2812': 'class Solution:\n    def theMaximumAchievableX(self, num: int, t: int) -> int:\n        return num + t\n',
  '2777': 'class Solution:\n    def distinctDifferenceArray(self, nums):\n        return [0] * len(nums)\n',
  'abc308_a': 'input()\nprint("Yes")\n',
};

async function judgeAll(problems: readonly Problem[], submission: (p: Problem) => { solution?: string; response?: string }): Promise<Verdict[]> {
  judge.catalog.add('lcb-fixture', problems);
  return Promise.all(problems.map((p) => {
    const prepared = prepareSubmission(p, submission(p), { languages, modes: defaultModes() });
    if (prepared.kind !== 'program') throw new Error(`${p.taskId}: no program`);
    return judge.judge({ problem: { datasetHash: 'lcb-fixture', taskId: p.taskId }, program: prepared.program });
  }));
}

describe('LiveCodeBench judged as LiveCodeBench judges', () => {
  it('right solutions pass every public and private test; wrong ones fail', async () => {
    const problems = await readProblems(LCB_FIXTURE);
    const right = await judgeAll(problems, (p) => ({ solution: RIGHT[p.taskId]! }));
    right.forEach((v, i) => assert.equal(v.status, 'passed', `${problems[i]!.taskId}: ${JSON.stringify(v)}`));
    assert.deepEqual(right.map((v) => v.testCount), [5, 4, 5]);
    const wrong = await judgeAll(problems, (p) => ({ solution: WRONG[p.taskId]! }));
    wrong.forEach((v, i) => assert.equal(v.status, 'wrong_answer', `${problems[i]!.taskId}: ${JSON.stringify(v)}`));
    assert.match(wrong[0]!.reason ?? '', /returned 5, expected 6/);
  });

  it('raw responses of a LiveCodeBench output file are extracted from their fences and judged', async () => {
    const problems = await readProblems(LCB_FIXTURE);
    const outputs = problems.map((p) => ({ question_id: p.taskId, output_list: [
      `Let me think.\n\n\`\`\`python\n${RIGHT[p.taskId]}\`\`\`\n`, `\`\`\`python\n${WRONG[p.taskId]}\`\`\``, 'I cannot solve this.'] }));
    const samples = await readSamples(tempFile('Scenario.codegeneration_3_0.2.json', JSON.stringify(outputs)));
    assert.equal(samples.length, 9);
    const statuses: string[] = [];
    for (const s of samples) {
      const problem = problems.find((p) => p.taskId === s.taskId)!;
      const prepared = prepareSubmission(problem, { response: s.response! }, { languages, modes: defaultModes() });
      if (prepared.kind === 'decided') {
        statuses.push(prepared.verdict.status);
        continue;
      }
      judge.catalog.add('lcb-fixture', problems);
      statuses.push((await judge.judge({ problem: { datasetHash: 'lcb-fixture', taskId: s.taskId }, program: prepared.program })).status);
    }
    assert.deepEqual(statuses, ['passed', 'wrong_answer', 'no_code', 'passed', 'wrong_answer', 'no_code', 'passed', 'wrong_answer', 'no_code']);
  });
});
