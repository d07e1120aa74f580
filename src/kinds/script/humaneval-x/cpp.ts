/**
 * C++ replay (HumanEval-X `CPP/*`, languages `cpp11` and `cpp`; `./replay.ts`). The prompt ends with the
 * entry point's definition opened (`vector<int> f(vector<int> a, int b){`, sometimes followed by a comment); the
 * test's `int main()` calls `f(…)` inside `assert(…)`, often through `issame` helpers that compare element by
 * element with `!=`, and draws random inputs with `rand()`. In one process a candidate's non-template
 * `operator==`/`operator!=` for the return type (or its elements) would be the one those comparisons pick.
 *
 * Values travel as JSON written by overloads on the declared types (the same code in both boxes): `bool`; every
 * integer type (chars too) as a number; `float`/`double` with round-trip precision (`%.9g` / `%.17g`), NaN and
 * infinities as `{"$f": "nan" | "inf" | "-inf"}`; `std::string` as a JSON string whose every byte outside
 * printable ASCII is `\u00XX` (bytes, not code points); `std::vector` and `std::pair` as arrays; `std::map` as
 * `{"$m": [[k, v], ...]}` in the map's order. The trusted decoder (a small JSON reader for exactly those shapes, into
 * the declared return type) refuses anything else, integers out of the type's range and trailing text. `std::list`
 * travels as an array (encoded only: HumanEval-X passes `list_any` arguments). A `boost::any` (CPP/22's list
 * elements, CPP/137's arguments and result) travels as `{"$a": kind, "v": value}` for the types HumanEval-X puts in
 * one (`int`, `long`, `double`, `float`, `char`, `bool`, `std::string`, `const char*`), `{"$a": "empty"}`, or
 * `{"$a": "other"}` for any other held type; decoded, `other` holds a type of the replayer's own, so the test's
 * `boost::any_cast` to the type it wants fails there as it would on the candidate's value.
 *
 * The test's `rand()` becomes `crucible_replay::test_rand()`, glibc's `rand()` sequence from the default seed in a
 * generator of the test's own (both trusted boxes), so a candidate calling `rand()` does not change the inputs. In
 * the recording box the test's `assert` only evaluates its expression; the trusted box asserts on the recorded
 * results.
 *
 * Driven calls (`./replay.ts`): the test's calls are recorded with the canonical solution (else a stub returning
 * `{}`) in a trusted box; the candidate's box holds the program and a driver (`driver`) that decodes each argument
 * list into the declared parameter types with the trusted decoder (plus `std::list`, for `list_any`). An entry
 * point with a parameter type outside `DRIVEN_TYPE` keeps the older scheme (the test in the candidate's box).
 */
import type { ScriptProblem } from '../../../formats/types.js';
import { assembleHumanEvalX } from './one-program.js';
import { CALL_TAG, REPLAY_ERROR_TAG, REPLAY_FILE, type ReplayProblem, type ReplaySplit } from './replay.js';
import { splitParameters } from './parameters.js';

/** `boost::any` values (see the module comment): the kinds HumanEval-X holds in one, then empty or other. */
const ANY_KINDS = [['int', 'int'], ['long', 'long'], ['double', 'double'], ['float', 'float'], ['char', 'char'],
  ['bool', 'bool'], ['string', 'std::string'], ['const char*', 'const char*']] as const;

/** The `boost::any` encoder (declared before the container templates, which use it for their elements). */
const ANY_ENCODER = String.raw`
}  // namespace crucible_replay
#include <boost/any.hpp>
namespace crucible_replay {
inline void enc(std::string& o, const boost::any& v) {
  if (v.empty()) { o += "{\"$a\":\"empty\"}"; return; }
${ANY_KINDS.map(([kind, type]) => `  if (v.type() == typeid(${type})) { o += "{\\"$a\\":\\"${kind}\\",\\"v\\":"; enc(o, boost::any_cast<${type}>(v)); o += '}'; return; }`).join('\n')}
  o += "{\"$a\":\"other\"}";
}
`;

