/**
 * Conformance with the trainers' clients: a real `crucible serve` (the CLI, spawned on a free port) driven by
 * replays of verl's SandboxFusion reward utilities, the SandboxFusion SDK, OpenRLHF's remote reward call and
 * open-r1's Piston client with its Codeforces and IOI scorers. Each client's exact wire contract (request, the
 * fields it reads, how it derives its score or status, retries, time-outs; with the upstream repository, commit
 * and files it was read from) is a fixture in test/conformance/contracts; test/conformance/drivers.ts replays it.
 * No upstream code is needed to run this. Each client is checked on a correct, a wrong, a time-limit, a
 * runtime-error and a compile-error program for the score or status it derives, and every answer is checked to
 * carry the fields, types and values the client reads. A second, in-process server whose only admission place
 * the test holds answers each client's requests with its overload status: the client's own retry policy must
 * retry it and then score the program right, or, when the server stays full, end as the client ends (an API
 * error, an exception, no reward), never as a made-up score. The programs run in the sandbox; the Codeforces and
 * IOI problems are test/fixtures/contest (written for these tests). The time-out case, timed against the clients' own
 * request time-outs, is clients-timeouts.test.ts, which runs alone.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import type { Attempt } from './contract.js';
import {
  addIncludes, cfScoreSubmission, ioiScoreSubtasks, numericLogs, openrlhfReward, pistonClient, pistonExecute,
  sdkRunCode, verlCheckCorrectness, verlComputeScore, type CodeforcesProblem, type DriverContext, type IoiSubtask,
  type PistonClient, type PistonJob, type SdkRequest,
} from './drivers.js';
import { servedForFile } from './serve.js';

/** Replay contexts on the spawned server (test/conformance/serve.ts). */
const context = servedForFile();

const SUM = 'a, b = map(int, input().split())\nprint(a + b)';
const SUM_CPP = '#include <cstdio>\nint main(){int a,b;scanf("%d %d",&a,&b);printf("%d\\n",a+b);}';

