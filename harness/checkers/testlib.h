/*
 * Crucible's checker library: the checker half of testlib's documented API, written for Crucible.
 *
 * Checkers written for testlib (github.com/MikeMirzayanov/testlib; Codeforces/Polygon packages) start with
 * `#include "testlib.h"`. Crucible compiles them against this header unless the problem ships its own testlib.h
 * or the user names one (CRUCIBLE_TESTLIB; docs/FORMATS.md, "Checkers"). It follows testlib's documentation
 * (the README of MikeMirzayanov/testlib and codeforces.com/testlib): the names, arguments and verdicts are
 * testlib's; the code is Crucible's own. Only what checkers use is here: no validators, generators or
 * interactors (registerValidation, registerGen, registerInteraction, rnd, opt).
 *
 * The contract a checker keeps with Crucible (src/contest/checkers.ts):
 *   run as   checker <input> <output> <answer> [<result-file>]
 *   verdict  exit code 0 ok, 1 wrong answer, 2 presentation error ("wrong output format"), 3 fail (the checker's
 *            or the jury's fault), 7 points, n for _pc(n); the message on stderr, starting with "ok ",
 *            "wrong answer ", "wrong output format ", "FAIL ", "points <value> " or "partially correct (n) ".
 * Streams: `inf` (the test's input), `ouf` (the contestant's output), `ans` (the jury's answer). A reading
 * error in `ouf` is a presentation error (a value outside its range, or a token not matching its pattern, a
 * wrong answer); any verdict a reading error or `quitf` gives on `inf` or `ans` becomes a fail, naming the file
 * (the jury's files are wrong, never the contestant). `quitf(_ok, ...)` with anything but blanks left unread in
 * `ouf` is a presentation error ("Extra information in the output file"). A checker that returns from main
 * without a verdict is a fail.
 * Reading is testlib's non-strict (checker) mode: tokens are separated by blanks (space, tab, CR, LF), integers
 * are written without '+' or leading zeros ("-0" is not an integer), reals are decimal with an optional exponent
 * (no nan, inf or hex), lines end at LF with a CR before it dropped.
 */
#ifndef CRUCIBLE_TESTLIB_H
#define CRUCIBLE_TESTLIB_H

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#define CRUCIBLE_TESTLIB 1

#if defined(__GNUC__)
#define CRUCIBLE_NORETURN __attribute__((noreturn))
#define CRUCIBLE_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CRUCIBLE_NORETURN
#define CRUCIBLE_PRINTF(f, a)
#endif

/** Verdicts, with testlib's names and values. _pc(n) is "partially correct", exit code n. */
enum TResult { _ok = 0, _wa = 1, _pe = 2, _fail = 3, _dirt = 4, _points = 5, _unexpected_eof = 8, _partially = 16 };
/** Which file a stream reads: the test's input, the contestant's output, or the jury's answer. */
enum TMode { _input, _output, _answer };

inline TResult _pc(int n) { return TResult(_partially + n); }

const char LF = '\n';
const char CR = '\r';
const char SPACE = ' ';
const char TAB = '\t';
/** What readChar and curChar give at the end of a file. */
const char EOFC = char(-1);

namespace crucible_testlib {

/** printf into a std::string. */
inline std::string vformat(const char *fmt, va_list args) {
  if (fmt == NULL) return std::string();
  va_list copy;
  va_copy(copy, args);
  int size = std::vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  if (size <= 0) return std::string();
  std::vector<char> buffer(size_t(size) + 1);
  std::vsnprintf(&buffer[0], buffer.size(), fmt, args);
  return std::string(&buffer[0], size_t(size));
}

inline bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/** A real as a short text: up to 10 decimals, trailing zeros dropped but one kept ("0.5", "1.0"). */
inline std::string pointsText(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.10f", value);
  std::string s(text);
  size_t dot = s.find('.');
  if (dot == std::string::npos) return s;
  size_t last = s.find_last_not_of('0');
  if (last == dot) last = dot + 1;
  return s.substr(0, last + 1);
}

/** Parse a whole token as a decimal integer without '+' or leading zeros; false when it is not one. */
inline bool parseInteger(const std::string &s, long long &out) {
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && s[i] == '-') { negative = true; i++; }
  if (i >= s.size()) return false;
  if (s[i] == '0' && (negative || i + 1 < s.size())) return false;
  unsigned long long magnitude = 0;
  const unsigned long long limit = negative ? 9223372036854775808ULL : 9223372036854775807ULL;
  for (; i < s.size(); i++) {
    if (s[i] < '0' || s[i] > '9') return false;
    unsigned digit = unsigned(s[i] - '0');
    if (magnitude > (limit - digit) / 10) return false;
    magnitude = magnitude * 10 + digit;
  }
  out = negative ? (magnitude == 9223372036854775808ULL ? std::numeric_limits<long long>::min() : -(long long)magnitude)
                 : (long long)magnitude;
  return true;
}

/** Parse a whole token as an unsigned decimal integer without leading zeros. */
inline bool parseUnsigned(const std::string &s, unsigned long long &out) {
  if (s.empty() || (s[0] == '0' && s.size() > 1)) return false;
  unsigned long long value = 0;
  for (size_t i = 0; i < s.size(); i++) {
    if (s[i] < '0' || s[i] > '9') return false;
    unsigned digit = unsigned(s[i] - '0');
    if (value > (std::numeric_limits<unsigned long long>::max() - digit) / 10) return false;
    value = value * 10 + digit;
  }
  out = value;
  return true;
}

/**
 * Parse a whole token as a decimal real: [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits?)?. With
 * `strict`, no sign '+', no exponent, at least one digit before the point and no leading zeros, no minus on
 * a zero, and the number of digits after the point within [minAfter, maxAfter] (0 digits means no point). False when it is not one (nan, inf and hex
 * included). A value too large for a double is infinite, as testlib reads it.
 */
