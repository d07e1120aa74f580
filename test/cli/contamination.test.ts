/**
 * Contamination analyses of `crucible eval` and `crucible report` (issue #28, item 6), with the real CLI: pass@k by
 * release window on LiveCodeBench problems (`--window-by month|release`) in the summary, the text output and the
 * report; verbatim copies of HumanEval's canonical solutions flagged in the summary and the report.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LCB_FIXTURE } from '../formats/helpers.js';
import { cliWorkspace } from '../support/cli.js';
import { HUMANEVAL } from '../support/data.js';
import { gunzipSync } from 'node:zlib';

const { dir, crucible, file } = cliWorkspace('contamination');

function firstRecords(path: string, n: number): Record<string, unknown>[] {
  return gunzipSync(readFileSync(path)).toString('utf8').trim().split('\n').slice(0, n).map((l) => JSON.parse(l) as Record<string, unknown>);
}

const NEW_SCHEME = 'S = list(map(int, input().split()))\nok = all(a <= b for a, b in zip(S, S[1:])) and all(100 <= s <= 675 and s % 25 == 0 for s in S)\nprint("Yes" if ok else "No")\n';

describe('pass@k by release window', () => {
  it('eval --window-by month splits pass@k by release month; report --window-by release regroups the same run', async () => {
    const outputs = join(dir, 'Scenario.codegeneration_2_0.2.json');
    writeFileSync(outputs, JSON.stringify([
      { question_id: '2812', output_list: ['no code here', 'no code either'] },
      { question_id: '2777', output_list: ['no code here', 'nothing'] },
      { question_id: 'abc308_a', output_list: [`\`\`\`python\n${NEW_SCHEME}\`\`\``, 'no code'] },
    ]));
    const out = join(dir, 'lcb-windows');
    const json = await crucible(['eval', '--no-progress', '--problems', LCB_FIXTURE, '--samples', outputs, '--window-by', 'month', '--k', '1,2',
      '--out', out, '--no-store', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const summary = JSON.parse(json.stdout) as { windows: { by: string; windows: { window: string; problems: number; passAtK: { k: number; passAtK: number }[] }[] };
      releaseDates: Record<string, string> };
    assert.equal(summary.windows.by, 'month');
    assert.deepEqual(summary.windows.windows.map((w) => [w.window, w.problems, w.passAtK.map((p) => p.passAtK)]),
      [['2023-05', 1, [0, 0]], ['2023-07', 2, [0.25, 0.5]]]);
    assert.equal(summary.releaseDates['abc308_a'], '2023-07-01T00:00:00');
    const report = await crucible(['report', out, '--window-by', 'release']);
    assert.equal(report.code, 0, report.stderr);
    assert.match(report.stdout, /## pass@k by release window/);
    assert.match(report.stdout, /\| v1 \| 2023-05-07 \.\. 2023-07-09 \| 3 \| 6 \| 16\.67 \[/);
    const monthly = await crucible(['report', out]);
    assert.match(monthly.stdout, /\| 2023-07 \| 2023-07-01 \.\. 2023-07-09 \| 2 \| 4 \| 25\.00 \[/, 'the eval\'s split is the default');
  });

  it('--window-by on problems without release dates is a one-line error', async () => {
    const problems = file('he2.jsonl', firstRecords(HUMANEVAL, 2));
    const samples = file('he2-samples.jsonl', firstRecords(HUMANEVAL, 2).map((p) => ({ task_id: p['task_id'], completion: p['canonical_solution'] })));
    const refused = await crucible(['eval', '--no-progress', '--problems', problems, '--samples', samples, '--window-by', 'month', '--no-store']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /^crucible: --window-by: no problem of .*he2\.jsonl has a release date/);
  });
});

describe('verbatim copies of the reference solution', () => {
  it('flags samples that are the canonical solution re-indented, not an independent solution', async () => {
    const rows = firstRecords(HUMANEVAL, 6);
    const problems = file('he6.jsonl', rows);
    // HumanEval/5 (intersperse): its canonical solution re-indented with tabs, and an independent one.
    const canonical = String(rows[5]!['canonical_solution']);
    const independent = '    if not numbers:\n        return []\n    out = [numbers[0]]\n    for value in numbers[1:]:\n        out.extend([delimeter, value])\n    return out\n';
    const samples = file('he6-samples.jsonl', rows.flatMap((p, i) => i === 5
      ? [{ task_id: p['task_id'], completion: canonical.replace(/ {4}/g, '\t') }, { task_id: p['task_id'], completion: independent }]
      : [{ task_id: p['task_id'], completion: p['canonical_solution'] }, { task_id: p['task_id'], completion: '    pass\n' }]));
    const out = join(dir, 'he6-run');
    const json = await crucible(['eval', '--no-progress', '--problems', problems, '--samples', samples, '--k', '1', '--out', out, '--no-store', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const summary = JSON.parse(json.stdout) as { copies: { n: number; threshold: number; flagged: number; copies: { taskId: string; sampleIndex: number; overlap: number }[] } };
    assert.deepEqual([summary.copies.n, summary.copies.threshold], [10, 0.8]);
    const flagged = summary.copies.copies.map((c) => `${c.taskId}#${c.sampleIndex}`);
    assert.ok(flagged.includes('HumanEval/5#0'), flagged.join(' '));
    assert.ok(!flagged.includes('HumanEval/5#1'), 'an independent solution is not a copy');
    assert.ok(flagged.every((f) => f.endsWith('#0')), 'no stub is a copy');
    const report = await crucible(['report', out]);
    assert.match(report.stdout, /## Verbatim copies of the reference solution/);
    assert.match(report.stdout, /\| HumanEval\/5 \| 0 \| 100\.00 \|/);
  });
});
