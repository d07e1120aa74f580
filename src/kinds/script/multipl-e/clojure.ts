/**
 * Clojure (MultiPL-E `humaneval_to_clj.py`): the tests are `(require '[clojure.test :refer [deftest is run-test]])`,
 * `(def candidate <entry point>)`, `(deftest test-humaneval (is (= <call> <expected>)) ...)`, `(run-test
 * test-humaneval)`. The expected literals are vectors `[...]` (lists and tuples), maps `{k v ...}` (dictionaries),
 * `true`/`false`, `nil`, numbers (longs and doubles) and strings.
 *
 * `clojure.core/=` is mirrored by the serializer below: every sequential collection (vector, list, lazy seq,
 * `java.util.List`) is an array, so a vector equals a list with the same elements, as `=` says; maps are `$map`
 * and sets `$set` (compared without order); `nil` is null. Numbers follow `=`'s categories: integers (Long,
 * Integer, BigInt, BigInteger: `1` equals `1N`) are JSON integers; a double or float is a tagged array
 * `["$double", <float>]`, so `1` never equals `1.0` (as `(= 1 1.0)` is false) and two doubles must be the same
 * float; ratios and BigDecimals are `["$ratio", "1/2"]` and `["$decimal", "1.5"]` (a BigDecimal by its value with
 * trailing zeros stripped); characters, keywords and symbols are tagged arrays too (`["$char", "a"]`, ...), since `=`
 * tells them from strings. Strings are written with every non-ASCII character escaped (`\uXXXX`), whatever the
 * JVM's output encoding. Not mirrored: a record equals a map with the same entries here (`=` says no); NaN equals
 * nothing (as with `=`); functions, Java arrays and other objects cannot be given (the candidate's run fails at
 * that case).
 */
import { VALUE_TAG } from '../values.js';
import type { SplitTests, ValueSplit } from '../split.js';
import { formsOf, sexprs } from './sexpr.js';

/** Clojure's whitespace: commas too. */
const CLOJURE_WHITESPACE = ' \t\r\n\f,';

/** Clojure definitions: `(crucible-value-line i v)` writes `CRUCIBLE-VALUE i <json>` on a line of its own. */
const CLOJURE_SERIALIZER = String.raw`
(require 'clojure.string)
(defn crucible-json-string [^String s]
  (let [sb (StringBuilder. "\"")]
    (doseq [c s]
      (let [n (int c)]
        (cond (= n 34) (.append sb "\\\"")
              (= n 92) (.append sb "\\\\")
              (or (< n 32) (> n 126)) (.append sb (format "\\u%04x" n))
              :else (.append sb c))))
    (.append sb "\"")
    (str sb)))
(defn crucible-json-double [x]
  (let [d (double x)]
    (cond (Double/isNaN d) "{\"$float\":\"nan\"}"
          (Double/isInfinite d) (if (pos? d) "{\"$float\":\"inf\"}" "{\"$float\":\"-inf\"}")
          :else (str d))))
(defn crucible-json [v depth]
  (when (> depth 100) (throw (Exception. "value nested too deeply")))
  (let [j (fn [x] (crucible-json x (inc depth)))
        items (fn [xs] (clojure.string/join "," (map j xs)))
        tagged (fn [tag & parts] (str "[" (crucible-json-string tag) (apply str (map (fn [p] (str "," p)) parts)) "]"))
        entries (fn [m] (clojure.string/join "," (map (fn [e] (str "[" (j (key e)) "," (j (val e)) "]")) m)))]
    (cond (nil? v) "null"
          (instance? Boolean v) (if v "true" "false")
          (or (instance? Long v) (instance? Integer v) (instance? Short v) (instance? Byte v)
              (instance? clojure.lang.BigInt v) (instance? java.math.BigInteger v)) (str v)
          (or (instance? Double v) (instance? Float v)) (tagged "$double" (crucible-json-double v))
          (ratio? v) (tagged "$ratio" (crucible-json-string (str v)))
          (decimal? v) (tagged "$decimal" (crucible-json-string (.toPlainString (.stripTrailingZeros ^java.math.BigDecimal v))))
          (string? v) (crucible-json-string v)
          (char? v) (tagged "$char" (crucible-json-string (str v)))
          (keyword? v) (tagged "$keyword" (crucible-json-string (subs (str v) 1)))
          (symbol? v) (tagged "$symbol" (crucible-json-string (str v)))
          (instance? java.util.Map v) (str "{\"$map\":[" (entries v) "]}")
          (instance? java.util.Set v) (str "{\"$set\":[" (items v) "]}")
          (or (sequential? v) (instance? java.util.List v)) (str "[" (items v) "]")
          :else (throw (Exception. (str "this value cannot be given: " (pr-str v)))))))
(defn crucible-value-line [i v]
  (let [text (crucible-json v 0)]
    (.write *out* (str "\n${VALUE_TAG} " i " " text "\n"))
    (flush)))
`;

/** MultiPL-E Clojure split (see the module comment). */
export const CLOJURE_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const binding = /^\(def\s+candidate\s+[^\s()[\]{}";]+\)[ \t]*$/m.exec(test);
    const forms = formsOf(test, 'is', CLOJURE_WHITESPACE);
    if (binding === null || forms === undefined || forms.length === 0) return undefined;
    const cases = [];
    for (const data of forms) {
      const inner = data.length === 1 && /^\(=\s/.test(data[0]!) ? sexprs(data[0]!.slice(1, -1), CLOJURE_WHITESPACE) : undefined;
      if (inner?.length !== 3 || !/^\(\s*candidate[\s),]/.test(inner[1]!)) return undefined;
      cases.push({ actual: inner[1]!, expected: inner[2]! });
    }
    return { prelude: binding[0], cases };
  },
  candidateProgram: ({ program, tests }) => [
    program, CLOJURE_SERIALIZER, tests.prelude, ...tests.cases.map((c, i) => `(crucible-value-line ${i} ${c.actual})`), '',
  ].join('\n'),
  expectedProgram: ({ tests }) => [
    CLOJURE_SERIALIZER, ...tests.cases.map((c, i) => `(crucible-value-line ${i} ${c.expected})`), '',
  ].join('\n'),
};
