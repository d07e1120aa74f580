/**
 * Python `str` operations whose JS look-alikes differ at the edges.
 * `str.strip()` with no argument removes the characters for which `str.isspace()` is true (CPython
 * `Objects/unicodeobject.c`, `_PyUnicode_IsWhitespace`): this set includes \x1c-\x1f and \x85, which JS
 * `trim()` keeps, and excludes \uFEFF, which JS `trim()` removes.
 */
const PY_WHITESPACE = new Set(
  [
    0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003,
    0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
  ].map((cp) => String.fromCharCode(cp)),
);

/** Python's `s.strip()`. */
export function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && PY_WHITESPACE.has(s[start]!)) start++;
  while (end > start && PY_WHITESPACE.has(s[end - 1]!)) end--;
  return s.slice(start, end);
}
