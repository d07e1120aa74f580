/**
 * The store the dashboard's browser tests and `bench:dashboard` look at, filled the way a user fills one:
 * - `default` and `python-only`: the built-in benchmark, all samples and the Python ones (`crucible eval`);
 * - `codegen16b`: CodeT's 16,400 CodeGen-16B HumanEval completions (`crucible eval --model … --tag …`);
 * - `humaneval-plus`: 20 problems × 10 of those completions on HumanEval+ (base and plus tests);
 * - `mbpp`: MBPP as published (974 tasks), each task's reference and the reference broken by an early return (the
 *   test run's one judgement of them, test/support/mbpp-run.ts, resumed into the store);
 * - `lcb`: LiveCodeBench-shaped problems (our own, written here: three platforms, three difficulties, release
 *   dates over ten months), answered by `crucible generate` from a loopback OpenAI-compatible server (chat, the
 *   LiveCodeBench prompt), then judged by `crucible eval` on the generated samples (model and sampling settings from
 *   generate's provenance);
 * - training runs `grpo-main` (1,000 steps × 16 rollouts in GRPO groups of 4, rewards from the real verdicts of the
 *   CodeGen-16B samples, with latencies, a few step-less validation events) and `grpo-ablation` (the same length,
 *   another curriculum), through the store's training API.
 * The first three runs (`default`, `python-only`, `codegen16b`) are the test run's shared fixture
 * (test/support/codegen16b-store.ts: the 16,400 samples are judged once per test run, and the CodeGen-16B acceptance
 * reads the same run); the store starts as a copy of it. Building it takes minutes; `CRUCIBLE_DASHBOARD_STORE` names
 * a directory to build it in once and reuse while developing (the directory is kept; delete it to rebuild).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { readProblems, readSamples } from '../../src/formats/index.js';
import { openResultStore } from '../../src/store/open.js';
import type { ResultStore } from '../../src/store/result-store.js';
import type { TrainingEvent } from '../../src/store/training-event.js';
import { CODET_PROBLEMS, CODET_SOLUTIONS, HUMANEVAL_PLUS } from './data.js';
import { judgedMbpp, mbppEvalArgs } from './mbpp-run.js';
import { startMockOpenAI } from './mock-openai.js';
import { CLI, crucible, DEFAULT_PROBLEMS, DEFAULT_SAMPLES, evalRun, judgedCodegen16b } from './codegen16b-store.js';

export { CLI, crucible, DEFAULT_PROBLEMS, DEFAULT_SAMPLES };

/** Run names of the store, and its training runs. */
export const RUN_NAMES = ['default', 'python-only', 'codegen16b', 'humaneval-plus', 'mbpp', 'lcb'] as const;
export type RunName = (typeof RUN_NAMES)[number];

/** A built store: its folder and file, and run ids by name. */
export interface DashboardStore {
  readonly dir: string;
  readonly db: string;
  readonly runs: Readonly<Record<RunName, number>>;
  readonly training: Readonly<Record<'grpo-main' | 'grpo-ablation', number>>;
  /** Whether `dir` is a throw-away folder (delete it when done). */
  readonly scratch: boolean;
}

/** One LiveCodeBench-shaped problem of ours: a row in the published shape, its right and wrong solutions. */
interface LcbItem {
  readonly id: string;
  readonly platform: 'leetcode' | 'atcoder' | 'codeforces';
  readonly difficulty: 'easy' | 'medium' | 'hard';
  readonly date: string;
  readonly text: string;
  readonly func?: string;
  readonly tests: readonly [string, string][];
  readonly right: string;
  readonly wrong: string;
}