inline bool parseReal(const std::string &s, double &out, bool strict = false, int minAfter = 0, int maxAfter = 0) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || (!strict && s[i] == '+'))) i++;
  size_t before = 0, after = 0;
  while (i < s.size() && std::isdigit((unsigned char)s[i])) { i++; before++; }
  bool point = false;
  if (i < s.size() && s[i] == '.') {
    point = true;
    i++;
    while (i < s.size() && std::isdigit((unsigned char)s[i])) { i++; after++; }
  }
  if (before + after == 0) return false;
  if (!strict && i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    // As testlib reads reals: the exponent's digits may be missing ("1e" is 1).
    i++;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) i++;
    while (i < s.size() && std::isdigit((unsigned char)s[i])) i++;
  }
  if (i != s.size()) return false;
  if (strict) {
    size_t first = (s[0] == '-') ? 1 : 0;
    if (before == 0 || (point && after == 0)) return false;
    if (before > 1 && s[first] == '0') return false;  // no leading zeros: "01.5"
    if (int(after) < minAfter || int(after) > maxAfter) return false;
    if (first == 1 && s.find_first_not_of("0.", 1) == std::string::npos) return false;  // no minus on a zero: "-0.0"
  }
  out = std::strtod(s.c_str(), NULL);
  return true;
}

}  // namespace crucible_testlib

/**
 * A pattern in testlib's notation, matched against a whole string: literal characters, `\c` for a special
 * character, classes `[a-z0-9_]` and `[^...]`, groups `( )`, alternatives `|`, and the repetitions `*`, `+`,
 * `?`, `{n}`, `{n,m}`. Used by readWord/readToken/readLine with a pattern, and on its own (`pattern p(...);
 * p.matches(s)`).
 */
class pattern {
 public:
  pattern() : root_(-1) {}
  explicit pattern(const std::string &source) : source_(source), root_(-1) {
    size_t at = 0;
    root_ = parseAlternatives(at);
    if (at != source_.size()) invalid("unexpected character");
  }
  const std::string &src() const { return source_; }
  bool matches(const std::string &s) const {
    if (root_ < 0) return s.empty();
    return match(root_, s, 0, [&](size_t at) { return at == s.size(); });
  }

 private:
  enum Kind { CHARS, SEQUENCE, ALTERNATIVES, REPEAT };
  struct Node {
    Kind kind;
    std::vector<bool> chars;      // CHARS: the accepted bytes
    std::vector<int> children;    // SEQUENCE, ALTERNATIVES; REPEAT: one child
    int min, max;                 // REPEAT
  };
  std::string source_;
  std::vector<Node> nodes_;
  int root_;

  CRUCIBLE_NORETURN void invalid(const char *what) const;

  int add(const Node &node) { nodes_.push_back(node); return int(nodes_.size()) - 1; }

  int parseAlternatives(size_t &at) {
    std::vector<int> options(1, parseSequence(at));
    while (at < source_.size() && source_[at] == '|') { at++; options.push_back(parseSequence(at)); }
    if (options.size() == 1) return options[0];
    Node node; node.kind = ALTERNATIVES; node.children = options; node.min = node.max = 0;
    return add(node);
  }

  int parseSequence(size_t &at) {
    Node node; node.kind = SEQUENCE; node.min = node.max = 0;
    while (at < source_.size() && source_[at] != '|' && source_[at] != ')') {
      int atom = parseAtom(at);
      node.children.push_back(parseRepeat(at, atom));
    }
    return add(node);
  }

  int parseRepeat(size_t &at, int atom) {
    while (at < source_.size()) {
      int lo, hi;
      char c = source_[at];
      if (c == '*') { lo = 0; hi = -1; at++; }
      else if (c == '+') { lo = 1; hi = -1; at++; }
      else if (c == '?') { lo = 0; hi = 1; at++; }
      else if (c == '{') {
        at++;
        lo = readNumber(at);
        hi = lo;
        if (at < source_.size() && source_[at] == ',') {
          at++;
          hi = (at < source_.size() && source_[at] == '}') ? -1 : readNumber(at);
        }
        if (at >= source_.size() || source_[at] != '}') invalid("'}' expected");
        at++;
        if (hi >= 0 && hi < lo) invalid("repetition {n,m} with m < n");
      } else break;
      Node node; node.kind = REPEAT; node.children.push_back(atom); node.min = lo; node.max = hi;
      atom = add(node);
    }
    return atom;
  }

  int readNumber(size_t &at) {
    if (at >= source_.size() || !std::isdigit((unsigned char)source_[at])) invalid("a number expected");
    int value = 0;
    while (at < source_.size() && std::isdigit((unsigned char)source_[at])) {
      value = value * 10 + (source_[at++] - '0');
      if (value > 100000000) invalid("repetition count too large");
    }
    return value;
  }

  char literal(size_t &at) {
    if (source_[at] == '\\') {
      if (++at >= source_.size()) invalid("'\\' at the end");
    }
    return source_[at++];
  }

