/**
 * SandboxFusion's language names on `POST /run_code` (issue #15 item 3): every accepted name runs a real program in
 * the sandbox with SandboxFusion's semantics (the test-runner modes report each test in stdout and fail through the
 * exit status), every refused name is a 400 saying why, `files` are placed beside the program (nested paths too, for
 * interpreted and compiled languages) and hostile paths are refused, and `fetch_files` is refused.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { SANDBOX_FUSION_LANGUAGES, SANDBOX_FUSION_REFUSED } from '../../src/server/sandbox-fusion.js';
import { MAX_FILES, MAX_FILES_BYTES } from '../../src/server/submission-files.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';
import { httpCall, type Answer } from '../support/http.js';

const TOKEN = 'test-token';
let server: ServerHandle;

before(async () => {
  server = await startServer({ port: 0, slots: 2, token: TOKEN, logLevel: 'silent' }, { logger: createLogger('silent') });
});

after(async () => {
  await server.shutdown(1000);
});

/** The payload verl's and the SDK's clients send, with generous timeouts (JVM compilers under a shared machine). */
function runCode(code: string, language: string, extra: Record<string, unknown> = {}): Promise<Answer> {
  return httpCall(server.url, 'POST', '/run_code', { compile_timeout: 60, run_timeout: 60, code, stdin: '', language,
    files: {}, fetch_files: [], ...extra }, { authorization: `Bearer ${TOKEN}` });
}

function explain(r: Answer): string {
  return JSON.stringify(r.body).slice(0, 3000);
}

const b64 = (text: string): string => Buffer.from(text).toString('base64');

const PYTEST = `
def add(a, b):
    return a + b

def test_small():
    assert add(1, 2) == 3

def test_negative():
    assert add(-1, -2) == $EXPECTED
`;

const GO_TEST = `package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func add(a, b int) int { return a + b }

func TestSmall(t *testing.T) { assert.Equal(t, 3, add(1, 2)) }
func TestNegative(t *testing.T) { assert.Equal(t, $EXPECTED, add(-1, -2)) }
`;

const JUNIT = `import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

public class AddTest {
    static int add(int a, int b) { return a + b; }
    @Test void small() { assertEquals(3, add(1, 2)); }
    @Test void negative() { assertEquals($EXPECTED, add(-1, -2)); }
}
`;

const D_UT = `import std.stdio;

int add(int a, int b) { return a + b; }

unittest {
    assert(add(1, 2) == 3);
    assert(add(-1, -2) == $EXPECTED);
}

void main() { writeln("main ran"); }
`;

const JEST = `import { add } from './lib/add';

const twice = (x: number): number => 2 * x;

describe('add', () => {
  test('small', () => {
    expect(add(1, 2)).toBe(3);
  });
  test('negative', () => {
    expect(add(-1, -2)).toBe($EXPECTED);
  });
});

test('twice', () => {
  expect(twice(21)).toEqual(42);
});
`;

/** The helper module the jest test imports, a TypeScript file among `files` (as SandboxFusion's tests ship them). */
const JEST_FILES = { 'lib/add.ts': b64('export function add(a: number, b: number): number {\n  return a + b;\n}\n') };

/** Where languages/jest.yaml's prepare step puts Jest; the boxes see it read-only. */
const JEST_HOME = '/usr/local/lib/crucible/jest-29.7.0';

