/**
 * CodeT's generated data: code samples and generated test cases, as released with "CodeT: Code Generation
 * with Generated Tests" (Chen et al. 2022), microsoft/CodeT `CodeT/data/generated_data/*.jsonl`.
 *
 * Both files hold one row per problem, `{prompt, samples: [string]}`. Behaviour follows CodeT's released
 * code, microsoft/CodeT `CodeT/src/postprocess.py` (`PostProcessor`), `CodeT/src/execution.py` and
 * `CodeT/main.py`:
 *
 * Code samples (`map_task_id_for_solution`, `solution_extract`):
 * - a row is matched to a problem by exact `prompt` (CodeT's HumanEval_for_code_generation prompts, whose
 *   task ids are HumanEval's, so the samples also judge against HumanEval and HumanEval+);
 * - each sample is cut before the first of `STOP_TOKEN = ['\nclass', '\ndef', '\n#', '\nif', '\nprint']`
 *   (CodeT splits on each token in turn and keeps the head, which is the same as cutting at the earliest);
 * - a row with no samples yields one sample with the completion CodeT uses for that case,
 *   `'empty solution here, execution will fail'`.
 *
 * Generated tests (`map_task_id_for_test_case`, `test_case_extract`, `_check_test_case_validation`):
 * - the row's prompt is CodeT's test-generation prompt, i.e. the problem prompt followed by
 *   `    pass\n\n# check the correctness of <entry_point>\nassert ` (CodeT/data/dataset/
 *   HumanEval_for_test_case_generation.jsonl); a row is matched to the problem whose prompt gives exactly
 *   that text (or, failing that, whose prompt is exactly the row's prompt);
 * - each generated string `s` is split as `('assert ' + s).split('assert ')`; parts that are non-empty after
 *   strip and contain the entry point become `('assert ' + part).strip()`;
 * - each is cut at the first stop token, stripped, and kept only if non-empty, containing `assert`, and
 *   compiling inside a `try:` block. CodeT calls Python's `compile`; Crucible uses
 *   `looksLikeCompilablePython` by default (no Python runs on the host) and accepts a caller-supplied check;
 * - per generated sample, the first `limit` (CodeT `--test_case_limit`, default 5) kept assertions are used;
 * - the task's test set is the set of distinct assertions over all its samples (`list(set(...))` in
 *   `evaluate_with_test_cases`); how often each appears is kept too (CodeT's `DataManager` counts it).
 */
import { z } from 'zod';
import { DatasetError } from './errors.js';
import { readJsonl } from './jsonl.js';
import { pyStrip } from './pystr.js';
import { looksLikeCompilablePython } from './python_syntax.js';
import type { Problem, Sample } from './types.js';

/** CodeT's `STOP_TOKEN`, in its order. */
export const CODET_STOP_SEQUENCES: readonly string[] = ['\nclass', '\ndef', '\n#', '\nif', '\nprint'];

/** The completion CodeT substitutes for a problem with no samples. */
export const CODET_EMPTY_SOLUTION = 'empty solution here, execution will fail';

/** Default number of assertions kept per generated test sample (CodeT `--test_case_limit`). */
export const CODET_TEST_CASE_LIMIT = 5;

export const CodetRowSchema = z.object({ prompt: z.string(), samples: z.array(z.string()) });

/** Cut `text` before the earliest occurrence of any stop sequence (whole text when none occurs). */
export function cutAtStopSequences(text: string, stops: readonly string[] = CODET_STOP_SEQUENCES): string {
  let end = text.length;
  for (const stop of stops) {
    const at = text.indexOf(stop);
    if (at !== -1 && at < end) end = at;
  }
  return text.slice(0, end);
}

/** The prompt CodeT used to generate test cases for a problem with this prompt and entry point. */
export function codetTestPrompt(prompt: string, entryPoint: string): string {
  return `${prompt}    pass\n\n# check the correctness of ${entryPoint}\nassert `;
}

type PromptedProblem = Extract<Problem, { readonly prompt: string; readonly entryPoint: string }>;

function promptedProblems(problems: readonly Problem[]): PromptedProblem[] {
  return problems.filter((p): p is PromptedProblem => p.kind === 'unit_test' || p.kind === 'call');
}

/**
 * Read a CodeT code-solution file into samples. `problems` supplies the prompts to match (CodeT's
 * HumanEval_for_code_generation file, read with `readHumanEval`). Sample `index` is the position within the
 * task's samples, over the whole file in order. Unknown prompt -> `DatasetError` at that line.
 */
