/**
 * The parameter lists of the prompts' signatures, shared by the typed languages' replay modules (C++, Java, Rust).
 */

/**
 * The top-level parts of a parameter list's text (`vector<int> a, map<K, V> m` -> two parts), trimmed, empty ones
 * dropped: commas inside `<>`, `()`, `[]` or `{}` do not split. Text only (no literals are expected in a signature).
 */
export function splitParameters(params: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let at = 0; at < params.length; at++) {
    const c = params[at]!;
    if ('<([{'.includes(c)) depth++;
    else if ('>)]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(params.slice(start, at).trim());
      start = at + 1;
    }
  }
  parts.push(params.slice(start).trim());
  return parts.filter((p) => p !== '');
}
