/**
 * Every front end on the queue: `crucible serve --queue` (native `/v1/judge`, SandboxFusion `/run_code`,
 * Piston `/api/v2/execute` with its contest packages, `/health`) and the judge calls behind `crucible rerank --queue` (raw harness jobs)
 * answered by a real worker (`startWorker`, a real sandbox) through a real `redis-server` on a free loopback
 * port; problems of a kind the wire does not check field by field (`script`) travel too, and so does `/v1/judge`'s
 * `analysis` option (the worker runs the analysers).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { IoProblem, ScriptProblem } from '../../src/formats/types.js';
import { defaultSubmissionContext } from '../../src/kinds/index.js';
import { prepareSubmission } from '../../src/judge/submission.js';
import { queueLocation, type QueueLocation } from '../../src/queue/connection.js';
import { QueueJudge } from '../../src/queue/queue-judge.js';
import { startWorker, type RunningWorker } from '../../src/queue/worker.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { httpCall, type Answer } from '../support/http.js';
import { startRedis, type RedisServer } from '../support/redis.js';

const SUM: IoProblem = {
  kind: 'io', taskId: 'sum', comparator: { kind: 'tokens' },
  tests: [{ input: '1 2\n', output: '3\n' }, { input: '5 5\n', output: '10\n' }],
};
const CRUCIBLE = join(PROJECT_ROOT, 'bin', 'crucible');
const run = promisify(execFile);
const SUM_PY = 'a, b = map(int, input().split())\nprint(a + b)\n';

describe('serve and rerank through the queue', () => {
  let redis: RedisServer;
  let location: QueueLocation;
  let worker: RunningWorker;
  let server: ServerHandle;
  const post = (path: string, body: unknown): Promise<Answer> => httpCall(server.url, 'POST', path, body);

  before(async () => {
    redis = await startRedis();
    location = queueLocation(redis.url);
    const context = defaultSubmissionContext();
    worker = await startWorker({ location, name: 'serve-worker', crucibleVersion: 'test',
      judge: { slots: 1, cacheDir: null, languages: context.languages, modes: context.modes } });
    server = await startServer({ port: 0, queue: redis.url, logLevel: 'silent' }, { problems: [SUM], logger: createLogger('silent') });
  });

  after(async () => {
    await server?.shutdown(1000);
    await worker?.drain();
    await redis?.stop();
  });

  it('judges /v1/judge submissions on the worker and reports no local sandbox', async () => {
    const right = await post('/v1/judge', { code: SUM_PY, problem: 'sum' });
    assert.equal(right.status, 200, right.text);
    assert.equal(right.body.status, 'passed');
    const wrong = await post('/v1/judge', { code: 'print(0)\n', problem: 'sum' });
    assert.equal(wrong.body.status, 'wrong_answer');
    const health = await httpCall(server.url, 'GET', '/health');
    assert.equal(health.status, 200, health.text);
    assert.equal(health.body.sandbox, null);
    assert.deepEqual(health.body.selfTest.checks.map((c: { name: string }) => c.name), ['queue']);
  });

  it('runs /v1/judge\'s static analysis on the worker (the request\'s analysis option crosses the wire)', async () => {
    const answer = await post('/v1/judge', { code: `import os\n${SUM_PY}`, problem: 'sum', analysis: ['pyflakes'] });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.status, 'passed');
    assert.equal(answer.body.analysis?.findings, 1, JSON.stringify(answer.body.analysis));
    assert.deepEqual(answer.body.analysis.failed, []);
    assert.equal(answer.body.analysis.outcomes[0].findings[0].rule, 'UnusedImport');
  });

  it('runs SandboxFusion /run_code and Piston /api/v2/execute plain runs on the worker', async () => {
    const run = await post('/run_code', { code: SUM_PY, language: 'python', stdin: '2 3\n', run_timeout: 10 });
    assert.equal(run.status, 200, run.text);
    assert.equal(run.body.status, 'Success');
    assert.equal(run.body.run_result.stdout, '5\n');
    const crash = await post('/run_code', { code: 'raise SystemExit(3)', language: 'python' });
    assert.equal(crash.body.status, 'Failed');
    assert.equal(crash.body.run_result.return_code, 3);
    const compileError = await post('/run_code', { code: 'int main( {', language: 'cpp' });
    assert.equal(compileError.body.compile_result.status, 'Finished');
    assert.notEqual(compileError.body.compile_result.return_code, 0);
    assert.equal(compileError.body.run_result, null);
    const piston = await post('/api/v2/execute', { language: 'py', version: '*', files: [{ content: SUM_PY }], stdin: '4 5' });
    assert.equal(piston.status, 200, piston.text);
    assert.equal(piston.body.run.stdout, '9\n');
    const tle = await post('/api/v2/execute', { language: 'python', version: '*', files: [{ content: 'while True: pass' }], run_cpu_time: 300 });
    assert.equal(tle.body.run.status, 'TO');
    // SandboxFusion `files` travel with the job: the worker places them in the run's work directory.
    const withFile = await post('/run_code', { language: 'python', code: 'print(open("/box/data/in.txt").read().strip())',
      files: { 'data/in.txt': Buffer.from('from the file\n').toString('base64') } });
    assert.equal(withFile.status, 200, withFile.text);
    assert.equal(withFile.body.run_result.stdout, 'from the file\n');
  });

  it('runs the Piston contest packages (codeforces, cms_ioi) on the worker through the Judge', async () => {
    const cf = (solution: string): Promise<Answer> => post('/api/v2/execute', { language: 'cf_python3', version: '*',
      files: [{ name: 'main.py', content: solution }, { name: 'input.txt', content: '2 3\n' }, { name: 'correct_output.txt', content: '5\n' },
        { name: 'grader_config', content: 'TIME_LIMIT=2\nMEMORY_LIMIT=256\n' }] });
    const right = await cf(SUM_PY);
    assert.equal(right.status, 200, right.text);
    assert.deepEqual([right.body.compile.code, right.body.run.code, right.body.run.stdout], [0, 0, '1\n']);
    const wrong = await cf('print(6)\n');
    assert.deepEqual([wrong.body.run.code, wrong.body.run.stdout, wrong.body.run.stderr], [0, '0\n', 'Output isn\'t correct (diff)\n']);
    // A cms_ioi Batch job: the solution compiled with the grader on the worker, judged by diff.
    const grader = '#include <cstdio>\nlong long total(int a, int b);\nint main(){int a,b;std::scanf("%d %d",&a,&b);std::printf("%lld\\n",total(a,b));}\n';
    const ioi = (solution: string): Promise<Answer> => post('/api/v2/execute', { language: 'cms_ioi', version: '*', files: [
      { name: 'graders/total.cpp', content: solution }, { name: 'input.txt', content: '2 3\n' }, { name: 'correct_output.txt', content: '5\n' },
      { name: 'graders/grader.cpp', content: grader }, { name: 'graders/total.h', content: 'long long total(int a, int b);\n' },
      { name: 'graders/grader_config.json', content: '{"task_type": "Batch", "time_limit": 1.0, "memory_limit": 268435456}' }] });
    const ioiRight = await ioi('long long total(int a, int b) { return a + b; }\n');
    assert.equal(ioiRight.status, 200, ioiRight.text);
    assert.deepEqual([ioiRight.body.compile.code, ioiRight.body.run.stdout], [0, '1\n']);
    assert.equal((await ioi('long long total(int a, int b) { return a - b; }\n')).body.run.stdout, '0\n');
    // What the package refuses is the request's fault on a fleet too: 400 naming the field.
    const noInput = await post('/api/v2/execute', { language: 'cf_python3', version: '*', files: [{ name: 'main.py', content: 'print(1)' }] });
    assert.equal(noInput.status, 400, noInput.text);
    assert.equal(noInput.body.error.field, 'files');
  });

  it('exports the fleet on /metrics and prints it with crucible queue status', async () => {
    const metrics = await httpCall(server.url, 'GET', '/metrics');
    assert.equal(metrics.status, 200);
    assert.match(metrics.text, /^crucible_fleet_up 1$/m);
    assert.match(metrics.text, /^crucible_fleet_workers 1$/m);
    assert.match(metrics.text, /^crucible_fleet_worker_slots\{worker="serve-worker"\} 1$/m);
    assert.match(metrics.text, /^crucible_fleet_worker_jobs_in_flight\{worker="serve-worker"\} \d+$/m);
    assert.match(metrics.text, /^crucible_fleet_queue_jobs\{state="completed"\} [1-9]\d*$/m);
    assert.match(metrics.text, /^crucible_fleet_dead_letters_total 0$/m);
    const judged = /^crucible_queue_job_duration_seconds_count\{kind="judge"\} (\d+)$/m.exec(metrics.text);
    assert.ok(judged !== null && Number(judged[1]) >= 2, 'the judge jobs of the first test are in the latency histogram');
    assert.match(metrics.text, /^crucible_queue_job_duration_seconds_count\{kind="plain"\} [1-9]/m);

    const { stdout } = await run(CRUCIBLE, ['queue', 'status', '--queue', redis.url, '--json']);
    const status = JSON.parse(stdout);
    assert.deepEqual(status.workers.map((w: { name: string; slots: number }) => [w.name, w.slots]), [['serve-worker', 1]]);
    assert.equal(status.slots, 1);
    assert.equal(status.depth.failed, 0);
    // eval and rerank name their tenant with --tenant, checked as the server checks it.
    await assert.rejects(run(CRUCIBLE, ['eval', '--problems', 'p.jsonl', '--samples', 's.jsonl', '--queue', redis.url, '--tenant', 'no spaces']),
      (error: { code?: number; stderr?: string }) => error.code === 2 && /--tenant.*expected 1-100 letters/.test(error.stderr ?? ''));
    const text = await run(CRUCIBLE, ['queue', 'status', '--queue', redis.url]);
    assert.match(text.stdout, /^serve-worker\s+\S+\s+1\s+\d+\/\d+\s+taking jobs/m);
  });

  it('runs raw harness jobs (rerank\'s generated tests) and script problems through the queue', async () => {
    const judge = await QueueJudge.connect(location);
    try {
      const response = await judge.runHarness({
        mode: 'assertions', program: 'def add(a, b):\n    return a + b\n', prelude: '', entryPoint: 'add',
        assertions: ['assert add(1, 2) == 3', 'assert add(1, 1) == 3'], cpuMs: 2000, wallMs: 6000, memoryKiB: 512 * 1024, outputBytes: 65536,
      });
      assert.equal(response.status, 'ok', JSON.stringify(response));
      assert.deepEqual(response.results?.map((r) => r.status), ['passed', 'wrong_answer']);
      // A HumanEval-X style script problem (test/kinds/script/script.test.ts), assembled as a front end assembles it.
      const script: ScriptProblem = {
        kind: 'script', taskId: 'JavaScript/add', language: 'javascript', prompt: 'const add = (a, b) => {\n',
        test: 'const testAdd = () => {\n  console.assert(add(2, 3) === 5)\n}\n\ntestAdd()\n',
      };
      const context = defaultSubmissionContext();
      const submit = (completion: string) => {
        const prepared = prepareSubmission(script, { completion }, context);
        assert.equal(prepared.kind, 'program');
        return judge.judge({ problem: { inline: script }, program: (prepared as Extract<typeof prepared, { kind: 'program' }>).program });
      };
      const passed = await submit('  return a + b\n}\n');
      assert.equal(passed.status, 'passed', passed.reason);
      assert.equal(passed.judgedBy?.worker, 'serve-worker');
      const failed = await submit('  return a - b\n}\n');
      assert.equal(failed.status, 'wrong_answer', failed.reason); // as locally: the trusted replay of its calls fails the test
      const plain = await judge.runPlain({ program: { language: 'python', source: 'print(input()[::-1])' }, stdin: 'abc\n', limits: { cpuMs: 2000, memoryKiB: 256 * 1024 } });
      assert.equal(plain.run?.stdout, 'cba\n');
    } finally {
      await judge.close();
    }
  });
});