/** The `boost::any` decoder of the trusted box (after the reader and the scalar decoders). */
const ANY_DECODER = String.raw`
struct held_by_no_test {};
inline void dec(reader& r, boost::any& out) {
  r.expect('{');
  if (r.str() != "$a") throw bad{"not an any"};
  r.expect(':');
  std::string kind = r.str();
  if (kind == "empty") { r.expect('}'); out = boost::any(); return; }
  if (kind == "other") { r.expect('}'); out = held_by_no_test(); return; }
  r.expect(',');
  if (r.str() != "v") throw bad{"an any without its value"};
  r.expect(':');
${ANY_KINDS.filter(([kind]) => kind !== 'const char*').map(([kind, type]) => `  if (kind == "${kind}") { ${type} v; dec(r, v); r.expect('}'); out = v; return; }`).join('\n')}
  if (kind == "const char*") { std::string v; dec(r, v); r.expect('}'); out = (const char*)(new std::string(v))->c_str(); return; }
  throw bad{"an unknown any kind"};
}
`;

/** The encoder (both boxes) and the tests' random generator; with the `boost::any` encoder when the prompt uses it. */
const encoder = (withAny: boolean): string => String.raw`
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <list>
#include <map>
#include <string>
#include <utility>
#include <vector>
namespace crucible_replay {
// glibc's rand() from the default seed (TYPE_3 additive feedback, as random_r computes it): the tests keep the
// inputs they were written with, from a generator the candidate's own rand() calls do not advance.
inline int test_rand() {
  static unsigned int r[34];
  static long long i = -1;
  if (i < 0) {
    long long s = 1;
    r[0] = 1;
    for (int k = 1; k < 31; k++) { s = (16807LL * s) % 2147483647; if (s < 0) s += 2147483647; r[k] = (unsigned int)s; }
    for (int k = 31; k < 34; k++) r[k] = r[k - 31];
    for (i = 34; i < 344; i++) r[i % 34] = r[(i - 31) % 34] + r[(i - 3) % 34];
  }
  unsigned int v = r[(i - 31) % 34] + r[(i - 3) % 34];
  r[i % 34] = v;
  i++;
  return (int)(v >> 1);
}
inline void enc(std::string& o, bool v) { o += v ? "true" : "false"; }
inline void enc_int(std::string& o, long long v) { char b[32]; std::snprintf(b, sizeof b, "%lld", v); o += b; }
inline void enc_uint(std::string& o, unsigned long long v) { char b[32]; std::snprintf(b, sizeof b, "%llu", v); o += b; }
inline void enc(std::string& o, char v) { enc_int(o, v); }
inline void enc(std::string& o, signed char v) { enc_int(o, v); }
inline void enc(std::string& o, unsigned char v) { enc_uint(o, v); }
inline void enc(std::string& o, short v) { enc_int(o, v); }
inline void enc(std::string& o, unsigned short v) { enc_uint(o, v); }
inline void enc(std::string& o, int v) { enc_int(o, v); }
inline void enc(std::string& o, unsigned v) { enc_uint(o, v); }
inline void enc(std::string& o, long v) { enc_int(o, v); }
inline void enc(std::string& o, unsigned long v) { enc_uint(o, v); }
inline void enc(std::string& o, long long v) { enc_int(o, v); }
inline void enc(std::string& o, unsigned long long v) { enc_uint(o, v); }
inline void enc_float(std::string& o, double v, int digits) {
  if (std::isnan(v)) { o += "{\"$f\":\"nan\"}"; return; }
  if (std::isinf(v)) { o += v > 0 ? "{\"$f\":\"inf\"}" : "{\"$f\":\"-inf\"}"; return; }
  char b[64]; std::snprintf(b, sizeof b, "%.*g", digits, v); o += b;
}
inline void enc(std::string& o, float v) { enc_float(o, v, 9); }
inline void enc(std::string& o, double v) { enc_float(o, v, 17); }
inline void enc(std::string& o, const std::string& s) {
  o += '"';
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') o += (char)c;
    else { char b[8]; std::snprintf(b, sizeof b, "\\u%04x", c); o += b; }
  }
  o += '"';
}
inline void enc(std::string& o, const char* s) { enc(o, std::string(s)); }
${withAny ? ANY_ENCODER : ''}
template <class A, class B> void enc(std::string& o, const std::pair<A, B>& v);
template <class T> void enc(std::string& o, const std::vector<T>& v);
template <class T> void enc(std::string& o, const std::list<T>& v);
template <class K, class V> void enc(std::string& o, const std::map<K, V>& v);
template <class A, class B> void enc(std::string& o, const std::pair<A, B>& v) {
  o += '['; enc(o, v.first); o += ','; enc(o, v.second); o += ']';
}
template <class T> void enc(std::string& o, const std::vector<T>& v) {
  o += '[';
  for (size_t i = 0; i < v.size(); i++) { if (i > 0) o += ','; enc(o, (T)v[i]); }
  o += ']';
}
template <class T> void enc(std::string& o, const std::list<T>& v) {
  o += '[';
  bool first = true;
  for (typename std::list<T>::const_iterator it = v.begin(); it != v.end(); ++it) { if (!first) o += ','; first = false; enc(o, *it); }
  o += ']';
}
template <class K, class V> void enc(std::string& o, const std::map<K, V>& v) {
  o += "{\"$m\":[";
  bool first = true;
  for (typename std::map<K, V>::const_iterator it = v.begin(); it != v.end(); ++it) {
    if (!first) o += ',';
    first = false;
    o += '['; enc(o, it->first); o += ','; enc(o, it->second); o += ']';
  }
  o += "]}";
}
inline void args_into(std::string&) {}
template <class T, class... R> void args_into(std::string& o, const T& t, const R&... r) {
  if (o.size() > 1) o += ',';
  enc(o, t);
  args_into(o, r...);
}
template <class... A> std::string args(const A&... a) { std::string o = "["; args_into(o, a...); o += ']'; return o; }
}  // namespace crucible_replay
`;

