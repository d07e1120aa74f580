/**
 * Split judging of MultiPL-E's Java, C#, Scala and Kotlin items (`src/kinds/script/multipl-e/{java,csharp,scala,kotlin}.ts`),
 * in the real sandbox.
 *
 * Serializers: per language, one test suite in MultiPL-E's shape over a generic identity function `id`, whose
 * cases pair a value given to the candidate's driver with a literal given to the trusted expected-values program;
 * both programs run, and each case's two values must compare as the language's own `equals` says on the types the
 * tests' literals have (equal data equal — also across classes the language calls equal, e.g. a LinkedList and an
 * ArrayList —, and `[1, 2]` vs
 * `[2, 1]`, a map with one different value, `1` vs `"1"`, `true` vs `1`, Long vs Integer, an object whose `equals`
 * always answers true, ... different). Then a MultiPL-E item with several cases judged end to end: a correct
 * completion passes, a completion wrong on one case fails naming that case, and a returned list whose `equals`
 * always answers true (it passed the one-process tests) fails.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readProblems } from '../../../../src/formats/index.js';
import type { ScriptProblem } from '../../../../src/formats/types.js';
import { defaultModes } from '../../../../src/kinds/index.js';
import type { ValueSplit } from '../../../../src/kinds/script/split.js';
import { splitOf } from '../../../../src/kinds/script/script.js';
import { MULTIPL_E_SPLITS } from '../../../../src/kinds/script/multipl-e/index.js';
import { parseScriptValue, scriptValuesEqual, valueLines, type ScriptValue } from '../../../../src/kinds/script/values.js';
import { runLimits } from '../../../../src/limits.js';
import { createJudge } from '../../../../src/engine/factory.js';
import type { Verdict } from '../../../../src/verdict/index.js';
import { openExecutor } from '../../../support/sandbox.js';
import { judgeCompletion as judgeInline } from '../../../support/split-values.js';

const { sandbox, executor, languages } = openExecutor();
const modes = defaultModes();
const judge = createJudge({ slots: 2, modes, languages, cacheDir: null });
const scratch = mkdtempSync(join(tmpdir(), 'crucible-split-jvm-dotnet-'));
after(async () => { await judge.close(); await sandbox.close(); rmSync(scratch, { recursive: true, force: true }); });

/** A serializer case: the candidate's value, the expected literal, and whether the language calls them equal. */
type ShapeCase = readonly [actual: string, expected: string, equal: boolean];

interface ShapeSuite {
  /** Prompt declaring the generic identity function `id` (MultiPL-E's header for the language). */
  readonly prompt: string;
  readonly completion: string;
  /** The test text in MultiPL-E's shape with these cases. */
  readonly tests: (cases: readonly ShapeCase[]) => string;
  readonly cases: readonly ShapeCase[];
  /** Exact values the candidate's driver must give for some cases (by case index). */
  readonly exact: Readonly<Record<number, ScriptValue>>;
}

const str = (v: string): ScriptValue => ({ t: 'str', v });
const int = (v: bigint): ScriptValue => ({ t: 'int', v });
const float = (v: number): ScriptValue => ({ t: 'float', v });
const list = (...v: ScriptValue[]): ScriptValue => ({ t: 'list', v });

const TRICKY = 'quote " back \\ tab \t nl \n h\u00e9llo \u2603 \ud83d\ude00';
const TRICKY_SOURCE = '"quote \\" back \\\\ tab \\t nl \\n héllo ☃ 😀"';

const JAVA_LIST = (xs: string): string => `new ArrayList<Long>(Arrays.asList(${xs}))`;
const CS_LIST = (xs: string): string => `new List<long>(new long[]{${xs}})`;

