/**
 * Go replay (HumanEval-X `Go/*`, `./replay.ts`). The prompt ends with the entry point's signature
 * (`func F(a int, b []int) int {`); the test's `func TestF(t *testing.T)` calls `F(…)` inside testify
 * `assert.Equal(expected, F(…))`, which compares with `ObjectsAreEqual` (`reflect.DeepEqual`): types matter
 * (`[]int{}` is not a nil slice, `2` is not `2.0` in an `interface{}`), so values travel with their Go types.
 *
 * The encoding (by reflection, the same code in both boxes) is JSON: booleans; integers and floats as numbers
 * (floats with round-trip precision, `{"$f": "NaN" | "+Inf" | "-Inf"}`); strings as JSON strings when valid UTF-8,
 * else `{"$x": "<hex bytes>"}`; nil slices and maps as null; slices and arrays as JSON arrays; maps as
 * `{"$m": [[k, v], ...]}` sorted by the encoded key (arguments must encode the same in both boxes); a value in an
 * interface as `{"$t": "<dynamic type>", "v": <value>}` (nil interface: null). Pointers, structs, functions and
 * channels cannot be recorded. The trusted decoder (`encoding/json` into a generic tree with `UseNumber`, then
 * reflection into the declared return type) accepts only those shapes, integers that fit the type, and dynamic
 * types from a fixed list of built-in types; anything else is a malformed record.
 *
 * Driven calls (`./replay.ts`): the test's calls are recorded with the canonical solution (else a stub returning the
 * result type's zero value) in a trusted box; the candidate's box holds setup + prompt + completion + a driver test
 * (`driver`) that decodes each argument list with the trusted decoder into the entry point's parameter types (by
 * reflection on the function value) and prints one record per call. A setup without testify's `assert` and
 * `testing` (none in HumanEval-X) keeps the older scheme (the test in the candidate's box).
 *
 * Random inputs: the test's calls of `math/rand`'s global functions go to a generator of the test's own, seeded
 * with 1 (so a candidate drawing from the global source does not change the inputs); `time.Now().UnixNano()` (a
 * seed in two tests) becomes a constant. In the candidate's box the test's `assert.New(t)` reports to a
 * sink (every HumanEval-X Go test asserts through it); the trusted box judges the recorded results with the same
 * assertions.
 */
import type { ScriptProblem } from '../../../formats/types.js';
import { assembleHumanEvalX } from './one-program.js';
import { CALL_TAG, REPLAY_ERROR_TAG, REPLAY_FILE, type ReplayProblem, type ReplaySplit } from './replay.js';
import { splitTopLevel } from '../split.js';