const LCB_ITEMS: readonly LcbItem[] = [
  { id: 'lc-add', platform: 'leetcode', difficulty: 'easy', date: '2023-05-14', text: 'Return a + b.', func: 'addTwo',
    tests: [['1\n2', '3'], ['-4\n9', '5'], ['0\n0', '0']], right: 'return a + b', wrong: 'return a - b' },
  { id: 'lc-max', platform: 'leetcode', difficulty: 'medium', date: '2023-08-20', text: 'Return the largest element of nums.', func: 'largest',
    tests: [['[1, 5, 2]', '5'], ['[-3, -1]', '-1'], ['[7]', '7']], right: 'return max(a)', wrong: 'return a[0]' },
  { id: 'lc-distinct', platform: 'leetcode', difficulty: 'hard', date: '2024-01-07', text: 'Return how many distinct values nums has.', func: 'distinct',
    tests: [['[1, 1, 2]', '2'], ['[]', '0'], ['[4, 4, 4, 5]', '2']], right: 'return len(set(a))', wrong: 'return len(a)' },
  { id: 'abc-double', platform: 'atcoder', difficulty: 'easy', date: '2023-06-03', text: 'Read n and print 2n.',
    tests: [['3\n', '6\n'], ['0\n', '0\n'], ['-5\n', '-10\n']], right: 'print(2 * int(input()))', wrong: 'print(int(input()) + 2)' },
  { id: 'abc-sum', platform: 'atcoder', difficulty: 'medium', date: '2023-10-21', text: 'Read integers on one line and print their sum.',
    tests: [['1 2 3\n', '6\n'], ['10\n', '10\n'], ['-1 1\n', '0\n']], right: 'print(sum(map(int, input().split())))', wrong: 'print(len(input().split()))' },
  { id: 'abc-reverse', platform: 'atcoder', difficulty: 'hard', date: '2024-02-10', text: 'Read a word and print it reversed.',
    tests: [['abc\n', 'cba\n'], ['x\n', 'x\n'], ['level\n', 'level\n']], right: 'print(input()[::-1])', wrong: 'print(input())' },
  { id: 'cf-diff', platform: 'codeforces', difficulty: 'easy', date: '2023-07-15', text: 'Read a and b and print a - b.',
    tests: [['5 3\n', '2\n'], ['1 4\n', '-3\n'], ['0 0\n', '0\n']], right: 'a, b = map(int, input().split())\nprint(a - b)', wrong: 'a, b = map(int, input().split())\nprint(b - a)' },
  { id: 'cf-square', platform: 'codeforces', difficulty: 'medium', date: '2023-11-25', text: 'Read n and print n squared.',
    tests: [['4\n', '16\n'], ['-3\n', '9\n'], ['1\n', '1\n']], right: 'n = int(input())\nprint(n * n)', wrong: 'n = int(input())\nprint(n + n)' },
  { id: 'cf-upper', platform: 'codeforces', difficulty: 'hard', date: '2024-03-02', text: 'Read a line and print it in upper case.',
    tests: [['abc\n', 'ABC\n'], ['Hi there\n', 'HI THERE\n'], ['X\n', 'X\n']], right: 'print(input().upper())', wrong: 'print(input().lower())' },
];

function lcbRow(item: LcbItem): Record<string, unknown> {
  const testtype = item.func === undefined ? 'stdin' : 'functional';
  const cases = item.tests.map(([input, output]) => ({ input, output, testtype }));
  return {
    question_title: item.id, question_content: `[${item.id}] ${item.text}`, platform: item.platform, question_id: item.id, contest_id: `${item.platform}-contest`,
    contest_date: `${item.date}T00:00:00`, difficulty: item.difficulty,
    starter_code: item.func === undefined ? '' : `class Solution:\n    def ${item.func}(self, ${item.tests[0]![0].includes('\n') ? 'a, b' : 'a'}):\n        `,
    public_test_cases: JSON.stringify(cases.slice(0, 1)), private_test_cases: JSON.stringify(cases.slice(1)),
    metadata: JSON.stringify(item.func === undefined ? {} : { func_name: item.func }),
  };
}

/** The program an answer carries: right for most samples, wrong or without code for some (by seed and problem). */
function lcbAnswer(item: LcbItem, index: number, seed: number): string {
  const pick = (seed + index) % 5;
  if (pick === 4) return 'I am not sure how to solve this one.';
  const body = pick === 0 || (item.difficulty === 'hard' && pick < 3) ? item.wrong : item.right;
  const code = item.func === undefined ? body
    : `class Solution:\n    def ${item.func}(self, ${item.tests[0]![0].includes('\n') ? 'a, b' : 'a'}):\n        ${body}\n`;
  return `Here is my solution.\n\n\`\`\`python\n${code}\n\`\`\`\n`;
}

