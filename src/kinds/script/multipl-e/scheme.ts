/**
 * Scheme, run by Guile (MultiPL-E `humaneval_to_scm.py`): the tests are `(import (srfi srfi-64))`,
 * `(define candidate <entry point>)`, `(test-begin "HumanEval")`, one `(test-equal <call> <expected>)` per case,
 * `(test-end)`. The expected literals are `(list ...)` (lists and tuples), `(list (cons k v) ...)` (dictionaries:
 * association lists, compared in order), `#t`/`#f` (None is `#f` too), numbers and strings.
 *
 * SRFI-64's `test-equal` compares with `equal?`, whose numbers are compared by `eqv?`: an exact integer never equals
 * an inexact number (`(equal? 1 1.0)` is `#f`), and inexact numbers must be the same float. The serializer below
 * mirrors it: exact integers are JSON integers, every inexact real is a tagged array `["$inexact", <float>]` (so
 * `1` and `1.0` differ, `1.0` and `1.0` are equal), an exact fraction is `["$rational", "1/2"]`; lists are arrays;
 * a pair that is not a proper list (an association list's `(cons "a" 2)`) is `["$pair", car, cdr]`; vectors,
 * characters and symbols are tagged arrays (`["$vector", [...]]`, `["$char", "a"]`, `["$symbol", "a"]`), since
 * `equal?` tells them from lists and strings; `#f` is neither `'()` nor `0`. Not mirrored: `eqv?` holds `+nan.0`
 * equal to itself and `0.0` unequal to `-0.0` (here NaN equals nothing and `0.0` equals `-0.0`); hash tables,
 * procedures and other values cannot be given (the candidate's run fails at that case).
 */
import { VALUE_TAG } from '../values.js';
import type { SplitTests, ValueSplit } from '../split.js';
import { formsOf } from './sexpr.js';

/** Guile definitions: `(crucible-value-line i v)` writes `CRUCIBLE-VALUE i <json>` on a line of its own (UTF-8). */
const SCHEME_SERIALIZER = String.raw`
(define (crucible-json-string s)
  (string-append "\""
    (apply string-append
      (map (lambda (c)
             (let ((n (char->integer c)))
               (cond ((= n 34) "\\\"")
                     ((= n 92) "\\\\")
                     ((or (< n 32) (= n 127))
                      (let ((h (number->string n 16))) (string-append "\\u" (make-string (- 4 (string-length h)) #\0) h)))
                     (else (string c)))))
           (string->list s)))
    "\""))
(define (crucible-json-float x)
  (cond ((not (= x x)) "{\"$float\":\"nan\"}")
        ((and (> x 0) (= x (* 2 x))) "{\"$float\":\"inf\"}")
        ((and (< x 0) (= x (* 2 x))) "{\"$float\":\"-inf\"}")
        (else (number->string x))))
(define (crucible-json v depth)
  (if (> depth 100) (error "value nested too deeply"))
  (let* ((j (lambda (x) (crucible-json x (+ depth 1))))
         (items (lambda (xs) (if (null? xs) "" (apply string-append (j (car xs)) (map (lambda (x) (string-append "," (j x))) (cdr xs))))))
         (tagged (lambda (tag . parts) (apply string-append "[" (crucible-json-string tag) (append (map (lambda (p) (string-append "," p)) parts) (list "]"))))))
    (cond ((boolean? v) (if v "true" "false"))
          ((and (number? v) (exact? v) (integer? v)) (number->string v))
          ((and (real? v) (exact? v)) (tagged "$rational" (crucible-json-string (number->string v))))
          ((real? v) (tagged "$inexact" (crucible-json-float v)))
          ((string? v) (crucible-json-string v))
          ((list? v) (string-append "[" (items v) "]"))
          ((pair? v) (tagged "$pair" (j (car v)) (j (cdr v))))
          ((vector? v) (tagged "$vector" (string-append "[" (items (vector->list v)) "]")))
          ((char? v) (tagged "$char" (crucible-json-string (string v))))
          ((symbol? v) (tagged "$symbol" (crucible-json-string (symbol->string v))))
          ((unspecified? v) (tagged "$unspecified"))
          (else (error "this value cannot be given:" v)))))
(define (crucible-value-line i v)
  (let ((text (crucible-json v 0))
        (port (current-output-port)))
    (set-port-encoding! port "UTF-8")
    (display (string-append "\n${VALUE_TAG} " (number->string i) " " text "\n") port)
    (force-output port)))
`;

/** MultiPL-E Scheme split (see the module comment). */
export const SCHEME_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const binding = /^\(define\s+candidate\s+[^\s()[\]{}";]+\)[ \t]*$/m.exec(test);
    const forms = formsOf(test, 'test-equal');
    if (binding === null || forms === undefined || forms.length === 0
      || forms.some((data) => data.length !== 2 || !/^\(\s*candidate[\s)]/.test(data[0]!))) return undefined;
    return { prelude: binding[0], cases: forms.map(([actual, expected]) => ({ actual: actual!, expected: expected! })) };
  },
  candidateProgram: ({ program, tests }) => [
    program, SCHEME_SERIALIZER, tests.prelude, ...tests.cases.map((c, i) => `(crucible-value-line ${i} ${c.actual})`), '',
  ].join('\n'),
  expectedProgram: ({ tests }) => [
    SCHEME_SERIALIZER, ...tests.cases.map((c, i) => `(crucible-value-line ${i} ${c.expected})`), '',
  ].join('\n'),
};
