/**
 * Replay judging of HumanEval-X `script` problems (src/kinds/script/humaneval-x/replay.ts), in the real sandbox on real
 * dataset problems: the candidate's box records the test's calls of the entry point, a trusted box without the
 * candidate's code replays them into the same test. Per language: canonical solutions pass (random inputs, helper
 * functions of the prompt, every return shape the chosen problems have), broken ones fail, and the hack classes
 * fail — early exit 0, printing the end-of-tests marker after reading stdin, patching equality or the test's
 * helpers at run time, printing fake or malformed call records, disturbing the tests' random inputs.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { datasetHash } from '../../../../src/formats/index.js';
import type { Problem } from '../../../../src/formats/types.js';
import { callRecords, linkResults, resolveResults } from '../../../../src/kinds/script/humaneval-x/replay.js';
import { SCRIPT_MARKER } from '../../../../src/kinds/script/one-program.js';
import { HUMANEVAL_X_REPLAYS } from '../../../../src/kinds/script/humaneval-x/index.js';
import { LanguageRegistry } from '../../../../src/languages/registry.js';
import { createJudge } from '../../../../src/engine/factory.js';
import type { SampleStatus } from '../../../../src/verdict/index.js';
import {
  brokenCompletion, canonicalCompletion, humanEvalXPath, judgeCompletions, readHumanEvalX,
} from '../../../support/humaneval-x.js';

const languages = LanguageRegistry.load();
const judge = createJudge({ languages, cacheDir: null });
after(() => judge.close());

interface LanguageCase {
  /** HumanEval-X file suffix. */
  readonly suffix: string;
  /** Tasks whose canonical solution must pass and whose broken solution must fail. */
  readonly tasks: readonly string[];
  /** Hack name -> [task, completion, status, reason]. */
  readonly hacks: Readonly<Record<string, readonly [string, string, SampleStatus, RegExp]>>;
  /** Completions that must still pass: [task, completion]. */
  readonly passing?: Readonly<Record<string, readonly [string, string]>>;
}

