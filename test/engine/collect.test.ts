/**
 * A tool run that gives back files the program wrote (`ExecutionTools.runProgramCollecting`, `src/engine/collect.ts`):
 * a trusted program (here a toy output validator) runs in a box of its own with the candidate's output as its stdin,
 * and the files it names come back as data, each capped at `COLLECT_MAX_BYTES`, never read through a symbolic link
 * or out of the work directory. The reader's refusals are checked on a host directory the test builds (links, a
 * FIFO, `..`), since the sandbox's own copy-out already drops links a program makes; the sandbox test checks that a
 * program's links to host files and oversized files come back as nothing and as a capped prefix.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { COLLECT_MAX_BYTES, readCollectedFile } from '../../src/engine/collect.js';
import { createJudge } from '../../src/engine/factory.js';
import type { ProblemBase } from '../../src/formats/types.js';
import type { CollectingResult } from '../../src/judge/plan.js';
import { defineMode, defaultModes, type JudgingMode } from '../../src/kinds/index.js';
import type { Verdict } from '../../src/verdict/index.js';
import { toyKind } from '../support/toy-kind.js';

describe('readCollectedFile on a directory a program left', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crucible-collect-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'feedback'));
  writeFileSync(join(dir, 'feedback', 'score.txt'), '42\n');
  writeFileSync(join(dir, 'feedback', 'big.txt'), 'x'.repeat(COLLECT_MAX_BYTES + 10));
  writeFileSync(join(dir, 'feedback', 'exact.txt'), 'y'.repeat(COLLECT_MAX_BYTES));
  writeFileSync(join(dir, 'inside.txt'), 'inside\n');
  symlinkSync('/etc/passwd', join(dir, 'feedback', 'passwd.txt'));
  symlinkSync('../inside.txt', join(dir, 'feedback', 'relative.txt'));
  symlinkSync('/etc', join(dir, 'etc'));
  mkdirSync(join(dir, 'dir.txt'));
  execFileSync('/usr/bin/mkfifo', [join(dir, 'feedback', 'fifo.txt')]);

  test('a regular file comes back whole, or its first COLLECT_MAX_BYTES bytes marked truncated', () => {
    assert.deepEqual(readCollectedFile(dir, 'feedback/score.txt'), { text: '42\n', truncated: false });
    const big = readCollectedFile(dir, 'feedback/big.txt');
    assert.ok(big !== undefined && 'text' in big);
    assert.deepEqual([big.text.length, big.truncated], [COLLECT_MAX_BYTES, true]);
    const exact = readCollectedFile(dir, 'feedback/exact.txt');
    assert.ok(exact !== undefined && 'text' in exact);
    assert.deepEqual([exact.text.length, exact.truncated], [COLLECT_MAX_BYTES, false]);
    assert.deepEqual(readCollectedFile(dir, 'feedback/score.txt', 1), { text: '4', truncated: true });
  });

  test('links are refused wherever they are on the path, even to a file inside the directory', () => {
    for (const name of ['feedback/passwd.txt', 'feedback/relative.txt', 'etc/passwd']) {
      const file = readCollectedFile(dir, name);
      assert.ok(file !== undefined && 'refused' in file, `${name}: ${JSON.stringify(file)}`);
      assert.match(file.refused, /symbolic link/);
    }
  });

  test('a FIFO or a directory is refused without blocking; names that leave the directory are refused unopened; missing is absent', () => {
    assert.match((readCollectedFile(dir, 'feedback/fifo.txt') as { refused: string }).refused, /not a regular file/);
    assert.match((readCollectedFile(dir, 'dir.txt') as { refused: string }).refused, /not a regular file/);
    for (const name of ['../etc/passwd', 'feedback/../inside.txt', '/etc/passwd', 'feedback//score.txt', './inside.txt']) {
      assert.match((readCollectedFile(dir, name) as { refused: string }).refused, /not a plain relative path/, name);
    }
    assert.equal(readCollectedFile(dir, 'feedback/none.txt'), undefined);
    assert.equal(readCollectedFile(dir, 'nowhere/none.txt'), undefined);
  });
});

interface FeedbackProblem extends ProblemBase {
  readonly kind: 'toy_feedback';
}

/**
 * The trusted program: reads the candidate's output on stdin and leaves feedback files: its score, an oversized
 * message, links to host files and directories, a FIFO. Exit 42 (the Kattis "accepted" status).
 */
const VALIDATOR = [
  'import os, sys',
  'out = sys.stdin.read().strip()',
  'os.makedirs("feedback", exist_ok=True)',
  'open("feedback/score.txt", "w").write(out + "\\n")',
  `open("feedback/judgemessage.txt", "w").write("m" * ${COLLECT_MAX_BYTES * 2})`,
  'os.symlink("/etc/passwd", "feedback/passwd.txt")',
  'os.symlink("/etc", "feedback/etc")',
  'os.mkfifo("feedback/fifo.txt")',
  'sys.exit(42)',
].join('\n');