  int parseAtom(size_t &at) {
    char c = source_[at];
    if (c == '(') {
      at++;
      int inner = parseAlternatives(at);
      if (at >= source_.size() || source_[at] != ')') invalid("')' expected");
      at++;
      return inner;
    }
    if (c == '*' || c == '+' || c == '?' || c == '{' || c == '}' || c == ']') invalid("misplaced special character");
    Node node; node.kind = CHARS; node.chars.assign(256, false); node.min = node.max = 0;
    if (c == '[') {
      at++;
      bool negate = at < source_.size() && source_[at] == '^';
      if (negate) at++;
      bool any = false;
      while (at < source_.size() && source_[at] != ']') {
        unsigned char from = (unsigned char)literal(at);
        unsigned char to = from;
        if (at + 1 < source_.size() && source_[at] == '-' && source_[at + 1] != ']') {
          at++;
          to = (unsigned char)literal(at);
          if (to < from) invalid("range [a-b] with b < a");
        }
        for (unsigned v = from; v <= to; v++) node.chars[v] = true;
        any = true;
      }
      if (at >= source_.size()) invalid("']' expected");
      at++;
      if (!any) invalid("empty class []");
      if (negate) node.chars.flip();
    } else {
      node.chars[(unsigned char)literal(at)] = true;
    }
    return add(node);
  }

  typedef std::function<bool(size_t)> Next;

  bool match(int id, const std::string &s, size_t at, const Next &next) const {
    const Node &node = nodes_[id];
    switch (node.kind) {
      case CHARS:
        return at < s.size() && node.chars[(unsigned char)s[at]] && next(at + 1);
      case SEQUENCE:
        return matchSequence(node.children, 0, s, at, next);
      case ALTERNATIVES:
        for (size_t i = 0; i < node.children.size(); i++) {
          if (match(node.children[i], s, at, next)) return true;
        }
        return false;
      case REPEAT:
        return matchRepeat(node, 0, s, at, next);
    }
    return false;
  }

  bool matchSequence(const std::vector<int> &items, size_t index, const std::string &s, size_t at, const Next &next) const {
    if (index == items.size()) return next(at);
    return match(items[index], s, at, [&](size_t after) { return matchSequence(items, index + 1, s, after, next); });
  }

  bool matchRepeat(const Node &node, int count, const std::string &s, size_t at, const Next &next) const {
    const Node &child = nodes_[node.children[0]];
    if (child.kind == CHARS) {
      // A repeated class (the common case, "[a-z]{1,10}"): the longest run first, then shorter ones, in a loop,
      // so a long token costs no recursion.
      size_t run = 0;
      size_t limit = node.max < 0 ? s.size() - at : std::min(s.size() - at, size_t(node.max));
      while (run < limit && child.chars[(unsigned char)s[at + run]]) run++;
      for (size_t taken = run + 1; taken-- > 0;) {
        if (int(taken) < node.min) return false;
        if (next(at + taken)) return true;
      }
      return false;
    }
    if (node.max < 0 || count < node.max) {
      // An iteration that consumed nothing meets the rest of the minimum with more empty ones.
      bool more = match(node.children[0], s, at, [&](size_t after) {
        return after == at ? next(after) : matchRepeat(node, count + 1, s, after, next);
      });
      if (more) return true;
    }
    return count >= node.min && next(at);
  }
};

class InStream;
CRUCIBLE_NORETURN inline void quit(TResult result, const std::string &message);
CRUCIBLE_NORETURN inline void quit(TResult result, const char *message);

/**
 * One of the checker's three files, read whole when the checker starts. Every read either returns a value or
 * ends the checker with a verdict (see the file's header: presentation error in `ouf`, fail in `inf`/`ans`).
 */
class InStream {
 public:
  InStream() : mode_(_input), opened_(false), pos_(0) {}

  /** Open `fileName` as the stream of `mode`; a file that cannot be read is a fail (or, for `ouf`, a PE). */
  void init(const std::string &fileName, TMode mode) {
    name_ = fileName;
    mode_ = mode;
    pos_ = 0;
    data_.clear();
    std::FILE *file = std::fopen(fileName.c_str(), "rb");
    if (file == NULL) quit(mode == _output ? _pe : _fail, "File not found: \"" + fileName + "\"");
    char block[1 << 16];
    size_t got;
    while ((got = std::fread(block, 1, sizeof block, file)) > 0) data_.append(block, got);
    std::fclose(file);
    opened_ = true;
  }

  const std::string &name() const { return name_; }
  TMode mode() const { return mode_; }
  bool opened() const { return opened_; }

  // ---- verdicts from this stream --------------------------------------------------------------------------

  /** End the checker with `result`; on `inf`/`ans` every verdict is a fail naming the file. */
  CRUCIBLE_NORETURN void quit(TResult result, const char *message) {
    std::string text = message == NULL ? std::string() : std::string(message);
    if (mode_ != _output) {
      ::quit(_fail, text + " (" + name_ + ")");
    }
    ::quit(result, text);
  }
  CRUCIBLE_NORETURN void quit(TResult result, const std::string &message) { quit(result, message.c_str()); }
  CRUCIBLE_NORETURN CRUCIBLE_PRINTF(3, 4) void quitf(TResult result, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    std::string text = crucible_testlib::vformat(fmt, args);
    va_end(args);
    quit(result, text);
  }
  CRUCIBLE_PRINTF(4, 5) void quitif(bool condition, TResult result, const char *fmt, ...) {
    if (!condition) return;
    va_list args;
    va_start(args, fmt);
    std::string text = crucible_testlib::vformat(fmt, args);
    va_end(args);
    quit(result, text);
  }
  /** When `condition` is false: a fail on `inf`/`ans`, a wrong answer on `ouf`. */
  CRUCIBLE_PRINTF(3, 4) void ensuref(bool condition, const char *fmt, ...) {
    if (condition) return;
    va_list args;
    va_start(args, fmt);
    std::string text = crucible_testlib::vformat(fmt, args);
    va_end(args);
    quit(_wa, text);
  }
  /** What `stream.ensure(cond)` becomes (ensure is a macro, as in testlib). */
  void crucibleEnsure(bool condition, const char *expression) {
    if (!condition) quit(_wa, std::string("Condition failed: \"") + expression + "\"");
  }

  // ---- characters -------------------------------------------------------------------------------------------