const CASES: readonly LanguageCase[] = [
  {
    suffix: 'js',
    // 0: booleans; 1: arrays through JSON.stringify; 12: null vs undefined; 32: random inputs and the prompt's `poly`;
    // 38: random strings and the prompt's `encodeCyclic`; 111: an object (key order matters to JSON.stringify).
    tasks: ['JavaScript/0', 'JavaScript/1', 'JavaScript/12', 'JavaScript/32', 'JavaScript/38', 'JavaScript/111'],
    hacks: {
      'early process.exit(0)': ['JavaScript/0', '  process.exit(0)\n}\n', 'wrong_answer', /ended after 0 calls/],
      'the marker printed after reading the nonce from stdin': ['JavaScript/0',
        `  const n = require('fs').readFileSync(0, 'utf8');\n  process.stdout.write('${SCRIPT_MARKER} ' + n);\n  process.exit(0)\n}\n`,
        'wrong_answer', /printed to stdout|ended after 0 calls/],
      'JSON.stringify patched to make every comparison equal': ['JavaScript/1',
        '  JSON.stringify = () => \'same\'\n  return []\n}\n', 'wrong_answer', /tests failed on the program's recorded results/],
      'Array.prototype.toJSON patched': ['JavaScript/1',
        '  Array.prototype.toJSON = function () { return \'same\' }\n  return []\n}\n', 'wrong_answer', /malformed/],
      'a fake call record beside real ones': ['JavaScript/0',
        '  return true\n}\nconsole.log(\'CRUCIBLE-CALL 0 [[1],0.3] true\')\n', 'wrong_answer', /recorded twice/],
      'a malformed recorded result': ['JavaScript/0',
        '  return true\n}\nprocess.stdout.write(\'CRUCIBLE-CALL 0 [[1,2,3.9,4,5,2.2],0.3] {"$o":[["__proto__",1],["__proto__",2]]}\\n\')\n'
        + 'process.exit(0)\n', 'wrong_answer', /malformed recorded result/],
      'undefined where the test wants null': ['JavaScript/12', '  return strings.length ? strings[0] : undefined\n}\n',
        'wrong_answer', /tests failed/],
      // Issue #23 item 2: answering each call with the other side of the test's `===`, read from its own file, passed
      // with the test in the candidate's box; the box now holds prompt + completion + a driver, no test.
      'answers read from the test in its own file': ['JavaScript/0', [
        '  const src = require(\'fs\').readFileSync(__filename, \'utf8\')',
        '  const key = JSON.stringify([numbers, threshold])',
        '  const re = /\\(\\s*(\\[[^\\]]*\\])\\s*,\\s*([0-9.]+)\\s*\\)\\s*===\\s*(true|false)/g',
        '  for (let m = re.exec(src); m !== null; m = re.exec(src)) {',
        '    if (JSON.stringify([JSON.parse(m[1]), Number(m[2])]) === key) return m[3] === \'true\'',
        '  }',
        '  return false',
        '}',
        ''].join('\n'), 'wrong_answer', /tests failed on the program's recorded results/],
      'the tests\' random generator is not in the candidate\'s box': ['JavaScript/53', '  crucible_test_random()\n  return x + y\n}\n',
        'runtime_error', /exit code 1/],
    },
    passing: {
      'Math.random replaced (the tests draw from their own generator)': ['JavaScript/53', '  Math.random = () => 0\n  return x + y\n}\n'],
    },
  },
  {
    suffix: 'go',
    // 0: booleans; 22: []interface{} arguments, []int{} vs nil; 32: a fixed-seed generator and the prompt's `Poly`;
    // 38: a time-seeded generator; 112: [2]interface{}; 137: interface{} results of several dynamic types.
    tasks: ['Go/0', 'Go/22', 'Go/32', 'Go/38', 'Go/112', 'Go/137'],
    hacks: {
      'early os.Exit(0)': ['Go/0', '    crucible_os.Exit(0)\n    return false\n}\n', 'wrong_answer', /ended after 0 calls/],
      'os.Exit(0) from init, before the tests': ['Go/0', '    return false\n}\nfunc init() { crucible_os.Exit(0) }\n', 'wrong_answer',
        /ended after 0 calls/],
      'the marker printed after reading the nonce from stdin': ['Go/0', '    b := make([]byte, 64)\n    n, _ := crucible_os.Stdin.Read(b)\n'
        + `    crucible_os.Stdout.WriteString("${SCRIPT_MARKER} " + string(b[:n]))\n    crucible_os.Exit(0)\n    return false\n}\n`,
        'wrong_answer', /ended after 0 calls/],
      'a fake call record beside real ones': ['Go/0',
        '    return true\n}\nfunc init() { crucible_os.Stdout.WriteString("CRUCIBLE-CALL 0 [[1],0.3] true\\n") }\n', 'wrong_answer', /recorded twice/],
      'a recorded result that is not of the declared type': ['Go/53',
        '    return x + y\n}\nfunc init() { crucible_os.Stdout.WriteString("CRUCIBLE-CALL 0 [0,1] 1.5\\n"); crucible_os.Exit(0) }\n', 'wrong_answer',
        /malformed recorded result/],
      'a float64 where the test wants an int in an interface{}': ['Go/137',
        '    if x, ok := b.(int); ok {\n        return float64(x)\n    }\n    return b\n}\n', 'wrong_answer', /tests failed/],
    },
    passing: {
      'the global math/rand source used by the candidate (the tests draw from their own)': ['Go/53',
        '    rand.Intn(10)\n    return x + y\n}\n'],
      'the tests\' generator advanced by the candidate (the tests draw in the trusted box)': ['Go/53',
        '    crucible_test_rand.Int31n(1000)\n    return x + y\n}\n'],
      // Issue #23 item 2: the test's source (every expected literal) was in the program and readable in /artifact
      // during the run; a completion that answers wrong whenever it finds it now passes.
      'a completion that fails itself if the test\'s source is readable': ['Go/53', [
        '    src := ""',
        '    for _, p := range []string{"/artifact/main.go", "main.go", "/box/main.go", "/proc/self/cwd/main.go"} {',
        '        if b, err := crucible_os.ReadFile(p); err == nil {',
        '            src += string(b)',
        '        }',
        '    }',
        // The needle is built at run time, so that this completion's own text does not contain it.
        '    if strings.Contains(src, "Add(0, "+"1))") {',
        '        return -1',
        '    }',
        '    return x + y',
        '}',
        ''].join('\n')],
    },
  },
  {
    suffix: 'cpp',
    // 0: vector<float> arguments; 1: vector<string> through the test's `issame`; 10: a comment after the signature;
    // 32: rand() inputs and the prompt's `poly` (doubles); 52: `vector<int>l` (no space); 111: map<char,int>;
    // 22: a list of boost::any (int, double, char, string, empty) as the argument; 137: boost::any arguments and result.
    tasks: ['CPP/0', 'CPP/1', 'CPP/10', 'CPP/32', 'CPP/52', 'CPP/111', 'CPP/22', 'CPP/137'],
    hacks: {
      'early exit(0)': ['CPP/0', '    exit(0);\n}\n', 'wrong_answer', /ended after 0 calls/],
      // The test (and its any_cast) runs only in the trusted box, on the recorded result.
      'a double in the boost::any where the test casts to int': ['CPP/137', '    return boost::any(2.0);\n}\n', 'wrong_answer',
        /tests failed on the program's recorded results.*bad_any_cast/s],
      'a boost::any holding a type of the candidate\'s own': ['CPP/137',
        '    struct own { int x; };\n    return boost::any(own{2});\n}\n', 'wrong_answer', /tests failed on the program's recorded results.*bad_any_cast/s],
      'a recorded boost::any of a kind the tests do not cast to': ['CPP/137', '    std::printf("\\nCRUCIBLE-CALL 0 [{\\"$a\\":\\"int\\",\\"v\\":1},'
        + '{\\"$a\\":\\"int\\",\\"v\\":2}] {\\"$a\\":\\"other\\"}\\n");\n    std::fflush(stdout);\n    std::_Exit(0);\n}\n', 'wrong_answer',
        /tests failed on the program's recorded results/],
      'exit(0) from a static initialiser, before main': ['CPP/0', '    return false;\n}\nstatic int crucible_hack = (exit(0), 0);\n',
        'wrong_answer', /ended after 0 calls/],
      'the marker printed after reading the nonce from stdin': ['CPP/0',
        `    char b[256] = {0};\n    fgets(b, sizeof b, stdin);\n    printf("${SCRIPT_MARKER} %s", b);\n    exit(0);\n}\n`, 'wrong_answer',
        /ended after 0 calls/],
      'a non-template operator!= for the elements the test compares': ['CPP/1',
        '    vector<string> out;\n    int depth = 0;\n    for (char c : paren_string) {\n'
        + '        if (c == \'(\') { if (depth == 0) out.push_back(""); depth++; } else if (c == \')\') depth--;\n    }\n    return out;\n}\n'
        + 'bool operator!=(const string&, const string&) { return false; }\n', 'wrong_answer', /tests failed/],
      'a fake call record beside real ones': ['CPP/0',
        '    return true;\n}\nstatic int crucible_hack = (printf("CRUCIBLE-CALL 0 [[1],0.3] true\\n"), 0);\n', 'wrong_answer', /recorded twice/],
      'a recorded result out of the declared type\'s range': ['CPP/53',
        '    return x + y;\n}\nstatic int crucible_hack = (printf("CRUCIBLE-CALL 0 [0,1] 99999999999\\n"), exit(0), 0);\n', 'wrong_answer',
        /malformed recorded result/],
    },
    passing: {
      'rand() called by the candidate (the tests draw from their own generator)': ['CPP/53', '    rand();\n    return x + y;\n}\n'],
      'the tests\' generator advanced by the candidate (the tests draw in the trusted box)': ['CPP/53',
        '    crucible_replay::test_rand();\n    return x + y;\n}\n'],
      // Issue #23 item 2: the test's source (every expected literal) was in the program and readable in /artifact
      // during the run; a completion that answers wrong whenever it finds it now passes.
      'a completion that fails itself if the test\'s source is readable': ['CPP/53', [
        '    string src;',
        '    const char* paths[] = {"/artifact/main.cpp", "main.cpp", "/box/main.cpp", "/proc/self/cwd/main.cpp"};',
        '    for (const char* p : paths) {',
        '        FILE* g = fopen(p, "r");',
        '        if (g == nullptr) continue;',
        '        char b[4096];',
        '        size_t n;',
        '        while ((n = fread(b, 1, sizeof b, g)) > 0) src.append(b, n);',
        '        fclose(g);',
        '    }',
        // The needle is built at run time, so that this completion's own text does not contain it.
        '    return src.find(string("add(0, ") + "1) == 1") == string::npos ? x + y : -1;',
        '}',
        ''].join('\n')],
    },
  },
  {
    suffix: 'java',
    // 0: boolean, List<Double> arguments; 1: List<String>; 12: Optional<String>; 22: List<Object> arguments (Map.of(),
    // chars) and List<Integer>; 32: new Random(42) inputs and the prompt's `poly` (double); 38: a static Random of
    // the test's class and the prompt's `encodeCyclic` (String); 87: List<List<Integer>>; 90: Optional<Integer>;
    // 95: Map<Object, Object> arguments; 103, 125: Object results (String, Integer, List); 111: Map<String, Integer>;
    // 112: List<Object>; 136: List<Optional<Integer>>; 137: Optional<Object> compared with a literal by `==`;
    // 139: long; 162: `throws NoSuchAlgorithmException`.
    tasks: ['Java/0', 'Java/1', 'Java/12', 'Java/22', 'Java/32', 'Java/38', 'Java/87', 'Java/90', 'Java/95', 'Java/103', 'Java/111',
      'Java/112', 'Java/125', 'Java/136', 'Java/137', 'Java/139', 'Java/162'],
    hacks: {
      'early System.exit(0)': ['Java/0', '        System.exit(0);\n        return false;\n    }\n}\n', 'wrong_answer', /ended after 0 calls/],
      'System.exit(0) from a static initialiser, before the first call': ['Java/0', '        return false;\n    }\n    static { System.exit(0); }\n}\n',
        'wrong_answer', /ended after 0 calls/],
      'the marker printed after reading the nonce from stdin': ['Java/0', '        byte[] b = new byte[256];\n        int n = 0;\n'
        + '        try { n = System.in.read(b); } catch (java.io.IOException e) { }\n'
        + `        System.out.println("${SCRIPT_MARKER} " + new String(b, 0, Math.max(n, 0)).trim());\n`
        + '        System.exit(0);\n        return false;\n    }\n}\n',
        'wrong_answer', /ended after 0 calls/],
      'a returned List whose equals is always true': ['Java/1',
        '        return new ArrayList<String>() {\n            @Override public boolean equals(Object o) { return true; }\n        };\n    }\n}\n',
        'wrong_answer', /tests failed on the program's recorded results/],
      'an Object result whose equals is always true': ['Java/125',
        '        return new Object() {\n            @Override public boolean equals(Object o) { return true; }\n        };\n    }\n}\n',
        'wrong_answer', /malformed recorded result \(a value of a type that cannot be replayed/],
      'a fake call record beside real ones': ['Java/0',
        '        return true;\n    }\n    static { System.out.println("CRUCIBLE-CALL 0 [[1.0],0.3] true"); }\n}\n', 'wrong_answer', /recorded twice/],
      'a recorded result out of the declared type\'s range': ['Java/53',
        '        return x + y;\n    }\n    static { System.out.println("CRUCIBLE-CALL 0 [0,1] 99999999999"); System.exit(0); }\n}\n', 'wrong_answer',
        /malformed recorded result/],
      'a recorded result of another type than the declared one': ['Java/53',
        '        return x + y;\n    }\n    static { System.out.println("CRUCIBLE-CALL 0 [0,1] \\"1\\""); System.exit(0); }\n}\n', 'wrong_answer',
        /malformed recorded result/],
      // The tests' static Random is a field of the test's class, which is not in the candidate's box any more.
      'the tests\' random generator reseeded by the candidate': ['Java/38',
        '        CrucibleTests.rand.setSeed(1);\n        return encodeCyclic(encodeCyclic(s));\n    }\n}\n', 'compile_error', /rand/],
    },
    passing: {
      'a completion that fails itself if the test\'s source is readable': ['Java/53', [
        '        String src = "";',
        '        for (String p : new String[] {"/artifact/Main.java", "Main.java", "/box/Main.java", "/proc/self/cwd/Main.java"}) {',
        '            try { src += new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get(p))); } catch (Exception e) { }',
        '        }',
        // The needle is built at run time, so that this completion's own text does not contain it.
        '        return src.contains("s.add(0, " + "1) == 1") ? -1 : x + y;',
        '    }',
        '}',
        ''].join('\n')],
      'random numbers drawn by the candidate (the tests draw from their own generator)': ['Java/53',
        '        new Random().nextInt();\n        Math.random();\n        return x + y;\n    }\n}\n'],
    },
  },
  {
    suffix: 'rust',
    // 0: Vec<f32> and f32 arguments; 8: (i32, i32); 12: Option<String>; 21: Vec<f32>; 22: Vec<Box<dyn Any>> arguments;
    // 38: rand::random() inputs and `encode_cyclic`, a function of the canonical solution the test calls (recorded
    // too); 50: rand 0.7's gen_range(a, b) in the test; 53: rand::thread_rng() inputs; 95: a HashMap<&str, &str>
    // argument; 111: HashMap<char, i32>; 149: Vec<&str>; 137: &dyn Any arguments and a result of the completion's own
    // enum (`RtnType`), decoded into the canonical solution's.
    // 10: the test calls only `make_palindrome`, a function of the canonical solution; 32: the dataset's test is
    // commented out (no call to drive); 38, 50: two functions the candidate defines, composed by the test.
    tasks: ['Rust/0', 'Rust/8', 'Rust/10', 'Rust/12', 'Rust/21', 'Rust/22', 'Rust/32', 'Rust/38', 'Rust/50', 'Rust/53', 'Rust/95',
      'Rust/111', 'Rust/149', 'Rust/137'],
    hacks: {
      'early std::process::exit(0)': ['Rust/0', '    std::process::exit(0)\n}\n', 'wrong_answer', /ended after 0 calls/],
      'the marker printed after reading the nonce from stdin': ['Rust/0', '    let mut n = String::new();\n'
        + `    std::io::stdin().read_line(&mut n).unwrap();\n    println!("${SCRIPT_MARKER} {}", n.trim());\n    std::process::exit(0)\n}\n`,
        'wrong_answer', /ended after 0 calls/],
      'assert_eq! and assert! shadowed by macro_rules!': ['Rust/0', '    true\n}\nmacro_rules! assert_eq { ($($t:tt)*) => {} }\n'
        + 'macro_rules! assert { ($($t:tt)*) => {} }\n', 'wrong_answer', /tests failed on the program's recorded results/],
      'a fake call record beside real ones (from a test of its own, run first)': ['Rust/0',
        '    true\n}\n#[test]\nfn aaa() { println!("CRUCIBLE-CALL 0 [[1.0],0.3] true"); }\n', 'wrong_answer', /recorded twice/],
      'a recorded result out of the declared type\'s range': ['Rust/53',
        '    x + y\n}\n#[test]\nfn aaa() { println!("CRUCIBLE-CALL 0 [0,1] 99999999999"); std::process::exit(0); }\n', 'wrong_answer',
        /malformed recorded result/],
      'a recorded map with a repeated key': ['Rust/111', '    HashMap::new()\n}\n#[test]\nfn aaa() {\n'
        + '    println!("CRUCIBLE-CALL 0 [\\"a b b a\\"] {{\\"$m\\":[[\\"a\\",2],[\\"a\\",2]]}}");\n    std::process::exit(0);\n}\n',
        'wrong_answer', /malformed recorded result \(a repeated map key\)/],
      'an always-true PartialEq on the completion\'s own result enum': ['Rust/137', '    RtnType::Int(0)\n}\n'
        + '#[derive(Debug)]\npub enum RtnType<S, F, I> { String(S), Float(F), Int(I) }\n'
        + 'impl<S, F, I> PartialEq for RtnType<S, F, I> { fn eq(&self, _: &Self) -> bool { true } }\n', 'wrong_answer',
        /tests failed on the program's recorded results/],
      'a variant of the completion\'s enum the tests do not name': ['Rust/137', '    RtnType::Other\n}\n'
        + '#[derive(Debug, PartialEq)]\npub enum RtnType<S, F, I> { String(S), Float(F), Int(I), Other }\n', 'wrong_answer',
        /malformed recorded result \(a variant the tests do not name\)/],
      'a panic in the function': ['Rust/53', '    panic!("no")\n}\n', 'runtime_error', /panicked|exit/],
      // The driver sends decode_cyclic the candidate's own encoding (a reference to its earlier result), as the test did.
      'decode_cyclic that returns its argument, with an encode_cyclic of its own': ['Rust/38',
        '    s.to_string()\n}\npub fn encode_cyclic(s: &str) -> String {\n    s.chars().rev().collect()\n}\n', 'wrong_answer',
        /tests failed on the program's recorded results/],
      'a fake record of the second function, from a test of its own run first': ['Rust/38',
        '    s.to_string()\n}\npub fn encode_cyclic(s: &str) -> String {\n    s.to_string()\n}\n#[test]\nfn aaa() {\n'
        + '    println!("CRUCIBLE-CALL 0 [{{\\"$fn\\":\\"encode_cyclic\\"}},\\"abc\\"] \\"abc\\"");\n    std::process::exit(0);\n}\n',
        'wrong_answer', /recorded other arguments/],
      // Box<dyn Any> arguments are rebuilt with their dynamic types: a char is not an i32.
      'chars taken for integers in Vec<Box<dyn Any>>': ['Rust/22',
        '    values.iter().filter_map(|v| v.downcast_ref::<i32>().copied().or(v.downcast_ref::<char>().map(|c| *c as i32))).collect()\n}\n',
        'wrong_answer', /tests failed on the program's recorded results/],
    },
    passing: {
      'the tests\' generator advanced by the candidate (the tests draw in the trusted box)': ['Rust/53',
        '    rand::RngCore::next_u32(&mut crate::crucible_replay::test_rng());\n    x + y\n}\n'],
      'a completion that fails itself if the test\'s source is readable': ['Rust/53', [
        '    let mut src = String::new();',
        '    for p in ["/artifact/main.rs", "main.rs", "/box/main.rs", "/proc/self/cwd/main.rs"] {',
        '        src += &std::fs::read_to_string(p).unwrap_or_default();',
        '    }',
        // The needle is built at run time, so that this completion's own text does not contain it.
        '    if src.contains(&format!("{}{}", "add(0, ", "1) == 1")) { -1 } else { x + y }',
        '}',
        ''].join('\n')],
      'rand::thread_rng() used by the candidate (the tests draw from their own generator)': ['Rust/53',
        '    let _: u32 = rand::thread_rng().gen();\n    x + y\n}\n'],
      // As in the dataset's test (one process), only decode(encode(s)) == s is checked: the composition runs in the
      // candidate's box on the trusted inputs, with the candidate's own encoding.
      'a self-consistent encode_cyclic / decode_cyclic pair of its own': ['Rust/38',
        '    s.chars().rev().collect()\n}\npub fn encode_cyclic(s: &str) -> String {\n    s.chars().rev().collect()\n}\n'],
      'a completion that fails itself if the test\'s source is readable (&dyn Any arguments)': ['Rust/137', [
        '    let mut src = String::new();',
        '    for p in ["/artifact/main.rs", "main.rs", "/box/main.rs", "/proc/self/cwd/main.rs"] {',
        '        src += &std::fs::read_to_string(p).unwrap_or_default();',
        '    }',
        '    if src.contains(&format!("{}{}", "compare_one(&1, ", "&2)")) { return RtnType::Int(-1); }',
        '    let f = |x: &dyn Any| -> f64 {',
        '        if let Some(i) = x.downcast_ref::<i32>() { return *i as f64; }',
        '        if let Some(v) = x.downcast_ref::<f64>() { return *v; }',
        '        x.downcast_ref::<&str>().unwrap().replace(",", ".").parse().unwrap()',
        '    };',
        '    let t = |x: &dyn Any| -> RtnType<String, f64, i32> {',
        '        if let Some(i) = x.downcast_ref::<i32>() { return RtnType::Int(*i); }',
        '        if let Some(v) = x.downcast_ref::<f64>() { return RtnType::Float(*v); }',
        '        RtnType::String(x.downcast_ref::<&str>().unwrap().to_string())',
        '    };',
        '    if f(a) > f(b) { t(a) } else if f(a) < f(b) { t(b) } else { RtnType::String("None".to_string()) }',
        '}',
        '#[derive(Debug, PartialEq)]',
        'pub enum RtnType<S, F, I> { Empty(), String(S), Float(F), Int(I) }',
        ''].join('\n')],
    },
  },
];

describe('replay judging of HumanEval-X script problems', () => {
  it('reads call records in order and refuses repeated, out-of-order or malformed ones', () => {
    assert.deepEqual(callRecords('CRUCIBLE-CALL 0 [1,"a b"] [2]\nother\nCRUCIBLE-CALL 1 [] null\r\n'),
      { file: '[1,"a b"]\n[2]\n[]\nnull\n', count: 2, args: ['[1,"a b"]', '[]'], results: ['[2]', 'null'] });
    assert.match((callRecords('CRUCIBLE-CALL 0 [1] 2\nCRUCIBLE-CALL 0 [1] 2\n') as { error: string }).error, /recorded twice/);
    assert.match((callRecords('CRUCIBLE-CALL 1 [1] 2\n') as { error: string }).error, /out of order/);
    assert.match((callRecords('CRUCIBLE-CALL 0 [1] {\n') as { error: string }).error, /not JSON/);
    assert.match((callRecords('CRUCIBLE-CALL 0 1 2\n') as { error: string }).error, /malformed/);
  });

  it('sends an argument equal to an earlier result of another function as a reference, and resolves it', () => {
    const args = ['[{"$fn":"enc"},"abc"]', '[{"$fn":"dec"},"bca"]', '[{"$fn":"enc"},"bca"]', '[{"$fn":"dec"},"x",[1,"bca"]]'];
    const results = ['"bca"', '"abc"', '"cab"', '"y"'];
    // Call 2 passes "bca" too, but to the function whose result it was not: a reference only crosses functions.
    assert.deepEqual(linkResults(args, results),
      ['[{"$fn":"enc"},"abc"]', '[{"$fn":"dec"},{"$r":0}]', '[{"$fn":"enc"},"bca"]', '[{"$fn":"dec"},"x",[1,"bca"]]']);
    assert.deepEqual(linkResults(['[1,2]'], ['3']), ['[1,2]']);
    assert.equal(resolveResults('[{"$fn":"dec"},{"$r":0}]', ['"zzz"']), '[{"$fn":"dec"},"zzz"]');
    assert.equal(resolveResults('[{"$fn":"dec"},"{\\"$r\\":0}"]', []), '[{"$fn":"dec"},"{\\"$r\\":0}"]');
    assert.equal(resolveResults('[{"$fn":"dec"},{"$r":1}]', ['"a"']), undefined);
  });

  // Issue #23 item 2: the candidate's program of a driven replay holds no line of the test (only the program and a
  // driver); no problem keeps the test in the box (the last six Rust ones, with a second function or `dyn Any`
  // arguments, are driven too).
  it('keeps the test out of the candidate\'s program for every HumanEval-X problem', async () => {
    const kept: string[] = [];
    for (const suffix of ['js', 'cpp', 'go', 'java', 'rust']) {
      for (const p of await readHumanEvalX(suffix)) {
        if (p.kind !== 'script') continue;
        const r = HUMANEVAL_X_REPLAYS[p.language]!.prepare(p);
        assert.ok(r !== undefined, `${p.taskId} is replayed`);
        const candidate = r.candidateProgram(p.canonicalSolution ?? '');
        // Lines of the test that carry literals (a line the canonical solution shares with the test's helpers does not).
        const lines = p.test.split('\n').map((l) => l.trim()).filter((l) => l.length >= 25 && /["'\d]/.test(l) && candidate.includes(l));
        if (r.argumentPrograms === undefined) {
          kept.push(p.taskId);
          assert.match(candidate, /\bmod tests\b/, `${p.taskId}: the old scheme holds the test`);
        } else {
          assert.deepEqual(lines, [], `${p.taskId}: lines of the test in the candidate's program`);
        }
      }
    }
    assert.deepEqual(kept, []);
  });

  for (const c of CASES) {
    describe(c.suffix, () => {
      let problems: Problem[] | undefined;
      const problem = async (id: string): Promise<Problem> => {
        if (problems === undefined) {
          problems = await readHumanEvalX(c.suffix);
          judge.catalog.add(await datasetHash(humanEvalXPath(c.suffix)), problems);
        }
        const p = problems.find((q) => q.taskId === id);
        if (p === undefined) throw new Error(`no ${id}`);
        return p;
      };
      const path = humanEvalXPath(c.suffix);

      it(`canonical solutions pass and broken ones fail: ${c.tasks.join(', ')}`, async () => {
        const chosen = await Promise.all(c.tasks.map(problem));
        const ok = await judgeCompletions(judge, languages, path, chosen, canonicalCompletion);
        ok.forEach((v, i) => assert.equal(v.status, 'passed', `${c.tasks[i]}: ${JSON.stringify(v)}`));
        const broken = await judgeCompletions(judge, languages, path, chosen, brokenCompletion);
        broken.forEach((v, i) => assert.equal(v.passed, false, `${c.tasks[i]}: ${JSON.stringify(v)}`));
      });

      for (const [name, [task, completion, status, reason]] of Object.entries(c.hacks)) {
        it(`does not pass: ${name} (${status})`, async () => {
          const [v] = await judgeCompletions(judge, languages, path, [await problem(task)], () => completion);
          assert.equal(v!.passed, false, JSON.stringify(v));
          assert.equal(v!.status, status, JSON.stringify(v));
          assert.match(v!.reason ?? '', reason);
        });
      }
      for (const [name, [task, completion]] of Object.entries(c.passing ?? {})) {
        it(`still passes: ${name}`, async () => {
          const [v] = await judgeCompletions(judge, languages, path, [await problem(task)], () => completion);
          assert.equal(v!.status, 'passed', JSON.stringify(v));
        });
      }
    });
  }
});