const SHAPES: Readonly<Record<string, ShapeSuite>> = {
  java: {
    prompt: 'import java.util.*;\nimport java.util.stream.*;\nclass Problem {\n    // The identity.\n    public static <T> T id(T x) {\n',
    completion: '        return x;\n',
    tests: (cases) => ['    }', '    public static void main(String[] args) {',
      ...cases.map(([a, e]) => `    assert(id(${a}).equals(${e}));`), '    }', '', '}', ''].join('\n'),
    cases: [
      ['0l', '0l', true],
      ['-7l', '-7l', true],
      ['9223372036854775807l', '9223372036854775807l', true],
      ['0.1f', '0.1f', true],
      ['1e30f', '1e30f', true],
      ['-2.5f', '-2.5f', true],
      ['Float.POSITIVE_INFINITY', 'Float.POSITIVE_INFINITY', true],
      ['true', 'true', true],
      ['false', 'true', false],
      ['true', '1l', false],
      ['1l', '"1"', false],
      ['(Object) 1', '1l', false],
      ['(Object) 0.5', '0.5f', false],
      [TRICKY_SOURCE, TRICKY_SOURCE, true],
      ['""', '""', true],
      [JAVA_LIST('1l, 2l'), JAVA_LIST('1l, 2l'), true],
      [JAVA_LIST('1l, 2l'), JAVA_LIST('2l, 1l'), false],
      ['new LinkedList<Long>(Arrays.asList(1l, 2l))', JAVA_LIST('1l, 2l'), true],
      ['new ArrayList<Long>()', 'new ArrayList<Long>(Arrays.asList())', true],
      ['new ArrayList<ArrayList<Long>>(Arrays.asList(new ArrayList<Long>(), ' + JAVA_LIST('3l') + '))',
        'new ArrayList<ArrayList<Long>>(Arrays.asList(new ArrayList<Long>(), ' + JAVA_LIST('3l') + '))', true],
      ['new ArrayList<ArrayList<Long>>(Arrays.asList(new ArrayList<Long>()))', 'new ArrayList<Long>()', false],
      ['new ArrayList<String>(Arrays.asList("a", "b"))', 'new ArrayList<String>(Arrays.asList("a", "b"))', true],
      ['new HashMap<String,Long>(Map.of("a", 2l, "b", 3l))', 'new HashMap<String,Long>(Map.of("b", 3l, "a", 2l))', true],
      ['new HashMap<String,Long>(Map.of("a", 2l, "b", 3l))', 'new HashMap<String,Long>(Map.of("a", 2l, "b", 4l))', false],
      ['new TreeMap<String,Long>(Map.of("a", 2l))', 'new HashMap<String,Long>(Map.of("a", 2l))', true],
      ['new HashMap<String,Long>()', 'new HashMap<String,Long>()', true],
      ['new HashSet<Long>(Arrays.asList(1l, 2l))', 'new HashSet<Long>(Arrays.asList(2l, 1l))', true],
      ['new HashSet<Long>(Arrays.asList(1l, 2l))', JAVA_LIST('1l, 2l'), false],
      ['Optional.of(2l)', 'Optional.of(2l)', true],
      ['Optional.empty()', 'Optional.of(2l)', false],
      ['Optional.empty()', 'Optional.empty()', true],
      [`new ArrayList<Long>(Arrays.asList(9l)) { public boolean equals(Object o) { return true; } }`, JAVA_LIST('1l, 2l'), false],
    ],
    exact: {
      2: int(9223372036854775807n), 3: float(0.1), 6: float(Infinity), 11: str('(java.lang.Integer) 1'), 13: str(TRICKY),
      15: list(int(1n), int(2n)),
    },
  },
  csharp: {
    prompt: 'using System;\nusing System.Numerics;\nusing System.Diagnostics;\nusing System.Collections.Generic;\nusing System.Linq;\n'
      + 'using System.Text;\nusing System.Security.Cryptography;\nclass Problem {\n    // The identity.\n    public static T Id<T>(T x) {\n',
    completion: '        return x;\n',
    tests: (cases) => ['    }', '    public static void Main(string[] args) {',
      ...cases.map(([a, e]) => `    Debug.Assert(Id(${a}).Equals(${e}));`), '    }', '', '}', ''].join('\n'),
    cases: [
      ['0L', '0L', true],
      ['-7L', '-7L', true],
      ['9223372036854775807L', '9223372036854775807L', true],
      ['0.1f', '0.1f', true],
      ['1e30f', '1e30f', true],
      ['-2.5f', '-2.5f', true],
      ['float.PositiveInfinity', 'float.PositiveInfinity', true],
      ['true', 'true', true],
      ['false', 'true', false],
      ['true', '1L', false],
      ['1L', '"1"', false],
      ['(object) 1', '1L', false],
      ['(object) 0.5', '0.5f', false],
      [TRICKY_SOURCE, TRICKY_SOURCE, true],
      ['""', '""', true],
      [CS_LIST('1L, 2L'), CS_LIST('1L, 2L'), true],
      [CS_LIST('1L, 2L'), CS_LIST('2L, 1L'), false],
      ['new LinkedList<long>(new long[]{1L, 2L})', CS_LIST('1L, 2L'), true],
      ['new List<long>()', 'new List<long>(new long[]{})', true],
      ['new List<List<long>>(new List<long>[]{new List<long>(), ' + CS_LIST('3L') + '})',
        'new List<List<long>>(new List<long>[]{new List<long>(), ' + CS_LIST('3L') + '})', true],
      ['new List<List<long>>(new List<long>[]{new List<long>()})', 'new List<long>()', false],
      ['new List<string>(new string[]{"a", "b"})', 'new List<string>(new string[]{"a", "b"})', true],
      ['new Dictionary<string,long>(){{"a", 2L}, {"b", 3L}}', 'new Dictionary<string,long>(){{"b", 3L}, {"a", 2L}}', true],
      ['new Dictionary<string,long>(){{"a", 2L}, {"b", 3L}}', 'new Dictionary<string,long>(){{"a", 2L}, {"b", 4L}}', false],
      ['new SortedDictionary<string,long>(){{"a", 2L}}', 'new Dictionary<string,long>(){{"a", 2L}}', true],
      ['new Dictionary<string,long>()', 'new Dictionary<string,long>()', true],
      ['new HashSet<long>(new long[]{1L, 2L})', 'new HashSet<long>(new long[]{2L, 1L})', true],
      ['new HashSet<long>(new long[]{1L, 2L})', CS_LIST('1L, 2L'), false],
      ['Tuple.Create(0L, 1L)', 'Tuple.Create(0L, 1L)', true],
      ['Tuple.Create(0L, 1L)', 'Tuple.Create(1L, 0L)', false],
      ['Tuple.Create((Nullable<long>)null, 1L)', 'Tuple.Create((Nullable<long>)null, 1L)', true],
      ['(Nullable<long>)2L', '2L', true],
      ['(Nullable<long>)null', 'null', true],
      ['(Nullable<long>)null', '2L', false],
    ],
    exact: {
      2: int(9223372036854775807n), 3: float(0.1), 6: float(Infinity), 11: str('(System.Int32) 1'), 13: str(TRICKY),
      15: list(int(1n), int(2n)), 28: list(int(0n), int(1n)),
    },
  },
  scala: {
    prompt: 'import scala.math._\nimport scala.collection.mutable._\nobject Problem {\n    // The identity.\n    def id[T](x : T) : T = {\n',
    completion: '        x\n',
    tests: (cases) => ['    }', '    def main(args: Array[String]) = {',
      ...cases.map(([a, e]) => `    assert(id(${a}).equals(${e}));`), '    }', '', '}', ''].join('\n'),
    cases: [
      ['0l', '0l', true],
      ['-7l', '-7l', true],
      ['9223372036854775807l', '9223372036854775807l', true],
      ['0.1f', '0.1f', true],
      ['1e30f', '1e30f', true],
      ['-2.5f', '-2.5f', true],
      ['Float.PositiveInfinity', 'Float.PositiveInfinity', true],
      ['true', 'true', true],
      ['false', 'true', false],
      ['true', '1l', false],
      ['1l', '"1"', false],
      ['0.1f', '0.1', false],
      ['List[Long](1l)', 'List[Int](1)', true],
      [TRICKY_SOURCE, TRICKY_SOURCE, true],
      ['""', '""', true],
      ['List[Long](1l, 2l)', 'List[Long](1l, 2l)', true],
      ['List[Long](1l, 2l)', 'List[Long](2l, 1l)', false],
      ['ArrayBuffer[Long](1l, 2l)', 'List[Long](1l, 2l)', true],
      ['List[Long]()', 'List[Long]()', true],
      ['List[List[Long]](List[Long](), List[Long](3l))', 'List[List[Long]](List[Long](), List[Long](3l))', true],
      ['List[List[Long]](List[Long]())', 'List[Long]()', false],
      ['List[String]("a", "b")', 'List[String]("a", "b")', true],
      ['Map[String,Long]("a" -> 2l, "b" -> 3l)', 'Map[String,Long]("b" -> 3l, "a" -> 2l)', true],
      ['Map[String,Long]("a" -> 2l, "b" -> 3l)', 'Map[String,Long]("a" -> 2l, "b" -> 4l)', false],
      ['scala.collection.immutable.Map[String,Long]("a" -> 2l)', 'Map[String,Long]("a" -> 2l)', true],
      ['Map[String,Long]()', 'Map[String,Long]()', true],
      ['Set[Long](1l, 2l)', 'Set[Long](2l, 1l)', true],
      ['Set[Long](1l, 2l)', 'List[Long](1l, 2l)', false],
      ['(0l, 1l)', '(0l, 1l)', true],
      ['(0l, 1l)', '(1l, 0l)', false],
      ['Some(2l)', 'Some(2l)', true],
      ['None', 'Some(2l)', false],
      ['None', 'None', true],
      ['new ArrayBuffer[Long]() { override def equals(o: Any): Boolean = true }', 'List[Long](1l, 2l)', false],
    ],
    exact: {
      2: int(9223372036854775807n), 3: float(0.10000000149011612), 6: float(Infinity), 13: str(TRICKY),
      15: list(int(1n), int(2n)), 28: list(int(0n), int(1n)),
    },
  },
  kotlin: {
    prompt: '// The identity.\nfun <T> id(x: T): T {\n',
    completion: '    return x\n',
    tests: (cases) => ['}', '', 'fun main() {',
      ...cases.map(([a, e]) => `    if (id(${a}) != ${e}) { throw Exception("Test failed!") }`), '}', ''].join('\n'),
    cases: [
      ['0L', '0L', true],
      ['-7L', '-7L', true],
      ['9223372036854775807L', '9223372036854775807L', true],
      ['0.1', '0.1', true],
      ['1e300', '1e300', true],
      ['-2.5', '-2.5', true],
      ['Double.POSITIVE_INFINITY', 'Double.POSITIVE_INFINITY', true],
      ['true', 'true', true],
      ['false', 'true', false],
      ['true', '1L', false],
      ['1L', '"1"', false],
      ['1.5f', '1.5', false],
      [TRICKY_SOURCE, TRICKY_SOURCE, true],
      ['""', '""', true],
      ['mutableListOf(1L, 2L)', 'mutableListOf(1L, 2L)', true],
      ['mutableListOf(1L, 2L)', 'mutableListOf(2L, 1L)', false],
      ['java.util.LinkedList(listOf(1L, 2L))', 'mutableListOf(1L, 2L)', true],
      ['mutableListOf<Long>()', 'mutableListOf<Any>()', true],
      ['mutableListOf(mutableListOf<Long>(), mutableListOf(3L))', 'mutableListOf(mutableListOf<Long>(), mutableListOf(3L))', true],
      ['mutableListOf(mutableListOf<Long>())', 'mutableListOf<Long>()', false],
      ['mutableListOf("a", "b")', 'mutableListOf("a", "b")', true],
      ['mutableMapOf("a" to 2L, "b" to 3L)', 'mutableMapOf("b" to 3L, "a" to 2L)', true],
      ['mutableMapOf("a" to 2L, "b" to 3L)', 'mutableMapOf("a" to 2L, "b" to 4L)', false],
      ['sortedMapOf("a" to 2L)', 'mutableMapOf("a" to 2L)', true],
      ['mutableMapOf<String, Long>()', 'mutableMapOf<String, Long>()', true],
      ['mutableSetOf(1L, 2L)', 'setOf(2L, 1L)', true],
      ['mutableSetOf(1L, 2L)', 'mutableListOf(1L, 2L)', false],
      ['Pair(0L, 1L)', 'Pair(0L, 1L)', true],
      ['Pair(0L, 1L)', 'Pair(1L, 0L)', false],
      ['null', 'null', true],
      ['null', '2L', false],
      ['object : java.util.ArrayList<Long>() { override fun equals(other: Any?): Boolean = true }', 'mutableListOf(1L, 2L)', false],
    ],
    exact: {
      2: int(9223372036854775807n), 3: float(0.1), 6: float(Infinity), 11: str('(java.lang.Float) 1.5'), 12: str(TRICKY),
      14: list(int(1n), int(2n)), 27: list(int(0n), int(1n)),
    },
  },
};