  /** The next character without reading it (EOFC at the end). */
  char curChar() const { return pos_ < data_.size() ? data_[pos_] : EOFC; }
  /** Read one character (EOFC at the end, which does not advance). */
  char readChar() { return pos_ < data_.size() ? data_[pos_++] : EOFC; }
  /** Read one character that must be `c` (presentation error otherwise). */
  char readChar(char c) {
    char got = readChar();
    if (got != c) quit(_pe, "Unexpected character " + charName(got) + ", but " + charName(c) + " expected");
    return got;
  }
  /** Step back over the character just read. */
  void unreadChar(char) { if (pos_ > 0) pos_--; }
  void skipChar() { if (pos_ < data_.size()) pos_++; }
  /** Read a single space ' '. */
  void readSpace() { readChar(' '); }
  /** Skip blanks (space, tab, CR, LF). */
  void skipBlanks() { while (pos_ < data_.size() && crucible_testlib::isBlank(data_[pos_])) pos_++; }
  /** Skip the rest of the current line, its LF included. */
  void nextLine() {
    while (pos_ < data_.size() && data_[pos_] != '\n') pos_++;
    if (pos_ < data_.size()) pos_++;
  }

  /** At the end of the file. */
  bool eof() const { return pos_ >= data_.size(); }
  /** Skip blanks; then at the end of the file. */
  bool seekEof() { skipBlanks(); return eof(); }
  /** At an end of line (LF, CR LF; read when there) or at the end of the file. */
  bool eoln() {
    if (pos_ >= data_.size()) return true;
    size_t at = pos_;
    if (data_[at] == '\r' && at + 1 < data_.size()) at++;
    if (data_[at] != '\n') return false;
    pos_ = at + 1;
    return true;
  }
  /** Skip spaces and tabs; then at an end of line. */
  bool seekEoln() {
    while (pos_ < data_.size() && (data_[pos_] == ' ' || data_[pos_] == '\t')) pos_++;
    return eoln();
  }
  /** Read an end of line (LF or CR LF); the end of the file counts as one. */
  void readEoln() {
    if (!eoln()) quit(_pe, "Expected EOLN");
  }
  /** Require the end of the file. */
  void readEof() { if (!eof()) quit(_pe, "Expected EOF"); }

  // ---- tokens -----------------------------------------------------------------------------------------------

  /** Skip blanks and read the next run of non-blank characters; the end of the file is a PE. */
  std::string readWord() { return readTokenOf("token"); }
  std::string readToken() { return readWord(); }
  void readWordTo(std::string &result) { result = readWord(); }
  void readTokenTo(std::string &result) { result = readWord(); }
  /** A token that must match `ptrn` (a wrong answer otherwise). */
  std::string readWord(const pattern &ptrn, const std::string &variableName = "") {
    std::string word = readWord();
    if (!ptrn.matches(word)) {
      quit(_wa, "Token" + named(variableName) + " equals to \"" + shorten(word) + "\", doesn't correspond to pattern \""
               + ptrn.src() + "\"");
    }
    return word;
  }
  std::string readWord(const std::string &ptrn, const std::string &variableName = "") {
    return readWord(pattern(ptrn), variableName);
  }
  std::string readToken(const pattern &ptrn, const std::string &variableName = "") { return readWord(ptrn, variableName); }
  std::string readToken(const std::string &ptrn, const std::string &variableName = "") { return readWord(ptrn, variableName); }
  std::vector<std::string> readWords(int size, int indexBase = 1) {
    (void)indexBase;
    std::vector<std::string> out;
    for (int i = 0; i < size; i++) out.push_back(readWord());
    return out;
  }
  std::vector<std::string> readWords(int size, const std::string &ptrn, const std::string &variablesName = "",
                                     int indexBase = 1) {
    pattern p(ptrn);
    std::vector<std::string> out;
    for (int i = 0; i < size; i++) out.push_back(readWord(p, element(variablesName, i + indexBase)));
    return out;
  }
  std::vector<std::string> readTokens(int size, int indexBase = 1) { return readWords(size, indexBase); }
  std::vector<std::string> readTokens(int size, const std::string &ptrn, const std::string &variablesName = "",
                                      int indexBase = 1) {
    return readWords(size, ptrn, variablesName, indexBase);
  }

  // ---- integers ---------------------------------------------------------------------------------------------

