/**
 * Crucible's checker library (harness/checkers/testlib.h: testlib's checker API, written for Crucible), in the
 * real sandbox through `runChecker`: checkers in the style of Polygon's standard ones (token, number, line,
 * YES/NO, real with 1e-4 / 1e-6 / 1e-9 tolerance, case-insensitive compare; written for these tests in
 * test/fixtures/contest/checkers/polygon) on right and wrong outputs; the API's details (what a read accepts, which
 * verdict a reading error gives on each stream, extra output after ok, points, a checker without a verdict) through
 * one checker that the input file steers; and `CRUCIBLE_TESTLIB` pointing Crucible at a user's own testlib.h.
 * Each expected verdict is testlib's: docs/FORMATS.md ("Checkers") records how testlib's own checkers/*.cpp agree
 * when compiled against this header and against testlib.h itself.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CRUCIBLE_TESTLIB_PATH, defaultTestlibHeader, runChecker, type CheckerSpec, type CheckerVerdict,
} from '../../../src/engine/contest/index.js';
import { Executor } from '../../../src/engine/executor.js';
import { LanguageRegistry } from '../../../src/languages/registry.js';
import { Sandbox } from '../../../src/sandbox/index.js';
import { PROJECT_ROOT } from '../../../src/sandbox/paths.js';

const POLYGON = join(PROJECT_ROOT, 'test', 'fixtures', 'contest', 'checkers', 'polygon');
const source = (name: string): string => readFileSync(join(POLYGON, name), 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'crucible-testlib-'));

let sandbox: Sandbox;
let box: Executor;

before(() => {
  sandbox = Sandbox.create({ slots: 2 });
  box = new Executor(sandbox, LanguageRegistry.load());
});

after(async () => {
  await box.close();
  sandbox.close();
  rmSync(scratch, { recursive: true, force: true });
});

type Expected = CheckerVerdict['verdict'];

/** Run `spec` on (answer, output) with `input`, and check the verdict (and the message, when given). */
async function expectVerdict(spec: CheckerSpec, answer: string, output: string, verdict: Expected, message?: RegExp, input = ''): Promise<CheckerVerdict> {
  const got = await runChecker(box, spec, { input, answer, output });
  assert.equal(got.verdict, verdict, `${JSON.stringify(output)} against ${JSON.stringify(answer)}: ${got.message}`);
  if (message) assert.match(got.message, message);
  return got;
}

