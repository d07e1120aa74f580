/**
 * R (MultiPL-E `humaneval_to_r.py`): the tests are `test_humaneval <- function() {`, `candidate <- <entry point>`,
 * then one `stopifnot(isTRUE(all.equal(candidate(...), <expected>)))` per case, then `test_humaneval()`. The
 * expected literals are `c(...)` (atomic vectors, `c()` is NULL), `list(...)` (mixed or nested lists), `list('k' = v)`
 * (dictionaries), `TRUE`/`FALSE`, `NULL`, numbers (doubles) and strings.
 *
 * `all.equal(target, current)` is mirrored like this (the serializer below):
 * - an atomic vector is always an array of its elements, so a length-1 vector and a "scalar" are the same thing
 *   (`c(4)` is `4`); logicals are booleans (TRUE never equals 1, as in all.equal), integers are JSON integers and
 *   doubles floats (`1L` equals `1`, as in all.equal), strings strings, NA is null;
 * - a list is an array of its elements' values, so `list(1, 2)` (`[[1],[2]]`) differs from `c(1, 2)` (`[1,2]`), as
 *   all.equal says ("Modes: list, numeric");
 * - NULL (and `c()`) is null, unequal to every vector and list, as all.equal says (`character(0)` is not `c()`);
 * - a value with names (a named list: MultiPL-E's dictionaries; a named vector) is an array of `[name, value]`
 *   pairs IN ORDER: all.equal compares the names attribute and the components positionally, so
 *   `list(a = 1, b = 2)` is not `list(b = 2, a = 1)`, and a named vector is not an unnamed one;
 * - numbers: all.equal's tolerance 1.5e-8 is kept as `|a - b| <= 1.5e-8 + 1.5e-8 * |b|` per element (all.equal
 *   takes the mean relative difference over the whole vector, and an absolute one when the target is near 0).
 * Not mirrored: empty vectors of different modes and `list()` all read `[]` (all.equal tells `list()` from
 * `character(0)`); other attributes (`dim`, a factor's levels and class) are dropped, a factor reads as its codes;
 * functions, environments and other non-vector values cannot be given (the candidate's run fails at that case); NaN
 * equals nothing (all.equal accepts NA and NaN in the same places), an NA is null.
 */
import { VALUE_TAG } from '../values.js';
import { callsOf, type SourceSyntax, type SplitTests, type ValueSplit } from '../split.js';

const R_SYNTAX: SourceSyntax = { quotes: ['"', '\''], lineComment: '#' };

/** R source (base only): `crucible_value_line(i, v)` writes `CRUCIBLE-VALUE i <json>` on a line of its own. */
const R_SERIALIZER = String.raw`
crucible_string <- function(s) {
  if (is.na(s)) return("null")
  codes <- utf8ToInt(enc2utf8(s))
  if (length(codes) == 1L && is.na(codes)) stop("a string that is not UTF-8 cannot be given as a value")
  chars <- vapply(codes, function(c) {
    if (c == 34L) "\\\"" else if (c == 92L) "\\\\" else if (c < 32L || c == 127L) sprintf("\\u%04x", c) else intToUtf8(c)
  }, "")
  paste0("\"", paste(chars, collapse = ""), "\"")
}
crucible_double <- function(x) {
  if (is.na(x) && !is.nan(x)) return("null")
  if (is.nan(x)) return("{\"$float\":\"nan\"}")
  if (x == Inf) return("{\"$float\":\"inf\"}")
  if (x == -Inf) return("{\"$float\":\"-inf\"}")
  s <- sprintf("%.17g", x)
  if (!grepl("[.eE]", s)) s <- paste0(s, ".0")
  s
}
crucible_json <- function(v, depth) {
  if (depth > 100L) stop("value nested too deeply")
  if (is.null(v)) return("null")
  if (is.list(v)) {
    items <- vapply(seq_along(v), function(i) crucible_json(v[[i]], depth + 1L), "")
  } else if (is.atomic(v)) {
    items <- switch(typeof(v),
      logical = ifelse(is.na(v), "null", ifelse(v, "true", "false")),
      integer = ifelse(is.na(v), "null", sprintf("%d", v)),
      double = vapply(as.vector(v), crucible_double, ""),
      character = vapply(as.vector(v), crucible_string, ""),
      stop("a ", typeof(v), " vector cannot be given as a value"))
  } else {
    stop("a ", typeof(v), " cannot be given as a value")
  }
  names <- names(v)
  if (!is.null(names)) items <- paste0("[", vapply(names, crucible_string, ""), ",", items, "]")
  paste0("[", paste(items, collapse = ","), "]")
}
crucible_value_line <- function(i, v) {
  cat("\n${VALUE_TAG} ", i, " ", crucible_json(v, 0L), "\n", sep = "")
  flush(stdout())
}
`;

/** MultiPL-E R split (see the module comment). */
export const R_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const binding = /^[ \t]*candidate\s*<-\s*[\w.]+[ \t]*$/m.exec(test);
    const checks = callsOf(test, 'stopifnot', R_SYNTAX);
    const calls = callsOf(test, 'all.equal', R_SYNTAX);
    if (binding === null || checks === undefined || calls === undefined || calls.length === 0 || checks.length !== calls.length
      || calls.some((args) => args.length !== 2)) return undefined;
    return { prelude: binding[0].trim(), cases: calls.map(([actual, expected]) => ({ actual: actual!, expected: expected! })) };
  },
  candidateProgram: ({ program, tests }) => [
    program, R_SERIALIZER, tests.prelude,
    ...tests.cases.map((c, i) => `crucible_value_line(${i}, (${c.actual}))`), '',
  ].join('\n'),
  expectedProgram: ({ tests }) => [
    R_SERIALIZER, ...tests.cases.map((c, i) => `crucible_value_line(${i}, (${c.expected}))`), '',
  ].join('\n'),
  tolerance: { absolute: 1.5e-8, relative: 1.5e-8 },
};