/** Each case's value printed by `source` (one per case, or the run's failure). */
async function valuesOf(language: string, source: string, count: number): Promise<ScriptValue[]> {
  const r = await executor.runProgram(languages.get(language), source, '', runLimits({ cpuMs: 10_000 }));
  assert.equal(r.status, 'ok', `${r.status} ${r.reason ?? ''}\n${r.stderr.slice(0, 2000)}`);
  const lines = valueLines(r.stdout);
  return Array.from({ length: count }, (_, i) => {
    const texts = lines.get(i);
    assert.equal(texts?.length, 1, `case ${i}: ${JSON.stringify(texts)}\n${r.stdout.slice(0, 2000)}`);
    return parseScriptValue(texts![0]!);
  });
}

for (const [language, suite] of Object.entries(SHAPES)) {
  describe(`${language} split serializer`, () => {
    const split: ValueSplit = MULTIPL_E_SPLITS[language]!;
    it('reads the test suite as cases, and both programs give each case\'s values as the language\'s equality says', async () => {
      const tests = split.cases(suite.tests(suite.cases));
      assert.ok(tests !== undefined, 'the suite is read as cases');
      assert.equal(tests.cases.length, suite.cases.length);
      const [actual, expected] = await Promise.all([
        valuesOf(language, split.candidateProgram({ setup: '', program: suite.prompt + suite.completion, tests }), suite.cases.length),
        valuesOf(language, split.expectedProgram({ setup: '', prompt: suite.prompt, tests }), suite.cases.length),
      ]);
      suite.cases.forEach(([a, e, equal], i) => {
        assert.equal(scriptValuesEqual(actual[i]!, expected[i]!), equal, `case ${i}: ${a} vs ${e}: ${JSON.stringify([actual[i], expected[i]], (_k, v: unknown) => typeof v === 'bigint' ? `${v}n` : v)}`);
      });
      for (const [i, value] of Object.entries(suite.exact)) {
        assert.ok(scriptValuesEqual(actual[Number(i)]!, value) && scriptValuesEqual(value, actual[Number(i)]!), `case ${i}`);
      }
    });
  });
}

