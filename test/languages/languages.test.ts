import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Language } from '../../src/languages/schema.js';
import { runLimits } from '../../src/limits.js';
import { openExecutor } from '../support/sandbox.js';
import { PROGRAMS } from './programs.js';

const { sandbox, executor, languages } = openExecutor();
after(async () => {
  await executor.close();
  sandbox.close();
});
const limits = runLimits({ cpuMs: 5000 });

/** The languages issue #15 asks for, besides the first thirteen. */
const REQUIRED = ['bash', 'c', 'cpp', 'go', 'java', 'javascript', 'lua', 'perl', 'php', 'python', 'ruby', 'rust', 'typescript',
  'r', 'ocaml', 'haskell', 'scala', 'kotlin', 'csharp', 'd', 'racket', 'fortran', 'pascal', 'nim', 'elixir', 'erlang',
  'clojure', 'scheme', 'commonlisp', 'prolog', 'cobol', 'ada', 'octave', 'tcl', 'groovy', 'crystal', 'python-sci'];

// Compile every compiled test program up front, in order: the two slots then stay busy while the tests below await
// their own (cached) compilations. A failure here surfaces in the test that awaits the same compilation.
for (const language of languages.languages) {
  const programs = PROGRAMS[language.id];
  if (!language.compile || !programs) continue;
  for (const source of [programs.hello, programs.echo, programs.syntaxError, programs.runtimeError, programs.unitPass, programs.unitFail]) {
    executor.compile(language, source).catch(() => {});
  }
}

function explain(r: { status: string; reason?: string; stderr: string }): string {
  return `${r.status}: ${r.reason ?? ''} ${r.stderr.slice(-2000)}`;
}

describe('the shipped languages', () => {
  it('ship every language issue #15 asks for, each with test programs, and at least 30 available', async () => {
    const ids = languages.languages.map((l) => l.id);
    for (const id of REQUIRED) {
      assert.ok(ids.includes(id), `missing language ${id}`);
      assert.ok(PROGRAMS[id], `no test programs for ${id}`);
    }
    const statuses = await languages.toolchains();
    const missing = statuses.filter((s) => !s.available).map((s) => `${s.id}: ${s.problem}`);
    assert.deepEqual(missing, [], 'every toolchain is installed by scripts/setup');
    assert.ok(statuses.length >= 30);
  });
});

for (const language of languages.languages) {
  const programs = PROGRAMS[language.id];
  if (!programs) continue;
  describe(language.id, { concurrency: true }, () => {
    it('prints hello world, and nothing on stderr', async () => {
      const r = await executor.runProgram(language, programs.hello, '', limits);
      assert.equal(r.status, 'ok', explain(r));
      assert.equal(r.stdout.trim(), 'hello, world');
      assert.equal(r.exitCode, 0);
      assert.equal(r.stderr, '', 'a runtime banner or warning on stderr would reach the model');
    });
    it('echoes a line of stdin', async () => {
      const r = await executor.runProgram(language, programs.echo, 'crucible 42\n', limits);
      assert.equal(r.status, 'ok', explain(r));
      assert.equal(r.stdout.trim(), 'crucible 42');
    });
    it(`reports a syntax error as ${language.compile ? 'a compile error' : 'a runtime error'}`, async () => {
      const r = await executor.runProgram(language, programs.syntaxError, '', limits);
      assert.equal(r.status, language.compile ? 'compile_error' : 'runtime_error', explain(r));
      assert.notEqual(r.exitCode, 0);
    });
    it('reports a runtime error', async () => {
      const r = await executor.runProgram(language, programs.runtimeError, '', limits);
      assert.equal(r.status, 'runtime_error', explain(r));
    });
    it('passes a passing unit test and fails a failing one, with the language\'s test convention', async () => {
      const pass = await executor.runProgram(language, programs.unitPass, '', limits);
      assert.equal(pass.status, 'ok', explain(pass));
      assert.equal(pass.exitCode, 0);
      const fail = await executor.runProgram(language, programs.unitFail, '', limits);
      if (programs.unitFailure) {
        assert.equal(fail.status, 'ok', explain(fail));
        assert.match(fail.stderr, programs.unitFailure.stderr);
        assert.doesNotMatch(pass.stderr, programs.unitFailure.stderr);
      } else {
        assert.equal(fail.status, 'runtime_error', explain(fail));
        assert.notEqual(fail.exitCode, 0);
      }
    });
  });
}

describe('java', { concurrency: true }, () => {
  const java = languages.get('java');
  const accepted: Record<string, string> = {
    'a public class not named Main': 'import java.util.*;\npublic class Solution {\n  public static void main(String[] a) { System.out.println("hello, world"); }\n}\n',
    'helper classes before the public Main': 'class Pair { int x; }\nclass Helper { static String s() { return "hello, world"; } }\n' +
      'public class Main { public static void main(String[] a) { System.out.println(Helper.s()); } }\n',
    'modifiers before `public` (javac names the file)': 'final public class Weird {\n  public static void main(String[] a) { System.out.println("hello, world"); }\n}\n',
    'a public class without main and another class with it': 'public class Lib { static String s() { return "hello, world"; } }\n' +
      'class Runner { public static void main(String[] a) { System.out.println(Lib.s()); } }\n',
  };
  for (const [what, source] of Object.entries(accepted)) {
    it(`runs ${what}, as Kattis and Codeforces do`, async () => {
      const r = await executor.runProgram(java, source, '', limits);
      assert.equal(r.status, 'ok', explain(r));
      assert.equal(r.stdout.trim(), 'hello, world');
    });
  }
  it('prints no "Picked up JAVA_TOOL_OPTIONS" banner (JVM options are on the command line)', async () => {
    const r = await executor.runProgram(java, PROGRAMS.java!.hello, '', limits);
    assert.equal(r.status, 'ok', explain(r));
    assert.doesNotMatch(r.stderr + r.stdout, /Picked up|JAVA_TOOL_OPTIONS|JDK_JAVA_OPTIONS/);
    assert.equal(r.stderr, '');
  });
  it('sizes the heap from the caller\'s memory limit ({memoryLimitMiB})', async () => {
    const source = 'public class Main { public static void main(String[] a) { System.out.println(Runtime.getRuntime().maxMemory() >> 20); } }\n';
    const r = await executor.runProgram(java, source, '', runLimits({ cpuMs: 5000, memoryKiB: 200 * 1024 }));
    assert.equal(r.status, 'ok', explain(r));
    const heapMiB = Number(r.stdout.trim());
    assert.ok(heapMiB > 150 && heapMiB <= 200, `max heap ${heapMiB} MiB for a 200 MiB limit`);
  });
});