const COLLECT = ['feedback/score.txt', 'feedback/judgemessage.txt', 'feedback/passwd.txt', 'feedback/etc/passwd', 'feedback/fifo.txt',
  'feedback/teammessage.txt', 'feedback/none.txt'];

/** What the toy mode's tool run gave back, by task id. */
const collected = new Map<string, CollectingResult>();

const toyFeedback: JudgingMode<FeedbackProblem, 'program_runs', null> = {
  ...toyKind<FeedbackProblem>('toy_feedback', 'toy: a trusted validator\'s feedback files read back', () => 1),
  plan: (_problem, program, { limits, failFast }) => ({ kind: 'program_runs', program, runs: [{ stdin: '', check: null }], limits, failFast }),
  judgeRun: async (problem, _run, index, result, tools) => {
    const back = await tools.runProgramCollecting({ language: 'python', source: VALIDATOR }, result.stdout,
      { cpuMs: 5000, memoryKiB: 256 * 1024, outputBytes: 1 << 20 }, { files: { 'feedback/teammessage.txt': 'given' }, collect: COLLECT });
    collected.set(problem.taskId, back);
    const score = back.files['feedback/score.txt'];
    const passed = back.result.exitCode === 42 && score !== undefined && 'text' in score && score.text === '7\n';
    return { index, status: passed ? 'passed' : 'wrong_answer' };
  },
  verdict: (_problem, outcome): Verdict => {
    const passed = outcome.tests[0]?.status === 'passed';
    return { status: passed ? 'passed' : 'wrong_answer', passed, tests: outcome.tests, testCount: 1, cpuMs: 0, wallMs: 0 };
  },
};

/** The same mode with a trusted program that does not compile. */
const toyBroken: JudgingMode<FeedbackProblem, 'program_runs', null> = {
  ...toyFeedback, kind: 'toy_feedback_broken',
  judgeRun: async (problem, _run, index, _result, tools) => {
    const back = await tools.runProgramCollecting({ language: 'c', source: 'int main(void) { return }\n' }, '',
      { cpuMs: 5000, memoryKiB: 256 * 1024, outputBytes: 1 << 20 }, { collect: ['feedback/score.txt'] });
    collected.set(problem.taskId, back);
    return { index, status: back.result.status === 'compile_error' ? 'passed' : 'wrong_answer' };
  },
};

describe('ExecutionTools.runProgramCollecting in the sandbox', () => {
  const judge = createJudge({ slots: 2, cacheDir: null, modes: defaultModes().with(defineMode(toyFeedback), defineMode(toyBroken)) });
  after(async () => {
    await judge.close();
  });

  test('the candidate\'s output reaches the validator as stdin; its files come back capped, its links and FIFO never followed', async () => {
    // The candidate also writes a score file of its own: its box is not the validator's, so it counts for nothing.
    const candidate = 'import os\nos.makedirs("feedback", exist_ok=True)\nopen("feedback/score.txt", "w").write("1000\\n")\nprint(7)\n';
    const verdict = await judge.judge({ problem: { inline: { kind: 'toy_feedback', taskId: 'feedback' } }, program: { language: 'python', source: candidate } });
    assert.equal(verdict.status, 'passed', verdict.reason);
    const back = collected.get('feedback')!;
    assert.equal(back.result.exitCode, 42);
    assert.deepEqual(back.files['feedback/score.txt'], { text: '7\n', truncated: false });
    assert.deepEqual(back.files['feedback/judgemessage.txt'], { text: 'm'.repeat(COLLECT_MAX_BYTES), truncated: true });
    assert.deepEqual(back.files['feedback/teammessage.txt'], { text: 'given', truncated: false });
    for (const name of ['feedback/passwd.txt', 'feedback/etc/passwd', 'feedback/fifo.txt']) {
      const file = back.files[name];
      assert.ok(file === undefined || 'refused' in file, `${name} came back: ${String(JSON.stringify(file)).slice(0, 100)}`);
    }
    assert.equal(back.files['feedback/none.txt'], undefined);
    assert.ok(!JSON.stringify(back.files).includes('root:'), 'a host file was read through a link');
  });

  test('a validator that does not compile collects nothing and says so', async () => {
    const verdict = await judge.judge({ problem: { inline: { kind: 'toy_feedback_broken', taskId: 'broken' } }, program: { language: 'python', source: 'print(1)\n' } });
    assert.equal(verdict.status, 'passed', verdict.reason);
    assert.equal(collected.get('broken')!.result.status, 'compile_error');
    assert.deepEqual(collected.get('broken')!.files, {});
  });
});