/** `lcb`: problems written in the published shape, samples from `crucible generate` (chat), judged by `crucible eval`. */
async function lcbRun(dir: string, db: string): Promise<void> {
  const problems = join(dir, 'lcb-problems.jsonl');
  writeFileSync(problems, LCB_ITEMS.map((i) => JSON.stringify(lcbRow(i))).join('\n') + '\n');
  const server = await startMockOpenAI({
    respond: (request, seed) => {
      const index = LCB_ITEMS.findIndex((i) => request.promptText.includes(`[${i.id}]`));
      return { content: lcbAnswer(LCB_ITEMS[index]!, index, seed), finishReason: 'stop' };
    },
  });
  try {
    const samples = join(dir, 'lcb-samples.jsonl');
    await crucible(['generate', '--endpoint', server.url, '--model', 'mock/coder-7b-instruct', '--chat', '--problems', problems, '--n', '5',
      '--temperature', '0.2', '--max-tokens', '2000', '--out', samples, '--store', db, '--json'], dir);
    await evalRun(dir, db, 'lcb', ['--problems', problems, '--samples', samples, '--k', '1,5', '--tag', 'livecodebench', '--tag', 'chat']);
  } finally {
    await server.close();
  }
}

/**
 * `mbpp`: every MBPP task's reference and its early-return break, as `{task_id, solution}` samples, recorded live by
 * `crucible eval` from the test run's one judgement of them (test/support/mbpp-run.ts, which the MBPP acceptance
 * asserts verdict by verdict): its run directory and samples file are copied here and the same eval resumes it, so
 * the store gets the run, its problems and every verdict without judging a program again (the resumed samples
 * without their program text, as a resumed eval records them).
 */
async function mbppRun(dir: string, db: string): Promise<void> {
  const judged = await judgedMbpp();
  cpSync(judged.out, join(dir, 'mbpp'), { recursive: true });
  const samples = join(dir, 'mbpp-samples.jsonl');
  cpSync(judged.samples, samples);
  await evalRun(dir, db, 'mbpp', mbppEvalArgs(samples));
}

