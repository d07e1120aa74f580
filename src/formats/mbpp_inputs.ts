/**
 * MBPP+ input deserialisation: JSON cannot hold tuples, sets or complex numbers, so EvalPlus stores them as
 * lists / strings and rebuilds them per task when it loads MBPP+. This module repeats that rebuild, rule for
 * rule, on PyValue argument lists.
 *
 * Source followed: evalplus/evalplus `evalplus/data/mbpp.py`, function `mbpp_deserialize_inputs(task_id,
 * inputs)` (the same in the versions at commits 1bd5f4c and c08e5e1), which `get_mbpp_plus` applies to both
 * `base_input` and `plus_input`. Its quirks are kept on purpose, because the expected outputs EvalPlus
 * computes come from inputs built exactly this way:
 * - tasks 75/413/444/753 and 106/750 keep only the first two arguments (`[...] + [inp[1]]`);
 * - task 115 turns an empty list into `{}`, which in Python is an empty dict, not an empty set;
 * - tasks 580/615/791 turn every list, at any depth, into a tuple (dicts are not entered).
 * Sets are deduplicated by their PyValue encoding (exact for the str/int values MBPP+ puts in them).
 *
 * Errors: an input that does not have the shape its rule expects throws `MbppInputError` (the message says
 * which rule); the reader adds file, line and field.
 */
import type { PyValue } from '../verdict/index.js';
import { floatPayload } from './pyjson.js';

export class MbppInputError extends Error {
  override readonly name = 'MbppInputError';
}

type Args = readonly PyValue[];
type Payload = number | 'nan' | 'inf' | '-inf';

function kindOf(v: PyValue): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'str';
  return Object.keys(v)[0] ?? 'object';
}

/** Python `iter(v)` for the containers MBPP+ inputs hold. */
function pyIter(v: PyValue): readonly PyValue[] {
  if (typeof v === 'string') return Array.from(v);
  if (v !== null && typeof v === 'object') {
    if ('l' in v) return v.l;
    if ('t' in v) return v.t;
    if ('s' in v) return v.s;
    if ('fs' in v) return v.fs;
    if ('d' in v) return v.d.map((kv) => kv[0]);
  }
  throw new MbppInputError(`cannot iterate over a ${kindOf(v)}`);
}

const tuple = (v: PyValue): PyValue => ({ t: pyIter(v) });

function set(v: PyValue): PyValue {
  const seen = new Set<string>();
  const items: PyValue[] = [];
  for (const item of pyIter(v)) {
    const key = JSON.stringify(item);
    if (seen.has(key)) continue;
    seen.add(key);
    items.push(item);
  }
  return { s: items };
}

const isList = (v: PyValue): v is { readonly l: readonly PyValue[] } =>
  v !== null && typeof v === 'object' && 'l' in v;

const PY_FLOAT_RE = /^[+-]?(?:(?:\d(?:_?\d)*)?\.?\d(?:_?\d)*(?:[eE][+-]?\d(?:_?\d)*)?|\d(?:_?\d)*\.|inf|infinity|nan)$/i;

/** Python `float(s)` for a string (whitespace stripped, underscores between digits allowed). */
function parsePyFloatString(s: string): Payload {
  const t = s.trim();
  if (!PY_FLOAT_RE.test(t)) throw new MbppInputError(`could not convert string to float: '${s}'`);
  const body = t.replace(/^[+-]/, '').toLowerCase();
  const neg = t.startsWith('-');
  if (body === 'nan') return 'nan';
  if (body === 'inf' || body === 'infinity') return neg ? '-inf' : 'inf';
  return floatPayload(Number(t.replace(/_/g, '')));
}

/** Python `float(v)`. */
function pyFloat(v: PyValue): PyValue {
  if (typeof v === 'boolean') return { f: v ? 1 : 0 };
  if (typeof v === 'string') return { f: parsePyFloatString(v) };
  if (v !== null && typeof v === 'object') {
    if ('f' in v) return v;
    if ('i' in v) return { f: floatPayload(Number(v.i)) };
  }
  throw new MbppInputError(`float() argument must be a string or a real number, not ${kindOf(v)}`);
}

const NUM = String.raw`(?:(?:\d(?:_?\d)*)?\.?\d(?:_?\d)*(?:[eE][+-]?\d(?:_?\d)*)?|\d(?:_?\d)*\.|inf(?:inity)?|nan)`;
const COMPLEX_RE = new RegExp(
  String.raw`^(?:([+-]?${NUM})(?:([+-](?:${NUM})?)[jJ])?|([+-]?(?:${NUM})?)[jJ])$`,
  'i',
);

function signedPart(text: string): Payload {
  // A bare sign before `j` ("1-j", "+j") means a coefficient of 1.
  if (text === '' || text === '+') return 1;
  if (text === '-') return -1;
  return parsePyFloatString(text);
}

