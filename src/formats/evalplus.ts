/**
 * EvalPlus HumanEval+ and MBPP+ problems -> `CallProblem`.
 *
 * Source format: evalplus/humanevalplus_release (v0.1.10) `HumanEvalPlus.jsonl.gz` and
 * evalplus/mbppplus_release (v0.2.0) `MbppPlus.jsonl.gz`, as loaded by evalplus/evalplus
 * `evalplus/data/humaneval.py` (`get_human_eval_plus`) and `evalplus/data/mbpp.py` (`get_mbpp_plus`).
 * Fields used: `task_id`, `prompt`, `entry_point`, `canonical_solution`, `base_input`, `plus_input` (lists of
 * argument lists), `atol` (number; 0 when absent), `test` (HumanEval+: the original HumanEval test) or
 * `assertion` (MBPP+: the original MBPP asserts), `contract` (read, not carried: the contract only guards the
 * canonical solution when EvalPlus generates inputs).
 *
 * Numbers: the files are written by Python's json and hold `NaN`/`Infinity` tokens and ints beyond 2^53, so
 * lines are parsed by `parsePyJson`: ints stay exact (`{"i": "digits"}`), floats are `{"f": ...}`.
 * MBPP+ argument lists then go through EvalPlus' `mbpp_deserialize_inputs` (see `mbpp_inputs.ts`); a task is
 * MBPP+ when its id starts with `Mbpp/`, as in EvalPlus.
 * Errors: `DatasetError` with file, line and field (`plus_input[12]` for a bad input).
 */
import { z } from 'zod';
import type { PyValue } from '../verdict/index.js';
import { DatasetError } from './errors.js';
import { readJsonl } from './jsonl.js';
import { mbppDeserializeArgs, MbppInputError } from './mbpp_inputs.js';
import { JsonNumber, JsonObject, parsePyJsonRecord, toPyValue, type JsonValue } from './pyjson.js';
import type { CallProblem } from './types.js';

const jsonValue = z.custom<JsonValue>(() => true);
const argList = z.array(jsonValue, { invalid_type_error: 'expected array (an argument list)' });
/**
 * An input list. MbppPlus v0.2.0 writes `"plus_input": {}` for Mbpp/793; EvalPlus only iterates the value, and
 * an empty dict iterates as nothing, so an empty object reads as an empty list. Any other object is an error.
 */
const inputList = z.preprocess(
  (v) => (v instanceof JsonObject && v.entries.length === 0 ? [] : v),
  z.array(argList, { invalid_type_error: 'expected array of argument lists' }),
);
const jsonNumber = z
  .custom<JsonNumber>((v) => v instanceof JsonNumber, { message: 'expected number' })
  .transform((n) => n.toNumber());

export const EvalPlusRecordSchema = z.object({
  task_id: z.string().min(1),
  prompt: z.string(),
  entry_point: z.string().min(1),
  canonical_solution: z.string(),
  base_input: inputList,
  plus_input: inputList.default([]),
  atol: jsonNumber.optional(),
  test: z.string().optional(),
  assertion: z.string().optional(),
  contract: z.string().optional(),
});

function convertInputs(
  path: string,
  line: number,
  field: string,
  taskId: string,
  inputs: readonly (readonly JsonValue[])[],
): (readonly PyValue[])[] {
  return inputs.map((args, k) => {
    const py = args.map(toPyValue);
    if (datasetOf(taskId) !== 'mbpp') return py;
    try {
      return mbppDeserializeArgs(taskId, py);
    } catch (err) {
      if (err instanceof MbppInputError) throw new DatasetError(path, line, `${field}[${k}]`, err.message);
      throw err;
    }
  });
}

/** Which EvalPlus dataset a task belongs to: MBPP+ when its id starts with `Mbpp/`, as EvalPlus decides. */
function datasetOf(taskId: string): 'humaneval' | 'mbpp' {
  return taskId.startsWith('Mbpp/') ? 'mbpp' : 'humaneval';
}

/** Read a HumanEval+ or MBPP+ JSONL(.gz) file. Duplicate `task_id`s are an error. */
export async function readEvalPlus(path: string): Promise<CallProblem[]> {
  const out: CallProblem[] = [];
  const seen = new Set<string>();
  for await (const { line, value: r } of readJsonl(path, EvalPlusRecordSchema, parsePyJsonRecord)) {
    if (seen.has(r.task_id)) throw new DatasetError(path, line, 'task_id', `duplicate task_id "${r.task_id}"`);
    seen.add(r.task_id);
    const atol = r.atol ?? 0;
    if (!(atol >= 0)) throw new DatasetError(path, line, 'atol', `expected a number >= 0, got ${atol}`);
    const test = r.test ?? r.assertion;
    out.push({
      kind: 'call',
      taskId: r.task_id,
      language: 'python',
      prompt: r.prompt,
      entryPoint: r.entry_point,
      canonicalSolution: r.canonical_solution,
      baseInputs: convertInputs(path, line, 'base_input', r.task_id, r.base_input),
      plusInputs: convertInputs(path, line, 'plus_input', r.task_id, r.plus_input),
      atol,
      evalplusDataset: datasetOf(r.task_id),
      ...(test === undefined ? {} : { test }),
    });
  }
  return out;
}
