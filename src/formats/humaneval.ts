/**
 * HumanEval problems -> `UnitTestProblem`.
 *
 * Source format: openai/human-eval `data/HumanEval.jsonl.gz` (read by `human_eval/data.py`, `read_problems`):
 * one JSON object per line with `task_id`, `prompt`, `entry_point`, `canonical_solution`, `test` (all strings;
 * `test` defines `check(candidate)`). The program judged is `prompt + completion + "\n" + test + "\n" +
 * "check(" + entry_point + ")"` (`human_eval/execution.py`, `check_correctness`).
 * CodeT's variant (microsoft/CodeT `CodeT/data/dataset/HumanEval_for_code_generation.jsonl`) has the same
 * fields, with the docstring examples removed from `prompt`; it reads with the same function.
 * `entry_point` is taken without surrounding whitespace: human-eval writes it into the program's source
 * (`check(<entry_point>)`), where spaces are insignificant (CodeT's MBPP file has `"is_Power_Of_Two "`, task
 * MbppEval/6). Extra fields are ignored. Errors: `DatasetError` (file, line, field).
 */
import { z } from 'zod';
import { DatasetError } from './errors.js';
import { readJsonl } from './jsonl.js';
import type { UnitTestProblem } from './types.js';

export const HumanEvalRecordSchema = z.object({
  task_id: z.string().min(1),
  prompt: z.string(),
  entry_point: z.string().trim().min(1),
  canonical_solution: z.string().optional(),
  test: z.string(),
});

/** Read a HumanEval-style JSONL(.gz) file. Duplicate `task_id`s are an error. */
export async function readHumanEval(path: string): Promise<UnitTestProblem[]> {
  const out: UnitTestProblem[] = [];
  const seen = new Set<string>();
  for await (const { line, value: r } of readJsonl(path, HumanEvalRecordSchema)) {
    if (seen.has(r.task_id)) throw new DatasetError(path, line, 'task_id', `duplicate task_id "${r.task_id}"`);
    seen.add(r.task_id);
    out.push({
      kind: 'unit_test',
      taskId: r.task_id,
      language: 'python',
      prompt: r.prompt,
      entryPoint: r.entry_point,
      test: r.test,
      ...(r.canonical_solution === undefined ? {} : { canonicalSolution: r.canonical_solution }),
    });
  }
  return out;
}