  /** A 64-bit integer: '-'? digits, no '+', no leading zeros (PE otherwise). */
  long long readLong() {
    std::string token = readTokenOf("int64");
    long long value;
    if (!crucible_testlib::parseInteger(token, value)) quit(_pe, "Expected integer, but \"" + shorten(token) + "\" found");
    return value;
  }
  long long readLong(long long minv, long long maxv, const std::string &variableName = "") {
    long long value = readLong();
    if (value < minv || value > maxv) quit(_wa, "Integer" + named(variableName) + rangeText(value, minv, maxv));
    return value;
  }
  unsigned long long readUnsignedLong() {
    std::string token = readTokenOf("int64");
    unsigned long long value;
    if (!crucible_testlib::parseUnsigned(token, value)) quit(_pe, "Expected unsigned integer, but \"" + shorten(token) + "\" found");
    return value;
  }
  unsigned long long readUnsignedLong(unsigned long long minv, unsigned long long maxv, const std::string &variableName = "") {
    unsigned long long value = readUnsignedLong();
    if (value < minv || value > maxv) quit(_wa, "Integer" + named(variableName) + rangeText(value, minv, maxv));
    return value;
  }
  /** A 32-bit integer, as readLong. */
  int readInt() {
    std::string token = readTokenOf("int32");
    long long value;
    if (!crucible_testlib::parseInteger(token, value)) quit(_pe, "Expected integer, but \"" + shorten(token) + "\" found");
    if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
      quit(_pe, "Expected int32, but \"" + shorten(token) + "\" found");
    }
    return int(value);
  }
  int readInt(int minv, int maxv, const std::string &variableName = "") {
    int value = readInt();
    if (value < minv || value > maxv) quit(_wa, "Integer" + named(variableName) + rangeText(value, minv, maxv));
    return value;
  }
  int readInteger() { return readInt(); }
  int readInteger(int minv, int maxv, const std::string &variableName = "") { return readInt(minv, maxv, variableName); }
  std::vector<int> readInts(int size, int indexBase = 1) {
    (void)indexBase;
    std::vector<int> out;
    for (int i = 0; i < size; i++) out.push_back(readInt());
    return out;
  }
  std::vector<int> readInts(int size, int minv, int maxv, const std::string &variablesName = "", int indexBase = 1) {
    std::vector<int> out;
    for (int i = 0; i < size; i++) {
      int value = readInt();
      if (value < minv || value > maxv) {
        quit(_wa, "Integer element" + elementName(variablesName, i + indexBase) + rangeText(value, minv, maxv));
      }
      out.push_back(value);
    }
    return out;
  }
  std::vector<int> readIntegers(int size, int indexBase = 1) { return readInts(size, indexBase); }
  std::vector<int> readIntegers(int size, int minv, int maxv, const std::string &variablesName = "", int indexBase = 1) {
    return readInts(size, minv, maxv, variablesName, indexBase);
  }
  std::vector<long long> readLongs(int size, int indexBase = 1) {
    (void)indexBase;
    std::vector<long long> out;
    for (int i = 0; i < size; i++) out.push_back(readLong());
    return out;
  }
  std::vector<long long> readLongs(int size, long long minv, long long maxv, const std::string &variablesName = "",
                                   int indexBase = 1) {
    std::vector<long long> out;
    for (int i = 0; i < size; i++) {
      long long value = readLong();
      if (value < minv || value > maxv) {
        quit(_wa, "Integer element" + elementName(variablesName, i + indexBase) + rangeText(value, minv, maxv));
      }
      out.push_back(value);
    }
    return out;
  }

  // ---- reals ------------------------------------------------------------------------------------------------

  /** A real in decimal notation with an optional exponent (PE for anything else, nan and inf included). */
  double readDouble() {
    std::string token = readTokenOf("double");
    double value;
    if (!crucible_testlib::parseReal(token, value)) quit(_pe, "Expected double, but \"" + shorten(token) + "\" found");
    return value;
  }
  double readDouble(double minv, double maxv, const std::string &variableName = "") {
    double value = readDouble();
    if (value < minv || value > maxv) quit(_wa, "Double" + named(variableName) + rangeText(value, minv, maxv));
    return value;
  }
  double readReal() { return readDouble(); }
  double readReal(double minv, double maxv, const std::string &variableName = "") { return readDouble(minv, maxv, variableName); }
  std::vector<double> readDoubles(int size, int indexBase = 1) {
    (void)indexBase;
    std::vector<double> out;
    for (int i = 0; i < size; i++) out.push_back(readDouble());
    return out;
  }
  std::vector<double> readDoubles(int size, double minv, double maxv, const std::string &variablesName = "",
                                  int indexBase = 1) {
    std::vector<double> out;
    for (int i = 0; i < size; i++) {
      double value = readDouble();
      if (value < minv || value > maxv) {
        quit(_wa, "Double element" + elementName(variablesName, i + indexBase) + rangeText(value, minv, maxv));
      }
      out.push_back(value);
    }
    return out;
  }
  std::vector<double> readReals(int size, int indexBase = 1) { return readDoubles(size, indexBase); }
  std::vector<double> readReals(int size, double minv, double maxv, const std::string &variablesName = "", int indexBase = 1) {
    return readDoubles(size, minv, maxv, variablesName, indexBase);
  }
  /**
   * A real written strictly: '-'? digits ['.' digits], no exponent, with between minAfterPointDigitCount and
   * maxAfterPointDigitCount digits after the point (PE otherwise), within [minv, maxv] (wrong answer otherwise).
   */
  double readStrictDouble(double minv, double maxv, int minAfterPointDigitCount, int maxAfterPointDigitCount,
                          const std::string &variableName = "") {
    std::string token = readTokenOf("double");
    double value;
    if (!crucible_testlib::parseReal(token, value, true, minAfterPointDigitCount, maxAfterPointDigitCount)) {
      quit(_pe, "Expected strict double with number of digits after point in range [" + toText(minAfterPointDigitCount)
               + "," + toText(maxAfterPointDigitCount) + "], but \"" + shorten(token) + "\" found");
    }
    if (value < minv || value > maxv) quit(_wa, "Strict double" + named(variableName) + rangeText(value, minv, maxv));
    return value;
  }
  double readStrictReal(double minv, double maxv, int minAfterPointDigitCount, int maxAfterPointDigitCount,
                        const std::string &variableName = "") {
    return readStrictDouble(minv, maxv, minAfterPointDigitCount, maxAfterPointDigitCount, variableName);
  }

  // ---- lines ------------------------------------------------------------------------------------------------

  /** The rest of the current line without its end, CRs left out (as testlib reads lines); "" at the end. */
  std::string readLine() {
    std::string line;
    while (pos_ < data_.size() && data_[pos_] != '\n') {
      if (data_[pos_] != '\r') line += data_[pos_];
      pos_++;
    }
    if (pos_ < data_.size()) pos_++;
    return line;
  }
  std::string readString() { return readLine(); }
  void readLineTo(std::string &result) { result = readLine(); }
  void readStringTo(std::string &result) { result = readLine(); }
  /** A line that must match `ptrn` (a wrong answer otherwise). */
  std::string readLine(const pattern &ptrn, const std::string &variableName = "") {
    std::string line = readLine();
    if (!ptrn.matches(line)) {
      quit(_wa, "Line" + named(variableName) + " equals to \"" + shorten(line) + "\", doesn't correspond to pattern \""
               + ptrn.src() + "\"");
    }
    return line;
  }
  std::string readLine(const std::string &ptrn, const std::string &variableName = "") { return readLine(pattern(ptrn), variableName); }
  std::string readString(const pattern &ptrn, const std::string &variableName = "") { return readLine(ptrn, variableName); }
  std::string readString(const std::string &ptrn, const std::string &variableName = "") { return readLine(ptrn, variableName); }
  std::vector<std::string> readLines(int size, int indexBase = 1) {
    (void)indexBase;
    std::vector<std::string> out;
    for (int i = 0; i < size; i++) out.push_back(readLine());
    return out;
  }
  std::vector<std::string> readLines(int size, const std::string &ptrn, const std::string &variablesName = "",
                                     int indexBase = 1) {
    pattern p(ptrn);
    std::vector<std::string> out;
    for (int i = 0; i < size; i++) out.push_back(readLine(p, element(variablesName, i + indexBase)));
    return out;
  }
  std::vector<std::string> readStrings(int size, int indexBase = 1) { return readLines(size, indexBase); }
  std::vector<std::string> readStrings(int size, const std::string &ptrn, const std::string &variablesName = "",
                                       int indexBase = 1) {
    return readLines(size, ptrn, variablesName, indexBase);
  }

 private:
  std::string name_;
  TMode mode_;
  bool opened_;
  std::string data_;
  size_t pos_;

  std::string readTokenOf(const char *what) {
    skipBlanks();
    if (eof()) quit(_unexpected_eof, std::string("Unexpected end of file - ") + what + " expected");
    size_t start = pos_;
    while (pos_ < data_.size() && !crucible_testlib::isBlank(data_[pos_])) pos_++;
    return data_.substr(start, pos_ - start);
  }

  template <typename T>
  static std::string toText(const T &value) {
    std::ostringstream out;
    out.precision(15);
    out << value;
    return out.str();
  }
  template <typename T>
  static std::string rangeText(const T &value, const T &minv, const T &maxv) {
    return " equals to " + toText(value) + ", violates the range [" + toText(minv) + ", " + toText(maxv) + "]";
  }
  static std::string named(const std::string &variableName) {
    return variableName.empty() ? std::string() : " parameter [name=" + variableName + "]";
  }
  static std::string element(const std::string &variablesName, int index) {
    return variablesName.empty() ? std::string() : variablesName + "[" + toText(index) + "]";
  }
  static std::string elementName(const std::string &variablesName, int index) {
    return variablesName.empty() ? std::string() : " " + element(variablesName, index);
  }
  static std::string shorten(const std::string &s) {
    return s.size() <= 64 ? s : s.substr(0, 30) + "..." + s.substr(s.size() - 31);
  }
  static std::string charName(char c) {
    if (c == EOFC) return "EOF";
    if ((unsigned char)c < 32 || (unsigned char)c >= 127) return "#" + toText(int((unsigned char)c));
    return std::string("'") + c + "'";
  }
};