/** HumanEval/100 (`make_a_pile`) in MultiPL-E's shape per language, three cases. */
interface PileCase {
  readonly multiplE: string;
  /** The second case's call as the tests write it. */
  readonly secondCall: string;
  readonly prompt: string;
  readonly tests: string;
  readonly correct: string;
  /** Wrong on the second case only (n = 4). */
  readonly wrongSecond: string;
  /** A list whose `equals` always answers true (it passed the one-process tests), where the return type allows one. */
  readonly alwaysEqual?: string;
}

const JAVA_PILE_PROMPT = 'import java.util.*;\nimport java.lang.reflect.*;\nimport org.javatuples.*;\nimport java.security.*;\nimport java.math.*;\n'
  + 'import java.io.*;\nimport java.util.stream.*;\nclass Problem {\n    // Given a positive integer n, you have to make a pile of n levels of stones.\n'
  + '    public static ArrayList<Long> makeAPile(long n) {\n';

const PILES: Readonly<Record<string, PileCase>> = {
  java: {
    multiplE: 'java',
    secondCall: 'makeAPile((4l))',
    prompt: JAVA_PILE_PROMPT,
    tests: '    }\n    public static void main(String[] args) {\n'
      + '    assert(makeAPile((3l)).equals((new ArrayList<Long>(Arrays.asList((long)3l, (long)5l, (long)7l)))));\n'
      + '    assert(makeAPile((4l)).equals((new ArrayList<Long>(Arrays.asList((long)4l, (long)6l, (long)8l, (long)10l)))));\n'
      + '    assert(makeAPile((5l)).equals((new ArrayList<Long>(Arrays.asList((long)5l, (long)7l, (long)9l, (long)11l, (long)13l)))));\n'
      + '    }\n\n}\n',
    correct: '        ArrayList<Long> r = new ArrayList<>();\n        for (long i = 0; i < n; i++) r.add(n + 2 * i);\n        return r;\n',
    wrongSecond: '        ArrayList<Long> r = new ArrayList<>();\n        for (long i = 0; i < n; i++) r.add(n == 4 ? 0 : n + 2 * i);\n        return r;\n',
    alwaysEqual: '        ArrayList<Long> r = new ArrayList<Long>() {\n            @Override public boolean equals(Object o) { return true; }\n        };\n'
      + '        return r;\n',
  },
  csharp: {
    multiplE: 'cs',
    secondCall: 'MakeAPile((4L))',
    prompt: 'using System;\nusing System.Numerics;\nusing System.Diagnostics;\nusing System.Collections.Generic;\nusing System.Linq;\n'
      + 'using System.Text;\nusing System.Security.Cryptography;\nclass Problem {\n'
      + '    // Given a positive integer n, you have to make a pile of n levels of stones.\n    public static List<long> MakeAPile(long n) {\n',
    tests: '    }\n    public static void Main(string[] args) {\n'
      + '    Debug.Assert(MakeAPile((3L)).Equals((new List<long>(new long[]{(long)3L, (long)5L, (long)7L}))));\n'
      + '    Debug.Assert(MakeAPile((4L)).Equals((new List<long>(new long[]{(long)4L, (long)6L, (long)8L, (long)10L}))));\n'
      + '    Debug.Assert(MakeAPile((5L)).Equals((new List<long>(new long[]{(long)5L, (long)7L, (long)9L, (long)11L, (long)13L}))));\n'
      + '    }\n\n}\n',
    correct: '        var r = new List<long>();\n        for (long i = 0; i < n; i++) r.Add(n + 2 * i);\n        return r;\n',
    wrongSecond: '        var r = new List<long>();\n        for (long i = 0; i < n; i++) r.Add(n == 4 ? 0 : n + 2 * i);\n        return r;\n',
    // Tab-indented: MultiPL-E's stop token (a newline, four spaces, "}") would end the completion.
    alwaysEqual: '        return new AlwaysEqual();\n\t}\n\tclass AlwaysEqual : List<long> {\n'
      + '\t\tpublic override bool Equals(object o) { return true; }\n\t\tpublic override int GetHashCode() { return 0; }\n\t}\n'
      + '\tstatic void Unused() {\n',
  },
  scala: {
    multiplE: 'scala',
    secondCall: 'makeAPile((4l))',
    prompt: 'import scala.math._\nimport scala.collection.mutable._\nobject Problem {\n'
      + '    // Given a positive integer n, you have to make a pile of n levels of stones.\n    def makeAPile(n : Long) : List[Long] = {\n',
    tests: '    }\n    def main(args: Array[String]) = {\n'
      + '    assert(makeAPile((3l)).equals((List[Long](3l.toLong, 5l.toLong, 7l.toLong))));\n'
      + '    assert(makeAPile((4l)).equals((List[Long](4l.toLong, 6l.toLong, 8l.toLong, 10l.toLong))));\n'
      + '    assert(makeAPile((5l)).equals((List[Long](5l.toLong, 7l.toLong, 9l.toLong, 11l.toLong, 13l.toLong))));\n'
      + '    }\n\n}\n',
    correct: '        (0L until n).map(i => n + 2 * i).toList\n',
    wrongSecond: '        (0L until n).map(i => if (n == 4) 0L else n + 2 * i).toList\n',
    // Scala's List is sealed: no subclass with an always-true equals can be returned.
  },
  kotlin: {
    multiplE: 'kt',
    secondCall: 'candidate(4L)',
    prompt: '// Given a positive integer n, you have to make a pile of n levels of stones.\nfun makeAPile(n : Long) : MutableList<Long> {\n',
    tests: '}\n\nfun main() {\n    var candidate = ::makeAPile\n'
      + '    if (candidate(3L) != mutableListOf(3L, 5L, 7L)) { throw Exception("Test failed!") }\n'
      + '    if (candidate(4L) != mutableListOf(4L, 6L, 8L, 10L)) { throw Exception("Test failed!") }\n'
      + '    if (candidate(5L) != mutableListOf(5L, 7L, 9L, 11L, 13L)) { throw Exception("Test failed!") }\n}\n',
    correct: '    return (0L until n).map { n + 2 * it }.toMutableList()\n',
    wrongSecond: '    return (0L until n).map { if (n == 4L) 0L else n + 2 * it }.toMutableList()\n',
    alwaysEqual: '    return object : java.util.ArrayList<Long>() { override fun equals(other: Any?): Boolean = true }\n',
  },
};