describe('trainers\' clients, replayed from their contracts, against crucible serve', () => {
  test('verl: sandbox_fusion compute_score / check_correctness', async () => {
    const ctx = context();
    const tests = { inputs: ['1 2\n', '5 5\n'], outputs: ['3\n', '10\n'] };
    const fence = (code: string): string => `Here is my solution.\n\`\`\`python\n${code}\n\`\`\``;
    const score = (code: string, timeout = 10): Promise<{ score: number; statuses: string[] }> => verlComputeScore(ctx, fence(code), tests, { timeout });
    const statuses = (cases: { status: string }[]): string[] => cases.map((c) => c.status);
    const [correct, wrong, timeLimit, sleeper, runtimeError, compileError, cppCorrect] = await Promise.all([
      score(SUM),
      score('a, b = map(int, input().split())\nprint(a - b)'),
      score('while True:\n    pass', 1),
      score('import time\ntime.sleep(5)\nprint(3)', 1),
      score('raise ValueError(\'boom\')'),
      verlCheckCorrectness(ctx, tests, 'int main( {', { timeout: 10, language: 'cpp' }),
      verlCheckCorrectness(ctx, tests, SUM_CPP, { timeout: 10, language: 'cpp' }),
    ]);
    assert.deepEqual(correct, { score: 1, statuses: ['success', 'success'] });
    assert.deepEqual(wrong, { score: 0, statuses: ['wrong_answer', 'wrong_answer'] });
    assert.deepEqual(timeLimit, { score: 0, statuses: ['timeout', 'timeout'] });
    assert.deepEqual(sleeper, { score: 0, statuses: ['timeout', 'timeout'] }, 'run_timeout is wall-clock: a sleeper times out');
    assert.deepEqual(runtimeError, { score: 0, statuses: ['runtime_error', 'runtime_error'] });
    assert.deepEqual({ results: compileError.map((c) => c.result), statuses: statuses(compileError) }, { results: [-4, -4], statuses: ['compile_error', 'compile_error'] });
    assert.deepEqual({ results: cppCorrect.map((c) => c.result), statuses: statuses(cppCorrect) }, { results: [true, true], statuses: ['success', 'success'] });
    // A completion without a fence: verl scores it 0 without asking the server.
    assert.deepEqual(await verlComputeScore(ctx, 'print(3)', tests), { score: 0, statuses: [] });
    assert.deepEqual(ctx.problems, []);
  });

  test('SandboxFusion SDK: run_code', async () => {
    const ctx = context();
    const run = async (request: SdkRequest): Promise<Record<string, unknown>> => {
      const response = await sdkRunCode(ctx, { run_timeout: 10, ...request }, 1);
      const step = (r: unknown): unknown => (r === null || r === undefined ? null : {
        status: (r as Record<string, unknown>)['status'], return_code: (r as Record<string, unknown>)['return_code'], stdout: (r as Record<string, unknown>)['stdout'],
      });
      return { status: response['status'], run: step(response['run_result']), compile: step(response['compile_result']) };
    };
    const out = {
      correct: await run({ code: SUM, language: 'python', stdin: '20 22\n' }),
      wrong: await run({ code: 'print(0)', language: 'python', stdin: '20 22\n' }),
      time_limit: await run({ code: 'while True:\n    pass', language: 'python', run_timeout: 1 }),
      sleeper: await run({ code: 'import time\ntime.sleep(4)\nprint(\'slept\')', language: 'python', run_timeout: 1 }),
      runtime_error: await run({ code: 'import sys\nsys.exit(3)', language: 'python' }),
      compile_error: await run({ code: 'int main( {', language: 'cpp' }),
      pytest_pass: await run({ code: 'def test_add():\n    assert 1 + 2 == 3\n', language: 'pytest' }),
      pytest_fail: await run({ code: 'def test_add():\n    assert 1 + 2 == 4\n\ndef test_ok():\n    pass\n', language: 'pytest' }),
      files: await run({ code: 'print(open(\'data/in.txt\').read().strip())', language: 'python', files: { 'data/in.txt': Buffer.from('from a file\n').toString('base64') } }),
    };
    assert.deepEqual(out.correct, { status: 'Success', run: { status: 'Finished', return_code: 0, stdout: '42\n' }, compile: null });
    assert.deepEqual(out.wrong, { status: 'Success', run: { status: 'Finished', return_code: 0, stdout: '0\n' }, compile: null });
    assert.deepEqual(out.time_limit, { status: 'Failed', run: { status: 'TimeLimitExceeded', return_code: null, stdout: '' }, compile: null });
    assert.deepEqual(out.sleeper, { status: 'Failed', run: { status: 'TimeLimitExceeded', return_code: null, stdout: '' }, compile: null });
    assert.deepEqual(out.runtime_error, { status: 'Failed', run: { status: 'Finished', return_code: 3, stdout: '' }, compile: null });
    const compile = out.compile_error as { status: string; run: unknown; compile: { status: string; return_code: number } };
    assert.equal(compile.status, 'Failed');
    assert.equal(compile.run, null);
    assert.equal(compile.compile.status, 'Finished');
    assert.notEqual(compile.compile.return_code, 0);
    const pytestPass = out.pytest_pass as { status: string; run: { stdout: string } };
    assert.equal(pytestPass.status, 'Success');
    assert.match(pytestPass.run.stdout, /1 passed/);
    const pytestFail = out.pytest_fail as { status: string; run: { return_code: number; stdout: string } };
    assert.equal(pytestFail.status, 'Failed');
    assert.equal(pytestFail.run.return_code, 1);
    assert.match(pytestFail.run.stdout, /FAILED test_main\.py::test_add/);
    assert.match(pytestFail.run.stdout, /1 failed, 1 passed/);
    assert.deepEqual(out.files, { status: 'Success', run: { status: 'Finished', return_code: 0, stdout: 'from a file\n' }, compile: null });
    // A language Crucible cannot run: a 400 the SDK raises (after its attempts) with the body, which says why.
    await assert.rejects(sdkRunCode(ctx, { code: 'print(1)', language: 'cuda' }, 1),
      /Faas api responded with code 400: .*\\"cuda\\" is not available on Crucible: it needs an NVIDIA GPU/);
    assert.deepEqual(ctx.problems, []);
  });

  test('OpenRLHF: remote_rm_url (queries end with <|im_end|>)', async () => {
    const ctx = context();
    const prompt = '<|im_start|>user\nRead two integers and print their sum.<|im_end|>\n<|im_start|>assistant\n';
    const label = JSON.stringify({ tests: [{ input: '1 2\n', output: '3\n' }, { input: '5 5\n', output: '10\n' }], language: 'python', timeLimitMs: 1000 });
    const cppLabel = JSON.stringify({ tests: [{ input: '1 2\n', output: '3\n' }], language: 'cpp' });
    const fenced = (code: string, tag = 'python'): string => `Here you go:\n\`\`\`${tag}\n${code}\n\`\`\``;
    const reward = async (response: string, sampleLabel = label): Promise<Record<string, unknown>> => {
      const out = await openrlhfReward(ctx, { prompt, response, label: sampleLabel, endToken: '<|im_end|>' });
      const status = Object.entries(out.extraLogs).filter(([k, v]) => k.startsWith('status_') && JSON.stringify(v) === '[1]').map(([k]) => k.slice('status_'.length));
      return { reward: out.reward, scores: out.scores, numeric_logs: numericLogs(out.extraLogs), status };
    };
    const cases: Record<string, [Promise<Record<string, unknown>>, number, string]> = {
      correct: [reward(fenced(SUM)), 1, 'passed'],
      wrong: [reward(fenced('a, b = map(int, input().split())\nprint(a * b)')), 0, 'wrong_answer'],
      time_limit: [reward(fenced('while True:\n    pass')), 0, 'time_limit_exceeded'],
      runtime_error: [reward(fenced('raise ValueError(\'boom\')')), 0, 'runtime_error'],
      compile_error: [reward(fenced('int main( {', 'cpp'), cppLabel), 0, 'compile_error'],
      no_code: [reward('I do not know.'), 0, 'no_code'],
    };
    for (const [name, [got, value, status]] of Object.entries(cases)) {
      assert.deepEqual(await got, { reward: [value], scores: [value], numeric_logs: true, status: [status] }, name);
    }
    assert.deepEqual(ctx.problems, []);
  });

  test('open-r1: PistonClient.send_execute', async () => {
    const ctx = context();
    const client = pistonClient(ctx, 4);
    const execute = async (code: string, options: { language?: string; name?: string; limits?: Record<string, number> } = {}): Promise<Record<string, unknown>> => {
      const result = await pistonExecute(client, { files: [{ name: options.name ?? 'main.py', content: code }], stdin: '1 2\n', ...options.limits }, options.language ?? 'python', 0);
      assert.ok(result !== null, 'the server answered');
      const run = result['run'] as Record<string, unknown>;
      const compile = result['compile'] as Record<string, unknown> | undefined;
      return { passed: run['code'] === 0 && String(run['stdout']).trim() === '3', code: run['code'], status: run['status'], signal: run['signal'], compile_code: compile === undefined ? null : compile['code'] };
    };
    const [correct, wrong, timeLimit, runtimeError, compileError, cppCorrect] = await Promise.all([
      execute(SUM),
      execute('print(0)'),
      execute('while True:\n    pass', { limits: { run_cpu_time: 500, run_timeout: 3000 } }),
      execute('raise ValueError(\'boom\')'),
      execute('int main( {', { language: 'cpp', name: 'main.cpp' }),
      execute(SUM_CPP, { language: 'cpp', name: 'main.cpp' }),
    ]);
    assert.deepEqual(correct, { passed: true, code: 0, status: null, signal: null, compile_code: null });
    assert.deepEqual(wrong, { passed: false, code: 0, status: null, signal: null, compile_code: null });
    assert.deepEqual(timeLimit, { passed: false, code: null, status: 'TO', signal: 'SIGKILL', compile_code: null });
    assert.deepEqual(runtimeError, { passed: false, code: 1, status: 'RE', signal: null, compile_code: null });
    assert.equal(compileError['passed'], false);
    assert.notEqual(compileError['compile_code'], 0);
    assert.deepEqual(cppCorrect, { passed: true, code: 0, status: null, signal: null, compile_code: 0 });
    assert.deepEqual(ctx.problems, []);
  });

  test('open-r1: Codeforces score_submission and IOI score_subtasks through the codeforces / cms_ioi packages', async () => {
    const ctx = context();
    const client = pistonClient(ctx, 2);
    const fixtures = join(PROJECT_ROOT, 'test', 'fixtures', 'contest');
    const read = (...parts: string[]): string => readFileSync(join(fixtures, ...parts), 'utf8');
    const cfProblem: CodeforcesProblem = {
      id: '1352/A', official_tests: JSON.parse(read('codeforces-1352A', 'tests.json')) as { input: string; output: string }[],
      generated_checker: read('codeforces-1352A', 'checker.py'), time_limit: 1.0, memory_limit: 256, input_mode: 'stdio',
    };
    const noChecker: CodeforcesProblem = { ...cfProblem, generated_checker: null };
    const cf = (solution: string, options: { language?: 'cpp' | 'python'; problem?: CodeforcesProblem; mode?: 'pass_fail' | 'partial' | 'weighted_sum'; batch?: number } = {}): Promise<number | null> =>
      cfScoreSubmission(client, options.problem ?? cfProblem, read('codeforces-1352A', 'solutions', solution),
        { testBatchSize: options.batch ?? 1, scoringMode: options.mode ?? 'pass_fail', submissionLanguage: options.language ?? 'cpp' });
    const cfSource = (source: string): Promise<number | null> => cfScoreSubmission(client, cfProblem, source, { scoringMode: 'pass_fail' });

    const subtasksOf = (dir: string, id: string, graderFiles: [string, string][]): IoiSubtask[] => {
      const tests = JSON.parse(read(dir, 'tests.json')) as Record<string, [string, string]>;
      return (JSON.parse(read(dir, 'subtasks.json')) as { subtask: string; score: number; test_names: string[] }[]).map((s) => ({
        ...s, id, score_precision: 2, test_cases: Object.fromEntries(s.test_names.map((t) => [t, tests[t]!])), time_limit: 1.0, memory_limit: 256, grader_files: graderFiles,
      }));
    };
    const graderFiles: [string, string][] = ['grader.cpp', 'total.h', 'grader_config.json'].map((n) => [`graders/${n}`, read('ioi-total', 'graders', n)]);
    const subtasks = subtasksOf('ioi-total', 'total', [...graderFiles, ['checker/checker.cpp', read('ioi-total', 'checker', 'checker.cpp')]]);
    const noCheckerSubtasks = subtasksOf('ioi-total', 'total', graderFiles);
    const guessSubtasks = subtasksOf('ioi-guess', 'guess', ['stub.cpp', 'guess.h', 'manager.cpp', 'grader_config.json'].map((n) => [`graders/${n}`, read('ioi-guess', 'graders', n)]));
    const ioi = async (solution: string, tasks: IoiSubtask[] = subtasks, dir = 'ioi-total', id = 'total'): Promise<{ total: number; subtasks: [number, number, string][] }> => {
      const results = await ioiScoreSubtasks(client, tasks, addIncludes(read(dir, 'solutions', solution), id));
      return { total: Math.round(results.reduce((sum, r) => sum + r.weightedScore, 0) * 100) / 100, subtasks: results.map((r) => [r.score, r.weightedScore, r.status]) };
    };

    // Codeforces 1352A with open-r1's checker convention (test/fixtures/contest/codeforces-1352A), pass_fail scoring.
    assert.equal(await cf('correct.cpp'), 1.0, 'a correct C++17 solution whose terms are in another order than the answer');
    assert.equal(await cf('correct.py', { language: 'python' }), 1.0, 'a correct Python solution (cf_python3)');
    assert.equal(await cf('wrong.cpp'), 0.0);
    assert.equal(await cf('correct.cpp', { mode: 'weighted_sum' }), 1.1, 'weighted_sum: 1 + 0.1 x passed fraction');
    assert.equal(await cf('wrong.cpp', { mode: 'partial', batch: -1 }), 0.0, 'partial, all tests at once: no test passed');
    assert.equal(await cf('correct.cpp', { problem: noChecker }), 0.0, 'without the checker the package compares text, and the order differs');
    assert.equal(await cfSource('int main( {'), -0.1, 'open-r1\'s no_compile_reward');
    assert.equal(await cfSource('int main(){ volatile unsigned long x = 0; for (;;) x++; }'), 0.0);
    // IOI-style task with a grader and two subtasks (30 + 70 points), CMS GroupMin through open-r1's own sums.
    assert.deepEqual(await ioi('correct.cpp'), { total: 100, subtasks: [[1, 30, 'AC'], [1, 70, 'AC']] });
    // A CMS checker's "translate:wrong" is not a message open-r1 knows: it files the 0 as RE (upstream's mapping).
    assert.deepEqual(await ioi('partial.cpp'), { total: 30, subtasks: [[1, 30, 'AC'], [0, 0, 'RE']] });
    assert.deepEqual(await ioi('wrong.cpp'), { total: 0, subtasks: [[0, 0, 'RE'], [0, 0, 'RE']] });
    assert.deepEqual(await ioi('correct.cpp', noCheckerSubtasks), { total: 100, subtasks: [[1, 30, 'AC'], [1, 70, 'AC']] });
    assert.deepEqual(await ioi('partial.cpp', noCheckerSubtasks), { total: 30, subtasks: [[1, 30, 'AC'], [0, 0, 'WA']] });
    // Communication task: manager and contestant over FIFOs; the manager's score is the test's (min over 3 tests).
    assert.deepEqual(await ioi('correct.cpp', guessSubtasks, 'ioi-guess', 'guess'), { total: 100, subtasks: [[1, 100, 'AC']] });
    assert.deepEqual(await ioi('partial.cpp', guessSubtasks, 'ioi-guess', 'guess'), { total: 30, subtasks: [[0.3, 30, 'PA']] });
    assert.deepEqual(await ioi('wrong.cpp', guessSubtasks, 'ioi-guess', 'guess'), { total: 0, subtasks: [[0, 0, 'WA']] });
    assert.deepEqual(ctx.problems, []);
  });
});

