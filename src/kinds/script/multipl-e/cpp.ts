/**
 * C++ (MultiPL-E `humaneval_to_cpp.py`): the prompt is `#include<assert.h>`, `#include<bits/stdc++.h>`, the
 * docstring, then the signature `T f(...) {`; the tests are `}` (closing the candidate's function), then
 * `int main() { auto candidate = f; assert(candidate(...) == <expected>); ... }`, one case per `assert`. Its
 * types: `long`, `float`, `bool`, `std::string`, `std::vector<T>`, `std::map<K, V>`, `std::tuple<...>`,
 * `std::optional<T>`; expected literals carry their own type (`(std::vector<long>({(long)1}))`, `2.5f`,
 * `std::nullopt`, `std::make_tuple(-2, 1)`), and `==` is the standard library's on them.
 *
 * The value conventions mirror that `==`: integers and floats as JSON numbers compared by value (C++ converts the
 * integer: `2L == 2.0f`); a `float` as the exact value of its `double` conversion (`%.17g`), so `0.1f` differs
 * from the literal `0.1`, as in C++; an empty `std::optional` and `std::nullopt` as null, an engaged one as its
 * value (`optional<long>(3) == 3` holds in C++); vectors, tuples, pairs and arrays as arrays; maps as `$map`
 * (`std::map ==` compares the sorted entries); sets as `$set`; strings and `const char *` as strings. A string
 * that is not UTF-8 has each byte of its invalid sequences as a lone surrogate `\udcXX` (PEP 383's
 * surrogateescape), so two different byte strings never read as the same text. C++'s `true == 1` is not
 * mirrored (a boolean is not a number here); the translator never compares the two.
 *
 * A problem whose expected literals are of two kinds (a string and a number, a vector and a number) returns one of
 * the translator's C `union`s (`Union_std_string_long`: members `f0`, `f1`, … and one `bool operator==(T f) {
 * return fk == f ; }` per member), which record no active member: the test's `u == <expected>` picks, by overload
 * resolution on the literal, the member it reads. Both programs make that same choice: for every such union of
 * the text, overloads `crucible_pick(i, const U&, T f)` (the candidate's box: prints member `fk` of the result) and
 * `crucible_expect(i, const U*, T f)` (the expected program: prints the literal converted to `T`) with the
 * operators' parameter types, called with the case's literal. Reading a member that is not the active one is
 * what the benchmark's own comparison does (undefined behaviour; typically a crash, `runtime_error`). A union
 * compared with `std::nullopt` too is left to the one-program judging: the translator declares its optional
 * member of type `std::nullopt` (HumanEval 137), which no C++ compiler accepts, so every completion fails to
 * compile there, as in MultiPL-E.
 *
 * The expected program keeps the prompt (its includes and declarations: trusted prompt text) with the body
 * `throw 0;` instead of the candidate's, and prints `auto e = (<expected>)`: each literal with the type it has
 * in the benchmark's comparison.
 */
import { VALUE_TAG } from '../values.js';
import { closingBracket, splitTopLevel, type SourceSyntax, type SplitCase, type SplitTests, type ValueSplit } from '../split.js';
import { assertionStatements } from './assertion-statements.js';

const CPP_SYNTAX: SourceSyntax = { quotes: ['"', '\''], lineComment: '//' };