/** Python `complex(s)` for a string: `"1j"`, `"(1+2j)"`, `"-3.5"`, `"2-j"`, ... */
function parsePyComplexString(s: string): PyValue {
  let t = s.trim();
  if (t.startsWith('(') && t.endsWith(')')) t = t.slice(1, -1).trim();
  const m = COMPLEX_RE.exec(t);
  if (m === null) throw new MbppInputError(`complex() arg is a malformed string: '${s}'`);
  if (m[3] !== undefined) return { c: [0, signedPart(m[3])] };
  const re = parsePyFloatString(m[1]!);
  const im: Payload = m[2] === undefined ? 0 : signedPart(m[2]);
  return { c: [re, im] };
}

/** Python `complex(v)`. */
function pyComplex(v: PyValue): PyValue {
  if (typeof v === 'string') return parsePyComplexString(v);
  if (v !== null && typeof v === 'object' && 'c' in v) return v;
  const f = pyFloat(v) as { readonly f: Payload };
  return { c: [f.f, 0] };
}

function at(inp: Args, i: number): PyValue {
  if (i >= inp.length) throw new MbppInputError(`input has ${inp.length} arguments, rule needs argument ${i}`);
  return inp[i]!;
}

/** Every list at any depth becomes a tuple (`turn_all_list_into_tuple`). */
function deepTuple(v: PyValue): PyValue {
  return isList(v) ? { t: v.l.map(deepTuple) } : v;
}

const listOfTuples = (v: PyValue): PyValue => ({ l: pyIter(v).map(tuple) });

const RULES: readonly (readonly [readonly number[], (inp: Args) => Args])[] = [
  [
    [2, 116, 132, 143, 222, 261, 273, 394, 399, 421, 424, 429, 470, 560, 579, 596, 616, 630, 726, 740, 744, 809],
    (inp) => inp.map(tuple),
  ],
  [[63, 64, 70, 94, 120, 237, 272, 299, 400, 409, 417, 438, 473, 614, 780], (inp) => inp.map(listOfTuples)],
  [[75, 413, 444, 753], (inp) => [listOfTuples(at(inp, 0)), at(inp, 1)]],
  [[106, 750], (inp) => [at(inp, 0), tuple(at(inp, 1))]],
  [
    [115],
    (inp) => [{ l: pyIter(at(inp, 0)).map((item) => (isList(item) && item.l.length > 0 ? set(item) : { d: [] })) }],
  ],
  [[124], (inp) => [pyFloat(at(inp, 0)), pyComplex(at(inp, 1))]],
  [[250, 405, 446, 617, 720, 763, 808], (inp) => [tuple(at(inp, 0)), at(inp, 1)]],
  [[259, 401, 445], (inp) => inp.map((arg) => tuple(listOfTuples(arg)))],
  [[278], (inp) => [tuple({ l: pyIter(at(inp, 0)).map((item) => (isList(item) ? tuple(item) : item)) })]],
  [[307], (inp) => [tuple(at(inp, 0)), at(inp, 1), at(inp, 2)]],
  [
    [722],
    (inp) => {
      const d = at(inp, 0);
      if (d === null || typeof d !== 'object' || !('d' in d)) throw new MbppInputError(`expected a dict, got ${kindOf(d)}`);
      return [{ d: d.d.map(([k, v]) => [k, tuple(v)] as const) }, ...inp.slice(1)];
    },
  ],
  [[252], (inp) => [pyComplex(at(inp, 0))]],
  [[580, 615, 791], (inp) => inp.map(deepTuple)],
];

const RULE_BY_TASK = new Map<number, (inp: Args) => Args>();
for (const [ids, rule] of RULES) for (const id of ids) RULE_BY_TASK.set(id, rule);

/** The numeric id of an MBPP+ task id (`"Mbpp/2"` -> 2), as `int(task_id.split("/")[-1])`. */
export function mbppTaskNumber(taskId: string): number {
  const last = taskId.split('/').pop() ?? '';
  const n = /^\d+$/.test(last) ? Number(last) : Number.NaN;
  return n;
}

/** True when EvalPlus rebuilds this task's inputs (i.e. some argument becomes a tuple/set/complex). */
export function mbppHasDeserializer(taskId: string): boolean {
  return RULE_BY_TASK.has(mbppTaskNumber(taskId));
}

/**
 * Apply EvalPlus' `mbpp_deserialize_inputs` rule of `taskId` to one argument list (already converted from
 * JSON: lists are `{l}`). Tasks without a rule are returned unchanged.
 */
export function mbppDeserializeArgs(taskId: string, args: Args): Args {
  const rule = RULE_BY_TASK.get(mbppTaskNumber(taskId));
  return rule === undefined ? args : rule(args);
}
