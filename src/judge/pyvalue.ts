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
 */
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
