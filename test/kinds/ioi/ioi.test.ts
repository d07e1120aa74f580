/**
 * The `ioi` judging mode and the open-r1/ioi reader end to end, in the real sandbox: the fixture
 * test/fixtures/contest/open-r1-ioi.jsonl (open-r1/ioi subtask rows + open-r1/ioi-test-cases rows for the Batch
 * task "total" with a grader, a CMS checker and two subtasks; inline `test_cases` for the Communication task
 * "guess" with a manager) read by `--format auto`, judged through the Judge and through `crucible eval`; exact
 * scores (CMS GroupMin) and statuses for correct, partial, wrong, non-compiling and hostile solutions; and the
 * same scores through Crucible's Piston `cms_ioi` endpoint, scored as open-r1's `score_subtasks` scores them.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { groupMinScore } from '../../../src/kinds/checker/subtasks.js';
import { DatasetError } from '../../../src/formats/errors.js';
import { readProblems } from '../../../src/formats/registry.js';
import type { IoiProblem } from '../../../src/formats/types.js';
import { addIoiIncludes, ioiJobFiles } from '../../../src/kinds/ioi/ioi.js';
import { createJudge } from '../../../src/engine/factory.js';
import { PROJECT_ROOT } from '../../../src/sandbox/paths.js';
import { startServer, type ServerHandle } from '../../../src/server/index.js';
import { createLogger } from '../../../src/server/logging.js';
import type { Verdict } from '../../../src/verdict/index.js';
import { httpCall } from '../../support/http.js';

const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'contest');
const PROBLEMS = join(FIXTURES, 'open-r1-ioi.jsonl');
const read = (...parts: string[]): string => readFileSync(join(FIXTURES, ...parts), 'utf8');

/** Solutions of "total" by name: the fixture's, a compile error, and hostile ones. */
const TOTAL: Record<string, string> = {
  correct: read('ioi-total', 'solutions', 'correct.cpp'),
  partial: read('ioi-total', 'solutions', 'partial.cpp'),
  wrong: read('ioi-total', 'solutions', 'wrong.cpp'),
  broken: '#include "total.h"\nlong long total(std::vector<int> a) { return }\n',
  // Looks for the expected output wherever the package keeps it, and answers with it.
  peek: [
    '#include "total.h"', '#include <cstdio>',
    'long long total(std::vector<int> a) {',
    '  const char *paths[] = {"correct_output.txt", "/box/correct_output.txt", "../correct_output.txt", "answer.txt", "/box/answer.txt", "/tmp/correct_output.txt"};',
    '  for (const char *p : paths) { FILE *f = std::fopen(p, "r"); long long v; if (f && std::fscanf(f, "%lld", &v) == 1) return v; }',
    '  return -1;', '}', ''].join('\n'),
  // Prints what a passing judge would print (a score of 1) and leaves before the grader prints its answer.
  forge: [
    '#include "total.h"', '#include <cstdio>', '#include <cstdlib>',
    'long long total(std::vector<int> a) { std::printf("1\\n"); std::fflush(stdout); std::_Exit(0); }', ''].join('\n'),
};
const GUESS: Record<string, string> = {
  correct: read('ioi-guess', 'solutions', 'correct.cpp'),
  partial: read('ioi-guess', 'solutions', 'partial.cpp'),
  wrong: read('ioi-guess', 'solutions', 'wrong.cpp'),
};

let problems: IoiProblem[] = [];
const judge = createJudge({ slots: 2, cacheDir: null });
const dir = mkdtempSync(join(tmpdir(), 'crucible-ioi-'));
before(async () => {
  problems = (await readProblems(PROBLEMS)) as IoiProblem[];
});
after(async () => {
  await judge.close();
  rmSync(dir, { recursive: true, force: true });
});
const task = (id: string): IoiProblem => problems.find((p) => p.problemId === id)!;
const judged = (problem: IoiProblem, code: string, failFast = false): Promise<Verdict> =>
  judge.judge({ problem: { inline: problem }, program: { language: 'cpp', source: addIoiIncludes(code, problem.problemId) }, failFast });