describe('an overloaded server: each client\'s own retries', () => {
  let full: ServerHandle;
  let release: () => void = () => {};
  let holder: Promise<unknown> = Promise.resolve();

  /**
   * Run `work` while the test holds the server's one admission place (every request is refused until `release()`,
   * which `fullContext` may call), and free it after. Identical requests are answered from Crucible's memory of
   * them without taking a place, so each exchange here sends a program of its own (`tagged`).
   */
  async function whileFull<T>(work: () => Promise<T>): Promise<T> {
    const admission = full.context.service.admission;
    let open = (): void => {};
    const gate = new Promise<void>((resolve) => { open = resolve; });
    assert.ok(admission.tryReserve(1), 'the place is free');
    holder = admission.run(() => gate);
    release = open;
    try {
      return await work();
    } finally {
      release();
      await holder;
    }
  }
  const tagged = (code: string, tag: string): string => `${code}\n# ${tag}`;

  /** A replay context on the full server that sleeps 1/20 of each policy wait, and frees the place after `freeAfter` refusals. */
  function fullContext(freeAfter: number | null, attempts: Attempt[]): DriverContext {
    return {
      baseUrl: full.url.replace(/\/$/, ''), problems: [], timeScale: 0.05,
      onAttempt: (attempt) => {
        attempts.push(attempt);
        if (freeAfter !== null && attempts.length === freeAfter) release();
      },
    };
  }

  before(async () => {
    full = await startServer({ port: 0, slots: 1, inFlightPerSlot: 1, queueCapacity: 0, logLevel: 'silent' }, { logger: createLogger('silent') });
  });

  after(async () => {
    release();
    await holder;
    await full.shutdown(1000);
  });

  const refusals = (attempts: readonly Attempt[]): (number | null)[] => attempts.map((a) => a.status);
  const everyRefusalSaysWhen = (attempts: readonly Attempt[]): void => {
    for (const a of attempts.filter((x) => x.status !== 200)) assert.ok(Number(a.retryAfter) >= 1, `Retry-After on ${a.status}`);
  };

  test('verl retries the 504 Crucible sends on /run_code (1 s, then 2 s); still full, the case is an API error, not a wrong answer', async () => {
    const tests = { inputs: ['1 2\n'], outputs: ['3\n'] };
    const retried: Attempt[] = [];
    const scored = await whileFull(() => verlCheckCorrectness(fullContext(1, retried), tests, tagged(SUM, 'verl retried')));
    assert.deepEqual(scored, [{ result: true, status: 'success' }]);
    assert.deepEqual(refusals(retried), [504, 200]);
    assert.deepEqual(retried.map((a) => a.waitedSeconds), [0, 1]);
    everyRefusalSaysWhen(retried);
    const exhausted: Attempt[] = [];
    const refused = await whileFull(() => verlCheckCorrectness(fullContext(null, exhausted), tests, tagged(SUM, 'verl exhausted')));
    assert.deepEqual(refused, [{ result: -1, status: 'api_error' }]);
    assert.deepEqual(refusals(exhausted), [504, 504, 504]);
    assert.deepEqual(exhausted.map((a) => a.waitedSeconds), [0, 1, 2]);
  });

  test('the SandboxFusion SDK retries any non-200 with exponential back-off; still full after its attempts, it raises', async () => {
    const retried: Attempt[] = [];
    const response = await whileFull(() => sdkRunCode(fullContext(1, retried), { code: tagged(SUM, 'sdk retried'), language: 'python', stdin: '1 2\n' }));
    assert.equal(response['status'], 'Success');
    assert.deepEqual(refusals(retried), [504, 200]);
    assert.ok(retried[1]!.waitedSeconds >= 1 && retried[1]!.waitedSeconds <= 2, 'tenacity: 1 s + up to 1 s of jitter');
    everyRefusalSaysWhen(retried);
    const exhausted: Attempt[] = [];
    await assert.rejects(whileFull(() => sdkRunCode(fullContext(null, exhausted), { code: tagged(SUM, 'sdk exhausted'), language: 'python' })),
      /Faas api responded with code 504: .*overloaded/);
    assert.deepEqual(refusals(exhausted), [504, 504, 504, 504, 504], 'max_attempts 5');
    exhausted.slice(1).forEach((a, i) => assert.ok(a.waitedSeconds >= 2 ** i && a.waitedSeconds <= 2 ** i + 1, `wait before attempt ${i + 2}`));
  });

  test('OpenRLHF retries the 429 of /get_reward every second; still full after 5 attempts, the sample has no reward (never a 0)', async () => {
    const sample = (tag: string): { prompt: string; response: string; label: string; endToken: string } => ({
      prompt: 'Add.\n', response: `\`\`\`python\n${tagged(SUM, tag)}\n\`\`\``, label: JSON.stringify({ tests: [{ input: '1 2\n', output: '3\n' }] }), endToken: '<|im_end|>',
    });
    const retried: Attempt[] = [];
    const rewarded = await whileFull(() => openrlhfReward(fullContext(1, retried), sample('openrlhf retried')));
    assert.deepEqual([rewarded.reward, rewarded.scores], [[1], [1]]);
    assert.deepEqual(refusals(retried), [429, 200]);
    assert.deepEqual(retried.map((a) => a.waitedSeconds), [0, 1]);
    everyRefusalSaysWhen(retried);
    const exhausted: Attempt[] = [];
    const unrewarded = await whileFull(() => openrlhfReward(fullContext(null, exhausted), sample('openrlhf exhausted')));
    assert.deepEqual(unrewarded, { reward: null, scores: null, extraLogs: {} });
    assert.deepEqual(refusals(exhausted), [429, 429, 429, 429, 429]);
  });

  test('open-r1\'s Piston client retries the 429 of /api/v2/execute; still full, it checks the endpoint and gives up with None', async () => {
    const job = (tag: string): PistonJob => ({ files: [{ name: 'main.py', content: tagged(SUM, tag) }], stdin: '1 2\n' });
    const retried: Attempt[] = [];
    const answer = await whileFull(() => pistonExecute(pistonClient(fullContext(1, retried)), job('piston retried'), 'python'));
    assert.equal(String((answer?.['run'] as Record<string, unknown>)['stdout']).trim(), '3');
    assert.deepEqual(refusals(retried), [429, 200]);
    assert.ok(retried[1]!.waitedSeconds >= 1.9 && retried[1]!.waitedSeconds <= 2.1, 'min(2^0, 10) s +-10%, then 1 s');
    everyRefusalSaysWhen(retried);
    const exhausted: Attempt[] = [];
    const client: PistonClient = pistonClient(fullContext(null, exhausted));
    const gaveUp = await whileFull(() => pistonExecute(client, job('piston exhausted'), 'python', 2));
    assert.equal(gaveUp, null, 'max_retries 2: three attempts, a health check, then None');
    assert.deepEqual(refusals(exhausted), [429, 429, 429]);
  });
});