/** `humaneval-plus`: the first 10 CodeGen-16B completions of 20 problems, on HumanEval+ (base and plus tests; a `--tasks` subset). */
async function humanEvalPlusRun(dir: string, db: string): Promise<void> {
  const codet = await readProblems(CODET_PROBLEMS, 'humaneval');
  const samples = await readSamples(CODET_SOLUTIONS, { problems: codet });
  const keep = new Set(codet.slice(0, 20).map((p) => p.taskId));
  const lines = samples.filter((s) => keep.has(s.taskId) && s.index < 10)
    .map((s) => JSON.stringify({ task_id: s.taskId, sample_index: s.index, completion: s.completion }));
  const file = join(dir, 'he-plus-samples.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  await evalRun(dir, db, 'humaneval-plus', ['--problems', HUMANEVAL_PLUS, '--samples', file, '--tasks', [...keep].join(','), '--k', '1,10', '--model', 'CodeGen-Mono-16B', '--tag', 'humaneval+']);
}

/**
 * A 1,000-step GRPO-like training run from real verdicts: at each step 4 problems × a group of 4 CodeGen-16B samples
 * (reward 1 when the sample passed), the problems drifting from hard to easy (`speed`: how fast), each rollout with a
 * latency, one minute of wall time per 30 steps; `unstepped` validation events without a step.
 */
async function trainingRun(store: ResultStore, name: string, codegen: number, speed: number, unstepped: number): Promise<number> {
  const problems = (await store.problemCounts(codegen)).sort((a, b) => a.c / a.n - b.c / b.n || a.taskId.localeCompare(b.taskId));
  const samples = new Map<string, Awaited<ReturnType<ResultStore['samplesOf']>>>();
  for (const p of problems) samples.set(p.taskId, await store.samplesOf(codegen, p.taskId));
  const t0 = Date.now() - 2 * 3600_000;
  let id = 0;
  for (let chunk = 0; chunk < 1000; chunk += 100) {
    const events: TrainingEvent[] = [];
    for (let step = chunk; step < chunk + 100; step++) {
      const at = Math.min(problems.length - 4, Math.floor(problems.length * Math.min(1, speed * step / 1000) * 0.9));
      for (let j = 0; j < 4; j++) {
        const p = problems[(at + 7 * j) % problems.length]!;
        for (let g = 0; g < 4; g++) {
          const s = samples.get(p.taskId)![(step * 4 + g) % 100]!;
          events.push({ taskId: p.taskId, reward: s.passed ? 1 : 0, status: s.status, passed: s.passed, step, groupId: `${p.taskId}@${step}`,
            timeMs: t0 + step * 2000 + g * 40, cpuMs: s.cpuMs, wallMs: s.wallMs, latencyMs: 30 + s.wallMs + (step % 17) * 3, eventKey: `${step}#${j * 4 + g}` });
        }
      }
    }
    id = (await store.recordTrainingBatch(name, events)).trainingRunId;
  }
  const validation: TrainingEvent[] = Array.from({ length: unstepped }, (_, i) => ({ taskId: problems[i]!.taskId, reward: 1, status: 'passed', passed: true,
    timeMs: t0 + 600_000 + i * 1000, latencyMs: 25 }));
  if (validation.length > 0) await store.recordTrainingBatch(name, validation);
  return id;
}

/** Build the store in `dir` (made when absent): a copy of the judged CodeGen-16B fixture, then the other runs. */
async function build(dir: string, db: string): Promise<void> {
  const t = Date.now();
  const lap = (what: string) => process.stderr.write(`dashboard store: ${what} at ${Date.now() - t} ms\n`);
  const judged = await judgedCodegen16b();
  lap('codegen16b fixture');
  // The store file is `db` (its -wal/-shm beside it, if any), the run directories keep their names.
  cpSync(judged.dir, dir, { recursive: true, filter: (source) => basename(source) !== '.built' });
  if (!existsSync(db)) throw new Error(`the judged CodeGen-16B fixture has no store file ${basename(db)}`);
  lap('copy');
  // Three independent evals into one SQLite store (WAL, busy timeout: several writers are supported), side by side.
  await Promise.all([humanEvalPlusRun(dir, db).then(() => lap('humaneval-plus')), mbppRun(dir, db).then(() => lap('mbpp')),
    lcbRun(dir, db).then(() => lap('lcb'))]);
  const store = await openResultStore(db);
  try {
    const codegen = (await store.listRuns({ text: 'codegen16b' }))[0]!.id;
    await trainingRun(store, 'grpo-main', codegen, 1.0, 12);
    lap('grpo-main');
    await trainingRun(store, 'grpo-ablation', codegen, 0.6, 0);
    lap('grpo-ablation');
  } finally {
    await store.close();
  }
  writeFileSync(join(dir, 'built'), new Date().toISOString() + '\n');
}

/** Build (or, with `CRUCIBLE_DASHBOARD_STORE`, reuse) the dashboard store. */
export async function dashboardStore(): Promise<DashboardStore> {
  const reuse = process.env['CRUCIBLE_DASHBOARD_STORE'];
  const dir = reuse ?? mkdtempSync(join(tmpdir(), 'crucible-dashboard-'));
  mkdirSync(dir, { recursive: true });
  const db = join(dir, 'crucible.db');
  if (!existsSync(join(dir, 'built'))) {
    for (const file of [db, `${db}-wal`, `${db}-shm`]) rmSync(file, { force: true });
    await build(dir, db);
  }
  const store = await openResultStore(db);
  try {
    const runs = await store.listRuns();
    const byName = (name: string): number => {
      const run = runs.find((r) => r.name === name);
      if (run === undefined) throw new Error(`the dashboard store has no run ${name}`);
      return run.id;
    };
    const training = await store.listTrainingRuns();
    return {
      dir, db, scratch: reuse === undefined,
      runs: Object.fromEntries(RUN_NAMES.map((n) => [n, byName(n)])) as Record<RunName, number>,
      training: { 'grpo-main': training.find((t) => t.name === 'grpo-main')!.id, 'grpo-ablation': training.find((t) => t.name === 'grpo-ablation')!.id },
    };
  } finally {
    await store.close();
  }
}