inline void pattern::invalid(const char *what) const {
  std::string message = std::string("Invalid pattern \"") + source_ + "\": " + what;
  quit(_fail, message);
}

/** The test's input, the contestant's output, the jury's answer (opened by registerTestlibCmd). */
InStream inf;
InStream ouf;
InStream ans;

namespace crucible_testlib {
/** The checker's name (setName), its result file (4th argument), and whether a verdict was given. */
struct State {
  std::string checkerName;
  std::string resultFile;
  bool registered;
  bool finished;
  State() : registered(false), finished(false) {}
};
inline State &state() {
  static State s;
  return s;
}

/** The message prefix and exit code of a verdict. */
inline void verdictOf(TResult result, std::string &prefix, int &exitCode) {
  if (result >= _partially) {
    int n = int(result) - int(_partially);
    char text[48];
    std::snprintf(text, sizeof text, "partially correct (%d) ", n);
    prefix = text;
    exitCode = n;
    return;
  }
  switch (result) {
    case _ok: prefix = "ok "; exitCode = 0; return;
    case _wa: prefix = "wrong answer "; exitCode = 1; return;
    case _pe: case _dirt: case _unexpected_eof: prefix = "wrong output format "; exitCode = 2; return;
    case _points: prefix = "points "; exitCode = 7; return;
    default: prefix = "FAIL "; exitCode = 3; return;
  }
}

/** Say `text` on stderr and in the result file, and exit with `exitCode`. */
CRUCIBLE_NORETURN inline void finish(const std::string &text, int exitCode) {
  state().finished = true;
  std::fprintf(stderr, "%s\n", text.c_str());
  std::fflush(stderr);
  if (!state().resultFile.empty()) {
    std::FILE *file = std::fopen(state().resultFile.c_str(), "w");
    if (file != NULL) {
      std::fprintf(file, "%s\n", text.c_str());
      std::fclose(file);
    }
  }
  std::exit(exitCode);
}

/** At exit: a checker that returned without a verdict has failed. */
inline void checkFinished() {
  if (state().registered && !state().finished) {
    state().finished = true;
    std::fprintf(stderr, "FAIL the checker ended without a verdict (no quitf)\n");
    std::fflush(stderr);
    std::_Exit(3);
  }
}
}  // namespace crucible_testlib

/**
 * End the checker with `result` and `message`. An ok while the contestant's output still holds anything but
 * blanks is a presentation error ("Extra information in the output file").
 */
