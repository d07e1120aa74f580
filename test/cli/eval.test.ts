/**
 * `crucible eval` end to end (the real CLI, real programs in the sandbox): raw chat responses judge like the
 * completions they contain; bad samples get their own verdict and never stop the run; a task id that is not in
 * the problems is a one-line error naming the samples file's line; a resumed run judges Crucible's failures
 * again; reasons carry the tail of stderr; ground truth is computed once per dataset and then read from the cache;
 * HumanEval-X problems judge CodeGeeX-format samples; MBPP judges bigcode generations; --since/--until select
 * LiveCodeBench problems by release date; samples that attempt part of the problems are refused unless --limit or
 * --tasks ask for that subset, which is then stamped on summary.json, the store run and the report; a problem whose
 * reference solution fails under the limits (MBPP+ Mbpp/255, as published) is flagged with the limit to raise and
 * left out of pass@k; every run records the detected format and its toolchains' package sets, and `compare` warns
 * when two runs' package sets differ; verdicts.jsonl keeps the samples' text (or its hash), --json per-problem
 * results; EvalPlus sample directories are read; a run imported twice is refused.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { openResultStore } from '../../src/store/open.js';
import { PROJECT_ROOT } from '../../src/paths.js';
import type { SampleRecord } from '../../src/store/records.js';
import { HUMANEVAL, HUMANEVAL_PLUS, MBPP_PLUS } from '../support/data.js';
import { humanEvalXPath } from '../support/humaneval-x.js';
import { MBPP_PATH } from '../support/mbpp.js';
import { LCB_FIXTURE } from '../formats/helpers.js';

const HUMANEVAL_X_JS = humanEvalXPath('js');

const dir = mkdtempSync(join(tmpdir(), 'crucible-eval-cli-'));
const cacheDir = join(dir, 'cache');
after(() => rmSync(dir, { recursive: true, force: true }));

interface Outcome { code: number; stdout: string; stderr: string }

function crucible(args: readonly string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(join(PROJECT_ROOT, 'bin', 'crucible'), args, { maxBuffer: 64 << 20, env: { ...process.env, CRUCIBLE_CACHE_DIR: cacheDir } },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

function file(name: string, rows: readonly object[]): string {
  const path = join(dir, name);
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return path;
}

/** The first `n` records of a gzipped JSONL dataset. */
function firstRecords(path: string, n: number): Record<string, unknown>[] {
  return gunzipSync(readFileSync(path)).toString('utf8').split('\n').slice(0, n).map((l) => JSON.parse(l) as Record<string, unknown>);
}