/** C++17 source: `crucible_value_line(i, v)` writes `CRUCIBLE-VALUE i <json>` on a line of its own. */
const CPP_SERIALIZER = String.raw`
#include <cstdio>
#include <cmath>
#include <string>
#include <string_view>
#include <optional>
#include <tuple>
#include <utility>
#include <type_traits>
#include <iterator>
namespace crucible_values {
template <class T, class = void> struct is_map : std::false_type {};
template <class T> struct is_map<T, std::void_t<typename T::key_type, typename T::mapped_type>> : std::true_type {};
template <class T, class = void> struct is_set : std::false_type {};
template <class T> struct is_set<T, std::void_t<typename T::key_type>> : std::true_type {};
template <class T, class = void> struct is_range : std::false_type {};
template <class T> struct is_range<T, std::void_t<decltype(std::begin(std::declval<const T&>())), decltype(std::end(std::declval<const T&>()))>> : std::true_type {};
template <class T, class = void> struct is_tuple : std::false_type {};
template <class T> struct is_tuple<T, std::void_t<decltype(std::tuple_size<T>::value)>> : std::true_type {};
template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};

inline void text(std::string& out, std::string_view s) {
  out += '"';
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool valid = n > 0 && i + n <= s.size();
    for (size_t k = 1; valid && k < n; k++) valid = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    if (valid && n > 1) {
      unsigned long cp = c & (0x7F >> n);
      for (size_t k = 1; k < n; k++) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
      valid = cp >= (n == 2 ? 0x80UL : n == 3 ? 0x800UL : 0x10000UL) && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    }
    char buf[8];
    if (!valid) {
      std::snprintf(buf, sizeof buf, "\\udc%02x", c);
      out += buf;
      i++;
    } else if (n > 1) {
      out.append(s.data() + i, n);
      i += n;
    } else {
      if (c == '"' || c == '\\') { out += '\\'; out += static_cast<char>(c); }
      else if (c < 0x20 || c == 0x7F) { std::snprintf(buf, sizeof buf, "\\u%04x", c); out += buf; }
      else out += static_cast<char>(c);
      i++;
    }
  }
  out += '"';
}

inline void floating(std::string& out, double v) {
  if (std::isnan(v)) { out += "{\"$float\":\"nan\"}"; return; }
  if (std::isinf(v)) { out += v > 0 ? "{\"$float\":\"inf\"}" : "{\"$float\":\"-inf\"}"; return; }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  out += buf;
  if (std::string_view(buf).find_first_of(".e") == std::string_view::npos) out += ".0";
}

template <class T> void json(std::string& out, const T& v);

template <class Tuple, size_t... I> void items(std::string& out, const Tuple& t, std::index_sequence<I...>) {
  out += '[';
  ((out += (I == 0 ? "" : ","), json(out, std::get<I>(t))), ...);
  out += ']';
}

template <class T> void json(std::string& out, const T& v) {
  using U = std::decay_t<T>;
  if constexpr (std::is_same_v<U, bool>) out += v ? "true" : "false";
  else if constexpr (std::is_same_v<U, std::nullopt_t> || std::is_same_v<U, std::nullptr_t>) out += "null";
  else if constexpr (std::is_same_v<U, char>) text(out, std::string_view(&v, 1));
  else if constexpr (std::is_integral_v<U>) out += std::to_string(v);
  else if constexpr (std::is_floating_point_v<U>) floating(out, static_cast<double>(v));
  else if constexpr (std::is_same_v<U, std::string> || std::is_same_v<U, std::string_view>) text(out, v);
  else if constexpr (std::is_same_v<U, const char*> || std::is_same_v<U, char*>) text(out, v);
  else if constexpr (is_optional<U>::value) { if (v.has_value()) json(out, *v); else out += "null"; }
  else if constexpr (is_map<U>::value) {
    out += "{\"$map\":[";
    bool first = true;
    for (const auto& [key, value] : v) {
      if (!first) out += ',';
      first = false;
      out += '[';
      json(out, key);
      out += ',';
      json(out, value);
      out += ']';
    }
    out += "]}";
  } else if constexpr (is_set<U>::value) {
    out += "{\"$set\":[";
    bool first = true;
    for (const auto& x : v) { if (!first) out += ','; first = false; json(out, x); }
    out += "]}";
  } else if constexpr (is_range<U>::value) {
    out += '[';
    bool first = true;
    for (const auto& x : v) { if (!first) out += ','; first = false; json(out, static_cast<typename std::iterator_traits<decltype(std::begin(v))>::value_type>(x)); }
    out += ']';
  } else if constexpr (is_tuple<U>::value) items(out, v, std::make_index_sequence<std::tuple_size<U>::value>{});
  else static_assert(sizeof(U) == 0, "a value of this type cannot be given");
}
}  // namespace crucible_values

template <class T> void crucible_value_line(int i, const T& v) {
  std::string line;
  crucible_values::json(line, v);
  std::printf("\n${VALUE_TAG} %d %s\n", i, line.c_str());
  std::fflush(stdout);
}
`;

/** `int main() {` with `auto candidate = <name>;` first: group 1 is the text before it, group 2 the binding, 3 the rest. */
const MAIN = /^([\s\S]*?)\bint\s+main\s*\(\s*\)\s*\{\s*(auto\s+candidate\s*=\s*\w+\s*;)([\s\S]*)\}\s*$/;

/** The prelude's two parts (the text before `main`, the binding) are joined with this (never in C++ source). */
const PARTS = '\u0000';

/**
 * The kind of an expected literal as the translator writes it (`"a"`, `(std::string)"a"`, `(3)`, `2.5f`, `true`,
 * `float(3)`, `std::nullopt`, `(std::vector<long>(...))`, `std::make_tuple(...)`, ...): `string`, `number`, `bool`, `nullopt`,
 * or the text up to its first `(` or `<` (the type or function that builds it).
 */