describe('SandboxFusion test runners report every test; a failing test fails the run', () => {
  test('pytest: each test in the progress line and the summary; exit 1 when one fails', async () => {
    const pass = await runCode(PYTEST.replace('$EXPECTED', '-3'), 'pytest');
    assert.equal(pass.body.status, 'Success', explain(pass));
    assert.equal(pass.body.compile_result, null);
    assert.match(pass.body.run_result.stdout, /test_main\.py \.\. /);
    assert.match(pass.body.run_result.stdout, /2 passed/);
    const fail = await runCode(PYTEST.replace('$EXPECTED', '-4'), 'pytest');
    assert.equal(fail.body.status, 'Failed', explain(fail));
    assert.equal(fail.body.run_result.status, 'Finished');
    assert.equal(fail.body.run_result.return_code, 1);
    assert.match(fail.body.run_result.stdout, /FAILED test_main\.py::test_negative/);
    assert.match(fail.body.run_result.stdout, /assert -3 == -4/);
    assert.match(fail.body.run_result.stdout, /1 failed, 1 passed/);
    const none = await runCode('def helper():\n    return 1\n', 'pytest');
    assert.equal(none.body.status, 'Failed', 'no tests collected is exit status 5, as pytest says');
    assert.equal(none.body.run_result.return_code, 5);
  });

  test('go_test: --- PASS / --- FAIL per test (testify importable), exit 1 when one fails', async () => {
    const pass = await runCode(GO_TEST.replace('$EXPECTED', '-3'), 'go_test');
    assert.equal(pass.body.status, 'Success', explain(pass));
    assert.equal(pass.body.compile_result.return_code, 0);
    assert.match(pass.body.run_result.stdout, /--- PASS: TestSmall/);
    assert.match(pass.body.run_result.stdout, /--- PASS: TestNegative/);
    const fail = await runCode(GO_TEST.replace('$EXPECTED', '-4'), 'go_test');
    assert.equal(fail.body.status, 'Failed', explain(fail));
    assert.equal(fail.body.run_result.return_code, 1);
    assert.match(fail.body.run_result.stdout, /--- PASS: TestSmall/);
    assert.match(fail.body.run_result.stdout, /--- FAIL: TestNegative/);
    const broken = await runCode('package main\n\nfunc TestX(t *testing.T) {}\n', 'go_test');
    assert.equal(broken.body.status, 'Failed');
    assert.equal(broken.body.run_result, null, 'a test file that does not compile stops at the compile step');
    assert.match(broken.body.compile_result.stderr, /undefined: testing/);
  });

  test('junit: the console launcher\'s tree and counts; exit 1 when one fails', async () => {
    const pass = await runCode(JUNIT.replace('$EXPECTED', '-3'), 'junit');
    assert.equal(pass.body.status, 'Success', explain(pass));
    assert.match(pass.body.run_result.stdout, /small\(\) ✔/);
    assert.match(pass.body.run_result.stdout, /2 tests successful/);
    const fail = await runCode(JUNIT.replace('$EXPECTED', '-4'), 'junit');
    assert.equal(fail.body.status, 'Failed', explain(fail));
    assert.equal(fail.body.run_result.return_code, 1);
    assert.match(fail.body.run_result.stdout, /negative\(\) ✘ expected: <-4> but was: <-3>/);
    assert.match(fail.body.run_result.stdout, /1 tests successful/);
    assert.match(fail.body.run_result.stdout, /1 tests failed/);
  });

  test('jest: ✓ / ✕ per test and the counts on stderr (TypeScript, a helper module from files); exit 1 when one fails', async () => {
    const pass = await runCode(JEST.replace('$EXPECTED', '-3'), 'jest', { files: JEST_FILES });
    assert.equal(pass.body.status, 'Success', explain(pass));
    assert.equal(pass.body.compile_result, null);
    assert.equal(pass.body.run_result.return_code, 0);
    const passReport = pass.body.run_result.stderr as string;
    assert.match(passReport, /^PASS \.\/main\.test\.ts$/m);
    assert.match(passReport, /^ {4}✓ small/m);
    assert.match(passReport, /^ {4}✓ negative/m);
    assert.match(passReport, /^ {2}✓ twice/m);
    assert.match(passReport, /^Tests: {7}3 passed, 3 total$/m);
    assert.doesNotMatch(passReport, /\u001b\[/, 'no colours');
    const fail = await runCode(JEST.replace('$EXPECTED', '-4'), 'jest', { files: JEST_FILES });
    assert.equal(fail.body.status, 'Failed', explain(fail));
    assert.equal(fail.body.run_result.status, 'Finished');
    assert.equal(fail.body.run_result.return_code, 1);
    const failReport = fail.body.run_result.stderr as string;
    assert.match(failReport, /^FAIL \.\/main\.test\.ts$/m);
    assert.match(failReport, /^ {4}✓ small/m);
    assert.match(failReport, /^ {4}✕ negative/m);
    assert.match(failReport, /● add › negative/);
    assert.match(failReport, /Expected: -4\n\s*Received: -3/);
    assert.match(failReport, /^Tests: {7}1 failed, 2 passed, 3 total$/m);
    const missing = await runCode(JEST.replace('$EXPECTED', '-3'), 'jest');
    assert.equal(missing.body.status, 'Failed', 'without the helper module the test file cannot run');
    assert.match(missing.body.run_result.stderr, /Cannot find module '\.\/lib\/add'/);
    assert.match(missing.body.run_result.stderr, /^Test Suites: 1 failed, 1 total$/m);
  });

  test('jest: a hostile test file cannot overwrite Jest or reach the network', async () => {
    const jestFile = `${JEST_HOME}/node_modules/jest-circus/build/index.js`;
    const digest = (): string => createHash('sha256').update(readFileSync(jestFile)).digest('hex');
    const before = digest();
    const port = new URL(server.url).port;
    const hostile = `import * as fs from 'fs';
import * as net from 'net';

test('overwrite jest', () => {
  fs.writeFileSync('${jestFile}', 'test = () => {};');
});
test('overwrite the configuration', () => {
  fs.writeFileSync('${JEST_HOME}/jest.config.json', '{}');
});
test('reach the server on loopback', async () => {
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(${port}, '127.0.0.1', () => { socket.end(); resolve(); });
    socket.on('error', reject);
  });
});
`;
    const r = await runCode(hostile, 'jest');
    assert.equal(r.body.status, 'Failed', explain(r));
    const report = r.body.run_result.stderr as string;
    assert.match(report, /✕ overwrite jest/);
    assert.match(report, /✕ overwrite the configuration/);
    assert.match(report, /EROFS: read-only file system/);
    assert.match(report, /✕ reach the server on loopback/);
    assert.match(report, /ECONNREFUSED|ENETUNREACH/);
    assert.match(report, /^Tests: {7}3 failed, 3 total$/m);
    assert.equal(digest(), before, 'Jest on the host is unchanged');
    const after = await runCode(JEST.replace('$EXPECTED', '-3'), 'jest', { files: JEST_FILES });
    assert.equal(after.body.status, 'Success', explain(after));
  });

  test('D_ut: unittest blocks run before main; a failing one exits 1 and main does not run', async () => {
    const pass = await runCode(D_UT.replace('$EXPECTED', '-3'), 'D_ut');
    assert.equal(pass.body.status, 'Success', explain(pass));
    assert.equal(pass.body.run_result.stdout, 'main ran\n');
    const fail = await runCode(D_UT.replace('$EXPECTED', '-4'), 'D_ut');
    assert.equal(fail.body.status, 'Failed', explain(fail));
    assert.equal(fail.body.run_result.return_code, 1);
    assert.match(fail.body.run_result.stdout, /main\.d\(7\): \[unittest\] Assertion failure/);
    assert.doesNotMatch(fail.body.run_result.stdout, /main ran/);
  });
});

describe('SandboxFusion\'s other accepted names run real programs', () => {
  const programs: ReadonlyArray<readonly [string, string, string, string]> = [
    ['csharp', 'using System;\nclass Program { static void Main() { Console.WriteLine("sum " + (2 + Int32.Parse(Console.ReadLine()))); } }\n', '40\n', 'sum 42\n'],
    ['R', 'x <- as.integer(readLines(file("stdin"), n = 1))\ncat("sum", x + 2, "\\n")\n', '40\n', 'sum 42 \n'],
    ['scala', 'object Solution { def main(args: Array[String]): Unit = println("sum " + (scala.io.StdIn.readLine().toInt + 2)) }\n', '40\n', 'sum 42\n'],
    ['kotlin_script', 'val x = readLine()!!.toInt()\nprintln("sum ${x + 2}")\n', '40\n', 'sum 42\n'],
    ['racket', '#lang racket\n(displayln (format "sum ~a" (+ 2 (read))))\n', '40\n', 'sum 42\n'],
    ['sql', 'CREATE TABLE t (a INTEGER, b TEXT);\nINSERT INTO t VALUES (40, \'x\'), (2, \'y\');\nSELECT \'sum\', SUM(a) FROM t;\n', '', 'sum|42\n'],
    ['verilog', 'module tb;\n  reg [7:0] a = 40;\n  initial begin\n    $display("sum %0d", a + 2);\n    $finish;\n  end\nendmodule\n', '', 'sum 42\n'],
  ];
  for (const [language, code, stdin, expected] of programs) {
    test(`${language} -> ${SANDBOX_FUSION_LANGUAGES[language]}`, async () => {
      const r = await runCode(code, language, { stdin });
      assert.equal(r.status, 200, explain(r));
      assert.equal(r.body.status, 'Success', explain(r));
      assert.equal(r.body.run_result.stdout, expected);
      assert.equal(r.body.run_result.return_code, 0);
    });
  }

  test('errors keep SandboxFusion\'s shape: a failing kotlin_script assert, a SQL error, a Verilog compile error', async () => {
    const kts = await runCode('assert(1 + 1 == 3)\n', 'kotlin_script');
    assert.equal(kts.body.status, 'Failed', explain(kts));
    assert.notEqual(kts.body.run_result.return_code, 0);
    assert.match(kts.body.run_result.stderr, /AssertionError/);
    const sql = await runCode('SELECT * FROM missing;\nSELECT 1;\n', 'sql');
    assert.equal(sql.body.status, 'Failed', explain(sql));
    assert.match(sql.body.run_result.stderr, /no such table: missing/);
    assert.equal(sql.body.run_result.stdout, '', '-bail stops at the first error');
    const sv = await runCode('module tb;\n  initial $display("x")\nendmodule\n', 'verilog');
    assert.equal(sv.body.status, 'Failed', explain(sv));
    assert.equal(sv.body.run_result, null);
    assert.notEqual(sv.body.compile_result.return_code, 0);
  });

  test('every name of SandboxFusion\'s Language list is accepted or refused, none unknown', () => {
    const upstream = ['python', 'cpp', 'nodejs', 'go', 'go_test', 'java', 'php', 'csharp', 'bash', 'typescript', 'sql',
      'rust', 'cuda', 'lua', 'R', 'perl', 'D_ut', 'ruby', 'scala', 'julia', 'pytest', 'junit', 'kotlin_script', 'jest',
      'verilog', 'python_gpu', 'lean', 'swift', 'racket'];
    for (const name of upstream) {
      assert.ok((name in SANDBOX_FUSION_LANGUAGES) !== (name in SANDBOX_FUSION_REFUSED), name);
    }
  });
});

describe('refused names are a 400 that says why', () => {
  const why: Record<string, RegExp> = {
    cuda: /no GPU/, python_gpu: /no GPU/, julia: /Debian bookworm does not package/, swift: /Debian bookworm does not package/,
    lean: /Mathlib/,
  };
  for (const [language, reason] of Object.entries(why)) {
    test(language, async () => {
      const r = await runCode('x', language);
      assert.equal(r.status, 400);
      assert.equal(r.body.error.code, 'unsupported');
      assert.equal(r.body.error.field, 'language');
      assert.match(r.body.error.message, new RegExp(`"${language}" is not available`));
      assert.match(r.body.error.message, reason);
    });
  }
});

describe('files: placed in the working directory beside the program', () => {
  test('python reads a data file and imports a helper module from a subdirectory', async () => {
    const code = 'import sys\nsys.path.insert(0, "/box")\nfrom pkg.helper import double\n'
      + 'print(double(int(open("data/in.txt").read())))\n';
    const r = await runCode(code, 'python', { files: { 'data/in.txt': b64('21\n'), 'pkg/helper.py': b64('def double(x):\n    return 2 * x\n'),
      'pkg/__init__.py': b64(''), 'skipped.txt': null, 'x/IGNORE_THIS_FILE': b64('1') } });
    assert.equal(r.body.status, 'Success', explain(r));
    assert.equal(r.body.run_result.stdout, '42\n');
  });

  test('binary contents arrive byte for byte', async () => {
    const bytes = Buffer.from([0, 255, 1, 254, 10, 13]);
    const r = await runCode('print(list(open("blob.bin", "rb").read()))', 'python', { files: { 'blob.bin': bytes.toString('base64') } });
    assert.equal(r.body.run_result.stdout, '[0, 255, 1, 254, 10, 13]\n', explain(r));
  });

  test('a compiled program includes a header from files, and reads a file at run time', async () => {
    const code = '#include <cstdio>\n#include "lib/answer.h"\nint main() { FILE* f = std::fopen("in.txt", "r"); int x; '
      + 'std::fscanf(f, "%d", &x); std::printf("%d\\n", answer() + x); }\n';
    const r = await runCode(code, 'cpp', { files: { 'lib/answer.h': b64('inline int answer() { return 40; }\n'), 'in.txt': b64('2') } });
    assert.equal(r.body.status, 'Success', explain(r));
    assert.equal(r.body.run_result.stdout, '42\n');
    const other = await runCode(code, 'cpp', { files: { 'lib/answer.h': b64('inline int answer() { return 0; }\n'), 'in.txt': b64('2') } });
    assert.equal(other.body.run_result.stdout, '2\n', 'other files are another compilation, not the cached one');
  });

  test('junit compiles the other .java files of the submission with the test class', async () => {
    const code = 'import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n'
      + 'public class CalcTest {\n    @Test void adds() { assertEquals(42, Calc.add(40, 2)); }\n}\n';
    const r = await runCode(code, 'junit', { files: { 'Calc.java': b64('public class Calc { static int add(int a, int b) { return a + b; } }\n') } });
    assert.equal(r.body.status, 'Success', explain(r));
    assert.match(r.body.run_result.stdout, /adds\(\) ✔/);
  });
});

describe('files: hostile or malformed paths are refused with a 400 naming the file', () => {
  const refused: ReadonlyArray<readonly [string, RegExp]> = [
    ['/etc/passwd', /absolute path/],
    ['../escape.txt', /"\.\." component/],
    ['a/../../escape.txt', /"\.\." component/],
    ['a//b.txt', /empty or "\." component/],
    ['./a.txt', /empty or "\." component/],
    ['.hidden', /names starting with "\." are not accepted/],
    ['a/', /empty or "\." component/],
    ['a\\..\\b', /names are letters, digits/],
    ['nul\u0000byte', /names are letters, digits/],
    ['main.py', /writes the program itself as "main\.py"/],
    [`${'d/'.repeat(8)}deep.txt`, /more than 8 levels/],
    ['x'.repeat(256), /longer than 255 characters/],
  ];
  for (const [path, reason] of refused) {
    test(JSON.stringify(path.length > 40 ? `${path.slice(0, 40)}...` : path), async () => {
      const r = await runCode('print(1)', 'python', { files: { [path]: b64('x') } });
      assert.equal(r.status, 400, explain(r));
      assert.equal(r.body.error.code, 'invalid_body');
      assert.equal(r.body.error.field, `files.${path}`);
      assert.match(r.body.error.message, reason);
    });
  }

  test('invalid base64, a path that is both a file and a directory, too many files, too many bytes', async () => {
    const bad = await runCode('print(1)', 'python', { files: { 'a.txt': 'not base64!' } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /files\.a\.txt: the contents are not valid base64/);
    const clash = await runCode('print(1)', 'python', { files: { a: b64('x'), 'a/b.txt': b64('y') } });
    assert.equal(clash.status, 400);
    assert.match(clash.body.error.message, /files\.a: it is a file and also the directory of "a\/b\.txt"/);
    const many = Object.fromEntries(Array.from({ length: MAX_FILES + 1 }, (_, i) => [`f${i}.txt`, b64('x')]));
    const tooMany = await runCode('print(1)', 'python', { files: many });
    assert.equal(tooMany.status, 400);
    assert.match(tooMany.body.error.message, new RegExp(`at most ${MAX_FILES}`));
    const half = Buffer.alloc(MAX_FILES_BYTES / 2 + 1).toString('base64');
    const tooBig = await runCode('print(1)', 'python', { files: { 'a.bin': half, 'b.bin': half } });
    assert.equal(tooBig.status, 400);
    assert.match(tooBig.body.error.message, new RegExp(`files\\.b\\.bin: the files exceed ${MAX_FILES_BYTES} bytes`));
  });

  test('the program cannot reach outside its box through its files: a symlink it makes points inside the box', async () => {
    // The files are written before the program runs, into a fresh directory; what the program then does with
    // links stays in its own mount namespace (the host's /etc/shadow is not in the box).
    const code = 'import os\nos.symlink("/etc/shadow", "data/link")\nprint(os.path.exists("data/link"), open("data/in.txt").read())\n';
    const r = await runCode(code, 'python', { files: { 'data/in.txt': b64('ok') } });
    assert.equal(r.body.status, 'Success', explain(r));
    assert.equal(r.body.run_result.stdout, 'False ok\n');
  });
});

describe('fetch_files and args', () => {
  test('fetch_files is a 400 saying Crucible does not return files a program wrote', async () => {
    const r = await runCode('open("out.txt", "w").write("x")', 'python', { fetch_files: ['out.txt'] });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'unsupported');
    assert.equal(r.body.error.field, 'fetch_files');
    assert.match(r.body.error.message, /does not return files a program wrote/);
  });

  test('args is a 400', async () => {
    const r = await runCode('print(1)', 'python', { args: ['-v'] });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.field, 'args');
  });
});