/** The candidate's recorder runtime. */
const RECORDER = String.raw`
namespace crucible_replay {
inline int& record_count() { static int k = 0; return k; }
template <class R> void record(const std::string& a, const R& r) {
  std::string line = "\n${CALL_TAG} ";
  enc_int(line, record_count()++);
  line += ' '; line += a; line += ' ';
  enc(line, r);
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
}
}  // namespace crucible_replay
#define crucible_no_assert(...) ((void)(__VA_ARGS__))
`;

/** The trusted replay runtime: records from the file, arguments checked, results decoded into the declared type. */
const replayer = (withAny: boolean): string => String.raw`
namespace crucible_replay {
struct bad { std::string why; };
inline void fail(const std::string& why) {
  std::fprintf(stderr, "${REPLAY_ERROR_TAG} %s\n", why.c_str());
  std::fflush(stderr);
  std::_Exit(3);
}
inline std::string cut(const std::string& s) { return s.size() > 200 ? s.substr(0, 200) + "..." : s; }
struct reader {
  const char* p;
  void ws() { while (*p == ' ') p++; }
  void expect(char c) { ws(); if (*p != c) throw bad{std::string("expected '") + c + "'"}; p++; }
  bool peek(char c) { ws(); return *p == c; }
  bool word(const char* w) { ws(); size_t n = std::strlen(w); if (std::strncmp(p, w, n) == 0) { p += n; return true; } return false; }
  std::string number() {
    ws();
    const char* s = p;
    if (*p == '-') p++;
    while ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E' || *p == '+' || *p == '-') p++;
    if (p == s) throw bad{"expected a number"};
    return std::string(s, p);
  }
  std::string str() {
    expect('"');
    std::string out;
    while (*p != '"') {
      if (*p == 0) throw bad{"an unterminated string"};
      if (*p != '\\') { out += *p++; continue; }
      p++;
      char e = *p++;
      if (e == '"' || e == '\\' || e == '/') out += e;
      else if (e == 'n') out += '\n';
      else if (e == 't') out += '\t';
      else if (e == 'r') out += '\r';
      else if (e == 'b') out += '\b';
      else if (e == 'f') out += '\f';
      else if (e == 'u') {
        char h[5] = {0};
        for (int i = 0; i < 4; i++) { if (*p == 0) throw bad{"a short escape"}; h[i] = *p++; }
        char* end = 0;
        long v = std::strtol(h, &end, 16);
        if (*end != 0 || v > 0xff) throw bad{"an escape that is not a byte"};
        out += (char)v;
      } else throw bad{"a bad escape"};
    }
    p++;
    return out;
  }
};
inline void dec_int(reader& r, long long lo, long long hi, long long& out) {
  std::string s = r.number();
  char* end = 0;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (*end != 0 || errno != 0 || v < lo || v > hi) throw bad{"not an integer of the declared type: " + cut(s)};
  out = v;
}
inline void dec_uint(reader& r, unsigned long long hi, unsigned long long& out) {
  std::string s = r.number();
  char* end = 0;
  errno = 0;
  if (s[0] == '-') throw bad{"a negative unsigned integer"};
  unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (*end != 0 || errno != 0 || v > hi) throw bad{"not an integer of the declared type: " + cut(s)};
  out = v;
}
#define CRUCIBLE_DEC_INT(T, LO, HI) inline void dec(reader& r, T& out) { long long v; dec_int(r, LO, HI, v); out = (T)v; }
#define CRUCIBLE_DEC_UINT(T, HI) inline void dec(reader& r, T& out) { unsigned long long v; dec_uint(r, HI, v); out = (T)v; }
CRUCIBLE_DEC_INT(char, CHAR_MIN, CHAR_MAX)
CRUCIBLE_DEC_INT(signed char, SCHAR_MIN, SCHAR_MAX)
CRUCIBLE_DEC_INT(short, SHRT_MIN, SHRT_MAX)
CRUCIBLE_DEC_INT(int, INT_MIN, INT_MAX)
CRUCIBLE_DEC_INT(long, LONG_MIN, LONG_MAX)
CRUCIBLE_DEC_INT(long long, LLONG_MIN, LLONG_MAX)
CRUCIBLE_DEC_UINT(unsigned char, UCHAR_MAX)
CRUCIBLE_DEC_UINT(unsigned short, USHRT_MAX)
CRUCIBLE_DEC_UINT(unsigned, UINT_MAX)
CRUCIBLE_DEC_UINT(unsigned long, ULONG_MAX)
CRUCIBLE_DEC_UINT(unsigned long long, ULLONG_MAX)
inline void dec(reader& r, bool& out) {
  if (r.word("true")) out = true;
  else if (r.word("false")) out = false;
  else throw bad{"not a boolean"};
}
inline double dec_float(reader& r, bool single) {
  if (r.peek('{')) {
    r.p++;
    if (r.str() != "$f") throw bad{"an unknown tag"};
    r.expect(':');
    std::string name = r.str();
    r.expect('}');
    if (name == "nan") return NAN;
    if (name == "inf") return INFINITY;
    if (name == "-inf") return -INFINITY;
    throw bad{"an unknown float"};
  }
  std::string s = r.number();
  char* end = 0;
  double v = single ? (double)std::strtof(s.c_str(), &end) : std::strtod(s.c_str(), &end);
  if (*end != 0) throw bad{"not a number: " + cut(s)};
  return v;
}
inline void dec(reader& r, float& out) { out = (float)dec_float(r, true); }
inline void dec(reader& r, double& out) { out = dec_float(r, false); }
inline void dec(reader& r, std::string& out) { out = r.str(); }
${withAny ? ANY_DECODER : ''}
template <class A, class B> void dec(reader& r, std::pair<A, B>& out);
template <class T> void dec(reader& r, std::vector<T>& out);
template <class K, class V> void dec(reader& r, std::map<K, V>& out);
template <class T> void dec(reader& r, std::list<T>& out);
template <class A, class B> void dec(reader& r, std::pair<A, B>& out) {
  r.expect('['); dec(r, out.first); r.expect(','); dec(r, out.second); r.expect(']');
}
template <class T> void dec(reader& r, std::vector<T>& out) {
  out.clear();
  r.expect('[');
  if (r.peek(']')) { r.p++; return; }
  for (;;) {
    T x;
    dec(r, x);
    out.push_back(x);
    if (r.peek(',')) { r.p++; continue; }
    r.expect(']');
    return;
  }
}
template <class T> void dec(reader& r, std::list<T>& out) {
  std::vector<T> all;
  dec(r, all);
  out.assign(all.begin(), all.end());
}
template <class K, class V> void dec(reader& r, std::map<K, V>& out) {
  out.clear();
  r.expect('{');
  if (r.str() != "$m") throw bad{"not a map"};
  r.expect(':');
  r.expect('[');
  if (r.peek(']')) { r.p++; r.expect('}'); return; }
  for (;;) {
    r.expect('[');
    K k;
    dec(r, k);
    r.expect(',');
    V v;
    dec(r, v);
    r.expect(']');
    if (out.count(k) != 0) throw bad{"a repeated map key"};
    out[k] = v;
    if (r.peek(',')) { r.p++; continue; }
    r.expect(']');
    r.expect('}');
    return;
  }
}
inline std::vector<std::string>& lines() {
  static std::vector<std::string> all;
  static bool loaded = false;
  if (!loaded) {
    loaded = true;
    std::FILE* f = std::fopen("${REPLAY_FILE}", "rb");
    if (f == 0) fail("the call records cannot be read");
    std::string data;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data.append(buf, n);
    std::fclose(f);
    size_t start = 0;
    for (size_t i = 0; i < data.size(); i++) {
      if (data[i] == '\n') { all.push_back(data.substr(start, i - start)); start = i + 1; }
    }
  }
  return all;
}
inline int& replay_count() { static int k = 0; return k; }
template <class R> void call(const std::string& mine, R& out) {
  std::vector<std::string>& all = lines();
  int k = replay_count();
  char num[32];
  std::snprintf(num, sizeof num, "call %d", k + 1);
  if ((size_t)k >= all.size() / 2) fail(std::string(num) + " " + cut(mine) + ": the program's run ended after " + std::to_string(all.size() / 2) + " calls");
  if (all[2 * k] != mine) fail(std::string(num) + ": the program's run diverged from the tests (it was called with " + cut(all[2 * k]) + ", the tests pass " + cut(mine) + ")");
  try {
    reader r = { all[2 * k + 1].c_str() };
    dec(r, out);
    r.ws();
    if (*r.p != 0) throw bad{"text after the value"};
  } catch (const bad& e) {
    fail(std::string(num) + ": a malformed recorded result (" + e.why + ")");
  }
  replay_count()++;
}
inline void finish() {
  if ((size_t)replay_count() != lines().size() / 2) {
    fail("the program's run recorded " + std::to_string(lines().size() / 2) + " calls, the tests made " + std::to_string(replay_count()));
  }
}
}  // namespace crucible_replay
`;