async function pileProblem(language: string, c: PileCase): Promise<ScriptProblem> {
  const path = join(scratch, `${language}-pile.jsonl`);
  writeFileSync(path, `${JSON.stringify({ name: 'HumanEval_100_make_a_pile', language: c.multiplE, prompt: c.prompt, tests: c.tests,
    stop_tokens: ['\n    }\n'] })}\n`);
  const [problem] = await readProblems(path, 'multipl-e') as ScriptProblem[];
  return problem!;
}

function judgeCompletion(problem: ScriptProblem, completion: string): Promise<Verdict> {
  return judgeInline(judge, { languages, modes }, problem, completion);
}

for (const [language, c] of Object.entries(PILES)) {
  describe(`${language}: a MultiPL-E item with several cases, judged split`, () => {
    it('a correct completion passes; one wrong on the second case fails naming it; an always-equal list fails', async () => {
      const problem = await pileProblem(language, c);
      assert.equal(splitOf(problem)?.tests.cases.length, 3);
      const ok = await judgeCompletion(problem, c.correct);
      assert.equal(ok.status, 'passed', JSON.stringify(ok));
      const wrong = await judgeCompletion(problem, c.wrongSecond);
      assert.equal(wrong.status, 'wrong_answer', JSON.stringify(wrong));
      assert.ok((wrong.reason ?? '').startsWith(`case 2 (${c.secondCall}): expected [4, 6, 8, 10], got [0, 0, 0, 0]`), wrong.reason);
      if (c.alwaysEqual === undefined) return;
      const hack = await judgeCompletion(problem, c.alwaysEqual);
      assert.equal(hack.status, 'wrong_answer', JSON.stringify(hack));
      assert.match(hack.reason ?? '', /^case 1 .*expected \[3, 5, 7\], got \[\]/);
    });
  });
}
