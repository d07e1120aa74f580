/**
 * The local judge's contract, with real programs in the real sandbox: identical requests are judged once;
 * a caller's AbortSignal cancels its own wait (and the shared work only when every caller gave up); Crucible's
 * failures are retried a bounded number of times, then returned as `internal_error` verdicts (never a
 * rejection); bad requests reject with `JudgeRequestError`.
 */
// crucible-test: alone — cancellation is timed against a judgement still under way (abort after 100 ms) (test/run.ts runs it with no other file).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { IoProblem, ProblemBase } from '../../src/formats/types.js';
import { JudgeRequestError } from '../../src/judge/judge.js';
import { defaultModes, defineMode, type JudgingMode } from '../../src/kinds/index.js';
import { createJudge } from '../../src/engine/factory.js';
import { INTERNAL_ERROR_RETRIES } from '../../src/engine/local-judge.js';
import type { Verdict } from '../../src/verdict/index.js';

interface FlakyProblem extends ProblemBase {
  readonly kind: 'flaky';
  /** Plans that fail (as if the host failed) before one succeeds. */
  readonly failures: number;
}

let plansMade = 0;
/** A kind whose planning fails the first `failures` times: Crucible's own (transient) failure, injected. */
const flaky: JudgingMode<FlakyProblem> = {
  kind: 'flaky',
  description: 'test: planning fails a given number of times',
  language: () => 'python',
  assemble: (_p, code) => code,
  testCount: () => 1,
  plan: (problem, program, { limits }) => {
    if (plansMade++ < problem.failures) throw new Error(`injected failure ${plansMade}`);
    return { kind: 'program_runs', program, runs: [{ stdin: '', check: null }], limits, failFast: false };
  },
  verdict: (_p, outcome): Verdict => {
    if (outcome.kind !== 'program_runs') throw new Error('runs programs');
    const status = outcome.tests[0]?.status ?? 'internal_error';
    return { status, passed: status === 'passed', tests: outcome.tests, testCount: 1, cpuMs: 0, wallMs: 0 };
  },
};

const judge = createJudge({ slots: 2, modes: defaultModes().with(defineMode(flaky)), cacheDir: null });
after(() => judge.close());

const ECHO: IoProblem = { kind: 'io', taskId: 'echo', comparator: { kind: 'tokens' },
  tests: [{ input: 'a\n', output: 'a\n' }, { input: 'b\n', output: 'b\n' }, { input: 'c\n', output: 'c\n' }] };
/** Sleeps 0.4 s of wall time per test, then echoes. */
const SLOW_ECHO = 'import time\ntime.sleep(0.4)\nprint(input())\n';