describe('open-r1/ioi reader', () => {
  test('--format auto groups subtask rows per task; shared tests are one test; limits in ms and KiB', () => {
    assert.deepEqual(problems.map((p) => [p.kind, p.taskId]), [['ioi', '2026/total'], ['ioi', '2026/guess']]);
    const total = task('total');
    assert.deepEqual(total.tests.map((t) => t.name), ['1-01', '1-02', '2-01', '2-02']);
    assert.deepEqual(total.subtasks, [{ name: '01-small', points: 30, tests: [0, 1] }, { name: '02-large', points: 70, tests: [0, 2, 3] }]);
    assert.deepEqual([total.timeLimitMs, total.memoryLimitKiB, total.scorePrecision], [1000, 256 * 1024, 2]);
    assert.ok(total.graderFiles.some((f) => f.name === 'checker/checker.cpp'));
    assert.deepEqual(task('guess').subtasks, [{ name: '01-all', points: 100, tests: [0, 1, 2] }]);
  });

  test('bad rows: file:line and field', async () => {
    const rows = readFileSync(PROBLEMS, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const write = (name: string, edited: readonly object[]): string => {
      const path = join(dir, name);
      writeFileSync(path, edited.map((r) => JSON.stringify(r)).join('\n') + '\n');
      return path;
    };
    const noTest = write('no-test.jsonl', [rows[0]!, { ...rows[1]!, test_names: ['1-01', '9-99'] }, ...rows.slice(2, 6)]);
    await assert.rejects(readProblems(noTest, 'ioi'), (e: unknown) => e instanceof DatasetError
      && /no-test\.jsonl:2: field "test_names\[1\]": no test case "9-99"/.test(e.message));
    const badScore = write('bad-score.jsonl', [{ ...rows[0]!, score: 'thirty' }]);
    await assert.rejects(readProblems(badScore, 'ioi'), /bad-score\.jsonl:1: field "score": expected number, got string/);
    const emptyOutput = write('empty-output.jsonl', [rows[0]!, { ...rows[2]!, test_output: '' }, rows[3]!]);
    await assert.rejects(readProblems(emptyOutput, 'ioi'), /empty-output\.jsonl:1: field "test_names\[0\]": Batch test "1-01" has no expected output/);
    const noConfig = write('no-config.jsonl', [{ ...rows[0]!, grader_files: (rows[0]!.grader_files as [string, string][]).filter(([n]) => !n.endsWith('.json')) },
      ...rows.slice(2, 6)]);
    await assert.rejects(readProblems(noConfig, 'ioi'), /no-config\.jsonl:1: field "grader_files": no graders\/grader_config\.json/);
    const limits = write('limits.jsonl', [rows[0]!, { ...rows[1]!, time_limit: 2 }]);
    await assert.rejects(readProblems(limits, 'ioi'), /limits\.jsonl:2: field "time_limit"/);
  });
});

describe('ioi mode (Judge)', () => {
  test('Batch with grader and checker: correct 100, partial 30 (GroupMin), wrong 0', async () => {
    const total = task('total');
    const ok = await judged(total, TOTAL.correct!);
    assert.deepEqual([ok.status, ok.passed, ok.score, ok.tests.length], ['passed', true, 1, 4], ok.reason);
    const partial = await judged(total, TOTAL.partial!);
    assert.deepEqual([partial.status, partial.passed, partial.score], ['wrong_answer', false, 0.3], partial.reason);
    assert.deepEqual(partial.tests.map((t) => [t.status, t.score]), [['passed', 1], ['passed', 1], ['wrong_answer', 0], ['wrong_answer', 0]]);
    const wrong = await judged(total, TOTAL.wrong!);
    assert.deepEqual([wrong.status, wrong.passed, wrong.score], ['wrong_answer', false, 0]);
  });

  test('solution + graders compiled once per distinct solution, the checker once per task', async () => {
    const total = task('total');
    await judged(total, TOTAL.correct!);
    const before = judge.stats();
    const v = await judged(total, `${TOTAL.correct!}// another sample, the same program\n`);
    const after = judge.stats();
    assert.equal(v.score, 1);
    assert.deepEqual([after.compilations - before.compilations, after.runs - before.runs], [1, 4],
      'one compilation of the new solution with the graders (the checker is cached), one job per test');
  });

  test('a compile error is compile_error with score 0; fail-fast stops at the first test below 1 without a score', async () => {
    const total = task('total');
    const broken = await judged(total, TOTAL.broken!);
    assert.deepEqual([broken.status, broken.passed, broken.score, broken.tests.length], ['compile_error', false, 0, 0]);
    assert.match(broken.reason ?? '', /expected/);
    const fast = await judged(total, TOTAL.partial!, true);
    assert.deepEqual([fast.status, fast.tests.length, fast.score], ['wrong_answer', 3, undefined]);
  });

  test('hostile: reading the expected output or forging the judge\'s output scores 0', async () => {
    const total = task('total');
    const peek = await judged(total, TOTAL.peek!);
    assert.deepEqual([peek.status, peek.score], ['wrong_answer', 0], peek.reason);
    const forge = await judged(total, TOTAL.forge!);
    assert.deepEqual([forge.status, forge.score], ['wrong_answer', 0], forge.reason);
    assert.ok(forge.tests.every((t) => t.status === 'wrong_answer' && t.score === 0));
  });

  test('Communication with a manager: binary search 100, linear scan 30, wrong 0', async () => {
    const guess = task('guess');
    const ok = await judged(guess, GUESS.correct!);
    assert.deepEqual([ok.status, ok.score], ['passed', 1], ok.reason);
    const partial = await judged(guess, GUESS.partial!);
    assert.deepEqual([partial.status, partial.score], ['wrong_answer', 0.3], partial.reason);
    const wrong = await judged(guess, GUESS.wrong!);
    assert.deepEqual([wrong.status, wrong.score], ['wrong_answer', 0], wrong.reason);
  });
});

describe('crucible eval on open-r1/ioi', () => {
  test('--problems (auto) --samples {task_id, solution}: scores per sample', async () => {
    const samples = join(dir, 'samples.jsonl');
    const rows = [
      { task_id: '2026/total', solution: TOTAL.correct }, { task_id: '2026/total', solution: TOTAL.partial },
      { task_id: '2026/total', solution: TOTAL.broken }, { task_id: '2026/total', solution: TOTAL.correct },
      { task_id: '2026/guess', solution: GUESS.partial },
    ];
    writeFileSync(samples, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const out = join(dir, 'run');
    const outcome = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(join(PROJECT_ROOT, 'bin', 'crucible'), ['eval', '--json', '--no-progress', '--jobs', '2', '--k', '1', '--reps', '10',
        '--all-tests', '--problems', PROBLEMS, '--samples', samples, '--out', out],
      { maxBuffer: 64 << 20, env: { ...process.env, CRUCIBLE_CACHE_DIR: join(dir, 'cache') } },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
    });
    assert.equal(outcome.code, 0, outcome.stderr);
    const verdicts = readFileSync(join(out, 'verdicts.jsonl'), 'utf8').trim().split('\n')
      .map((l) => JSON.parse(l) as { taskId: string; sampleIndex: number; status: string; passed: boolean; score?: number })
      .sort((a, b) => a.taskId.localeCompare(b.taskId) || a.sampleIndex - b.sampleIndex);
    assert.deepEqual(verdicts.map((v) => [v.taskId, v.sampleIndex, v.status, v.score]), [
      ['2026/guess', 0, 'wrong_answer', 0.3],
      ['2026/total', 0, 'passed', 1], ['2026/total', 1, 'wrong_answer', 0.3], ['2026/total', 2, 'compile_error', 0], ['2026/total', 3, 'passed', 1],
    ]);
  });
});

describe('consistency with the Piston cms_ioi path', () => {
  let server: ServerHandle;
  before(async () => {
    server = await startServer({ port: 0, slots: 2, logLevel: 'silent' }, { logger: createLogger('silent') });
  });
  after(async () => {
    await server.shutdown(1000);
  });

  /**
   * open-r1's `score_subtasks` (skip_mode off: every test) over /api/v2/execute: per test `run_submission`'s
   * files and `execute_ioi`'s reading (compile code != 0: 0; else run stdout as the score), then
   * `SubtaskResult.weighted_score` summed, over the total points.
   */
  async function pistonScore(problem: IoiProblem, code: string): Promise<number> {
    const source = addIoiIncludes(code, problem.problemId);
    const scores: number[] = [];
    for (const test of problem.tests) {
      const r = await httpCall(server.url, 'POST', '/api/v2/execute', {
        language: 'cms_ioi', version: '*', files: ioiJobFiles(problem, source, test),
        run_timeout: Math.round(problem.timeLimitMs + 3000), run_memory_limit: problem.memoryLimitKiB * 1024,
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const body = r.body as { compile?: { code: number }; run: { stdout: string } };
      scores.push(body.compile !== undefined && body.compile.code !== 0 ? 0 : Number(body.run.stdout.trim() || '0'));
    }
    const points = groupMinScore(problem.subtasks.map((s) => ({ points: s.points, testScores: s.tests.map((i) => scores[i]!) })), problem.scorePrecision);
    return points / problem.subtasks.reduce((sum, s) => sum + s.points, 0);
  }

  test('every solution of both tasks scores the same natively and through Piston', async () => {
    const cases: [string, string][] = [...Object.values(TOTAL).map((c): [string, string] => ['total', c]),
      ...Object.values(GUESS).map((c): [string, string] => ['guess', c])];
    const native: number[] = [];
    const piston: number[] = [];
    for (const [id, code] of cases) {
      native.push((await judged(task(id), code)).score ?? Number.NaN);
      piston.push(await pistonScore(task(id), code));
    }
    assert.deepEqual(native, piston);
    assert.deepEqual(native, [1, 0.3, 0, 0, 0, 0, 1, 0.3, 0]);
  });
});