/** The entry point's signature ending the prompt: name, parameters, one result type. */
const ENTRY = /\bfunc\s+([A-Za-z_]\w*)\s*\(([^()]*)\)\s*([^(){}\s][^(){}]*(?:\{\})?[^(){}]*?)\s*\{\s*$/;

const IMPORTS = `import (
\tcrucible_hex "encoding/hex"
\tcrucible_json "encoding/json"
\tcrucible_math "math"
\tcrucible_rand "math/rand"
\tcrucible_reflect "reflect"
\tcrucible_sort "sort"
\tcrucible_strconv "strconv"
\tcrucible_strings "strings"
\tcrucible_utf8 "unicode/utf8"
\tcrucible_ros "os"
)
`;

/** The encoder (both boxes) and the tests' random generator. */
const ENCODER = `
var crucible_test_rand = crucible_rand.New(crucible_rand.NewSource(1))

type crucible_replay_error struct{ why string }

func crucible_enc(b []byte, v crucible_reflect.Value, depth int) []byte {
\tif depth > 200 {
\t\tpanic(crucible_replay_error{"a value nested too deeply to be recorded"})
\t}
\tswitch v.Kind() {
\tcase crucible_reflect.Invalid:
\t\treturn append(b, "null"...)
\tcase crucible_reflect.Bool:
\t\treturn crucible_strconv.AppendBool(b, v.Bool())
\tcase crucible_reflect.Int, crucible_reflect.Int8, crucible_reflect.Int16, crucible_reflect.Int32, crucible_reflect.Int64:
\t\treturn crucible_strconv.AppendInt(b, v.Int(), 10)
\tcase crucible_reflect.Uint, crucible_reflect.Uint8, crucible_reflect.Uint16, crucible_reflect.Uint32, crucible_reflect.Uint64, crucible_reflect.Uintptr:
\t\treturn crucible_strconv.AppendUint(b, v.Uint(), 10)
\tcase crucible_reflect.Float32, crucible_reflect.Float64:
\t\tf := v.Float()
\t\tif crucible_math.IsNaN(f) {
\t\t\treturn append(b, \`{"$f":"NaN"}\`...)
\t\t}
\t\tif crucible_math.IsInf(f, 0) {
\t\t\tif f > 0 {
\t\t\t\treturn append(b, \`{"$f":"+Inf"}\`...)
\t\t\t}
\t\t\treturn append(b, \`{"$f":"-Inf"}\`...)
\t\t}
\t\treturn crucible_strconv.AppendFloat(b, f, 'g', -1, v.Type().Bits())
\tcase crucible_reflect.String:
\t\ts := v.String()
\t\tif crucible_utf8.ValidString(s) {
\t\t\tj, _ := crucible_json.Marshal(s)
\t\t\treturn append(b, j...)
\t\t}
\t\treturn append(append(append(b, \`{"$x":"\`...), crucible_hex.EncodeToString([]byte(s))...), \`"}\`...)
\tcase crucible_reflect.Slice, crucible_reflect.Array:
\t\tif v.Kind() == crucible_reflect.Slice && v.IsNil() {
\t\t\treturn append(b, "null"...)
\t\t}
\t\tb = append(b, '[')
\t\tfor i := 0; i < v.Len(); i++ {
\t\t\tif i > 0 {
\t\t\t\tb = append(b, ',')
\t\t\t}
\t\t\tb = crucible_enc(b, v.Index(i), depth+1)
\t\t}
\t\treturn append(b, ']')
\tcase crucible_reflect.Map:
\t\tif v.IsNil() {
\t\t\treturn append(b, "null"...)
\t\t}
\t\tentries := make([]string, 0, v.Len())
\t\titer := v.MapRange()
\t\tfor iter.Next() {
\t\t\te := append([]byte{'['}, crucible_enc(nil, iter.Key(), depth+1)...)
\t\t\te = append(append(e, ','), crucible_enc(nil, iter.Value(), depth+1)...)
\t\t\tentries = append(entries, string(append(e, ']')))
\t\t}
\t\tcrucible_sort.Strings(entries)
\t\treturn append(append(append(b, \`{"$m":[\`...), crucible_strings.Join(entries, ",")...), "]}"...)
\tcase crucible_reflect.Interface:
\t\tif v.IsNil() {
\t\t\treturn append(b, "null"...)
\t\t}
\t\tt, _ := crucible_json.Marshal(v.Elem().Type().String())
\t\tb = append(append(append(b, \`{"$t":\`...), t...), \`,"v":\`...)
\t\treturn append(crucible_enc(b, v.Elem(), depth+1), '}')
\t}
\tpanic(crucible_replay_error{"a value of type " + v.Type().String() + " cannot be recorded"})
}

func crucible_enc_args(ptrs []interface{}) string {
\tb := []byte{'['}
\tfor i, p := range ptrs {
\t\tif i > 0 {
\t\t\tb = append(b, ',')
\t\t}
\t\tb = crucible_enc(b, crucible_reflect.ValueOf(p).Elem(), 0)
\t}
\treturn string(append(b, ']'))
}
`;

/** The candidate's recorder runtime. */
const RECORDER = `
var crucible_record_k = 0

// The test's assertions in the candidate's box report here, to no effect: the trusted box judges.
type crucible_quiet_t struct{}

func (crucible_quiet_t) Errorf(string, ...interface{}) {}

func crucible_record_write(args string, result interface{}) {
\tline := "\\n${CALL_TAG} " + crucible_strconv.Itoa(crucible_record_k) + " " + args + " " + string(crucible_enc(nil, crucible_reflect.ValueOf(result).Elem(), 0)) + "\\n"
\tcrucible_record_k++
\tcrucible_ros.Stdout.WriteString(line)
}
`;

/** The trusted replay runtime: records from the file, arguments checked, results decoded into the declared type. */
const REPLAYER = `
var crucible_replay_lines []string
var crucible_replay_k = 0
var crucible_replay_loaded = false

func crucible_replay_fail(why string) {
\tcrucible_ros.Stderr.WriteString("${REPLAY_ERROR_TAG} " + why + "\\n")
\tcrucible_ros.Exit(3)
}

func crucible_cut(s string) string {
\tif len(s) > 200 {
\t\treturn s[:200] + "…"
\t}
\treturn s
}

var crucible_dynamic_types = func() map[string]crucible_reflect.Type {
\tm := map[string]crucible_reflect.Type{}
\tfor _, v := range []interface{}{int(0), int8(0), int16(0), int32(0), int64(0), uint(0), uint8(0), uint16(0), uint32(0), uint64(0),
\t\tfloat32(0), float64(0), "", false, []interface{}{}, []int{}, []string{}, []float64{}, []bool{}, [][]int{}, []int32{},
\t\tmap[interface{}]interface{}{}, map[string]int{}, map[string]interface{}{}, map[string]string{}, map[int]int{}, map[rune]int{},
\t\t[2]interface{}{}, [2]int{}, [2]float64{}, [2]string{}} {
\t\tt := crucible_reflect.TypeOf(v)
\t\tm[t.String()] = t
\t}
\treturn m
}()

func crucible_dec(j interface{}, t crucible_reflect.Type, depth int) crucible_reflect.Value {
\tbad := func(what string) { panic(crucible_replay_error{what + " where a " + t.String() + " was expected"}) }
\tif depth > 200 {
\t\tbad("a value nested too deeply")
\t}
\tv := crucible_reflect.New(t).Elem()
\tobj, isObj := j.(map[string]interface{})
\tswitch t.Kind() {
\tcase crucible_reflect.Bool:
\t\tx, ok := j.(bool)
\t\tif !ok {
\t\t\tbad("not a boolean")
\t\t}
\t\tv.SetBool(x)
\tcase crucible_reflect.Int, crucible_reflect.Int8, crucible_reflect.Int16, crucible_reflect.Int32, crucible_reflect.Int64:
\t\tn, ok := j.(crucible_json.Number)
\t\tx, err := crucible_strconv.ParseInt(string(n), 10, t.Bits())
\t\tif !ok || err != nil {
\t\t\tbad("not an integer of this size")
\t\t}
\t\tv.SetInt(x)
\tcase crucible_reflect.Uint, crucible_reflect.Uint8, crucible_reflect.Uint16, crucible_reflect.Uint32, crucible_reflect.Uint64, crucible_reflect.Uintptr:
\t\tn, ok := j.(crucible_json.Number)
\t\tx, err := crucible_strconv.ParseUint(string(n), 10, t.Bits())
\t\tif !ok || err != nil {
\t\t\tbad("not an unsigned integer of this size")
\t\t}
\t\tv.SetUint(x)
\tcase crucible_reflect.Float32, crucible_reflect.Float64:
\t\tif isObj && len(obj) == 1 {
\t\t\tswitch obj["$f"] {
\t\t\tcase "NaN":
\t\t\t\tv.SetFloat(crucible_math.NaN())
\t\t\tcase "+Inf":
\t\t\t\tv.SetFloat(crucible_math.Inf(1))
\t\t\tcase "-Inf":
\t\t\t\tv.SetFloat(crucible_math.Inf(-1))
\t\t\tdefault:
\t\t\t\tbad("an unknown float tag")
\t\t\t}
\t\t\treturn v
\t\t}
\t\tn, ok := j.(crucible_json.Number)
\t\tx, err := crucible_strconv.ParseFloat(string(n), t.Bits())
\t\tif !ok || err != nil {
\t\t\tbad("not a number")
\t\t}
\t\tv.SetFloat(x)
\tcase crucible_reflect.String:
\t\tif s, ok := j.(string); ok {
\t\t\tv.SetString(s)
\t\t\treturn v
\t\t}
\t\th, ok := obj["$x"].(string)
\t\tbs, err := crucible_hex.DecodeString(h)
\t\tif !isObj || len(obj) != 1 || !ok || err != nil {
\t\t\tbad("not a string")
\t\t}
\t\tv.SetString(string(bs))
\tcase crucible_reflect.Slice, crucible_reflect.Array:
\t\tif j == nil && t.Kind() == crucible_reflect.Slice {
\t\t\treturn v
\t\t}
\t\titems, ok := j.([]interface{})
\t\tif !ok || (t.Kind() == crucible_reflect.Array && len(items) != t.Len()) {
\t\t\tbad("not a list of the right length")
\t\t}
\t\tif t.Kind() == crucible_reflect.Slice {
\t\t\tv = crucible_reflect.MakeSlice(t, len(items), len(items))
\t\t}
\t\tfor i, x := range items {
\t\t\tv.Index(i).Set(crucible_dec(x, t.Elem(), depth+1))
\t\t}
\tcase crucible_reflect.Map:
\t\tif j == nil {
\t\t\treturn v
\t\t}
\t\tentries, ok := obj["$m"].([]interface{})
\t\tif !isObj || len(obj) != 1 || !ok {
\t\t\tbad("not a map")
\t\t}
\t\tv = crucible_reflect.MakeMapWithSize(t, len(entries))
\t\tfor _, e := range entries {
\t\t\tkv, ok := e.([]interface{})
\t\t\tif !ok || len(kv) != 2 {
\t\t\t\tbad("a malformed map entry")
\t\t\t}
\t\t\tk := crucible_dec(kv[0], t.Key(), depth+1)
\t\t\tif v.MapIndex(k).IsValid() {
\t\t\t\tbad("a repeated map key")
\t\t\t}
\t\t\tv.SetMapIndex(k, crucible_dec(kv[1], t.Elem(), depth+1))
\t\t}
\tcase crucible_reflect.Interface:
\t\tif j == nil {
\t\t\treturn v
\t\t}
\t\tname, ok := obj["$t"].(string)
\t\tdyn, known := crucible_dynamic_types[name]
\t\tif !isObj || len(obj) != 2 || !ok || !known || !dyn.Implements(t) {
\t\t\tbad("not a value of a known type")
\t\t}
\t\tinner, ok := obj["v"]
\t\tif !ok {
\t\t\tbad("a tagged value without its value")
\t\t}
\t\tv.Set(crucible_dec(inner, dyn, depth+1))
\tdefault:
\t\tbad("a type replay cannot give")
\t}
\treturn v
}

func crucible_replay_call(args []interface{}, result interface{}) {
\tif !crucible_replay_loaded {
\t\tcrucible_replay_loaded = true
\t\tdata, err := crucible_ros.ReadFile("${REPLAY_FILE}")
\t\tif err != nil {
\t\t\tcrucible_replay_fail("the call records cannot be read: " + err.Error())
\t\t}
\t\tcrucible_replay_lines = crucible_strings.Split(string(data), "\\n")
\t\tcrucible_replay_lines = crucible_replay_lines[:len(crucible_replay_lines)-1]
\t}
\tcalls := len(crucible_replay_lines) / 2
\tk := crucible_replay_k
\tmine := crucible_enc_args(args)
\tif k >= calls {
\t\tcrucible_replay_fail("call " + crucible_strconv.Itoa(k+1) + " " + crucible_cut(mine) + ": the program's run ended after " + crucible_strconv.Itoa(calls) + " calls")
\t}
\tif crucible_replay_lines[2*k] != mine {
\t\tcrucible_replay_fail("call " + crucible_strconv.Itoa(k+1) + ": the program's run diverged from the tests (it was called with " + crucible_cut(crucible_replay_lines[2*k]) + ", the tests pass " + crucible_cut(mine) + ")")
\t}
\tfunc() {
\t\tdefer func() {
\t\t\tif r := recover(); r != nil {
\t\t\t\tif e, ok := r.(crucible_replay_error); ok {
\t\t\t\t\tcrucible_replay_fail("call " + crucible_strconv.Itoa(k+1) + ": a malformed recorded result (" + e.why + ")")
\t\t\t\t}
\t\t\t\tpanic(r)
\t\t\t}
\t\t}()
\t\td := crucible_json.NewDecoder(crucible_strings.NewReader(crucible_replay_lines[2*k+1]))
\t\td.UseNumber()
\t\tvar j interface{}
\t\tif err := d.Decode(&j); err != nil || d.More() {
\t\t\tpanic(crucible_replay_error{"not JSON"})
\t\t}
\t\tout := crucible_reflect.ValueOf(result).Elem()
\t\tout.Set(crucible_dec(j, out.Type(), 0))
\t}()
\tcrucible_replay_k++
}

func crucible_replay_finish() {
\tif crucible_replay_k != len(crucible_replay_lines)/2 {
\t\tcrucible_replay_fail("the program's run recorded " + crucible_strconv.Itoa(len(crucible_replay_lines)/2) + " calls, the tests made " + crucible_strconv.Itoa(crucible_replay_k))
\t}
}
`;

/**
 * The candidate's driver (the test's place in the assembly): one test function that reads one argument list per
 * stdin line, decodes it as data with the trusted decoder into the entry point's parameter types (by reflection on
 * the function value; a variadic last parameter as its slice), calls the entry point on each in order and prints
 * one record per call, then exits 0 (the assembly's end-of-tests test is never reached: nothing here decides a
 * verdict). Arguments are written before the call, as the recording box writes them. `keep` keeps the setup's
 * imports used (the test that used them is not in this box).
 */
function driver(entry: string, keep: string): string {
  return `${keep}var _ = assert.Equal

func TestCrucibleDrive(t *testing.T) {
\tvar crucible_in []byte
\tcrucible_buf := make([]byte, 65536)
\tfor {
\t\tn, err := crucible_ros.Stdin.Read(crucible_buf)
\t\tcrucible_in = append(crucible_in, crucible_buf[:n]...)
\t\tif err != nil {
\t\t\tbreak
\t\t}
\t}
\tcrucible_f := crucible_reflect.ValueOf(${entry})
\tcrucible_ft := crucible_f.Type()
\tcrucible_lines := crucible_strings.Split(string(crucible_in), "\\n")
\tfor _, crucible_line := range crucible_lines[:len(crucible_lines)-1] {
\t\td := crucible_json.NewDecoder(crucible_strings.NewReader(crucible_line))
\t\td.UseNumber()
\t\tvar j interface{}
\t\titems, ok := j.([]interface{})
\t\tif err := d.Decode(&j); err == nil && !d.More() {
\t\t\titems, ok = j.([]interface{})
\t\t}
\t\tif !ok || len(items) != crucible_ft.NumIn() {
\t\t\tcrucible_ros.Stderr.WriteString("undecodable arguments\\n")
\t\t\tcrucible_ros.Exit(3)
\t\t}
\t\tcrucible_args := make([]crucible_reflect.Value, len(items))
\t\tb := []byte{'['}
\t\tfor i, x := range items {
\t\t\tcrucible_args[i] = crucible_dec(x, crucible_ft.In(i), 0)
\t\t\tif i > 0 {
\t\t\t\tb = append(b, ',')
\t\t\t}
\t\t\tb = crucible_enc(b, crucible_args[i], 0)
\t\t}
\t\tb = append(b, ']')
\t\tvar crucible_out []crucible_reflect.Value
\t\tif crucible_ft.IsVariadic() {
\t\t\tcrucible_out = crucible_f.CallSlice(crucible_args)
\t\t} else {
\t\t\tcrucible_out = crucible_f.Call(crucible_args)
\t\t}
\t\tcrucible_result := crucible_reflect.New(crucible_ft.Out(0))
\t\tcrucible_result.Elem().Set(crucible_out[0])
\t\tcrucible_record_write(string(b), crucible_result.Interface())
\t}
\tcrucible_ros.Exit(0)
}
`;
}

/** Names of the parameters in a Go parameter list (`a, b int, c []string`), or undefined when unnamed. */
function parameterNames(params: string): { readonly names: string[]; readonly variadic: boolean } | undefined {
  if (params.trim() === '') return { names: [], variadic: false };
  const parts = splitTopLevel(params, ',', { quotes: ['"', '`'] });
  const names: string[] = [];
  let variadic = false;
  for (const [i, part] of parts.entries()) {
    const m = /^([A-Za-z_]\w*)(?:\s+(\S[\s\S]*))?$/.exec(part);
    if (m === null) return undefined;
    names.push(m[1]!);
    if (m[2]?.startsWith('...') === true) {
      if (i !== parts.length - 1) return undefined;
      variadic = true;
    }
  }
  // A last part without a type would be a list of types only (unnamed parameters).
  if (!/\s/.test(parts[parts.length - 1]!)) return undefined;
  return { names, variadic };
}

/** A use of each package a HumanEval-X Go setup may import for the completion (`var _ = …` keeps it used). */
const SETUP_SYMBOLS: Readonly<Record<string, string>> = {
  'math/rand': 'var _ = rand.Intn', time: 'var _ = time.Now', math: 'var _ = math.Abs', strings: 'var _ = strings.Contains',
  'crypto/md5': 'var _ = md5.Sum', strconv: 'var _ = strconv.Itoa', fmt: 'var _ = fmt.Sprint', sort: 'var _ = sort.Ints',
};

/** Packages a test may use that its setup does not import (the Go assembly's `import_used` list). */
const TEST_PACKAGES = ['math', 'strings', 'fmt', 'strconv', 'time', 'bytes', 'regexp', 'sort', 'math/rand', 'crypto/md5'];

/** The test rewritten for replay: calls of `entry` to `target`, the tests' randomness made fixed. */
function rewriteTest(test: string, entry: string, target: string): string {
  return test
    .replace(new RegExp(`(?<![\\w.])${entry}(?=\\s*\\()`, 'g'), target)
    .replace(/\btime\.Now\(\)\.UnixNano\(\)/g, 'time.Duration(42).Nanoseconds()')
    .replace(/(?<![\w.])rand\.(Int|Intn|Int31|Int31n|Int63|Int63n|Float64|Float32|Perm|Shuffle|Uint32|Uint64)\s*\(/g, 'crucible_test_rand.$1(');
}

/** HumanEval-X Go replay (see the module comment). */
export const GO_REPLAY: ReplaySplit = {
  prepare(problem: ScriptProblem): ReplayProblem | undefined {
    const m = ENTRY.exec(problem.prompt);
    if (m === null) return undefined;
    const [, entry, params, result] = m as unknown as [string, string, string, string];
    const parsed = parameterNames(params);
    if (parsed === undefined || result.includes(',')) return undefined;
    const setup = problem.setup ?? '';
    const target = `crucible_record_${entry}`;
    // The rewritten test may no longer name packages the setup imports for it: keep them used.
    const keep = [['"math/rand"', 'var _ = rand.Intn'], ['"time"', 'var _ = time.Now']]
      .filter(([pkg]) => setup.includes(pkg!)).map(([, line]) => `${line}\n`).join('');
    const test = `${rewriteTest(problem.test, entry, target)}\n${keep}`;
    // The trusted program has no completion: the setup's packages only the completion used must stay used, and
    // packages the test uses but only a completion's use would have imported (`import_used`) are imported here.
    const trustedKeep = Object.entries(SETUP_SYMBOLS).filter(([pkg]) => setup.includes(`"${pkg}"`) && !keep.includes(`${SETUP_SYMBOLS[pkg]}\n`))
      .map(([, line]) => `${line}\n`).join('');
    const promptCode = problem.prompt.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
    const testImports = TEST_PACKAGES.filter((pkg) => {
      const word = new RegExp(`(?<![\\w.])${pkg.split('/').pop()!}\\.`);
      return !setup.includes(`"${pkg}"`) && word.test(problem.test) && !word.test(promptCode);
    }).map((pkg) => `import "${pkg}"\n`).join('');
    const pointers = `[]interface{}{${parsed.names.map((n) => `&${n}`).join(', ')}}`;
    const call = `${entry}(${parsed.names.join(', ')}${parsed.variadic ? '...' : ''})`;
    const recorder = `\nfunc ${target}(${params}) ${result} {\n\tcrucible_args := crucible_enc_args(${pointers})\n`
      + `\tcrucible_result := ${call}\n\tcrucible_record_write(crucible_args, &crucible_result)\n\treturn crucible_result\n}\n`;
    const stub = `\nfunc ${target}(${params}) ${result} {\n\tvar crucible_result ${result}\n`
      + `\tcrucible_replay_call(${pointers}, &crucible_result)\n\treturn crucible_result\n}\n`;
    const trustedProgram = assembleHumanEvalX('go', {
      setup,
      program: `${IMPORTS}${testImports}${ENCODER}${REPLAYER}${problem.prompt}\n\tpanic("replaced by the replay stub")\n}\n${stub}`,
      test: `${test}${trustedKeep}\nfunc TestZzzzCrucibleReplayEnd(t *testing.T) {\n\tcrucible_replay_finish()\n}\n`,
    });
    const recording = (program: string): string => assembleHumanEvalX('go', { setup, program: `${IMPORTS}${ENCODER}${RECORDER}${program}\n${recorder}`,
      test: test.replace(/\bassert\.New\(\s*t\s*\)/g, 'assert.New(crucible_quiet_t{})') });
    if (!/"github\.com\/stretchr\/testify\/assert"/.test(setup) || !/"testing"/.test(setup)) {
      return { entryPoint: entry, candidateProgram: recording, trustedProgram };
    }
    const setupKeep = Object.entries(SETUP_SYMBOLS).filter(([pkg]) => setup.includes(`"${pkg}"`)).map(([, line]) => `${line}\n`).join('');
    const argumentPrograms = [
      ...(problem.canonicalSolution === undefined ? [] : [recording(problem.prompt + problem.canonicalSolution)]),
      recording(`${problem.prompt}\n\tvar crucible_zero ${result}\n\treturn crucible_zero\n}\n`),
    ];
    return {
      entryPoint: entry,
      candidateProgram: (program) => assembleHumanEvalX('go', { setup,
        program: `${IMPORTS}${ENCODER}${REPLAYER}${RECORDER}${program}\n`, test: driver(entry, setupKeep) }),
      trustedProgram,
      argumentPrograms,
    };
  },
};
