/**
 * APPS and TACO problems -> `IoProblem` (standard input) or `ExpectedCallProblem` (call-based, `fn_name`).
 *
 * Source formats: `codeparrot/apps` rows (hendrycks/apps, MIT; Hendrycks et al. 2021, "Measuring Coding Challenge
 * Competence With APPS"): `problem_id` (int), `question`, `solutions` (a JSON string: list of Python programs),
 * `input_output` (a JSON string: `{"inputs": [...], "outputs": [...], "fn_name"?: str}`), `difficulty`, `url`,
 * `starter_code`; `BAAI/TACO` rows (FlagOpen/TACO, Apache-2.0) have the same `question`, `solutions`,
 * `starter_code`, `input_output`, plus `name`, `source`, `difficulty`, `date`, `time_limit`, `memory_limit`, tags,
 * and no id: a TACO problem is named by its 0-based row (`"12"`), APPS by `problem_id`.
 * Judging follows APPS's `eval/testing_util.py` (`run_test`; TACO's `testing_util.py` is a copy):
 * - with `fn_name`: each input is the argument list, each output the expected return value (APPS wraps it in a
 *   list), judged by the `expected_call` mode with the APPS rule; a dict first argument or expected value whose
 *   keys all read as ints gets int keys (APPS undoes JSON's string keys; the arguments become that dict alone);
 * - without: each input is stdin (a list of lines is joined with `\n`, as `run_test` does) and each output the
 *   expected stdout (a list of lines joined with `\n`: APPS's own comparison would raise on a list), in Python,
 *   with the `apps` comparator.
 * Time limit: 4 s per test (APPS `testing_util.py`, `timeout = 4`). The first of `solutions` is kept as the
 * reference solution of standard-input problems. TACO's `date` is kept as `releaseDate`.
 * A row with an empty `input_output` (some APPS/TACO training rows) has no tests and is an error naming its line.
 * Errors: `DatasetError` (file, line, field, e.g. `input_output.outputs[3]`).
 */
import { z } from 'zod';
import { DatasetError } from './errors.js';
import { readJsonl } from './jsonl.js';
import { JsonObject, parsePyJson, toPyValue, type JsonValue } from './pyjson.js';
import type { PyValue } from '../verdict/index.js';
import type { ExpectedCallProblem, IoProblem } from './types.js';

/** APPS's per-test time-out, ms. */
export const APPS_TIME_LIMIT_MS = 4000;

/** One APPS or TACO row (`input_output` and `solutions` are JSON strings, decoded after this schema). */
export const AppsRecordSchema = z.object({
  problem_id: z.number().int().nonnegative().optional(),
  question: z.string(),
  solutions: z.string().nullable().optional(),
  input_output: z.string(),
  starter_code: z.string().nullable().optional(),
  date: z.string().nullable().optional(),
});

function fail(path: string, line: number, field: string, detail: string): never {
  throw new DatasetError(path, line, field, detail);
}

/** A stdin/stdout value: a string, or a list of lines joined by `\n`. */
function ioText(path: string, line: number, field: string, v: JsonValue): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return (v as string[]).join('\n');
  return fail(path, line, field, 'expected a string or a list of strings');
}

/**
 * APPS's undoing of JSON's string dict keys: a dict whose keys all read as Python `int(k)` gets int keys; any
 * other value is undefined (APPS's `try: {int(k): v ...} except: pass` leaves it as it is).
 */
function intKeyed(v: PyValue | undefined): PyValue | undefined {
  if (v === undefined || v === null || typeof v !== 'object' || !('d' in v)) return undefined;
  const pairs: [PyValue, PyValue][] = [];
  for (const [k, value] of v.d) {
    const m = typeof k === 'string' ? /^\s*([+-]?)(\d+(?:_\d+)*)\s*$/.exec(k) : null;
    if (m === null) return undefined;
    const digits = m[2]!.replace(/_/g, '').replace(/^0+(?=\d)/, '');
    pairs.push([{ i: m[1] === '-' && digits !== '0' ? `-${digits}` : digits }, value]);
  }
  return { d: pairs };
}

