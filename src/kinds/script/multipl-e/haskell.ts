/**
 * Haskell (MultiPL-E `humaneval_to_hs.py`): the tests are a `main = do` block binding `let candidate = <entry
 * point>` and checking `if candidate ... == <expected> then pure () else error "assertion failed"`, one case per
 * line, then `pure ()`. The prompt declares the function's type (`Int`, `Float`, `Bool`, `String`, lists, tuples,
 * `Maybe`, association lists for dicts) and ends at `name args =`; the expected values are literals of that type.
 *
 * `==` is the `Eq` instance of the return type; for the Prelude types the translator uses it is structural (lists
 * and tuples element by element, `Maybe`, `Bool`, `Char`, integers by value) and IEEE on `Float`/`Double` (NaN
 * differs from itself, 0.0 == -0.0). Both programs print a value with the same class of JSON writers, one
 * instance per type, so that equal values print equal text and unequal values unequal text:
 * - `Int`/`Integer` are integers (exact); `Bool` true/false; `()` null;
 * - `Float`/`Double` are floats with `show`'s shortest round-trip digits (distinct `Float`s give decimals that
 *   stay distinct as doubles; -0.0 reads equal to 0.0 as `==` has it), NaN and the infinities `$float`;
 * - `String` (a list of `Char`) is a JSON string, every character outside printable ASCII as `\u` escapes (a
 *   character beyond the BMP as its surrogate pair; two lone surrogate characters would read like that pair —
 *   no translated value has one); a `Char` is a one-character string;
 * - lists and tuples (of 2 to 4) are arrays; `Nothing` is null and `Just x` is x, except that a `Just` of a `Maybe`
 *   is `[x]` (so `Just Nothing` is not `Nothing`); `Left x`/`Right x` are `{"$map":[["Left",x]]}`/`["Right",x]`.
 * The expected program is the prompt with the body `undefined` and each expected literal typed as the candidate's
 * result (``expected `asTypeOf` candidate ...``, lazy in its second argument: the stub never runs), as the tests'
 * `==` types it. A value is forced whole before its line is written, so an exception inside it writes no partial
 * line. The writers use the Prelude only: a program cannot import after its first declaration.
 */
import { VALUE_TAG } from '../values.js';
import { splitTopLevel, type SourceSyntax, type SplitTests, type ValueSplit } from '../split.js';

/** Only `"` starts a literal the translator writes (`'` is also a character of Haskell identifiers). */
const HASKELL_SYNTAX: SourceSyntax = { quotes: ['"'], lineComment: '--' };

