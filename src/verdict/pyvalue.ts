/**
 * PyValue: a tagged JSON encoding of Python values, used to carry arguments into the box and return values
 * out of it without ever evaluating program-controlled text on the host. Types are kept (list vs tuple vs set,
 * int vs float vs bool) so that comparison outside the box can follow Python's `==` and EvalPlus' rules.
 *
 * Encoding (one JSON value per Python value):
 * - `null`, `true`, `false`, JSON strings: None, bool, str
 * - `{"i": "123"}`: int (decimal digits; ints over 4096 bits as hexadecimal `"0x…"`/`"-0x…"`, linear to convert)
 * - `{"f": 1.5}` or `{"f": "nan" | "inf" | "-inf"}`: float
 * - `{"c": [re, im]}`: complex (each part as the `f` payload)
 * - `{"l": [...]}`, `{"t": [...]}`, `{"s": [...]}`, `{"fs": [...]}`: list, tuple, set, frozenset
 * - `{"d": [[k, v], ...]}`: dict, insertion order
 * - `{"b": "<base64>"}`: bytes
 * - `{"o": "<type name>", "r": "<repr, cut to 200 chars>"}`: any other object (opaque; never equal to anything)
 *
 * Also here: validation of untrusted PyValue JSON coming out of the box (depth and size caps). Comparison
 * lives in `src/kinds/python/compare-pyvalue.ts`.
 */
import { z } from 'zod';

export type PyValue =
  | null
  | boolean
  | string
  | { readonly i: string }
  | { readonly f: number | 'nan' | 'inf' | '-inf' }
  | { readonly c: readonly [number | string, number | string] }
  | { readonly l: readonly PyValue[] }
  | { readonly t: readonly PyValue[] }
  | { readonly s: readonly PyValue[] }
  | { readonly fs: readonly PyValue[] }
  | { readonly d: readonly (readonly [PyValue, PyValue])[] }
  | { readonly b: string }
  | { readonly o: string; readonly r: string };

export interface PyValueLimits {
  /** Deepest nesting of containers accepted. */
  readonly maxDepth: number;
  /** Most values (nodes) accepted in one PyValue. */
  readonly maxNodes: number;
  /** Longest decimal int accepted, digits. */
  readonly maxIntDigits: number;
}

/** Same caps as the in-box encoder (harness/python/crucible_harness/pyvalue.py). */
export const DEFAULT_PYVALUE_LIMITS: PyValueLimits = { maxDepth: 100, maxNodes: 5_000_000, maxIntDigits: 50_000 };

const INT_RE = /^-?(?:[0-9]+|0x[0-9a-f]+)$/;

/** The value of an `i` payload: decimal, or hexadecimal with `0x` (sign before the prefix). */
export function parseIntPayload(p: string): bigint {
  return p.startsWith('-') ? -BigInt(p.slice(1)) : BigInt(p);
}
const B64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

function validFloatPayload(p: unknown): boolean {
  return (typeof p === 'number' && Number.isFinite(p)) || p === 'nan' || p === 'inf' || p === '-inf';
}

/**
 * Checks that untrusted JSON is a well-formed PyValue within `limits`; returns an error message or null.
 * A first walk checks without building any path text (a path string per node was most of the trusted side's CPU and
 * garbage on big outputs: EvalPlus' plus inputs); only a value it refuses is walked again, with paths, for a message
 * that names where its first fault is.
 */
export function checkPyValue(value: unknown, limits: PyValueLimits = DEFAULT_PYVALUE_LIMITS): string | null {
  return pyValueFault(value, limits, false) === null ? null : pyValueFault(value, limits, true);
}

/**
 * The first fault of `value` (depth first, in order), or null when it has none. With `withPaths` the message names
 * the fault's path (`$.l[2].d[0][1]`); without, the path is left empty and no path text is built on the way.
 */
function pyValueFault(value: unknown, limits: PyValueLimits, withPaths: boolean): string | null {
  let nodes = 0;
  // Three parallel stacks (no tuple per node); `paths` is used only `withPaths`.
  const values: unknown[] = [value];
  const depths: number[] = [0];
  const paths: string[] = ['$'];
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop()!;
    const path = withPaths ? paths.pop()! : '';
    if (++nodes > limits.maxNodes) return `more than ${limits.maxNodes} values`;
    if (depth > limits.maxDepth) return `nested deeper than ${limits.maxDepth} at ${path}`;
    if (v === null || typeof v === 'boolean' || typeof v === 'string') continue;
    if (typeof v !== 'object' || Array.isArray(v)) return `unexpected ${Array.isArray(v) ? 'array' : typeof v} at ${path}`;
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 2 && keys.includes('o') && keys.includes('r')) {
      if (typeof o.o !== 'string' || typeof o.r !== 'string') return `bad opaque value at ${path}`;
      continue;
    }
    if (keys.length !== 1) return `a tagged value has exactly one key at ${path}`;
    const tag = keys[0]!;
    const p = o[tag];
    switch (tag) {
      case 'i':
        if (typeof p !== 'string' || !INT_RE.test(p) || p.replace('-', '').length > (p.includes('x') ? 2_000_002 : limits.maxIntDigits)) return `bad int at ${path}`;
        break;
      case 'f':
        if (!validFloatPayload(p)) return `bad float at ${path}`;
        break;
      case 'c':
        if (!Array.isArray(p) || p.length !== 2 || !p.every(validFloatPayload)) return `bad complex at ${path}`;
        break;
      case 'b':
        if (typeof p !== 'string' || p.length % 4 !== 0 || !B64_RE.test(p)) return `bad bytes at ${path}`;
        break;
      case 'l': case 't': case 's': case 'fs':
        if (!Array.isArray(p)) return `bad ${tag} payload at ${path}`;
        for (let i = p.length - 1; i >= 0; i--) {
          values.push(p[i]);
          depths.push(depth + 1);
          if (withPaths) paths.push(`${path}.${tag}[${i}]`);
        }
        break;
      case 'd':
        if (!Array.isArray(p)) return `bad dict payload at ${path}`;
        for (let i = p.length - 1; i >= 0; i--) {
          const e: unknown = p[i];
          if (!Array.isArray(e) || e.length !== 2) return `bad dict entry at ${path}.d[${i}]`;
          values.push(e[1], e[0]);
          depths.push(depth + 1, depth + 1);
          if (withPaths) paths.push(`${path}.d[${i}][1]`, `${path}.d[${i}][0]`);
        }
        break;
      default:
        return `unknown tag ${JSON.stringify(tag).slice(0, 20)} at ${path}`;
    }
  }
  return null;
}

/** zod schema for untrusted PyValue JSON coming out of the box (depth and size capped). */
export const pyValueSchema: z.ZodType<PyValue, z.ZodTypeDef, unknown> = z.unknown().superRefine((v, ctx) => {
  const error = checkPyValue(v);
  if (error !== null) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `invalid PyValue: ${error}` });
}).transform((v) => v as PyValue);