function verdicts(out: string): SampleRecord[] {
  return readFileSync(join(out, 'verdicts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SampleRecord)
    .sort((a, b) => a.taskId.localeCompare(b.taskId) || a.sampleIndex - b.sampleIndex);
}

async function evalJson(args: readonly string[]): Promise<{ summary: Record<string, unknown> & { groundTruth: { runs: number; cacheHits: number } }; outcome: Outcome }> {
  const outcome = await crucible(['eval', '--json', '--no-progress', '--jobs', '2', '--k', '1', '--reps', '50', ...args]);
  assert.equal(outcome.code, 0, outcome.stderr);
  return { summary: JSON.parse(outcome.stdout), outcome };
}

const IO_PROBLEMS = file('io-problems.jsonl', [
  { taskId: 'sum', tests: [{ input: '1 2\n', output: '3\n' }, { input: '5 5\n', output: '10\n' }] },
  { taskId: 'div', tests: [{ input: '6 3\n', output: '2\n' }, { input: '1 0\n', output: 'inf\n' }] },
]);
const SUM = 'a, b = map(int, input().split())\nprint(a + b)\n';
const DIV = 'a, b = map(int, input().split())\nprint(a // b)\n';

describe('crucible eval', () => {
  it('judges raw chat responses (<think>, fences) exactly as the completions they contain', async () => {
    const problems = firstRecords(HUMANEVAL, 3);
    const problemsPath = file('he3.jsonl', problems);
    const completions = problems.flatMap((p) => [p.canonical_solution as string, '    return None\n', '    raise ValueError("no")\n']);
    const taskOf = (i: number): Record<string, unknown> => problems[Math.floor(i / 3)]!;
    const plain = file('he3-completions.jsonl', completions.map((completion, i) => ({ task_id: taskOf(i).task_id, completion })));
    const chat = file('he3-responses.jsonl', completions.map((completion, i) => {
      const whole = `${taskOf(i).prompt as string}${completion}`;
      // Half the responses hold the whole function, half only its body: both must judge like the completion.
      const code = i % 2 === 0 ? whole : completion;
      return { task_id: taskOf(i).task_id,
        response: `<think>First try:\n\`\`\`python\ndef wrong():\n    pass\n\`\`\`\nno.</think>\nHere is my answer:\n\`\`\`python\n${code}\`\`\`\nHope it helps.` };
    }));
    await evalJson(['--problems', problemsPath, '--samples', plain, '--out', join(dir, 'run-plain')]);
    await evalJson(['--problems', problemsPath, '--samples', chat, '--out', join(dir, 'run-chat')]);
    const a = verdicts(join(dir, 'run-plain'));
    const b = verdicts(join(dir, 'run-chat'));
    assert.equal(a.length, 9);
    assert.deepEqual(b.map((r) => [r.taskId, r.sampleIndex, r.status]), a.map((r) => [r.taskId, r.sampleIndex, r.status]));
    assert.deepEqual(a.map((r) => r.status).filter((s) => s === 'passed').length, 3);
  });

  it('names the samples file and line of a sample whose task is not in the problems, without a stack trace', async () => {
    const samples = file('unknown-task.jsonl', [{ task_id: 'sum', solution: SUM }, { task_id: 'sum', solution: SUM }, { task_id: 'mul', solution: SUM }]);
    const outcome = await crucible(['eval', '--problems', IO_PROBLEMS, '--samples', samples, '--out', join(dir, 'run-unknown')]);
    assert.equal(outcome.code, 2);
    assert.match(outcome.stderr, /unknown-task\.jsonl:3: field "task_id": sample 0 of task "mul": no such task in the problems file/);
    assert.doesNotMatch(outcome.stderr, /\n\s+at /);
  });

  it('gives a sample in an unsupported language its own verdict, judges the rest, and keeps stderr tails in reasons', async () => {
    const samples = file('mixed.jsonl', [
      { task_id: 'sum', solution: SUM }, { task_id: 'sum', solution: SUM, language: 'no-such-language' },
      { task_id: 'div', solution: DIV }, { task_id: 'div', response: 'I would rather not.' },
    ]);
    const out = join(dir, 'run-mixed');
    const { summary } = await evalJson(['--problems', IO_PROBLEMS, '--samples', samples, '--out', out, '--all-tests']);
    assert.deepEqual(summary.countsByStatus, { passed: 1, invalid_submission: 1, runtime_error: 1, no_code: 1 });
    const records = verdicts(out);
    assert.equal(records.length, 4);
    const unknown = records.find((r) => r.taskId === 'sum' && r.sampleIndex === 1)!;
    assert.equal(unknown.status, 'invalid_submission');
    assert.match(unknown.reason ?? '', /unknown language "no-such-language"/);
    const div = records.find((r) => r.taskId === 'div' && r.sampleIndex === 0)!;
    assert.match(div.reason ?? '', /exit code 1: .*ZeroDivisionError: integer division or modulo by zero/s);
  });

  it('judges internal_error records again when a run is resumed', async () => {
    const samples = file('resume.jsonl', [{ task_id: 'sum', solution: SUM }, { task_id: 'div', solution: DIV }, { task_id: 'sum', solution: 'print(0)' }]);
    const out = join(dir, 'run-resume');
    await evalJson(['--problems', IO_PROBLEMS, '--samples', samples, '--out', out]);
    const first = verdicts(out);
    const lines = readFileSync(join(out, 'verdicts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SampleRecord);
    // As if Crucible had failed on the first sample of "sum" (a sandbox or harness failure).
    writeFileSync(join(out, 'verdicts.jsonl'), lines.map((r) => JSON.stringify(r.taskId === 'sum' && r.sampleIndex === 0
      ? { ...r, status: 'internal_error', passed: false, tests: [], reason: 'crucible failed: injected' } : r)).join('\n') + '\n');
    const { summary } = await evalJson(['--problems', IO_PROBLEMS, '--samples', samples, '--out', out]);
    assert.equal(summary.judged, 1);
    assert.equal(summary.resumed, 2);
    const again = verdicts(out);
    assert.equal(again.length, 3, 'one line per sample');
    assert.deepEqual(again.map((r) => r.status), first.map((r) => r.status));
  });

  it('computes EvalPlus ground truth once: a second eval of the problems with new samples runs no canonical solution', async () => {
    const problemsPath = file('heplus2.jsonl', firstRecords(HUMANEVAL_PLUS, 2));
    const problems = firstRecords(HUMANEVAL_PLUS, 2);
    const a = file('plus-a.jsonl', problems.map((p) => ({ task_id: p.task_id, completion: p.canonical_solution })));
    const b = file('plus-b.jsonl', problems.map((p) => ({ task_id: p.task_id, completion: '    return []\n' })));
    const first = await evalJson(['--problems', problemsPath, '--samples', a, '--out', join(dir, 'run-gt-a')]);
    assert.deepEqual(first.summary.groundTruth, { runs: 2, cacheHits: 0, cacheDir });
    assert.equal(first.summary.passAtK && (first.summary.passAtK as Record<string, number>)['1'], 1);
    const second = await crucible(['eval', '--no-progress', '--jobs', '2', '--k', '1', '--reps', '50', '--problems', problemsPath,
      '--samples', b, '--out', join(dir, 'run-gt-b')]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /ground truth: 0 runs, 2 from the cache/);
    // A corrupt entry is ignored and recomputed.
    const entries = join(cacheDir, 'ground-truth', 'call');
    const datasetDir = join(entries, readdirSync(entries)[0]!);
    const entry = join(datasetDir, readdirSync(datasetDir)[0]!);
    writeFileSync(entry, '{"format": 1, "value": [');
    const third = await evalJson(['--problems', problemsPath, '--samples', a, '--out', join(dir, 'run-gt-c'), '--cache-dir', cacheDir]);
    assert.deepEqual(third.summary.groundTruth, { runs: 1, cacheHits: 1, cacheDir });
    assert.equal((third.summary.passAtK as Record<string, number>)['1'], 1);
  });

  it('judges HumanEval-X (script problems) from CodeGeeX {task_id, generation} samples; an early exit(0) does not pass; '
    + 'the summary says which problems were judged as one program', async () => {
    // A third problem whose prompt opens its function in a shape replay does not read: judged as one program.
    const [first] = firstRecords(HUMANEVAL_X_JS, 1);
    const oneProgram = { ...first!, task_id: 'JavaScript/0-fn',
      prompt: String(first!['prompt']).replace('const hasCloseElements = (numbers, threshold) => {', 'const hasCloseElements = function (numbers, threshold) {') };
    assert.notEqual(oneProgram.prompt, first!['prompt']);
    const rows: Record<string, unknown>[] = [...firstRecords(HUMANEVAL_X_JS, 2), oneProgram];
    const problems = file('humaneval-x-js.jsonl', rows);
    const samples = file('humaneval-x-js-samples.jsonl', rows.flatMap((r) => [
      { task_id: r['task_id'], generation: r['canonical_solution'] },
      { task_id: r['task_id'], generation: '  process.exit(0)\n}\n' },
    ]));
    const out = join(dir, 'humaneval-x-run');
    const { summary } = await evalJson(['--problems', problems, '--samples', samples, '--out', out, '--no-store']);
    assert.deepEqual(verdicts(out).map((v) => [v.taskId, v.sampleIndex, v.status]), [
      ['JavaScript/0', 0, 'passed'], ['JavaScript/0', 1, 'wrong_answer'], ['JavaScript/0-fn', 0, 'passed'], ['JavaScript/0-fn', 1, 'wrong_answer'],
      ['JavaScript/1', 0, 'passed'], ['JavaScript/1', 1, 'wrong_answer'],
    ]);
    assert.deepEqual(summary['scriptJudging'], { split: 0, replay: 2, oneProgram: 1, oneProgramTasks: ['JavaScript/0-fn'] });
  });

  it('judges MBPP from a bigcode generations file (lists in problem order), --format auto', async () => {
    const problems = file('mbpp-3.jsonl', firstRecords(MBPP_PATH, 3));
    const rows = firstRecords(MBPP_PATH, 3);
    const generations = join(dir, 'generations.json');
    writeFileSync(generations, JSON.stringify(rows.map((r) => [r['code'], 'def nothing():\n    pass\n'])));
    const out = join(dir, 'mbpp-bigcode-run');
    const { summary } = await evalJson(['--problems', problems, '--samples', generations, '--out', out, '--no-store']);
    assert.equal(summary.problems, 3);
    assert.deepEqual(verdicts(out).map((v) => [v.taskId, v.sampleIndex, v.passed]),
      [['1', 0, true], ['1', 1, false], ['2', 0, true], ['2', 1, false], ['3', 0, true], ['3', 1, false]]);
  });

  it('keeps each sample\'s text in verdicts.jsonl (or its sha256), per-problem results in --json, labels the run (--model, --tag)', async () => {
    const samples = file('keep-samples.jsonl', [{ task_id: 'sum', solution: SUM }, { task_id: 'sum', solution: DIV }, { task_id: 'div', solution: DIV }]);
    const out = join(dir, 'keep-full');
    const store = join(dir, 'labels.db');
    const { summary } = await evalJson(['--problems', IO_PROBLEMS, '--samples', samples, '--out', out, '--store', store, '--model', 'my-model',
      '--tag', 'sweep-1', '--tag', 'io']);
    assert.deepEqual(verdicts(out).map((v) => [v.taskId, v.sampleIndex, v.completion]), [['div', 0, DIV], ['sum', 0, SUM], ['sum', 1, DIV]]);
    assert.deepEqual(summary['perProblem'], [
      { taskId: 'div', n: 1, c: 0, passAtK: { '1': 0 }, statuses: { runtime_error: 1 } },
      { taskId: 'sum', n: 2, c: 1, passAtK: { '1': 0.5 }, statuses: { passed: 1, wrong_answer: 1 } },
    ]);
    const hashed = join(dir, 'keep-hash');
    await evalJson(['--problems', IO_PROBLEMS, '--samples', samples, '--out', hashed, '--no-store', '--keep-code', 'hash']);
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    assert.deepEqual(verdicts(hashed).map((v) => [v.completion, v.completionSha256]), [[undefined, sha(DIV)], [undefined, sha(SUM)], [undefined, sha(DIV)]]);
    const db = await openResultStore(store);
    try {
      const [run] = await db.listRuns();
      assert.deepEqual([run!.model, run!.tags], ['my-model', ['sweep-1', 'io']]);
      // The same directory imported into the store that already has its eval: refused, unless asked.
      const again = await crucible(['store', 'import', out, '--store', store]);
      assert.equal(again.code, 2);
      assert.match(again.stderr, /is in .* already as run \d+ \(keep-full, 3 samples\).*--allow-duplicate/);
      assert.equal((await crucible(['store', 'import', out, '--store', store, '--allow-duplicate'])).code, 0);
      const twice = await crucible(['store', 'import', out, '--store', store]);
      assert.match(twice.stderr, /already as run \d+ \(keep-full, 3 samples\), run \d+ \(keep-full, 3 samples\)/);
      const imported = (await db.listRuns())[0]!;
      assert.deepEqual([imported.model, imported.tags], ['my-model', ['sweep-1', 'io']], 'labels come back from run.json');
    } finally {
      await db.close();
    }
  });

  it('reads EvalPlus sample directories (<task>/<n>.py), as evalplus.codegen writes them', async () => {
    const samplesDir = join(dir, 'evalplus-samples');
    for (const [task, n, code] of [['sum', 0, SUM], ['sum', 1, DIV], ['div', 0, SUM]] as const) {
      mkdirSync(join(samplesDir, task), { recursive: true });
      writeFileSync(join(samplesDir, task, `${n}.py`), code);
    }
    const out = join(dir, 'evalplus-dir-run');
    const { summary } = await evalJson(['--problems', IO_PROBLEMS, '--samples', samplesDir, '--out', out, '--no-store']);
    assert.equal(summary['samples'], 3);
    assert.deepEqual(verdicts(out).map((v) => [v.taskId, v.sampleIndex, v.status]), [['div', 0, 'wrong_answer'], ['sum', 0, 'passed'], ['sum', 1, 'wrong_answer']]);
    writeFileSync(join(samplesDir, 'sum', 'notes.txt'), 'x');
    const bad = await crucible(['eval', '--no-progress', '--problems', IO_PROBLEMS, '--samples', samplesDir, '--no-store']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /notes\.txt.*named <n>\.py/);
    const empty = join(dir, 'empty-dir');
    mkdirSync(empty);
    const refused = await crucible(['eval', '--no-progress', '--problems', IO_PROBLEMS, '--samples', empty, '--no-store']);
    assert.match(refused.stderr, /neither/);
    assert.doesNotMatch(refused.stderr, /EISDIR/);
  });

  it('--since/--until keep the problems released in the window and their samples (LiveCodeBench outputs)', async () => {
    const outputs = join(dir, 'Scenario.codegeneration_1_0.2.json');
    writeFileSync(outputs, JSON.stringify(['2812', '2777', 'abc308_a'].map((id) => ({ question_id: id, output_list: ['no code here'] }))));
    const out = join(dir, 'lcb-window-run');
    const { summary } = await evalJson(['--problems', LCB_FIXTURE, '--samples', outputs, '--since', '2023-07-01', '--out', out, '--no-store']);
    assert.equal(summary.problems, 2);
    assert.deepEqual(summary.releaseWindow, { since: '2023-07-01', until: null });
    assert.deepEqual(verdicts(out).map((v) => [v.taskId, v.status]), [['2812', 'no_code'], ['abc308_a', 'no_code']]);
    const empty = await crucible(['eval', '--no-progress', '--problems', LCB_FIXTURE, '--samples', outputs, '--until', '2020-01-01', '--no-store']);
    assert.notEqual(empty.code, 0);
    assert.match(empty.stderr, /no problem of 3 was released in the window/);
    const bad = await crucible(['eval', '--no-progress', '--problems', LCB_FIXTURE, '--samples', outputs, '--since', 'yesterday', '--no-store']);
    assert.match(bad.stderr, /not a YYYY-MM-DD date: "yesterday"/);
  });
});

describe('crucible eval: what the numbers cover and what they depend on', () => {
  it('refuses samples that attempt part of the problems; --limit/--tasks judge a deliberate subset, stamped on summary.json, '
    + 'the store run and the report; the detected format and the toolchains\' package sets are recorded', async () => {
    const problems = file('he5.jsonl', firstRecords(HUMANEVAL, 5));
    const samples = file('he5-3.jsonl', firstRecords(HUMANEVAL, 3).map((p) => ({ task_id: p.task_id, completion: p.canonical_solution })));
    const refused = await crucible(['eval', '--no-progress', '--problems', problems, '--samples', samples, '--no-store', '--out', join(dir, 'partial')]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /^crucible: .*he5-3\.jsonl: samples attempt 3 of the 5 problems \(none for HumanEval\/3, HumanEval\/4\); .*--limit N .*--tasks/);
    assert.equal(refused.stderr.trim().split('\n').length, 1);
    const out = join(dir, 'limit-run');
    const store = join(dir, 'subset.db');
    const { summary, outcome } = await evalJson(['--problems', problems, '--samples', samples, '--limit', '3', '--out', out, '--store', store]);
    assert.deepEqual(summary['scope'], { problemsInFile: 5, problems: 3, limit: 3, subset: true });
    assert.equal(summary['problems'], 3);
    assert.deepEqual([summary['format'], summary['formatGiven'], summary['sampleFormat']], ['humaneval', 'auto', 'jsonl']);
    const packages = (summary['toolchainPackages'] as Record<string, { debian: Record<string, string | null>; python: { modules: number; sha256: string }; sha256: string }>)['python']!;
    assert.match(packages.debian['python3.11'] ?? '', /^3\.11\./);
    assert.ok(packages.python.modules > 100, String(packages.python.modules));
    assert.match(packages.python.sha256, /^[0-9a-f]{64}$/);
    assert.equal(outcome.stderr, '');
    const opened = await openResultStore(store);
    try {
      const [listed] = await opened.listRuns();
      const run = (await opened.getRun(listed!.id))!;
      assert.equal(run.format, 'humaneval');
      assert.deepEqual(run.provenance['scope'], summary['scope']);
      assert.deepEqual(run.provenance['toolchainPackages'], summary['toolchainPackages']);
    } finally {
      await opened.close();
    }
    const report = await crucible(['report', out]);
    assert.match(report.stdout, /Subset: pass@k is over 3 of the 5 problems of the file \(--limit 3\), not the benchmark's score/);
    const human = await crucible(['eval', '--no-progress', '--problems', problems, '--samples', samples, '--tasks', 'HumanEval/0,HumanEval/2',
      '--no-store', '--out', join(dir, 'tasks-run'), '--k', '1', '--reps', '50']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /SUBSET: pass@k is over 2 of the 5 problems in the file \(--tasks\), not the benchmark's score/);
  });

  it('compare warns when two runs\' toolchain package sets differ', async () => {
    const a = join(dir, 'limit-run');
    const b = join(dir, 'limit-run-other-host');
    cpSync(a, b, { recursive: true });
    const summary = JSON.parse(readFileSync(join(b, 'summary.json'), 'utf8')) as { toolchainPackages: Record<string, { debian: Record<string, string>; python: { sha256: string }; sha256: string }> };
    const python = summary.toolchainPackages['python']!;
    python.debian['python3.11'] = '3.11.2-6+deb12u99';
    python.python.sha256 = '0'.repeat(64);
    python.sha256 = '1'.repeat(64);
    writeFileSync(join(b, 'summary.json'), JSON.stringify(summary));
    const same = await crucible(['compare', a, a, '--reps', '50']);
    assert.equal(same.code, 0, same.stderr);
    assert.equal(same.stderr, '');
    const differ = await crucible(['compare', a, b, '--reps', '50']);
    assert.equal(differ.code, 0, differ.stderr);
    assert.match(differ.stderr, /warning: toolchain packages differ: python: Debian package python3\.11 3\.11\.\S+ in A, 3\.11\.2-6\+deb12u99 in B/);
    assert.match(differ.stderr, /warning: toolchain packages differ: python: the sandbox's Python finds other modules/);
  });

  it('a reference solution that fails under the limits (MBPP+ Mbpp/255 at the default memory limit) flags its problem with '
    + 'the limit to raise and leaves it out of pass@k; --include-reference-failures counts it as failed', async () => {
    // The lines as published (some MBPP+ lines hold Python's Infinity, which JSON.parse refuses, so they are not re-encoded).
    const lines = gunzipSync(readFileSync(MBPP_PLUS)).toString('utf8').trim().split('\n')
      .filter((l) => /^\{"task_id": "Mbpp\/(2|255)"/.test(l));
    assert.equal(lines.length, 2);
    const problems = join(dir, 'mbppplus-255.jsonl');
    writeFileSync(problems, lines.join('\n') + '\n');
    const canonical = (l: string): string => JSON.parse(/"canonical_solution": ("(?:[^"\\]|\\.)*")/.exec(l)![1]!) as string;
    const samples = file('mbppplus-255-samples.jsonl', lines.map((l) => ({ task_id: /"task_id": "([^"]+)"/.exec(l)![1], solution: canonical(l) })));
    const { summary, outcome } = await evalJson(['--problems', problems, '--samples', samples, '--out', join(dir, 'reference-failed'), '--no-store']);
    assert.deepEqual(summary['countsByStatus'], { passed: 1, reference_failed: 1 });
    const failures = summary['referenceFailures'] as { problems: number; countedAsFailed: boolean; tasks: { taskId: string; reason: string }[] };
    assert.equal(failures.problems, 1);
    assert.equal(failures.countedAsFailed, false);
    assert.equal(failures.tasks[0]!.taskId, 'Mbpp/255');
    assert.match(failures.tasks[0]!.reason, /^the reference solution needs more memory than the limit of 1024 MiB; raise it to judge this problem \(--memory-limit MiB\): canonical solution of Mbpp\/255 failed on input \d+: memory_limit_exceeded/);
    assert.equal(summary['problemsCounted'], 1);
    assert.equal((summary['passAtK'] as Record<string, number>)['1'], 1, 'the reference failure is not charged to the sample');
    assert.equal(outcome.code, 0);
    const counted = await evalJson(['--problems', problems, '--samples', samples, '--out', join(dir, 'reference-counted'), '--no-store',
      '--include-reference-failures', '--memory-limit', '256']);
    assert.equal((counted.summary['passAtK'] as Record<string, number>)['1'], 0.5);
    assert.equal((counted.summary['referenceFailures'] as { countedAsFailed: boolean }).countedAsFailed, true);
    const human = await crucible(['report', join(dir, 'reference-failed')]);
    assert.match(human.stdout, /Reference failed: 1 problems \(Mbpp\/255\) whose reference solution failed under the limits are left out of pass@k/);
  });
});