/** The entry point: the last function definition the prompt opens, with nothing but comments after it. */
function entryOf(prompt: string): {
  readonly name: string; readonly params: string; readonly names: string[]; readonly types: string[]; readonly result: string;
} | undefined {
  const all = [...prompt.matchAll(/^[ \t]*([A-Za-z_][\w:<>, \t*&]*?)[ \t]+([A-Za-z_]\w*)\s*\(([^()]*)\)\s*\{/gm)];
  const m = all[all.length - 1];
  if (m === undefined) return undefined;
  const rest = prompt.slice(m.index + m[0].length).replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  if (rest.trim() !== '') return undefined;
  const result = m[1]!.trim();
  if (/\b(static|inline|template|void|auto)\b|(?<!boost::)\bany\b/.test(result)) return undefined;
  const names: string[] = [];
  const types: string[] = [];
  for (const part of splitParameters(m[3]!)) {
    const name = /([A-Za-z_]\w*)\s*$/.exec(part);
    if (name === null || part.includes('=') || /(?<!boost::)\bany\b|\.\.\./.test(part) || !/[\s*&>]/.test(part.slice(0, name.index + 1))) return undefined;
    names.push(name[1]!);
    types.push(part.slice(0, name.index).replace(/^\s*const\b/, '').replace(/&\s*$/, '').trim());
  }
  return { name: m[2]!, params: m[3]!, names, types, result };
}

/**
 * The candidate's driver (the test's place in the assembly, so its `main` becomes the tests' main): one argument
 * list per stdin line, decoded as data into the declared parameter types (by value, `const` and `&` dropped) with
 * the trusted decoder, the entry point called on each, one record printed per call; then exit 0 (the assembly's
 * end-of-tests epilogue is never reached: nothing here decides a verdict). Parameter types the decoder has no
 * overload for fail to compile, so `prepare` offers this driver only for types it knows (`DRIVEN_TYPE`).
 */
function driver(entry: { readonly name: string; readonly types: readonly string[] }): string {
  const vars = entry.types.map((_, i) => `crucible_a${i}`);
  const decls = entry.types.map((t, i) => `    ${t} ${vars[i]};\n`).join('');
  const reads = vars.map((v, i) => `${i > 0 ? 'crucible_r.expect(\',\'); ' : ''}crucible_replay::dec(crucible_r, ${v}); `).join('');
  return String.raw`
int main() {
  std::string crucible_data;
  char crucible_buf[65536];
  size_t crucible_n;
  while ((crucible_n = std::fread(crucible_buf, 1, sizeof crucible_buf, stdin)) > 0) crucible_data.append(crucible_buf, crucible_n);
  size_t crucible_start = 0;
  for (size_t crucible_i = 0; crucible_i < crucible_data.size(); crucible_i++) {
    if (crucible_data[crucible_i] != '\n') continue;
    std::string crucible_line = crucible_data.substr(crucible_start, crucible_i - crucible_start);
    crucible_start = crucible_i + 1;
${decls}    try {
      crucible_replay::reader crucible_r = { crucible_line.c_str() };
      crucible_r.expect('['); ${reads}crucible_r.expect(']');
    } catch (const crucible_replay::bad& e) {
      std::fprintf(stderr, "undecodable arguments: %s\n", e.why.c_str());
      return 3;
    }
    std::string crucible_args = crucible_replay::args(${vars.join(', ')});
    crucible_replay::record(crucible_args, ${entry.name}(${vars.join(', ')}));
  }
  std::fflush(stdout);
  std::exit(0);
}
`;
}

/**
 * Parameter types the driver decodes: scalars, `string`, `boost::any` and the `list_any` typedef, and vectors,
 * pairs and maps of those (the decoder's overloads; checked by shape, without a C++ parser).
 */
const DRIVEN_TYPE = /^(?:(?:std::)?(?:vector|pair|map|list)\s*<|(?:std::)?string\b|boost::any\b|list_any\b|(?:unsigned\s+|signed\s+)?(?:char|short|int|long|long\s+long)\b|unsigned\b|float\b|double\b|bool\b|>|,|\s)+$/;

/** HumanEval-X C++ replay (see the module comment). */
export const CPP_REPLAY: ReplaySplit = {
  prepare(problem: ScriptProblem): ReplayProblem | undefined {
    const entry = entryOf(problem.prompt);
    if (entry === undefined || /\bmain\s*\(/.test(problem.prompt)) return undefined;
    const withAny = /\bboost::any\b/.test(problem.prompt);
    const target = `crucible_record_${entry.name}`;
    const test = problem.test
      .replace(new RegExp(`(?<![\\w.:>])${entry.name}(?=\\s*\\()`, 'g'), target)
      .replace(/(?<![\w.:>])rand\s*\(\s*\)/g, 'crucible_replay::test_rand()');
    const names = entry.names.join(', ');
    const recorder = `\n${entry.result} ${target}(${entry.params}) {\n  std::string crucible_args = crucible_replay::args(${names});\n`
      + `  ${entry.result} crucible_result = ${entry.name}(${names});\n  crucible_replay::record(crucible_args, crucible_result);\n  return crucible_result;\n}\n`;
    const stub = `\n${entry.result} ${target}(${entry.params}) {\n  ${entry.result} crucible_result;\n`
      + `  crucible_replay::call(crucible_replay::args(${names}), crucible_result);\n  return crucible_result;\n}\n`;
    const language = problem.language;
    const end = /\}\s*$/.exec(test);
    if (end === null) return undefined;
    const trustedTest = `${test.slice(0, end.index)}crucible_replay::finish();\n}\n`;
    const trustedProgram = assembleHumanEvalX(language, {
      setup: problem.setup ?? '', program: `${encoder(withAny)}${replayer(withAny)}${problem.prompt}\n  throw 0;\n}\n${stub}`, test: trustedTest,
    });
    const candidateTest = test.replace(/(?<![\w.:>])assert\s*\(/g, 'crucible_no_assert(');
    const recording = (program: string): string => assembleHumanEvalX(language, {
      setup: problem.setup ?? '', program: `${encoder(withAny)}${RECORDER}${program}\n${recorder}`, test: candidateTest });
    if (!entry.types.every((t) => DRIVEN_TYPE.test(t))) {
      return { entryPoint: entry.name, candidateProgram: recording, trustedProgram };
    }
    const argumentPrograms = [
      ...(problem.canonicalSolution === undefined ? [] : [recording(problem.prompt + problem.canonicalSolution)]),
      recording(`${problem.prompt}\n  return {};\n}\n`),
    ];
    return {
      entryPoint: entry.name,
      candidateProgram: (program) => assembleHumanEvalX(language, { setup: problem.setup ?? '',
        program: `${encoder(withAny)}${replayer(withAny)}${RECORDER}${program}\n`, test: driver(entry) }),
      trustedProgram,
      argumentPrograms,
    };
  },
};