export async function readCodetSamples(path: string, problems: readonly Problem[]): Promise<Sample[]> {
  const byPrompt = new Map<string, PromptedProblem>();
  for (const p of promptedProblems(problems)) byPrompt.set(p.prompt, p);
  const next = new Map<string, number>();
  const out: Sample[] = [];
  for await (const { line, value } of readJsonl(path, CodetRowSchema)) {
    const problem = byPrompt.get(value.prompt);
    if (problem === undefined) {
      throw new DatasetError(path, line, 'prompt', 'prompt matches no problem of the problem file (exact match)');
    }
    const texts = value.samples.length === 0 ? [CODET_EMPTY_SOLUTION] : value.samples.map((s) => cutAtStopSequences(s));
    for (const completion of texts) {
      const index = next.get(problem.taskId) ?? 0;
      next.set(problem.taskId, index + 1);
      out.push({ taskId: problem.taskId, index, completion, language: 'python', line });
    }
  }
  return out;
}

/** Decides whether one candidate assertion would compile (CodeT: Python `compile` inside `try:`). */
export type AssertionCheck = (assertion: string) => boolean;

/** CodeT's `test_case_extract`: the valid assertions in one generated string, in order. */
export function extractCodetTestCases(
  generated: string,
  entryPoint: string,
  isValid: AssertionCheck = looksLikeCompilablePython,
): string[] {
  const name = pyStrip(entryPoint);
  const out: string[] = [];
  for (const part of `assert ${generated}`.split('assert ')) {
    if (!part.includes(name) || pyStrip(part).length === 0) continue;
    const candidate = pyStrip(cutAtStopSequences(pyStrip(`assert ${part}`)));
    if (candidate.length < 1 || !candidate.includes('assert')) continue;
    if (isValid(candidate)) out.push(candidate);
  }
  return out;
}

/** Generated tests of one task. */
export interface CodetTaskTests {
  readonly taskId: string;
  /** Per generated sample, in file order: its first `limit` valid assertions. */
  readonly perSample: readonly (readonly string[])[];
  /** Distinct assertions over all `perSample` lists (first-seen order), each with its number of occurrences
   *  in those lists (CodeT's `Counter` over the limited lists, which weights its consensus score). */
  readonly distinct: readonly { readonly assertion: string; readonly count: number }[];
}

export interface ReadCodetTestsOptions {
  /** Assertions kept per generated sample; default 5 (CodeT `--test_case_limit`). */
  readonly limit?: number;
  /** Syntax check for one assertion; default `looksLikeCompilablePython`. */
  readonly isValid?: AssertionCheck;
}

/**
 * Read a CodeT generated-test-case file into per-task tests, keyed by task id (file order).
 * Unknown prompt -> `DatasetError` at that line.
 */
export async function readCodetTests(
  path: string,
  problems: readonly Problem[],
  options: ReadCodetTestsOptions = {},
): Promise<Map<string, CodetTaskTests>> {
  const limit = options.limit ?? CODET_TEST_CASE_LIMIT;
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`limit must be an integer >= 0, got ${limit}`);
  const isValid = options.isValid ?? looksLikeCompilablePython;
  const byPrompt = new Map<string, PromptedProblem>();
  for (const p of promptedProblems(problems)) byPrompt.set(p.prompt, p);
  const byTestPrompt = new Map<string, PromptedProblem>();
  for (const p of promptedProblems(problems)) byTestPrompt.set(codetTestPrompt(p.prompt, p.entryPoint), p);

  const perTask = new Map<string, string[][]>();
  for await (const { line, value } of readJsonl(path, CodetRowSchema)) {
    const problem = byTestPrompt.get(value.prompt) ?? byPrompt.get(value.prompt);
    if (problem === undefined) {
      throw new DatasetError(path, line, 'prompt', 'prompt matches no problem of the problem file (CodeT test prompt)');
    }
    let lists = perTask.get(problem.taskId);
    if (lists === undefined) perTask.set(problem.taskId, (lists = []));
    for (const s of value.samples) lists.push(extractCodetTestCases(s, problem.entryPoint, isValid).slice(0, limit));
  }

  const out = new Map<string, CodetTaskTests>();
  for (const [taskId, lists] of perTask) {
    const counts = new Map<string, number>();
    for (const list of lists) for (const a of list) counts.set(a, (counts.get(a) ?? 0) + 1);
    out.set(taskId, {
      taskId,
      perSample: lists,
      distinct: [...counts].map(([assertion, count]) => ({ assertion, count })),
    });
  }
  return out;
}