describe('LocalJudge', () => {
  it('judges identical requests once, in flight and afterwards', async () => {
    const before = judge.stats();
    const request = { problem: { inline: ECHO }, program: { language: 'py', source: 'print(input())\n' } };
    const verdicts = await Promise.all([judge.judge(request), judge.judge(request), judge.judge({ ...request, problem: { inline: { ...ECHO } } })]);
    assert.deepEqual(verdicts.map((v) => v.status), ['passed', 'passed', 'passed']);
    const again = await judge.judge(request);
    assert.equal(again.status, 'passed');
    const after = judge.stats();
    assert.equal(after.requests - before.requests, 4);
    assert.equal(after.deduplicated - before.deduplicated, 3, 'an equal inline problem is the same problem');
    assert.equal(after.runs - before.runs, 3, 'one judgement of three tests');
  });

  it('a cancelled caller stops waiting at once; the shared judgement goes on for the other caller', async () => {
    const before = judge.stats();
    const controller = new AbortController();
    const request = { problem: { inline: ECHO }, program: { language: 'python', source: SLOW_ECHO } };
    const cancelled = judge.judge(request, { signal: controller.signal });
    const kept = judge.judge(request);
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(cancelled, (e: Error) => e.name === 'AbortError');
    assert.equal((await kept).status, 'passed');
    assert.equal(judge.stats().runs - before.runs, 3);
  });

  it('cancelling the only caller stops the judgement before its next run, and nothing is memoised', async () => {
    const before = judge.stats();
    const controller = new AbortController();
    const request = { problem: { inline: { ...ECHO, taskId: 'echo-2' } }, program: { language: 'python', source: SLOW_ECHO } };
    const pending = judge.judge(request, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(pending, (e: Error) => e.name === 'AbortError');
    // Judged afresh (not answered from the cancelled attempt): three runs. The cancelled attempt made at most the
    // one run under way when it was cancelled (the sandbox takes no signal yet, so that run ends within its
    // limits); had it gone on, its two other runs would have started while the fresh judgement ran its three.
    const fresh = await judge.judge(request);
    assert.equal(fresh.status, 'passed');
    const runs = judge.stats().runs - before.runs;
    assert.ok(runs === 3 || runs === 4, `${runs} runs`);
  });

  it(`retries an internal_error ${INTERNAL_ERROR_RETRIES} times, then returns it as a verdict`, async () => {
    const before = judge.stats();
    plansMade = 0;
    const transient = await judge.judge({ problem: { inline: { kind: 'flaky', taskId: 'f/1', failures: 1 } as FlakyProblem },
      program: { language: 'python', source: 'print(1)\n' } });
    assert.equal(transient.status, 'passed', JSON.stringify(transient));
    assert.equal(judge.stats().retries - before.retries, 1);
    plansMade = 0;
    const lasting = await judge.judge({ problem: { inline: { kind: 'flaky', taskId: 'f/2', failures: 100 } as FlakyProblem },
      program: { language: 'python', source: 'print(1)\n' } });
    assert.equal(lasting.status, 'internal_error');
    assert.match(lasting.reason ?? '', /^crucible failed: injected failure 3$/);
    assert.equal(plansMade, 1 + INTERNAL_ERROR_RETRIES);
  });

  it('rejects requests it cannot judge as asked with JudgeRequestError', async () => {
    const program = { language: 'python', source: 'print(1)\n' };
    const cases: [Parameters<typeof judge.judge>[0], RegExp][] = [
      [{ problem: { datasetHash: 'nope', taskId: 'x' }, program }, /dataset nope is not in this judge's catalog/],
      [{ problem: { inline: ECHO }, program: { language: 'no-such-language', source: '' } }, /unknown language "no-such-language"/],
      [{ problem: { inline: ECHO }, program, limits: { memoryKiB: 1 } }, /limits: 1 is outside the allowed range/],
      [{ problem: { inline: { kind: 'unit_test', taskId: 'u', language: 'python', prompt: '', entryPoint: 'f', test: '' } as ProblemBase },
        program: { language: 'c', source: '' } }, /cannot be judged in c/],
    ];
    for (const [request, message] of cases) {
      await assert.rejects(judge.judge(request), (e: Error) => e instanceof JudgeRequestError && message.test(e.message));
    }
    judge.catalog.add('ds', [ECHO]);
    await assert.rejects(judge.judge({ problem: { datasetHash: 'ds', taskId: 'nope' }, program }), /no problem "nope" in dataset ds/);
  });

  it('runs plain programs (compile once, run) and raw harness jobs', async () => {
    const c = await judge.runPlain({ program: { language: 'c', source: '#include <stdio.h>\nint main(void){puts("hi");return 3;}\n' },
      stdin: '', limits: { cpuMs: 1000, memoryKiB: 256 * 1024 } });
    assert.equal(c.compile?.status, 'ok');
    assert.equal(c.run?.status, 'runtime_error');
    assert.equal(c.run?.stdout, 'hi\n');
    const broken = await judge.runPlain({ program: { language: 'c', source: 'int main(' }, stdin: '', limits: { cpuMs: 1000, memoryKiB: 256 * 1024 } });
    assert.equal(broken.compile?.status, 'compile_error');
    assert.equal(broken.run, null);
    const harness = await judge.runHarness({ mode: 'assertions', program: 'def f(x):\n    return x + 1\n', prelude: '', entryPoint: 'f',
      assertions: ['assert f(1) == 2', 'assert f(1) == 3'], cpuMs: 500, wallMs: 3500, memoryKiB: 256 * 1024, outputBytes: 1 << 16 });
    assert.deepEqual(harness.results?.map((r) => r.status), ['passed', 'wrong_answer']);
  });
});
