/**
 * Java replay's preparation (src/kinds/script/humaneval-x/java.ts), without running anything: the decoder's descriptor of
 * each declared return type, the test's calls rewritten, and the shapes left to the one-program judging. The
 * judging itself runs in the sandbox in test/kinds/script/humaneval-x/replay.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScriptProblem } from '../../../../src/formats/types.js';
import { JAVA_REPLAY, javaTypeDescriptor } from '../../../../src/kinds/script/humaneval-x/java.js';

const PROMPT = 'import java.util.*;\nimport java.lang.*;\n\nclass Solution {\n    public List<Integer> f(List<Integer> l, Map<String, Integer> m) {\n';
const TEST = 'public class Main {\n    public static void main(String[] args) {\n        Solution s = new Solution();\n'
  + '        if (!s.f(new ArrayList<>(), new HashMap<>()).equals(List.of())) {\n            throw new AssertionError();\n        }\n    }\n}\n';

function problem(prompt: string, test = TEST): ScriptProblem {
  return { kind: 'script', taskId: 'Java/x', language: 'java', prompt, test };
}

describe('Java replay preparation', () => {
  it('turns every return type of HumanEval-X Java into a descriptor, and refuses arrays and unknown generics', () => {
    const cases: Record<string, string | undefined> = {
      int: '!I', long: '!J', double: '!D', boolean: '!Z', String: 'T', Object: 'X', 'List<Integer>': 'LI',
      'List<List<Integer>>': 'LLI', 'Optional<String>': 'OT', 'List<Optional<Integer>>': 'LOI', 'Optional<Object>': 'OX',
      'Map<String, Integer>': 'MTI', 'java.util.List<java.lang.Double>': 'LD', List: 'LX',
      'int[]': undefined, 'List<int>': undefined, 'Set<Integer>': undefined, 'List<? extends Number>': undefined, 'static int': undefined,
    };
    for (const [type, d] of Object.entries(cases)) assert.equal(javaTypeDescriptor(type), d, type);
  });

  it('routes the test\'s calls through the wrapper in both boxes; the trusted program holds the stub, not the program', () => {
    const r = JAVA_REPLAY.prepare(problem(PROMPT))!;
    assert.equal(r.entryPoint, 'f');
    assert.match(r.trustedProgram, /CrucibleCalls\.f\(s, new ArrayList<>\(\), new HashMap<>\(\)\)/);
    assert.match(r.trustedProgram, /CrucibleReplay\.call\("LI", crucible_args\)/);
    assert.match(r.trustedProgram, /CrucibleReplay\.finish\(\)/);
    const candidate = r.candidateProgram(`${PROMPT}        return l;\n    }\n}\nclass Hostile {}\n`);
    assert.match(candidate, /class Hostile/);
    assert.doesNotMatch(r.trustedProgram, /Hostile/);
    // The candidate's box only evaluates the test's assertions (the trusted box decides).
    assert.doesNotMatch(candidate, /throw new AssertionError/);
    assert.match(r.trustedProgram, /throw new AssertionError/);
  });

  it('rewrites a call without arguments', () => {
    const test = TEST.replace('!s.f(new ArrayList<>(), new HashMap<>()).equals(List.of())', 's.f( ) != 1');
    const r = JAVA_REPLAY.prepare(problem('class Solution {\n    public int f() {\n', test))!;
    assert.match(r.trustedProgram, /if \(CrucibleCalls\.f\(s\) != 1\)/);
    assert.match(r.trustedProgram, /static int f\(Solution crucible_solution\) +\{/);
  });

  it('leaves to the one-program judging what it cannot replay', () => {
    assert.equal(JAVA_REPLAY.prepare(problem(PROMPT.replace('List<Integer> f', 'int[] f'))), undefined);
    assert.equal(JAVA_REPLAY.prepare(problem(PROMPT, TEST.replace('Solution s = new Solution();', 'Solution s = new Solution();\n'
      + '        Random r = new Random();'))), undefined);
    assert.equal(JAVA_REPLAY.prepare(problem(PROMPT, TEST.replace(/s\.f\(/, 't.f('))), undefined);
  });
});
