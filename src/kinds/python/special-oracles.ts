/**
 * EvalPlus' special oracles: problems whose outputs cannot be judged by `==` against the reference.
 * Source: evalplus/evalplus `evalplus/eval/__init__.py` (`unsafe_execute`, the block between the
 * "special oracles" banners) and `evalplus/eval/_special_oracle.py`. Kept out of the judging loop: the
 * caller passes the dataset and entry point, this module decides, then the ordinary tolerance rule applies.
 */
import type { PyValue } from '../../verdict/index.js';
import { applyEvalPlusTolerance, pyEquals, type CompareResult } from './compare-pyvalue.js';

export type EvalPlusDataset = 'humaneval' | 'mbpp';

export interface EvalPlusOutputCase {
  readonly dataset: EvalPlusDataset;
  readonly entryPoint: string;
  /** The argument list the output was computed from. */
  readonly input: readonly PyValue[];
  readonly actual: PyValue;
  readonly expected: PyValue;
  /** Problem tolerance (`atol` field of the dataset). */
  readonly atol: number;
}

/** `_special_oracle.MBPP_OUTPUT_SET_EQ_TASKS`: outputs compared as sets (Mbpp/2, 7, 111, 140, 232, 249, 579, 769). */
export const MBPP_OUTPUT_SET_EQ_TASKS: readonly string[] = [
  'similar_elements', 'find_char_long', 'common_in_nested_lists', 'extract_singly', 'larg_nnum',
  'intersection_array', 'find_dissimilar', 'Diff',
];

/** `_special_oracle.MBPP_OUTPUT_NOT_NONE_TASKS`: regex-match outputs judged as "is not None". */
export const MBPP_OUTPUT_NOT_NONE_TASKS: readonly string[] = ['check_str', 'text_match_three', 'text_starta_endb'];

function num(v: PyValue): number | undefined {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === null || typeof v !== 'object') return undefined;
  if ('i' in v) return Number(v.i);
  if ('f' in v) return typeof v.f === 'number' ? v.f : v.f === 'nan' ? Number.NaN : v.f === 'inf' ? Infinity : -Infinity;
  return undefined;
}

function seq(v: PyValue): readonly PyValue[] | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  if ('l' in v) return v.l;
  if ('t' in v) return v.t;
  return undefined;
}

/** `_poly(xs, x) = sum(coeff * math.pow(x, i))` (HumanEval/32 oracle). */
export function poly(xs: readonly number[], x: number): number {
  let sum = 0;
  xs.forEach((c, i) => { sum += c * Math.pow(x, i); });
  return sum;
}

/** `_surface_Area(base_edge, height)` (Mbpp/581): rounded total surface of a square pyramid. */
export function surfaceArea(baseEdge: number, height: number): number {
  const slant = Math.sqrt((baseEdge / 2) ** 2 + height ** 2);
  return pyRound(baseEdge ** 2 + (4 * (baseEdge * slant)) / 2);
}

/** Python's round() to an integer: half to even. */
function pyRound(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** `_digit_distance_nums(num1, num2)` (Mbpp/558): digit-wise distance after zero-padding. */
export function digitDistanceNums(a: bigint, b: bigint): bigint {
  let sa = a.toString();
  let sb = b.toString();
  const n = Math.max(sa.length, sb.length);
  sa = sa.padStart(n, '0');
  sb = sb.padStart(n, '0');
  let total = 0n;
  for (let i = 0; i < n; i++) {
    const da = Number.parseInt(sa[i]!, 10);
    const db = Number.parseInt(sb[i]!, 10);
    if (Number.isNaN(da) || Number.isNaN(db)) return -1n; // Python's int('-') raises: no valid answer
    total += BigInt(Math.abs(da - db));
  }
  return total;
}

function asSet(v: PyValue): PyValue | undefined {
  const xs = seq(v) ?? (v !== null && typeof v === 'object' && ('s' in v || 'fs' in v) ? ('s' in v ? v.s : v.fs) : undefined);
  if (xs === undefined && typeof v === 'string') return { s: [...v].map((ch) => ch) };
  return xs === undefined ? undefined : { s: xs };
}

/** Judge one EvalPlus output: special oracle where EvalPlus has one, then the tolerance rule. */
export function judgeEvalPlusOutput(c: EvalPlusOutputCase): CompareResult {
  const { dataset, entryPoint, input, actual, expected, atol } = c;
  let exact = pyEquals(actual, expected);
  if (dataset === 'humaneval' && entryPoint === 'find_zero') {
    // evalplus: `assert abs(_poly(*inp, out)) <= atol`, replacing the comparison with the reference.
    const xs = seq(input[0] ?? null)?.map(num);
    const x = num(actual);
    if (!xs || xs.some((v) => v === undefined) || x === undefined) {
      return { ok: false, reason: 'find_zero must return a number for a coefficient list' };
    }
    const y = Math.abs(poly(xs as number[], x));
    return y <= atol ? { ok: true } : { ok: false, reason: `|poly(xs, ${x})| = ${y} > ${atol}` };
  }
  if (dataset === 'mbpp') {
    if (entryPoint === 'are_equivalent') {
      exact = true; // Mbpp/164: `exact_match = exact_match or True` in EvalPlus (any output accepted)
    } else if (entryPoint === 'sum_div') {
      exact = exact || pyEquals(actual, { i: '0' }); // Mbpp/295
    } else if (entryPoint === 'surface_Area') {
      const out = num(actual);
      const a = num(input[0] ?? null);
      const b = num(input[1] ?? null);
      exact = exact || (out !== undefined && a !== undefined && b !== undefined
        && Math.abs(out - surfaceArea(a, b)) <= atol); // Mbpp/581
    } else if (entryPoint === 'digit_distance_nums') {
      const a = input[0];
      const b = input[1];
      if (a && b && typeof a === 'object' && typeof b === 'object' && 'i' in a && 'i' in b) {
        exact = exact || pyEquals(actual, { i: digitDistanceNums(BigInt(a.i), BigInt(b.i)).toString() }); // Mbpp/558
      }
    } else if (MBPP_OUTPUT_SET_EQ_TASKS.includes(entryPoint)) {
      const sa = asSet(actual);
      const se = asSet(expected);
      exact = sa !== undefined && se !== undefined && pyEquals(sa, se); // `set(out) == set(exp)`
    } else if (MBPP_OUTPUT_NOT_NONE_TASKS.includes(entryPoint)) {
      // EvalPlus stores `exp is not None` (unless exp is a bool) as the ground truth of these tasks
      // (evalplus/evaluate.py, get_groundtruth), then compares `out == exp`, or `exp == (out is not None)`.
      const expectedTruth = typeof expected === 'boolean' ? expected : expected !== null;
      exact = typeof actual === 'boolean' ? actual === expectedTruth : expectedTruth === (actual !== null);
    }
  }
  return applyEvalPlusTolerance(actual, expected, exact, atol);
}
