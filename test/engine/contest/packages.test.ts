/**
 * guipenedo/piston's `codeforces` and `cms_ioi` packages behind Crucible's /api/v2/execute, on a real server and
 * sandbox: the run scripts' stdout/exit contract in the cases open-r1's scorers do not reach in the conformance
 * test (file input mode, no correct output, time-outs, runtime errors, a crashing checker, compile failures of
 * graders), the request errors, and SandboxFusion's /submit answering 501.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type ServerHandle } from '../../../src/server/index.js';
import { createLogger } from '../../../src/server/logging.js';
import { httpCall, type Answer } from '../../support/http.js';

let server: ServerHandle;

before(async () => {
  server = await startServer({ port: 0, slots: 2, logLevel: 'silent' }, { logger: createLogger('silent') });
});

after(async () => {
  await server.shutdown(1000);
});

const execute = (body: unknown): Promise<Answer> => httpCall(server.url, 'POST', '/api/v2/execute', body);
const cf = (files: { name: string; content: string }[], language = 'cf_python3'): Promise<Answer> =>
  execute({ language, version: '*', files, run_timeout: 20_000 });
const CONFIG = { name: 'grader_config', content: 'TIME_LIMIT=1\nMEMORY_LIMIT=256\nINPUT_MODE=stdio' };

describe('codeforces package', () => {
  test('runtimes list the package languages at version 1.0.0', async () => {
    const r = await httpCall(server.url, 'GET', '/api/v2/runtimes');
    const cxx = r.body.find((x: { language: string }) => x.language === 'c++17');
    assert.deepEqual(cxx, { language: 'c++17', version: '1.0.0', aliases: ['C++17 (GCC 7-32)', 'C++17 (GCC 9-64)', 'cf_c++17'] });
    assert.ok(r.body.some((x: { language: string; aliases: string[] }) => x.language === 'cms' && x.aliases.includes('cms_ioi')));
  });

  test('INPUT_MODE=file: input.txt in, output.txt out, stdout ignored', async () => {
    const solution = 'a, b = map(int, open("input.txt").read().split())\nprint("noise")\nopen("output.txt", "w").write(f"{a + b}\\n")\n';
    const r = await cf([{ name: 'main.python', content: solution }, { name: 'input.txt', content: '2 3\r\n' },
      { name: 'correct_output.txt', content: '5\n' }, { name: 'grader_config', content: 'TIME_LIMIT=1\nINPUT_MODE=file\n' }]);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.body.compile.code, r.body.run.code, r.body.run.stdout], [0, 0, '1\n']);
    assert.equal(r.body.compile.stdout, 'Skipping compile - python3\n');
  });

  test('without correct_output.txt the solution\'s output comes back, empty lines removed', async () => {
    const r = await cf([{ name: 'main.python', content: 'print(1)\nprint()\nprint(2)\n' }, { name: 'input.txt', content: '' }, CONFIG]);
    assert.deepEqual([r.body.run.code, r.body.run.stdout], [0, '1\n2\n']);
  });

  test('time limit, runtime error: 0 with the script\'s exit status and message', async () => {
    const tle = await cf([{ name: 'main.python', content: 'while True: pass\n' }, { name: 'input.txt', content: '' },
      { name: 'correct_output.txt', content: '1\n' }, CONFIG]);
    assert.deepEqual([tle.body.run.code, tle.body.run.stdout, tle.body.run.stderr], [124, '0\n', 'Time limit exceeded (1s)\n']);
    const re = await cf([{ name: 'main.python', content: 'import sys\nsys.exit(3)\n' }, { name: 'input.txt', content: '' },
      { name: 'correct_output.txt', content: '1\n' }, CONFIG]);
    assert.deepEqual([re.body.run.code, re.body.run.stdout, re.body.run.stderr], [3, '0\n', 'Runtime error with exit code 3\n']);
    const segv = await cf([{ name: 'main.cpp', content: 'int main(){ volatile int *p = 0; return *p; }' }, { name: 'input.txt', content: '' },
      { name: 'correct_output.txt', content: '1\n' }, CONFIG], 'c++17');
    assert.deepEqual([segv.body.run.code, segv.body.run.stdout], [139, '0\n']);
  });

  test('deep recursion runs, as under the script\'s `ulimit -s unlimited` (a plain run dies at the 8 MiB stack)', async () => {
    const deep = ['#include <cstdio>', 'int depth(int n) {', '  char pad[256];', '  asm volatile("" : : "r"(pad) : "memory");',
      '  if (n == 0) return 0;', '  int r = depth(n - 1) + 1;', '  asm volatile("" : : "r"(pad) : "memory");', '  return r;', '}',
      'int main() { std::printf("%d\\n", depth(200000)); }', ''].join('\n');
    const r = await cf([{ name: 'main.cpp', content: deep }, { name: 'input.txt', content: '' }, { name: 'correct_output.txt', content: '200000\n' },
      CONFIG], 'c++17');
    assert.deepEqual([r.body.run.code, r.body.run.stdout], [0, '1\n'], r.body.run.stderr);
    const plain = await execute({ language: 'cpp', version: '*', files: [{ content: deep }] });
    assert.equal(plain.body.run.signal, 'SIGSEGV', 'the premise: ~50 MiB of stack is past the default limit');
  });

  test('a crashing checker: 0 and its exit status, as the script, marked XX (a judge error) for callers that look', async () => {
    const r = await cf([{ name: 'main.python', content: 'print(5)\n' }, { name: 'input.txt', content: '' },
      { name: 'correct_output.txt', content: '5\n' }, { name: 'checker.py', content: 'raise SystemExit(2)\n' }, CONFIG]);
    assert.deepEqual([r.body.run.code, r.body.run.stdout, r.body.run.status], [2, '0\n', 'XX']);
    assert.match(r.body.run.message, /checker/);
  });

  test('a compile error stops before the run; the compiler speaks in compile.stderr', async () => {
    const r = await cf([{ name: 'main.cpp', content: 'int main( {' }, { name: 'input.txt', content: '' }, CONFIG], 'c++17');
    assert.notEqual(r.body.compile.code, 0);
    assert.match(r.body.compile.stderr, /error/);
    assert.equal(r.body.run.code, null);
  });

  test('a solution cannot see the correct output or forge the verdict line', async () => {
    const peek = await cf([{ name: 'main.python', content: 'print(open("correct_output.txt").read())\n' }, { name: 'input.txt', content: '' },
      { name: 'correct_output.txt', content: '5\n' }, CONFIG]);
    assert.deepEqual([peek.body.run.code, peek.body.run.stdout], [1, '0\n'], 'correct_output.txt is never in the solution\'s box');
    const forge = await cf([{ name: 'main.python', content: 'print(1)\n' }, { name: 'input.txt', content: '' },
      { name: 'correct_output.txt', content: '5\n' }, CONFIG]);
    assert.deepEqual([forge.body.run.code, forge.body.run.stdout], [0, '0\n']);
    const escape = await cf([{ name: 'main.python', content: 'print(5)' }, { name: '../input.txt', content: '' }, CONFIG]);
    assert.equal(escape.status, 400);
    assert.equal(escape.body.error.field, 'files[1].name');
  });

  test('a job without input.txt is a 400; plain python3 with one file is still Crucible\'s own run', async () => {
    const r = await cf([{ name: 'main.python', content: 'print(1)' }, CONFIG]);
    assert.equal(r.status, 400);
    assert.match(r.body.error.message, /input\.txt/);
    const plain = await execute({ language: 'python3', version: '*', files: [{ content: 'print(7)' }] });
    assert.deepEqual([plain.body.language, plain.body.run.stdout], ['python', '7\n']);
  });
});

describe('cms_ioi package', () => {
  const config = JSON.stringify({ task_type: 'Batch', code: 'sq', time_limit: 1, memory_limit: 268435456 });
  const grader = '#include "sq.h"\n#include <cstdio>\nint main(){ long long x; std::scanf("%lld", &x); std::printf("%lld\\n", sq(x)); }\n';
  const files = (solution: string, extra: { name: string; content: string }[] = []): { name: string; content: string }[] => [
    { name: 'graders/sq.cpp', content: solution }, { name: 'input.txt', content: '12\n' }, { name: 'correct_output.txt', content: '144\n' },
    { name: 'graders/grader.cpp', content: grader }, { name: 'graders/sq.h', content: 'long long sq(long long x);\n' },
    { name: 'graders/grader_config.json', content: config }, ...extra];
  const ioi = (f: { name: string; content: string }[]): Promise<Answer> => execute({ language: 'cms_ioi', version: '*', files: f, run_timeout: 4000 });

  test('Batch: diff says 1 or 0; a failed run prints 0 and exits 0, as the script', async () => {
    const ok = await ioi(files('#include "sq.h"\nlong long sq(long long x){ return x * x; }\n'));
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual([ok.body.compile.code, ok.body.run.code, ok.body.run.stdout], [0, 0, '1\n']);
    const wrong = await ioi(files('#include "sq.h"\nlong long sq(long long x){ return x + x; }\n'));
    assert.deepEqual([wrong.body.run.stdout, wrong.body.run.stderr], ['0\n', 'Output isn\'t correct (diff)\n']);
    const tle = await ioi(files('#include "sq.h"\nlong long sq(long long x){ for (volatile long long i = 0;; i++); }\n'));
    assert.deepEqual([tle.body.run.code, tle.body.run.stdout, tle.body.run.stderr], [0, '0\n', 'Time limit exceeded (1s)\n']);
  });

  test('a solution that does not link with the grader is a compile failure', async () => {
    const r = await ioi(files('int unrelated(){ return 1; }\n'));
    assert.equal(r.body.compile.code, 1);
    assert.match(r.body.compile.stderr, /Failed to compile sq/);
  });

  test('other task types print 0 and exit 1, as the script; a bad grader_config.json is a 400', async () => {
    const withConfig = (content: string): { name: string; content: string }[] => files('long long sq(long long x){ return x * x; }\n')
      .map((x) => x.name === 'graders/grader_config.json' ? { ...x, content } : x);
    const r = await ioi(withConfig(JSON.stringify({ task_type: 'OutputOnly', code: 'sq', time_limit: 1 })));
    assert.deepEqual([r.body.run.code, r.body.run.stdout, r.body.run.stderr], [1, '0\n', 'Unsupported task type "OutputOnly"\n']);
    const bad = await ioi(withConfig('{"task_type": "Batch"}'));
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /grader_config\.json: time_limit/);
  });

  test('Communication: a manager that does not compile is a compile failure; its stderr and score come back', async () => {
    const config = JSON.stringify({ task_type: 'Communication', code: 'sq', time_limit: 1 });
    const manager = '#include <cstdio>\nint main(int c, char **v){ FILE *to = std::fopen(v[2], "w"), *from = std::fopen(v[1], "r");'
      + ' long long x; std::scanf("%lld", &x); std::fprintf(to, "%lld\\n", x); std::fflush(to); long long y = 0;'
      + ' std::fscanf(from, "%lld", &y); std::printf("%s\\n", y == x * x ? "1" : "0"); std::fprintf(stderr, "manager saw %lld\\n", y); }\n';
    const stub = '#include "sq.h"\n#include <cstdio>\nint main(){ long long x; std::scanf("%lld", &x); std::printf("%lld\\n", sq(x)); }\n';
    const job = (solution: string, managerSource: string): { name: string; content: string }[] => [
      { name: 'graders/sq.cpp', content: solution }, { name: 'input.txt', content: '12\n' },
      { name: 'graders/stub.cpp', content: stub }, { name: 'graders/sq.h', content: 'long long sq(long long x);\n' },
      { name: 'graders/manager.cpp', content: managerSource }, { name: 'graders/grader_config.json', content: config }];
    const ok = await ioi(job('#include "sq.h"\nlong long sq(long long x){ return x * x; }\n', manager));
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual([ok.body.run.code, ok.body.run.stdout, ok.body.run.stderr], [0, '1\n', 'manager saw 144\n']);
    const broken = await ioi(job('#include "sq.h"\nlong long sq(long long x){ return x * x; }\n', 'int main( {'));
    assert.equal(broken.body.compile.code, 1);
    assert.match(broken.body.compile.stderr, /Could not compile manager/);
  });
});

describe('SandboxFusion /submit', () => {
  test('a well-formed SubmitRequest is 501 naming what Crucible serves; a malformed one is 400', async () => {
    const r = await httpCall(server.url, 'POST', '/submit', { dataset: 'humaneval_python', id: 0, completion: 'x', config: {} });
    assert.equal(r.status, 501);
    assert.equal(r.body.error.code, 'not_implemented');
    assert.match(r.body.error.message, /\/run_code/);
    assert.match(r.body.error.message, /humaneval_python/);
    const bad = await httpCall(server.url, 'POST', '/submit', { dataset: 'mbpp', completion: 'x', config: {} });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.field, 'id');
  });
});
