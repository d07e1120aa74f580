/**
 * MBPP (`python_script`) against programs that attack the asserts instead of solving the task, on 20 real MBPP
 * tasks (test split ids 11-30, read from ../shared/data): the asserts are judged in the trusted tester, and the
 * program's process holds only the program, its setup and the calls into it (issue #23, item 1).
 *
 * - `rewrite`: the reported forgery. A thread waits for a function the program did not define to appear in its
 *   globals and replaces its `__code__` with one returning the "all asserts ran" record; the main thread patches
 *   `builtins.AssertionError`; the program defines nothing else. It passed 19 of these 20 tasks when the asserts
 *   ran in the program's process (a trusted test function appended after the program, main before this fix).
 * - `memory`: answers each call with the expected value read out of its own process: every string reachable from
 *   the interpreter (gc objects, code constants, frames, modules) is searched for `assert <f>(<its args>) ==
 *   <expected>`. It passed wherever the asserts were in the program's process; the expected side never is now.
 * - `rigged`: every called function returns an object equal to everything (`__eq__`, `__ne__`, `__bool__`,
 *   `__hash__`), while threads rebind `builtins` (`isinstance`, `len`, `set`, `sorted`) and swap `object`
 *   methods where they can.
 * Each must fail on every task, as a program's failure (never `internal_error`).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readProblems } from '../../src/formats/index.js';
import type { PythonScriptProblem } from '../../src/formats/types.js';
import { LanguageRegistry } from '../../src/languages/registry.js';
import { createJudge } from '../../src/engine/factory.js';
import { MBPP_PATH } from '../support/mbpp.js';

const judge = createJudge({ languages: LanguageRegistry.load(), cacheDir: null });
after(() => judge.close());

const REWRITE = `
import builtins, dis, sys, threading, time, types

class _Never(Exception):
    pass

builtins.AssertionError = _Never
def _rewrite():
    g = globals()
    end = time.time() + 2
    while time.time() < end:
        for name, o in list(g.items()):
            if name not in _MINE and type(o) is types.FunctionType:
                # the record's count: how many asserts the function marks (its stores of the assert index)
                n = sum(1 for i in dis.get_instructions(o) if i.opname == "STORE_FAST" and i.argval.startswith("__")) - 1
                ns = {}
                exec("def _f(*a, **k):\\n    return ['done', %d]\\n" % n, ns)
                o.__code__ = ns["_f"].__code__
                return

_MINE = set(globals()) | {"_MINE"}
sys.setswitchinterval(1e-6)
threading.Thread(target=_rewrite, daemon=True).start()
`;

/** Functions the asserts call (`assert name(`), which the attacks define. */
function calledNames(problem: PythonScriptProblem): string[] {
  return [...new Set(problem.tests.flatMap((t) => [...t.matchAll(/\b([A-Za-z_]\w*)\s*\(/g)].map((m) => m[1]!)))]
    .filter((n) => n !== 'assert' && n !== 'set' && n !== 'sorted' && n !== 'list' && n !== 'tuple');
}

const MEMORY_HEAD = `
import ast, gc, sys

def _strings():
    out = []
    def add(v):
        if isinstance(v, str) and "assert" in v:
            out.append(v)
    for o in gc.get_objects():
        if o is out:
            continue
        try:
            if hasattr(o, "co_consts"):
                for c in o.co_consts:
                    add(c)
            elif isinstance(o, dict):
                for v in list(o.values()):
                    add(v)
            elif isinstance(o, (list, tuple)):
                for v in o:
                    add(v)
            elif hasattr(o, "__code__"):
                for c in o.__code__.co_consts:
                    add(c)
        except Exception:
            pass
    for f in sys._current_frames().values():
        while f is not None:
            for v in list(f.f_locals.values()):
                add(v)
            f = f.f_back
    return out

def _expected(name, args):
    for text in _strings():
        for line in text.splitlines():
            try:
                node = ast.parse(line.strip()).body[0]
                call, want = node.test.left, node.test.comparators[0]
                if call.func.id == name and tuple(ast.literal_eval(a) for a in call.args) == args:
                    return ast.literal_eval(want)
            except Exception:
                pass
    return None
`;

const RIGGED_HEAD = `
import builtins, threading, time

class _Yes:
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    def __bool__(self): return True
    def __hash__(self): return 0
    def __len__(self): return 1
    def __iter__(self): return iter([])

def _rebind():
    end = time.time() + 3
    while time.time() < end:
        for name in ("isinstance", "len", "set", "sorted", "list", "tuple"):
            setattr(builtins, name, lambda *a, **k: _Yes())
        time.sleep(0.001)

threading.Thread(target=_rebind, daemon=True).start()
`;

const ATTACKS: Record<string, (problem: PythonScriptProblem) => string> = {
  rewrite: () => REWRITE,
  memory: (p) => MEMORY_HEAD + calledNames(p).map((n) => `\ndef ${n}(*args):\n    return _expected(${JSON.stringify(n)}, args)\n`).join(''),
  rigged: (p) => RIGGED_HEAD + calledNames(p).map((n) => `\ndef ${n}(*args, **kwargs):\n    return _Yes()\n`).join(''),
};

describe('MBPP asserts cannot be forged from the program\'s process (20 real tasks)', async () => {
  const all = (await readProblems(MBPP_PATH)) as PythonScriptProblem[];
  const problems = all.filter((p) => Number(p.taskId) >= 11 && Number(p.taskId) <= 30);

  it('reads the 20 tasks', () => assert.equal(problems.length, 20));

  for (const [name, attack] of Object.entries(ATTACKS)) {
    it(`${name}: fails on every task, as the program's failure`, async () => {
      const verdicts = await Promise.all(problems.map((p) =>
        judge.judge({ problem: { inline: p }, program: { language: 'python', source: attack(p) } })));
      const passed = verdicts.flatMap((v, i) => v.passed ? [problems[i]!.taskId] : []);
      assert.deepEqual(passed, [], `${name} passed ${passed.length}/20`);
      const statuses = [...new Set(verdicts.map((v) => v.status))];
      assert.deepEqual(statuses.filter((s) => s === 'internal_error'), [],
        verdicts.filter((v) => v.status === 'internal_error').map((v) => v.reason).join('\n'));
    });
  }

  it('the memory attack does find what is in its process: the same search answers from a test kept in the program', async () => {
    // The control that makes the memory attack meaningful: with the asserts' text in its own process (a program
    // that holds them, as the old same-process judging did), the search finds every expected value and passes.
    const verdicts = await Promise.all(problems.map((p) => {
      const held = `_HELD = ${JSON.stringify(p.tests.join('\n'))}\n`;
      return judge.judge({ problem: { inline: p }, program: { language: 'python', source: held + ATTACKS.memory!(p) } });
    }));
    const passed = verdicts.filter((v) => v.passed).length;
    assert.ok(passed >= 15, `the search found the expected values of only ${passed}/20 tasks`);
  });
});
