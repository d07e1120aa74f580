/**
 * Racket (MultiPL-E `humaneval_to_rkt.py`): the prompt starts with `#lang racket`; the tests are
 * `(require rackunit)`, `(define (test-humaneval) (let (( candidate <entry point>)) (check-within <call> <expected>
 * 0.001) ...))`, `(test-humaneval)`. The expected literals are `(list ...)` (lists and tuples), `#hash((k . v) ...)`
 * (dictionaries), `#t`/`#f` (None is `#f` too), numbers and strings.
 *
 * rackunit's `check-within` is `equal?` except that two numbers inside the values are equal when they differ by at
 * most 0.001: so `tolerance` is 0.001 absolute, an exact integer equals a float within it, `1/2` equals `0.5` (an
 * exact fraction is given as a float), and two exact integers must be equal. `equal?` is mirrored by the
 * serializer below: lists are arrays; an immutable `equal?`-based hash table (what `#hash(...)` and `hash` make) is
 * a `$map`, compared without order; any other hash table (mutable from `make-hash`, or `eqv?`/`eq?`-based), which
 * `equal?` never finds equal to an immutable one, is a tagged array `["$mutable-hash-equal", {"$map": ...}]` (equal
 * only to the same kind); vectors, characters, symbols, improper pairs and `(void)` are tagged arrays
 * (`["$vector", [...]]`, `["$char", "a"]`, ...) since `equal?` tells them from lists and strings; booleans are not
 * numbers. Not mirrored: `+inf.0` equals `+inf.0` here (check-within's difference is NaN there); procedures,
 * structures and other values cannot be given (the candidate's run fails at that case).
 */
import { VALUE_TAG } from '../values.js';
import type { SplitTests, ValueSplit } from '../split.js';
import { formsOf } from './sexpr.js';

/** Racket (`#lang racket`) definitions: `(crucible-value-line i v)` writes `CRUCIBLE-VALUE i <json>` on a line of its own. */
const RACKET_SERIALIZER = String.raw`
(define (crucible-json-string s)
  (string-append "\""
    (apply string-append
      (for/list ([c (in-string s)])
        (let ([n (char->integer c)])
          (cond [(= n 34) "\\\""]
                [(= n 92) "\\\\"]
                [(or (< n 32) (= n 127))
                 (let ([h (number->string n 16)]) (string-append "\\u" (make-string (- 4 (string-length h)) #\0) h))]
                [else (string c)]))))
    "\""))
(define (crucible-json-float x)
  (cond [(not (= x x)) "{\"$float\":\"nan\"}"]
        [(= x +inf.0) "{\"$float\":\"inf\"}"]
        [(= x -inf.0) "{\"$float\":\"-inf\"}"]
        [else (number->string (real->double-flonum x))]))
(define (crucible-json v depth)
  (when (> depth 100) (error 'crucible "value nested too deeply"))
  (define (j x) (crucible-json x (add1 depth)))
  (define (items xs) (string-join (map j xs) ","))
  (define (tagged tag . parts) (string-append "[" (crucible-json-string tag) (apply string-append (map (lambda (p) (string-append "," p)) parts)) "]"))
  (cond [(boolean? v) (if v "true" "false")]
        [(exact-integer? v) (number->string v)]
        [(and (real? v) (exact? v)) (crucible-json-float (exact->inexact v))]
        [(real? v) (crucible-json-float v)]
        [(string? v) (crucible-json-string v)]
        [(list? v) (string-append "[" (items v) "]")]
        [(pair? v) (tagged "$pair" (j (car v)) (j (cdr v)))]
        [(vector? v) (tagged "$vector" (string-append "[" (items (vector->list v)) "]"))]
        [(hash? v)
         (let ([m (string-append "{\"$map\":["
                    (string-join (for/list ([(k x) (in-hash v)]) (string-append "[" (j k) "," (j x) "]")) ",") "]}")])
           (if (and (immutable? v) (hash-equal? v) (not (hash-weak? v)))
               m
               (tagged (string-append (if (immutable? v) "$hash-" "$mutable-hash-")
                                      (cond [(hash-equal? v) "equal"] [(hash-eqv? v) "eqv"] [else "eq"])
                                      (if (hash-weak? v) "-weak" ""))
                       m)))]
        [(char? v) (tagged "$char" (crucible-json-string (string v)))]
        [(symbol? v) (tagged "$symbol" (crucible-json-string (symbol->string v)))]
        [(void? v) (tagged "$void")]
        [else (error 'crucible "this value cannot be given: ~e" v)]))
(define (crucible-value-line i v)
  (let ([text (crucible-json v 0)])
    (write-string (string-append "\n${VALUE_TAG} " (number->string i) " " text "\n"))
    (flush-output)))
`;

/** MultiPL-E Racket split (see the module comment). */
export const RACKET_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const binding = /\(let\s*\(\(\s*candidate\s+([^\s()[\]{}";]+)\s*\)\)/.exec(test);
    const forms = formsOf(test, 'check-within');
    if (binding === null || forms === undefined || forms.length === 0 || forms.some((data) => data.length !== 3)) return undefined;
    return { prelude: binding[1]!, cases: forms.map(([actual, expected]) => ({ actual: actual!, expected: expected! })) };
  },
  // The prompt's `#lang racket` line comes first; the driver binds `candidate` as the tests do (a `let`).
  candidateProgram: ({ program, tests }) => [
    program, RACKET_SERIALIZER, `(let ([candidate ${tests.prelude}])`,
    ...tests.cases.map((c, i) => `  (crucible-value-line ${i} ${c.actual})`), '  (void))', '',
  ].join('\n'),
  expectedProgram: ({ tests }) => [
    '#lang racket', RACKET_SERIALIZER, ...tests.cases.map((c, i) => `(crucible-value-line ${i} ${c.expected})`), '',
  ].join('\n'),
  tolerance: { absolute: 0.001, relative: 0 },
};