inline void quit(TResult result, const std::string &message) {
  std::string text = message;
  if (result == _ok && ouf.opened() && !ouf.seekEof()) {
    result = _pe;
    text = "Extra information in the output file";
  }
  std::string prefix;
  int exitCode;
  crucible_testlib::verdictOf(result, prefix, exitCode);
  crucible_testlib::finish(prefix + text, exitCode);
}
inline void quit(TResult result, const char *message) { quit(result, std::string(message == NULL ? "" : message)); }

/** quit with a printf-style message. */
CRUCIBLE_NORETURN inline void quitf(TResult result, const char *fmt, ...) CRUCIBLE_PRINTF(2, 3);
inline void quitf(TResult result, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string text = crucible_testlib::vformat(fmt, args);
  va_end(args);
  quit(result, text);
}

/** quitf when `condition` holds. */
inline void quitif(bool condition, TResult result, const char *fmt, ...) CRUCIBLE_PRINTF(3, 4);
inline void quitif(bool condition, TResult result, const char *fmt, ...) {
  if (!condition) return;
  va_list args;
  va_start(args, fmt);
  std::string text = crucible_testlib::vformat(fmt, args);
  va_end(args);
  quit(result, text);
}

namespace crucible_testlib {
CRUCIBLE_NORETURN inline void quitPoints(double value, const std::string &points, const std::string &message) {
  if (value < 0) quit(_fail, "Parameter 'points' can't be negative");
  finish("points " + points + (message.empty() ? std::string() : " " + message), 7);
}
}  // namespace crucible_testlib

/**
 * End with a partial score: "points <value> <message>", exit code 7 (a negative value is a fail). Crucible
 * reads the value as the test's score, which must be in [0, 1].
 */
CRUCIBLE_NORETURN inline void quitp(double points, const char *fmt = NULL, ...) CRUCIBLE_PRINTF(2, 3);
inline void quitp(double points, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string text = crucible_testlib::vformat(fmt, args);
  va_end(args);
  crucible_testlib::quitPoints(points, crucible_testlib::pointsText(points), text);
}
CRUCIBLE_NORETURN inline void quitp(float points, const char *fmt = NULL, ...) CRUCIBLE_PRINTF(2, 3);
inline void quitp(float points, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string text = crucible_testlib::vformat(fmt, args);
  va_end(args);
  crucible_testlib::quitPoints(points, crucible_testlib::pointsText(points), text);
}
CRUCIBLE_NORETURN inline void quitp(int points, const char *fmt = NULL, ...) CRUCIBLE_PRINTF(2, 3);
inline void quitp(int points, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string text = crucible_testlib::vformat(fmt, args);
  va_end(args);
  char number[32];
  std::snprintf(number, sizeof number, "%d", points);
  crucible_testlib::quitPoints(double(points), number, text);
}
CRUCIBLE_NORETURN inline void quitp(long long points, const char *fmt = NULL, ...) CRUCIBLE_PRINTF(2, 3);
inline void quitp(long long points, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string text = crucible_testlib::vformat(fmt, args);
  va_end(args);
  char number[32];
  std::snprintf(number, sizeof number, "%lld", points);
  crucible_testlib::quitPoints(double(points), number, text);
}
/**
 * End with points described by text instead of a number: "points points_info=<info> <message>", exit code 7.
 * Crucible cannot read a score from it, so its verdict is a fail.
 */
CRUCIBLE_NORETURN inline void quitpi(const std::string &points_info, const std::string &message = "") {
  crucible_testlib::finish("points points_info=" + points_info + (message.empty() ? std::string() : " " + message), 7);
}

/** When `condition` is false, fail with the printf-style message (the checker's own assertion). */
inline void ensuref(bool condition, const char *fmt, ...) CRUCIBLE_PRINTF(2, 3);
inline void ensuref(bool condition, const char *fmt, ...) {
  if (condition) return;
  va_list args;
  va_start(args, fmt);
  std::string text = crucible_testlib::vformat(fmt, args);
  va_end(args);
  quit(_fail, text);
}
inline void crucibleEnsure(bool condition, const char *expression) {
  if (!condition) quit(_fail, std::string("Condition failed: \"") + expression + "\"");
}
/** ensure(cond): fail naming the condition when it is false. */
#define ensure(cond) crucibleEnsure(bool(cond), #cond)

/** printf into a std::string. */
inline std::string format(const char *fmt, ...) CRUCIBLE_PRINTF(1, 2);
inline std::string format(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string text = crucible_testlib::vformat(fmt, args);
  va_end(args);
  return text;
}

/** "st", "nd", "rd" or "th": the English ordinal ending of `x` (1st, 12th, 22nd). */
inline std::string englishEnding(int x) {
  x %= 100;
  if (x < 0) x = -x;
  if (x / 10 == 1) return "th";
  if (x % 10 == 1) return "st";
  if (x % 10 == 2) return "nd";
  if (x % 10 == 3) return "rd";
  return "th";
}

/** A long string cut for messages: the first 30 and last 31 characters around "...". */
inline std::string compress(const std::string &s) {
  return s.size() <= 64 ? s : s.substr(0, 30) + "..." + s.substr(s.size() - 31);
}

inline std::string upperCase(std::string s) {
  for (size_t i = 0; i < s.size(); i++) s[i] = char(std::toupper((unsigned char)s[i]));
  return s;
}
inline std::string lowerCase(std::string s) {
  for (size_t i = 0; i < s.size(); i++) s[i] = char(std::tolower((unsigned char)s[i]));
  return s;
}
/** `s` without leading and trailing blanks. */
inline std::string trim(const std::string &s) {
  size_t start = 0, stop = s.size();
  while (start < stop && crucible_testlib::isBlank(s[start])) start++;
  while (stop > start && crucible_testlib::isBlank(s[stop - 1])) stop--;
  return s.substr(start, stop - start);
}