/** Haskell source (Prelude only): `crucibleValueLine i v` writes `CRUCIBLE-VALUE i <json>` on a line of its own. */
const HASKELL_SERIALIZER = String.raw`
class CrucibleValue crucibleA where
  crucibleJson :: crucibleA -> String
  crucibleJsonList :: [crucibleA] -> String
  crucibleJsonList xs = "[" ++ crucibleJoin (map crucibleJson xs) ++ "]"
  crucibleJsonJust :: crucibleA -> String
  crucibleJsonJust = crucibleJson

crucibleJoin :: [String] -> String
crucibleJoin [] = ""
crucibleJoin (s : rest) = s ++ concatMap (',' :) rest

crucibleHex :: Int -> String
crucibleHex n = "\\u" ++ [ "0123456789abcdef" !! ((n ${'`'}div${'`'} (16 ^ k)) ${'`'}mod${'`'} 16) | k <- [3, 2, 1, 0 :: Int] ]

crucibleChar :: Char -> String
crucibleChar c
  | c == '"' = "\\\""
  | c == '\\' = "\\\\"
  | n >= 32 && n < 127 = [c]
  | n > 65535 = crucibleHex (55296 + (n - 65536) ${'`'}div${'`'} 1024) ++ crucibleHex (56320 + (n - 65536) ${'`'}mod${'`'} 1024)
  | otherwise = crucibleHex n
  where n = fromEnum c

crucibleDouble :: Double -> String
crucibleDouble x
  | isNaN x = "{\"$float\":\"nan\"}"
  | isInfinite x = if x > 0 then "{\"$float\":\"inf\"}" else "{\"$float\":\"-inf\"}"
  | otherwise = show x

instance CrucibleValue Int where crucibleJson = show
instance CrucibleValue Integer where crucibleJson = show
instance CrucibleValue Bool where crucibleJson b = if b then "true" else "false"
instance CrucibleValue () where crucibleJson _ = "null"
instance CrucibleValue Double where crucibleJson = crucibleDouble
instance CrucibleValue Float where
  crucibleJson x
    | isNaN x || isInfinite x = crucibleDouble (if isNaN x then 0 / 0 else if x > 0 then 1 / 0 else -1 / 0)
    | otherwise = show x
instance CrucibleValue Char where
  crucibleJson c = crucibleJsonList [c]
  crucibleJsonList s = "\"" ++ concatMap crucibleChar s ++ "\""
instance CrucibleValue crucibleA => CrucibleValue [crucibleA] where crucibleJson = crucibleJsonList
instance CrucibleValue crucibleA => CrucibleValue (Maybe crucibleA) where
  crucibleJson Nothing = "null"
  crucibleJson (Just x) = crucibleJsonJust x
  crucibleJsonJust m = "[" ++ crucibleJson m ++ "]"
instance (CrucibleValue crucibleA, CrucibleValue crucibleB) => CrucibleValue (Either crucibleA crucibleB) where
  crucibleJson (Left x) = "{\"$map\":[[\"Left\"," ++ crucibleJson x ++ "]]}"
  crucibleJson (Right x) = "{\"$map\":[[\"Right\"," ++ crucibleJson x ++ "]]}"
instance (CrucibleValue crucibleA, CrucibleValue crucibleB) => CrucibleValue (crucibleA, crucibleB) where
  crucibleJson (a, b) = "[" ++ crucibleJoin [crucibleJson a, crucibleJson b] ++ "]"
instance (CrucibleValue crucibleA, CrucibleValue crucibleB, CrucibleValue crucibleC) => CrucibleValue (crucibleA, crucibleB, crucibleC) where
  crucibleJson (a, b, c) = "[" ++ crucibleJoin [crucibleJson a, crucibleJson b, crucibleJson c] ++ "]"
instance (CrucibleValue crucibleA, CrucibleValue crucibleB, CrucibleValue crucibleC, CrucibleValue crucibleD) => CrucibleValue (crucibleA, crucibleB, crucibleC, crucibleD) where
  crucibleJson (a, b, c, d) = "[" ++ crucibleJoin [crucibleJson a, crucibleJson b, crucibleJson c, crucibleJson d] ++ "]"

crucibleValueLine :: CrucibleValue crucibleA => Int -> crucibleA -> IO ()
crucibleValueLine i v =
  let text = crucibleJson v
  in if foldr seq True text then putStrLn ("\n${VALUE_TAG} " ++ show i ++ " " ++ text) else pure ()
`;

/** A case line of the tests: `if <actual> == <expected> then pure () else error "assertion failed"`. */
const CASE_LINE = /^[ \t]*if[ \t]+(.*?)[ \t]+then[ \t]+pure[ \t]*\(\)[ \t]+else[ \t]+error[ \t]+"assertion failed"[ \t]*$/gm;

/** The expected program's and the driver's `main`: the binding, then each case's value. */
function driver(prelude: string, values: readonly string[]): string {
  return ['', 'main :: IO ()', 'main = do', `  ${prelude}`, ...values.map((v, i) => `  crucibleValueLine ${i} (${v})`), '  pure ()', ''].join('\n');
}

/** MultiPL-E Haskell split (see the module comment). */
export const HASKELL_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const binding = /^main\s*=\s*do\s+(let\s+candidate\s*=\s*[\w.']+)[ \t]*$/m.exec(test);
    if (binding === null) return undefined;
    const cases: { actual: string; expected: string }[] = [];
    for (const m of test.matchAll(CASE_LINE)) {
      const parts = splitTopLevel(m[1]!, '==', HASKELL_SYNTAX);
      if (parts.length !== 2 || !/^candidate\b/.test(parts[0]!)) return undefined;
      cases.push({ actual: parts[0]!, expected: parts[1]! });
    }
    if (cases.length === 0 || cases.length !== test.split('"assertion failed"').length - 1) return undefined;
    return { prelude: binding[1]!, cases };
  },
  candidateProgram: ({ program, tests }) => [program, HASKELL_SERIALIZER, driver(tests.prelude, tests.cases.map((c) => c.actual))].join('\n'),
  expectedProgram: ({ prompt, tests }) => [
    `${prompt} undefined`, HASKELL_SERIALIZER,
    driver(tests.prelude, tests.cases.map((c) => `(${c.expected}) ${'`'}asTypeOf${'`'} (${c.actual})`)),
  ].join('\n'),
};
