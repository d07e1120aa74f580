/**
 * open-r1's IOI data -> `IoiProblem` (judged by the `ioi` mode, `src/kinds/ioi/ioi.ts`).
 *
 * Source format: hf.co/datasets/open-r1/ioi, one row per (task, subtask), as open-r1's `ioi_code_reward` and
 * `ioi_scoring.score_subtask` read it (`src/open_r1/utils/competitive_programming/ioi_scoring.py`): `id` (the
 * task, also the solution's file name `graders/<id>.cpp`), `year`, `name`, `day`, `subtask`, `score` (the
 * subtask's points), `score_precision`, `time_limit` (seconds), `memory_limit` (MB), `task_type` (`Batch`,
 * `Communication`), `test_names`, `grader_files` (`[name, content]` pairs with directories: `graders/...`,
 * `checker/checker.cpp`), `statement`, `problem`, `starting_code`. Test cases as open-r1 finds them: inline in
 * the row as `test_cases` (a `{name: [input, output]}` object, or a list aligned with `test_names`), or as rows of
 * hf.co/datasets/open-r1/ioi-test-cases in the same file (`problem_id`, `test_name`, `test_input`,
 * `test_output`, optionally `year`), as `ioi_utils.load_ioi_tests` loads them.
 * Rows of one task (same `year` and `id`) are grouped into one problem, subtasks in file order; a test shared by
 * subtasks is one test, run once (open-r1's `test_case_run_cache`).
 * Errors: `DatasetError` (file, line, field): a bad row, a test name with no test case, a Batch test without an
 * expected output (cms_ioi would then take the program's own output as its score), no
 * `graders/grader_config.json`, a Communication task without `graders/manager.cpp`, rows of one task that disagree on limits or graders.
 */
import { z } from 'zod';
import { datasetErrorFromZod, DatasetError } from './errors.js';
import { readJsonl } from './jsonl.js';
import type { IoiProblem, IoiTestCase } from './types.js';

const TestCaseSchema = z.tuple([z.string(), z.string()]);

/** One row of open-r1/ioi (fields open-r1 does not read are kept as they are). */
export const IoiSubtaskRowSchema = z.object({
  id: z.string().min(1),
  year: z.number().int().optional(),
  name: z.string().optional(),
  day: z.union([z.string(), z.number()]).optional(),
  subtask: z.string().min(1),
  statement: z.string().optional(),
  problem: z.string().optional(),
  starting_code: z.string().nullable().optional(),
  score: z.number().nonnegative(),
  score_precision: z.number().int().min(0).max(10).default(2),
  time_limit: z.number().positive(),
  memory_limit: z.number().positive(),
  task_type: z.enum(['Batch', 'Communication']),
  test_names: z.array(z.string().min(1)),
  grader_files: z.array(z.tuple([z.string().min(1), z.string()])),
  test_cases: z.union([z.record(TestCaseSchema), z.array(TestCaseSchema)]).optional(),
}).passthrough();

/** One row of open-r1/ioi-test-cases. */
export const IoiTestCaseRowSchema = z.object({
  problem_id: z.string().min(1),
  test_name: z.string().min(1),
  test_input: z.string(),
  test_output: z.string(),
  year: z.number().int().optional(),
}).passthrough();

type SubtaskRow = z.infer<typeof IoiSubtaskRowSchema>;

/** Whether a first record is open-r1 IOI data (a subtask row or a test-case row). */
export function isIoiRecord(keys: ReadonlySet<string>): boolean {
  return (keys.has('grader_files') && keys.has('test_names') && keys.has('subtask'))
    || (keys.has('problem_id') && keys.has('test_name') && keys.has('test_input'));
}

interface TaskRows {
  readonly first: { readonly line: number; readonly row: SubtaskRow };
  readonly subtasks: { readonly line: number; readonly row: SubtaskRow }[];
}

const taskKey = (year: number | undefined, id: string): string => `${year ?? ''}/${id}`;

