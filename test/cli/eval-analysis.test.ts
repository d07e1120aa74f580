/**
 * `crucible eval --analysis` end to end (the real CLI, the analysers in the sandbox through the judge's runPlain):
 * each judged program's findings counted in its record, identical programs analysed once, and the summary's
 * findings per sample and security findings per 1,000 lines; an unknown analyser is a usage error.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import type { SampleRecord } from '../../src/store/records.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-eval-analysis-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function crucible(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(join(PROJECT_ROOT, 'bin', 'crucible'), args, { maxBuffer: 64 << 20, env: { ...process.env, CRUCIBLE_CACHE_DIR: join(dir, 'cache') } },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

const write = (name: string, rows: readonly object[]): string => {
  const path = join(dir, name);
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return path;
};

const problems = write('problems.jsonl', [{ taskId: 'echo', tests: [{ input: '3\n', output: '3\n' }] }]);
// eval of its input: bandit's B307 (a security finding) on top of what it says of the clean one.
const RISKY = 'x = input()\nprint(eval(x))\n';
const CLEAN = 'print(int(input()))\n';

describe('crucible eval --analysis', () => {
  it('counts bandit\'s findings per sample and summarises them per 1,000 lines', async () => {
    const samples = write('samples.jsonl', [{ task_id: 'echo', solution: RISKY }, { task_id: 'echo', solution: RISKY }, { task_id: 'echo', solution: CLEAN }]);
    const out = join(dir, 'run');
    const outcome = await crucible(['eval', '--json', '--no-progress', '--no-store', '--k', '1', '--reps', '20', '--problems', problems,
      '--samples', samples, '--out', out, '--analysis', 'bandit']);
    assert.equal(outcome.code, 0, outcome.stderr);
    const records = readFileSync(join(out, 'verdicts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SampleRecord)
      .sort((a, b) => a.sampleIndex - b.sampleIndex);
    assert.deepEqual(records.map((r) => r.status), ['passed', 'passed', 'passed']);
    const [risky, again, clean] = records.map((r) => r.analysis!);
    assert.deepEqual([risky!.lines, clean!.lines, risky!.failed, clean!.failed], [2, 1, [], []]);
    assert.deepEqual(again, risky, 'the same program, the same findings');
    // Debian's bandit flags input() on both; eval() adds B307 on the risky one. Every bandit finding is security.
    assert.equal(risky!.security, clean!.security + 1);
    assert.equal(risky!.findings, risky!.security);
    const summary = JSON.parse(outcome.stdout) as { analysis: { samples: number; findingsPerSample: number; securityPerKloc: number; failedAnalyses: number } };
    const security = 2 * risky!.security + clean!.security;
    assert.deepEqual(summary.analysis, { samples: 3, findingsPerSample: security / 3, securityPerKloc: (1000 * security) / 5, failedAnalyses: 0 });
  });

  it('refuses an analyser it does not know, naming the known ones', async () => {
    const samples = write('one.jsonl', [{ task_id: 'echo', solution: CLEAN }]);
    const outcome = await crucible(['eval', '--problems', problems, '--samples', samples, '--out', join(dir, 'bad'), '--analysis', 'bandit,lint9']);
    assert.notEqual(outcome.code, 0);
    assert.match(outcome.stderr, /unknown analyser lint9; analysers: shellcheck, cppcheck, pylint, pyflakes, bandit, eslint/);
  });
});