describe('Polygon-style checkers built on Crucible\'s testlib.h', () => {
  test('token compare: blanks do not matter, tokens do', async () => {
    const spec: CheckerSpec = { kind: 'testlib', source: source('tokens.cpp') };
    await expectVerdict(spec, 'hello world\n', 'hello world\n', 'ok', /^ok 2 token\(s\)/);
    await expectVerdict(spec, 'hello world\n', '  hello\n\n\tworld', 'ok');
    await expectVerdict(spec, 'hello world\n', 'hello World\n', 'wrong_answer', /2nd token: expected 'world', found 'World'/);
    await expectVerdict(spec, 'hello world\n', 'hello\n', 'wrong_answer', /ends after 1 token/);
    await expectVerdict(spec, 'hello world\n', 'hello world again\n', 'wrong_answer', /more than the answer/);
    await expectVerdict(spec, 'hello world\n', '', 'wrong_answer');
  });

  test('number compare: int64 sequences; a malformed number is a presentation error', async () => {
    const spec: CheckerSpec = { kind: 'testlib', source: source('numbers.cpp') };
    await expectVerdict(spec, '1 -2 9223372036854775807\n', '1\n-2\n9223372036854775807\n', 'ok');
    await expectVerdict(spec, '1 -2 3\n', '1 -2 4\n', 'wrong_answer', /3rd number: expected 3, found 4/);
    await expectVerdict(spec, '1 -2 3\n', '1 -2\n', 'wrong_answer', /the answer has 3 numbers, the output 2/);
    await expectVerdict(spec, '1 -2 3\n', '1 -2 3 4\n', 'wrong_answer', /the output has 4 numbers/);
    await expectVerdict(spec, '1 -2 3\n', '1 -2 three\n', 'presentation_error', /Expected integer, but "three" found/);
    await expectVerdict(spec, '1 -2 3\n', '01 -2 3\n', 'presentation_error', /"01"/);
    await expectVerdict(spec, '1 -2 3\n', '1 -2 9223372036854775808\n', 'presentation_error');
    // The jury's own answer cannot be read: the checker's fail, never the contestant's wrong answer.
    await expectVerdict(spec, '1 x\n', '1 2\n', 'fail', /Expected integer, but "x" found \(answer\.txt\)/);
  });

  test('line compare: the tokens of each line; extra lines after the answer\'s are a presentation error', async () => {
    const spec: CheckerSpec = { kind: 'testlib', source: source('lines.cpp') };
    await expectVerdict(spec, '1 2\n3\n', '1  2\n3', 'ok', /^ok 2 line\(s\)/);
    await expectVerdict(spec, '1 2\n3\n', '1 2\r\n3\r\n', 'ok');
    await expectVerdict(spec, '1 2\n3\n', '1 2 3\n', 'wrong_answer', /line 1: expected '1 2', found '1 2 3'/);
    await expectVerdict(spec, '1 2\n3\n', '1 2\n\n3\n', 'wrong_answer', /line 2/);
    await expectVerdict(spec, '1 2\n3\n', '1 2\n3\n4\n', 'presentation_error', /Extra information in the output file/);
  });

  test('YES/NO in any case; anything else from the contestant is a presentation error, from the jury a fail', async () => {
    const spec: CheckerSpec = { kind: 'testlib', source: source('yesno.cpp') };
    await expectVerdict(spec, 'YES\n', 'yes\n', 'ok');
    await expectVerdict(spec, 'no\n', 'No', 'ok');
    await expectVerdict(spec, 'YES\n', 'NO\n', 'wrong_answer', /expected YES, found NO/);
    await expectVerdict(spec, 'YES\n', 'maybe\n', 'presentation_error', /found 'MAYBE'/);
    await expectVerdict(spec, 'YES\n', '', 'presentation_error', /Unexpected end of file - token expected/);
    await expectVerdict(spec, 'YES\n', 'YES YES\n', 'presentation_error', /Extra information/);
    await expectVerdict(spec, 'perhaps\n', 'YES\n', 'fail');
  });

  test('real compare within 1e-4, 1e-6 and 1e-9, absolute or relative', async () => {
    const at = (tolerance: string): CheckerSpec => ({ kind: 'testlib', source: `#define TOLERANCE ${tolerance}\n${source('reals.cpp')}` });
    const answer = '1.0 1000000\n';
    await expectVerdict(at('1e-4'), answer, '1.00009 1000099', 'ok');
    await expectVerdict(at('1e-4'), answer, '1.0002 1000000', 'wrong_answer', /1st number/);
    await expectVerdict(at('1e-4'), answer, '1.0 1000200', 'wrong_answer', /2nd number/);
    await expectVerdict(at('1e-6'), answer, '1.0000009 1000000.9', 'ok');
    await expectVerdict(at('1e-6'), answer, '1.000002 1000000', 'wrong_answer');
    await expectVerdict(at('1e-6'), answer, '1 1e6', 'ok');
    await expectVerdict(at('1e-9'), answer, '1.0000000009 1000000.0009', 'ok');
    await expectVerdict(at('1e-9'), answer, '1.0 1000000.002', 'wrong_answer');
    await expectVerdict(at('1e-9'), answer, '1.0', 'presentation_error', /Unexpected end of file - double expected/);
    await expectVerdict(at('1e-9'), answer, 'nan 1000000', 'presentation_error', /Expected double, but "nan" found/);
  });

  test('case-insensitive compare; a token outside its pattern is a wrong answer', async () => {
    const spec: CheckerSpec = { kind: 'testlib', source: source('caseless.cpp') };
    await expectVerdict(spec, 'Hello World 42\n', 'hELLO\nworld 42', 'ok');
    await expectVerdict(spec, 'Hello World\n', 'hello there\n', 'wrong_answer', /2nd token: expected 'world', but found 'there'/);
    await expectVerdict(spec, 'Hello World\n', 'hello wor-ld\n', 'wrong_answer', /doesn't correspond to pattern "\[a-zA-Z0-9\]\+"/);
  });
});

describe('the checker API in detail (one checker, steered by its input)', () => {
  const spec: CheckerSpec = { kind: 'testlib', source: source('api.cpp') };
  const run = (what: string, output: string, answer = ''): Promise<CheckerVerdict> => runChecker(box, spec, { input: `${what}\n`, answer, output });
  const expect = async (what: string, output: string, verdict: Expected, message?: RegExp, answer = ''): Promise<CheckerVerdict> => {
    const got = await run(what, output, answer);
    assert.equal(got.verdict, verdict, `${what} on ${JSON.stringify(output)}: ${got.message}`);
    if (message) assert.match(got.message, message);
    return got;
  };

  test('integers: no "+", no leading zeros, no "-0", within their type; a range is a wrong answer', async () => {
    await expect('int', ' 42\n', 'ok', /^ok 42$/);
    await expect('int', '-2147483648', 'ok', /^ok -2147483648$/);
    for (const bad of ['007', '+5', '-0', '1.0', '1e3', 'abc']) await expect('int', bad, 'presentation_error', /Expected integer/);
    await expect('int', '2147483648', 'presentation_error', /Expected int32, but "2147483648" found/);
    await expect('int', '', 'presentation_error', /Unexpected end of file - int32 expected/);
    await expect('long', '-9223372036854775808', 'ok', /^ok -9223372036854775808$/);
    await expect('long', '9223372036854775808', 'presentation_error');
    await expect('int-range', '5', 'wrong_answer', /Integer parameter \[name=x\] equals to 5, violates the range \[1, 3\]/);
    await expect('ints', '1 2\n6', 'wrong_answer', /Integer element a\[3\] equals to 6, violates the range \[1, 5\]/);
    await expect('ints', '1\n2 5', 'ok', /^ok 5$/);
  });

  test('reals: decimal with an optional exponent; no nan, inf or hex; strict reals count their digits', async () => {
    for (const [text, shown] of [['1e5', '100000.0000'], ['.5', '0.5000'], ['5.', '5.0000'], ['+2', '2.0000'], ['-1.5E+2', '-150.0000'], ['00.5', '0.5000']]) {
      await expect('double', text!, 'ok', new RegExp(`^ok ${shown!.replace('.', '\\.')}$`));
    }
    for (const bad of ['nan', 'inf', '-inf', '0x10', '1,5', '.', 'e5', '1.2.3']) await expect('double', bad, 'presentation_error', /Expected double/);
    await expect('strict', '1.5', 'ok', /^ok 1\.50$/);
    await expect('strict', '-0.25', 'ok');
    for (const bad of ['1', '1.', '.5', '+0.5', '01.5', '-0.0', '1.125', '1e1']) await expect('strict', bad, 'presentation_error');
  });

  test('tokens, patterns and lines', async () => {
    await expect('word', ' a \n\n b\n', 'ok', /^ok \[a\]\[b\]$/);
    await expect('pattern', '-12', 'ok');
    await expect('pattern', '012', 'wrong_answer', /Token parameter \[name=n\] equals to "012", doesn't correspond to pattern/);
    // CR is dropped from lines; the last line needs no end of line.
    await expect('lines', 'a b\r\nc\rd', 'ok', /^ok \[a b\]\[cd\] 2$/);
    await expect('line-at-eof', 'only\n', 'ok', /^ok \[only\]\[\]$/);
  });

  test('ends of lines and files', async () => {
    // eoln() reads the end of line it finds: the next character is the next line's.
    await expect('eoln', '1\nx', 'ok', /^ok 1 120$/);
    await expect('eoln', '1 \n', 'ok', /^ok 0 32$/);
    await expect('read-eoln', '1\r\n2', 'ok');
    await expect('read-eoln', '1 2', 'presentation_error', /Expected EOLN/);
    await expect('read-eoln', '1\n2\n', 'presentation_error', /Expected EOF/);
    await expect('space', '1 2', 'ok');
    await expect('space', '1\n2', 'presentation_error', /Unexpected character #10, but ' ' expected/);
  });

  test('who is at fault: the output\'s reading errors and verdicts stand, the input\'s and the answer\'s are a fail', async () => {
    await expect('answer-int', '', 'fail', /Expected integer, but "abc" found \(answer\.txt\)/, 'abc');
    await expect('answer-wa', '', 'fail', /the answer says so \(answer\.txt\)/);
    await expect('output-wa', '', 'wrong_answer', /^wrong answer the output says so/);
    await expect('ensuref', '', 'fail', /FAIL a broken invariant 7/);
    await expect('ensure-output', '', 'wrong_answer', /Condition failed: "1 > 2"/);
    await expect('ok-with-rest', '1 2', 'presentation_error', /Extra information in the output file/);
    await expect('ok-with-rest', '1 \n\n', 'ok');
    await expect('no-verdict', '', 'fail', /without a verdict/);
    await expect('quitif', '3', 'wrong_answer', /too big/);
    await expect('quitif', '2', 'ok', /small/);
    await expect('expected', '4', 'wrong_answer', /^wrong answer case 1: expected '3', but found '4'$/);
  });

  test('points: "points <value>" with exit code 7; negative points are a fail; _pc(n) exits n', async () => {
    const half = await expect('points', '0.5', 'points', /^points 0\.5 scored 0\.50$/);
    assert.equal(half.score, 0.5);
    assert.equal(half.run?.exitCode, 7);
    assert.equal((await expect('points', '0.3333333333333', 'points')).score, 0.3333333333);
    assert.equal((await expect('points', '1', 'points', /^points 1\.0 /)).score, 1);
    await expect('points', '-0.5', 'fail', /points' can't be negative/);
    const partial = await run('partial', '');
    assert.equal(partial.run?.exitCode, 5);
    assert.match(partial.message, /partially correct \(5\) partially/);
  });

  test('helpers: englishEnding, upperCase, trim, pattern, format, doubleDelta, doubleCompare', async () => {
    await expect('helpers', '', 'ok', /^ok st th rd\|AB1\|a b\|100\|5-x\|0\.010 0\.500\|110$/);
  });
});

describe('which testlib.h a checker compiles against', () => {
  const marked = (marker: string): string => `${readFileSync(CRUCIBLE_TESTLIB_PATH, 'utf8')}\n#define HEADER_MARK "${marker}"\n`;
  const probe: CheckerSpec = {
    kind: 'testlib',
    source: '#include "testlib.h"\nint main(int argc, char *argv[]) { registerTestlibCmd(argc, argv);\n'
      + '#ifdef HEADER_MARK\n  quitf(_ok, "%s", HEADER_MARK);\n#else\n  quitf(_ok, "crucible");\n#endif\n}\n',
  };

  test('Crucible\'s own by default; CRUCIBLE_TESTLIB names a user\'s; a problem\'s own testlib.h wins over both', async () => {
    const saved = process.env['CRUCIBLE_TESTLIB'];
    try {
      delete process.env['CRUCIBLE_TESTLIB'];
      assert.equal(defaultTestlibHeader(), readFileSync(CRUCIBLE_TESTLIB_PATH, 'utf8'));
      await expectVerdict(probe, '', '', 'ok', /^ok crucible$/);
      const user = join(scratch, 'testlib.h');
      writeFileSync(user, marked('user'));
      process.env['CRUCIBLE_TESTLIB'] = user;
      await expectVerdict(probe, '', '', 'ok', /^ok user$/);
      await expectVerdict({ ...probe, testlibHeader: marked('problem') }, '', '', 'ok', /^ok problem$/);
      process.env['CRUCIBLE_TESTLIB'] = join(scratch, 'missing.h');
      assert.throws(() => defaultTestlibHeader(), /CRUCIBLE_TESTLIB: cannot read .*missing\.h/);
    } finally {
      if (saved === undefined) delete process.env['CRUCIBLE_TESTLIB'];
      else process.env['CRUCIBLE_TESTLIB'] = saved;
    }
  });
});