/** A value as text (operator<<; reals with up to 15 significant digits). */
template <typename T>
std::string vtos(const T &value) {
  std::ostringstream out;
  out.precision(15);
  out << value;
  return out.str();
}
template <typename T>
std::string toString(const T &value) { return vtos(value); }
inline std::string vtos(const std::string &value) { return value; }
inline std::string vtos(const char *value) { return std::string(value); }

/** The text of `s` as a 64-bit integer; anything else is a PE (or fail) on `in`. */
inline long long stringToLongLong(InStream &in, const char *s) {
  long long value;
  if (!crucible_testlib::parseInteger(s, value)) in.quit(_pe, std::string("Expected integer, but \"") + compress(s) + "\" found");
  return value;
}
inline long long stringToLongLong(InStream &in, const std::string &s) { return stringToLongLong(in, s.c_str()); }
inline unsigned long long stringToUnsignedLongLong(InStream &in, const char *s) {
  unsigned long long value;
  if (!crucible_testlib::parseUnsigned(s, value)) in.quit(_pe, std::string("Expected unsigned integer, but \"") + compress(s) + "\" found");
  return value;
}
inline int stringToInt(InStream &in, const char *s) {
  long long value = stringToLongLong(in, s);
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
    in.quit(_pe, std::string("Expected int32, but \"") + compress(s) + "\" found");
  }
  return int(value);
}
inline double stringToDouble(InStream &in, const char *s) {
  double value;
  if (!crucible_testlib::parseReal(s, value)) in.quit(_pe, std::string("Expected double, but \"") + compress(s) + "\" found");
  return value;
}
inline double stringToStrictDouble(InStream &in, const char *s, int minAfterPointDigitCount, int maxAfterPointDigitCount) {
  double value;
  if (!crucible_testlib::parseReal(s, value, true, minAfterPointDigitCount, maxAfterPointDigitCount)) {
    in.quit(_pe, std::string("Expected strict double, but \"") + compress(s) + "\" found");
  }
  return value;
}

/**
 * Whether `result` is within `maxDoubleError` of `expected`, absolutely or relatively: |result - expected| <=
 * maxDoubleError, or result within expected x (1 +- maxDoubleError) (1e-15 of slack for rounding). A NaN or
 * infinite expected value matches only itself; a NaN or infinite result matches nothing else.
 */
inline bool doubleCompare(double expected, double result, double maxDoubleError) {
  if (std::isnan(expected)) return std::isnan(result);
  if (std::isinf(expected)) return result == expected;
  if (std::isnan(result) || std::isinf(result)) return false;
  if (std::fabs(result - expected) <= maxDoubleError + 1e-15) return true;
  double low = expected * (1.0 - maxDoubleError);
  double high = expected * (1.0 + maxDoubleError);
  if (low > high) std::swap(low, high);
  return result >= low - 1e-15 && result <= high + 1e-15;
}

/** The smaller of the absolute and the relative difference (the absolute one when |expected| <= 1e-9). */
inline double doubleDelta(double expected, double result) {
  double absolute = std::fabs(result - expected);
  if (std::fabs(expected) > 1e-9) return std::min(absolute, std::fabs(absolute / expected));
  return absolute;
}

namespace crucible_testlib {
inline std::string shown(const std::string &v) { return v; }
inline std::string shown(const char *v) { return std::string(v); }
inline std::string shown(double v) {
  std::string s = pointsText(v);
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.erase(s.size() - 2);
  return s;
}
inline std::string shown(float v) { return shown(double(v)); }
inline std::string shown(long double v) { return shown(double(v)); }
inline std::string shown(bool v) { return v ? "true" : "false"; }
template <typename T>
std::string shown(const T &v) { return vtos(v); }
}  // namespace crucible_testlib

/** Quit with `result` and "expected 'E', but found 'F'", after the printf-style prefix when one is given. */
template <typename T>
CRUCIBLE_NORETURN void expectedButFound(TResult result, T expected, T found, const char *prefix = NULL, ...) {
  std::string head;
  if (prefix != NULL) {
    va_list args;
    va_start(args, prefix);
    head = crucible_testlib::vformat(prefix, args) + ": ";
    va_end(args);
  }
  quit(result, head + "expected '" + crucible_testlib::shown(expected) + "', but found '" + crucible_testlib::shown(found) + "'");
}

/** The checker's name, for its --help. */
inline void setName(const char *fmt, ...) CRUCIBLE_PRINTF(1, 2);
inline void setName(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  crucible_testlib::state().checkerName = crucible_testlib::vformat(fmt, args);
  va_end(args);
}

/**
 * Start a checker: `checker <input> <output> <answer> [<result-file>]`. Opens `inf`, `ouf` and `ans`; a fifth
 * argument other than none is refused (testlib's -appes XML reports are not produced). Wrong arguments are a fail.
 */
inline void registerTestlibCmd(int argc, char *argv[]) {
  crucible_testlib::State &s = crucible_testlib::state();
  if (argc >= 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    std::fprintf(stderr, "%s\nUsage: %s <input-file> <output-file> <answer-file> [<result-file>]\n"
                         "Crucible's checker library (testlib's checker API).\n",
                 s.checkerName.c_str(), argv[0]);
    std::exit(0);
  }
  s.registered = true;
  std::atexit(&crucible_testlib::checkFinished);
  if (argc < 4 || argc > 5) {
    quit(_fail, "Program must be run with the following arguments: <input-file> <output-file> <answer-file> [<result-file>]");
  }
  if (argc == 5) s.resultFile = argv[4];
  inf.init(argv[1], _input);
  ouf.init(argv[2], _output);
  ans.init(argv[3], _answer);
}

#endif  // CRUCIBLE_TESTLIB_H