/** A call's arguments and expected value after APPS's dict-key conversion (`run_test`, call-based branch). */
function appsCall(args: PyValue[], expected: PyValue): { args: PyValue[]; expected: PyValue } {
  const firstArg = intKeyed(args[0]);
  const outputList = expected !== null && typeof expected === 'object' && 'l' in expected ? expected.l : undefined;
  const output = intKeyed(expected) ?? intKeyed(outputList?.[0]);
  return { args: firstArg === undefined ? args : [firstArg], expected: output === undefined ? expected : { l: [output] } };
}

function firstSolution(path: string, line: number, text: string | null | undefined): string | undefined {
  if (text === undefined || text === null || text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return fail(path, line, 'solutions', `invalid JSON: ${(err as Error).message}`);
  }
  const solutions = z.array(z.string()).safeParse(parsed);
  if (!solutions.success) return fail(path, line, 'solutions', 'expected a JSON list of strings');
  return solutions.data[0];
}

/** Read an APPS or TACO JSONL(.gz) file. Duplicate ids are an error. */
export async function readApps(path: string): Promise<(IoProblem | ExpectedCallProblem)[]> {
  const out: (IoProblem | ExpectedCallProblem)[] = [];
  const seen = new Set<string>();
  let row = 0;
  for await (const { line, value: r } of readJsonl(path, AppsRecordSchema)) {
    const taskId = String(r.problem_id ?? row);
    row++;
    if (seen.has(taskId)) fail(path, line, 'problem_id', `duplicate problem_id "${taskId}"`);
    seen.add(taskId);
    if (r.input_output.trim() === '') fail(path, line, 'input_output', 'empty: this problem has no tests (filter such rows out)');
    let io: JsonValue;
    try {
      io = parsePyJson(r.input_output);
    } catch (err) {
      return fail(path, line, 'input_output', `invalid JSON: ${(err as Error).message}`);
    }
    if (!(io instanceof JsonObject)) return fail(path, line, 'input_output', 'expected a JSON object');
    const inputs = io.get('inputs');
    const outputs = io.get('outputs');
    if (!Array.isArray(inputs)) return fail(path, line, 'input_output.inputs', 'expected a list');
    if (!Array.isArray(outputs)) return fail(path, line, 'input_output.outputs', 'expected a list');
    if (inputs.length !== outputs.length) {
      fail(path, line, 'input_output', `${inputs.length} inputs but ${outputs.length} outputs`);
    }
    if (inputs.length === 0) fail(path, line, 'input_output.inputs', 'no tests');
    const fnName = io.get('fn_name');
    const common = { taskId, statement: r.question, timeLimitMs: APPS_TIME_LIMIT_MS,
      ...(r.date === undefined || r.date === null ? {} : { releaseDate: r.date }) };
    if (fnName !== undefined && fnName !== null) {
      if (typeof fnName !== 'string' || !/^[A-Za-z_]\w*$/.test(fnName)) fail(path, line, 'input_output.fn_name', 'expected a Python identifier');
      const tests = inputs.map((args, i) => {
        if (!Array.isArray(args)) return fail(path, line, `input_output.inputs[${i}]`, 'expected an argument list');
        return appsCall(args.map(toPyValue), toPyValue(outputs[i]!));
      });
      out.push({ kind: 'expected_call', language: 'python', prompt: r.starter_code ?? '', entryPoint: fnName, tests, rule: 'apps', ...common });
      continue;
    }
    const tests = inputs.map((input, i) => ({
      input: ioText(path, line, `input_output.inputs[${i}]`, input),
      output: ioText(path, line, `input_output.outputs[${i}]`, outputs[i]!),
    }));
    const reference = firstSolution(path, line, r.solutions);
    out.push({ kind: 'io', language: 'python', tests, comparator: { kind: 'apps' }, ...common,
      ...(reference === undefined ? {} : { referenceSolution: { language: 'python', code: reference } }) });
  }
  return out;
}