function literalKind(expected: string): string {
  let text = expected.trim();
  for (;;) {
    const inner = /^\(([\s\S]*)\)$/.exec(text);
    const cast = /^\((?:std::string|long|float|bool)\)\s*([\s\S]+)$/.exec(text);
    if (cast !== null) text = cast[1]!.trim();
    else if (inner !== null && closingBracket(text, 0, CPP_SYNTAX) === text.length) text = inner[1]!.trim();
    else break;
  }
  if (text.startsWith('"')) return 'string';
  if (/^-?[\d.]/.test(text) || /^(?:float|double|long|int)\s*\(/.test(text)) return 'number';
  if (text === 'true' || text === 'false') return 'bool';
  if (text === 'std::nullopt') return 'nullopt';
  return /^[^(<]*/.exec(text)![0];
}

/** The prelude's parts when the result is one of the translator's unions (see the module comment). */
const UNION_RESULT = 'union';

/** A union of the text with its `operator==` overloads: `[parameter type, member]` each. */
interface TranslatorUnion {
  readonly name: string;
  readonly overloads: readonly (readonly [string, string])[];
}

/** The translator's unions declared in `source` with their `operator==` overloads (see the module comment). */
function unionsOf(source: string): readonly TranslatorUnion[] {
  const unions: TranslatorUnion[] = [];
  for (const m of source.matchAll(/\bunion\s+(\w+)\s*\{/g)) {
    const open = m.index + m[0].length - 1;
    const end = closingBracket(source, open, CPP_SYNTAX);
    if (end < 0) continue;
    const body = source.slice(open + 1, end - 1);
    const overloads = [...body.matchAll(/\bbool\s+operator\s*==\s*\(\s*([^()]+?)\s+f\s*\)\s*\{\s*return\s+(f\d+)\s*==\s*f\s*;\s*\}/g)]
      .map((o) => [o[1]!, o[2]!] as const);
    if (overloads.length > 0) unions.push({ name: m[1]!, overloads });
  }
  return unions;
}

/** The overloads choosing a union's member as the benchmark's `==` does (see the module comment). */
function unionOverloads(unions: readonly TranslatorUnion[], side: 'candidate' | 'expected'): string {
  return unions.flatMap((u) => u.overloads.map(([type, member]) => (side === 'candidate'
    ? `void crucible_pick(int i, const ${u.name}& u, ${type} f) { (void)f; crucible_value_line(i, u.${member}); }`
    : `void crucible_expect(int i, const ${u.name}*, ${type} f) { crucible_value_line(i, f); }`))).join('\n');
}

/** MultiPL-E C++ split (see the module comment). */
export const CPP_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const m = MAIN.exec(test);
    const asserts = m === null ? undefined : assertionStatements(m[3]!, 'assert', CPP_SYNTAX);
    const cases = asserts?.map((text) => splitTopLevel(text, '==', CPP_SYNTAX));
    if (m === null || cases === undefined || cases.some((sides) => sides.length !== 2 || sides.includes(''))) return undefined;
    // Literals of two kinds compared with one function's result: its type is one of the translator's `union`s
    // (e.g. `Union_std_string_long`), whose member `==` with the literal reads (see the module comment).
    const kinds = cases.map(([, expected]) => literalKind(expected!));
    const union = new Set(kinds.filter((kind) => kind !== 'nullopt')).size > 1;
    // The translator's union for an optional member declares it of type `std::nullopt` (see the module comment).
    if (union && kinds.includes('nullopt')) return undefined;
    return {
      prelude: [m[1]!, m[2]!, ...(union ? [UNION_RESULT] : [])].join(PARTS),
      cases: cases.map(([actual, expected]) => ({ actual: actual!, expected: expected! })),
    };
  },
  candidateProgram: ({ program, tests }) => {
    const [before, binding, union] = tests.prelude.split(PARTS) as [string, string, string?];
    const value = union === undefined ? (c: SplitCase) => c.actual : (c: SplitCase) => `${c.actual}, ${c.expected}`;
    return [
      program, before, CPP_SERIALIZER, union === undefined ? '' : unionOverloads(unionsOf(program), 'candidate'),
      'int main() {', `    ${binding}`,
      ...tests.cases.map((c, i) => `    ${union === undefined ? 'crucible_value_line' : 'crucible_pick'}(${i}, ${value(c)});`), '}', '',
    ].join('\n');
  },
  expectedProgram: ({ prompt, tests }) => {
    const [before, binding, union] = tests.prelude.split(PARTS) as [string, string, string?];
    const unions = union === undefined ? [] : unionsOf(prompt);
    const expected = union === undefined
      ? (c: SplitCase, i: number) => `    { auto e = (${c.expected}); crucible_value_line(${i}, e); }`
      : (c: SplitCase, i: number) => `    crucible_expect(${i}, static_cast<std::decay_t<decltype(${c.actual})>*>(nullptr), ${c.expected});`;
    return [
      prompt, '    throw 0;', before, CPP_SERIALIZER, unionOverloads(unions, 'expected'), 'int main() {', `    ${binding}`, '    (void)candidate;',
      ...tests.cases.map(expected), '}', '',
    ].join('\n');
  },
};