describe('ocaml', () => {
  it('links Str and Unix, as Kattis/problemtools links OCaml submissions', async () => {
    const source = 'let () =\n  let words = Str.split (Str.regexp "[ ]+") (input_line stdin) in\n'
      + '  let t = Unix.gettimeofday () in\n  Printf.printf "%d %b\\n" (List.length words) (t > 0.)\n';
    const r = await executor.runProgram(languages.get('ocaml'), source, 'a  b c\n', limits);
    assert.equal(r.status, 'ok', explain(r));
    assert.equal(r.stdout, '3 true\n');
  });
});

describe('warm-start files made at set-up are used by the runs', { concurrency: true }, () => {
  const jvm = languages.languages.filter((l) => l.run.some((a) => a.startsWith('-XX:SharedArchiveFile=')));
  it('covers the slow-starting JVM languages', () => {
    assert.deepEqual(jvm.map((l) => l.id).sort(), ['clojure', 'groovy', 'kotlin', 'scala']);
  });
  for (const language of jvm) {
    it(`${language.id}: the JVM maps its class-data sharing archive (it refuses -Xshare:on otherwise)`, async () => {
      const strict: Language = { ...language, run: language.run.filter((a) => a !== '-Xlog:disable').map((a) => a === '-Xshare:auto' ? '-Xshare:on' : a) };
      const r = await executor.runProgram(strict, PROGRAMS[language.id]!.hello, '', limits);
      assert.equal(r.status, 'ok', explain(r));
      assert.equal(r.stdout.trim(), 'hello, world');
    });
  }
  it('commonlisp: FiveAM, alexandria and cl-ppcre are loaded in the saved core before the program asks', async () => {
    const source = '(require :asdf)\n(format t "~{~a~^ ~}~%" (mapcar (lambda (s) (if (asdf:component-loaded-p s) "loaded" "absent")) (list :fiveam :alexandria :cl-ppcre)))\n';
    const r = await executor.runProgram(languages.get('commonlisp'), source, '', limits);
    assert.equal(r.status, 'ok', explain(r));
    assert.equal(r.stdout.trim(), 'loaded loaded loaded');
  });
});

describe('python profiles', { concurrency: true }, () => {
  it('python-sci imports numpy, scipy, sympy, pandas and networkx and computes with each', async () => {
    const source = [
      'import numpy as np, scipy.optimize, sympy, pandas as pd, networkx as nx',
      'print(int(np.linalg.solve(np.array([[2.0, 0.0], [0.0, 4.0]]), np.array([6.0, 8.0])).sum()))',
      'print(round(scipy.optimize.brentq(lambda x: x * x - 2, 0, 2), 6))',
      'x = sympy.symbols("x"); print(sympy.integrate(3 * x ** 2, (x, 0, 2)))',
      'print(pd.DataFrame({"a": [1, 2, 3], "b": [4, 5, 6]}).sum().to_dict())',
      'g = nx.path_graph(5); print(nx.shortest_path_length(g, 0, 4))',
    ].join('\n') + '\n';
    const r = await executor.runProgram(languages.get('python-sci'), source, '', runLimits({ cpuMs: 10_000 }));
    assert.equal(r.status, 'ok', explain(r));
    assert.deepEqual(r.stdout.trim().split('\n'), ['5', '1.414214', '8', "{'a': 6, 'b': 15}", '4']);
  });
  it('python (the default) stays standard-library only: numpy is not importable and dist-packages not on sys.path', async () => {
    const source = 'import sys\nprint(any("packages" in p for p in sys.path))\ntry:\n    import numpy\n    print("numpy")\n' +
      'except ImportError:\n    print("no numpy")\n';
    const r = await executor.runProgram(languages.get('python'), source, '', limits);
    assert.equal(r.status, 'ok', explain(r));
    assert.deepEqual(r.stdout.trim().split('\n'), ['False', 'no numpy']);
  });
  it('python-sci is a distinct language id, not an alias of python', () => {
    assert.notEqual(languages.get('python-sci').id, languages.get('python').id);
  });
});

describe('python verdicts do not depend on the run', () => {
  it('iterates a set of strings in the same order in every fresh interpreter (fixed hash seed)', async () => {
    const python = languages.get('python');
    const source = 'print(list({"alpha","beta","gamma","delta","epsilon","zeta","eta","theta","iota","kappa"}))\n';
    const outputs = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const r = await executor.runProgram(python, source, '', limits);
      assert.equal(r.status, 'ok', explain(r));
      outputs.add(r.stdout);
    }
    assert.equal(outputs.size, 1, [...outputs].join(''));
  });
});