/** Read an open-r1 IOI JSONL(.gz) file (subtask rows, and optionally test-case rows). */
export async function readIoi(path: string): Promise<IoiProblem[]> {
  const tasks = new Map<string, TaskRows>();
  // Test cases by task key (with the year when the row has one, and without: the per-year dataset config has none).
  const testCases = new Map<string, Map<string, IoiTestCase>>();
  for await (const { line, value: raw } of readJsonl(path, z.record(z.unknown()))) {
    // A row with `problem_id` and no `subtask` is an open-r1/ioi-test-cases row; any other, a subtask row.
    if ('problem_id' in raw && !('subtask' in raw)) {
      const parsed = IoiTestCaseRowSchema.safeParse(raw);
      if (!parsed.success) throw datasetErrorFromZod(path, line, parsed.error);
      const value = parsed.data;
      for (const key of [taskKey(value.year, value.problem_id), taskKey(undefined, value.problem_id)]) {
        const known = testCases.get(key) ?? new Map<string, IoiTestCase>();
        known.set(value.test_name, { name: value.test_name, input: value.test_input, output: value.test_output });
        testCases.set(key, known);
      }
      continue;
    }
    const parsed = IoiSubtaskRowSchema.safeParse(raw);
    if (!parsed.success) throw datasetErrorFromZod(path, line, parsed.error);
    const value = parsed.data;
    const key = taskKey(value.year, value.id);
    const task = tasks.get(key);
    if (task === undefined) {
      tasks.set(key, { first: { line, row: value }, subtasks: [{ line, row: value }] });
      continue;
    }
    const first = task.first.row;
    for (const field of ['time_limit', 'memory_limit', 'task_type', 'score_precision'] as const) {
      if (value[field] !== first[field]) {
        throw new DatasetError(path, line, field, `${JSON.stringify(value[field])} differs from line ${task.first.line}'s ${JSON.stringify(first[field])} for task ${value.id}`);
      }
    }
    if (JSON.stringify(value.grader_files) !== JSON.stringify(first.grader_files)) {
      throw new DatasetError(path, line, 'grader_files', `differ from line ${task.first.line}'s for task ${value.id}`);
    }
    if (task.subtasks.some((s) => s.row.subtask === value.subtask)) {
      throw new DatasetError(path, line, 'subtask', `duplicate subtask "${value.subtask}" of task ${value.id}`);
    }
    task.subtasks.push({ line, row: value });
  }
  if (tasks.size === 0) throw new DatasetError(path, undefined, undefined, 'no IOI subtask rows (open-r1/ioi: id, subtask, test_names, grader_files)');
  return [...tasks.values()].map((task) => toProblem(path, task, testCases));
}

function toProblem(path: string, task: TaskRows, testCases: ReadonlyMap<string, ReadonlyMap<string, IoiTestCase>>): IoiProblem {
  const { line, row } = task.first;
  const graderNames = new Set(row.grader_files.map(([name]) => name.replace(/^\.\//, '')));
  if (!graderNames.has('graders/grader_config.json')) {
    throw new DatasetError(path, line, 'grader_files', 'no graders/grader_config.json: cms_ioi takes the task type and limits from it');
  }
  if (row.task_type === 'Communication' && !graderNames.has('graders/manager.cpp')) {
    throw new DatasetError(path, line, 'grader_files', 'a Communication task needs graders/manager.cpp');
  }
  if (![...graderNames].some((n) => n.startsWith('graders/') && n.endsWith('.h') && n !== 'graders/testlib.h')) {
    throw new DatasetError(path, line, 'grader_files', 'no graders/<task>.h: cms_ioi names the solution after the first header');
  }
  const external = testCases.get(taskKey(row.year, row.id)) ?? testCases.get(taskKey(undefined, row.id));
  const tests: IoiTestCase[] = [];
  const indexOf = new Map<string, number>();
  const subtasks = task.subtasks.map(({ line: subtaskLine, row: s }) => {
    const given = s.test_cases;
    if (Array.isArray(given) && given.length !== s.test_names.length) {
      throw new DatasetError(path, subtaskLine, 'test_cases', `${given.length} test cases for ${s.test_names.length} test_names`);
    }
    const inline = given === undefined ? undefined
      : new Map<string, readonly [string, string]>(Array.isArray(given) ? s.test_names.map((name, i) => [name, given[i]!]) : Object.entries(given));
    const indices = s.test_names.map((name, i) => {
      const known = indexOf.get(name);
      if (known !== undefined) return known;
      const pair = inline?.get(name);
      const test = pair !== undefined ? { name, input: pair[0], output: pair[1] } : external?.get(name);
      if (test === undefined) throw new DatasetError(path, subtaskLine, `test_names[${i}]`, `no test case "${name}" for task ${s.id} (inline test_cases or open-r1/ioi-test-cases rows)`);
      if (row.task_type === 'Batch' && test.output.replace(/\n+$/, '') === '') {
        throw new DatasetError(path, subtaskLine, `test_names[${i}]`, `Batch test "${name}" has no expected output: cms_ioi would score the program's own output`);
      }
      indexOf.set(name, tests.length);
      tests.push(test);
      return tests.length - 1;
    });
    return { name: s.subtask, points: s.score, tests: indices };
  });
  return {
    kind: 'ioi',
    taskId: row.year === undefined ? row.id : `${row.year}/${row.id}`,
    problemId: row.id,
    language: 'cpp',
    ...(row.name === undefined ? {} : { name: row.name }),
    ...(row.statement === undefined ? {} : { statement: row.statement }),
    ...(row.starting_code == null ? {} : { starterCode: row.starting_code }),
    graderFiles: row.grader_files.map(([name, content]) => ({ name, content })),
    tests,
    subtasks,
    scorePrecision: row.score_precision,
    timeLimitMs: Math.round(row.time_limit * 1000),
    memoryLimitKiB: Math.round(row.memory_limit * 1024),
  };
}
