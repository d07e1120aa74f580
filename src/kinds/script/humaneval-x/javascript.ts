/**
 * JavaScript replay (HumanEval-X `JavaScript/*`, `./replay.ts`). The prompt ends with the entry point's
 * opening line (`const f = (a, b) => {` or `function f(a, b) {`); the test calls `f(…)` inside `console.assert`s,
 * compares arrays and objects through `JSON.stringify`, and draws random inputs with `Math.random()`.
 *
 * Values travel as JSON with tags for what JSON cannot carry, so that a replayed value behaves as the original
 * under the tests' `===`, `JSON.stringify` and property reads: arrays as JSON arrays; every plain object (prototype
 * `Object.prototype` or null) as `{"$o": [[key, value], ...]}` in its own key order (`JSON.stringify` follows it);
 * `{"$u": 1}` for undefined (a function that returns nothing is not one that returns null), `{"$n": "-0" | "NaN" |
 * "Infinity" | "-Infinity"}`, `{"$b": "<digits>"}` for a BigInt. Anything else (functions, Maps, Sets, class
 * instances, symbols) cannot be recorded: the candidate's run fails with that reason. The trusted decoder builds
 * objects with `Object.defineProperty` (a `__proto__` key is a plain key) and refuses any other shape.
 *
 * The test's `Math.random()` becomes `crucible_test_random()`, a seeded generator (mulberry32) of its own in both
 * boxes, so that a candidate using `Math.random` itself does not change the tests' inputs. In the recording box
 * `console.assert` is disarmed; in the trusted box it counts failures (the JavaScript assembly of
 * `./one-program.ts`, which also prints the end-of-tests marker).
 *
 * Driven calls (`./replay.ts`): the test's calls are recorded with the canonical solution (else a stub returning
 * undefined) in a trusted box; the candidate's box holds setup + the encoder and decoder + the program + a driver
 * (`driver`) that decodes each stdin line into the argument list, calls the entry point and prints the record.
 */
import type { ScriptProblem } from '../../../formats/types.js';
import { assembleHumanEvalX } from './one-program.js';
import { CALL_TAG, REPLAY_ERROR_TAG, REPLAY_FILE, type ReplayProblem, type ReplaySplit } from './replay.js';

/** The entry point: the function whose opening line ends the prompt. */
const ENTRY = /(?:\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>|\bfunction\s+([A-Za-z_$][\w$]*)\s*\([^()]*\))\s*\{\s*$/;

/** The tests' random generator (both boxes): mulberry32 with a fixed seed. */
const TEST_RANDOM = `const crucible_test_random = (() => {
  let s = 0x2545f491;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();
`;

/** The encoder (both boxes): `crucible_replay_text(v)` is one line of tagged JSON (see the module comment). */
const ENCODER = `const crucible_replay_text = (() => {
  const stringify = JSON.stringify, isArray = Array.isArray, keys = Object.keys, protoOf = Object.getPrototypeOf;
  const objectProto = Object.prototype, is = Object.is, isFinite_ = Number.isFinite;
  const enc = (v, depth) => {
    if (depth > 200) throw new Error('a value nested too deeply to be recorded');
    if (v === undefined) return { $u: 1 };
    if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
    if (typeof v === 'number') return is(v, -0) ? { $n: '-0' } : isFinite_(v) ? v : { $n: String(v) };
    if (typeof v === 'bigint') return { $b: v.toString() };
    if (isArray(v)) { const out = []; for (let i = 0; i < v.length; i++) out.push(enc(v[i], depth + 1)); return out; }
    if (typeof v === 'object' && (protoOf(v) === objectProto || protoOf(v) === null)) {
      return { $o: keys(v).map((k) => [k, enc(v[k], depth + 1)]) };
    }
    throw new Error('a value of type ' + (typeof v === 'object' ? Object.prototype.toString.call(v) : typeof v) + ' cannot be recorded');
  };
  return (v) => stringify(enc(v, 0));
})();
`;

/** The candidate's recorder: calls the entry point and prints the record line. */
const RECORDER = `const crucible_record = (() => {
  const write = process.stdout.write.bind(process.stdout);
  let k = 0;
  return (f, args) => {
    const a = crucible_replay_text(args);
    const r = f(...args);
    write('\\n${CALL_TAG} ' + (k++) + ' ' + a + ' ' + crucible_replay_text(r) + '\\n');
    return r;
  };
})();
const crucible_no_assert = () => {};
`;

/**
 * The candidate's driver (after its program): one argument list per stdin line (tagged JSON, decoded as data),
 * the entry point called on each in order, one record line printed per call.
 */
function driver(entry: string): string {
  return `;(() => {
  const write = process.stdout.write.bind(process.stdout);
  const lines = require('fs').readFileSync(0, 'utf8').split('\\n');
  lines.pop();
  lines.forEach((line, k) => {
    const args = crucible_replay_decode(JSON.parse(line), 0);
    const a = crucible_replay_text(args);
    const r = ${entry}(...args);
    write('\\n${CALL_TAG} ' + k + ' ' + a + ' ' + crucible_replay_text(r) + '\\n');
  });
})();
`;
}

/** The decoder (trusted box and driver): `crucible_replay_decode(json, 0)` is the value a parsed tagged-JSON line stands for. */
const DECODER = `const crucible_replay_decode = (() => {
  const own = Object.prototype.hasOwnProperty, isArray = Array.isArray, keys = Object.keys, define = Object.defineProperty;
  const dec = (j, depth) => {
    if (depth > 200) throw new Error('nested too deeply');
    if (j === null || typeof j === 'boolean' || typeof j === 'string' || typeof j === 'number') return j;
    if (isArray(j)) return j.map((x) => dec(x, depth + 1));
    const ks = keys(j);
    if (ks.length !== 1) throw new Error('an object that is not a tagged value');
    const v = j[ks[0]];
    if (ks[0] === '$u' && v === 1) return undefined;
    if (ks[0] === '$n' && v === '-0') return -0;
    if (ks[0] === '$n' && (v === 'NaN' || v === 'Infinity' || v === '-Infinity')) return Number(v);
    if (ks[0] === '$b' && typeof v === 'string' && /^-?[0-9]{1,10000}$/.test(v)) return BigInt(v);
    if (ks[0] === '$o' && isArray(v)) {
      const o = {};
      for (const e of v) {
        if (!isArray(e) || e.length !== 2 || typeof e[0] !== 'string' || own.call(o, e[0])) throw new Error('a malformed object entry');
        define(o, e[0], { value: dec(e[1], depth + 1), writable: true, enumerable: true, configurable: true });
      }
      return o;
    }
    throw new Error('an unknown tag');
  };
  return dec;
})();
`;

/** The trusted stub's runtime: reads the records, checks each call's arguments, decodes its result. */
const REPLAYER = `const crucible_replay = (() => {
  const proc = process;
  const fail = (why) => { proc.stderr.write('${REPLAY_ERROR_TAG} ' + why + '\\n'); proc.exit(3); };
  const lines = require('fs').readFileSync(require('path').join(__dirname, '${REPLAY_FILE}'), 'utf8').split('\\n');
  lines.pop();
  const calls = lines.length / 2;
  const dec = crucible_replay_decode;
  const cut = (s) => (s.length > 200 ? s.slice(0, 199) + '…' : s);
  let k = 0;
  return {
    call(args) {
      const mine = crucible_replay_text(args);
      if (k >= calls) fail('call ' + (k + 1) + ' ' + cut(mine) + ': the program\\'s run ended after ' + calls + ' calls');
      if (lines[2 * k] !== mine) {
        fail('call ' + (k + 1) + ': the program\\'s run diverged from the tests (it was called with ' + cut(lines[2 * k]) + ', the tests pass ' + cut(mine) + ')');
      }
      let r;
      try { r = dec(JSON.parse(lines[2 * k + 1]), 0); } catch (e) { fail('call ' + (k + 1) + ': a malformed recorded result (' + e.message + ')'); }
      k++;
      return r;
    },
    finish() {
      if (k !== calls) fail('the program\\'s run recorded ' + calls + ' calls, the tests made ' + k);
    },
  };
})();
`;

/** The test with its calls of `entry` routed to `target`, `Math.random()` to the tests' generator. */
function rewriteTest(test: string, entry: string, target: string): string {
  const escaped = entry.replace(/\$/g, '\\$');
  return test
    .replace(new RegExp(`(?<![\\w$.])${escaped}(?=\\s*\\()`, 'g'), target)
    .replace(/\bMath\.random\s*\(/g, 'crucible_test_random(');
}

/** HumanEval-X JavaScript replay (see the module comment). */
export const JAVASCRIPT_REPLAY: ReplaySplit = {
  prepare(problem: ScriptProblem): ReplayProblem | undefined {
    const m = ENTRY.exec(problem.prompt);
    const entry = m?.[1] ?? m?.[2];
    if (entry === undefined) return undefined;
    const target = `crucible_record_${entry.replace(/\$/g, '_')}`;
    const test = rewriteTest(problem.test, entry, target);
    const candidateTest = test.replace(/\bconsole\.assert\s*\(/g, 'crucible_no_assert(');
    const trustedProgram = assembleHumanEvalX('javascript', {
      setup: problem.setup ?? '',
      program: `${TEST_RANDOM}${ENCODER}${DECODER}${REPLAYER}${problem.prompt}\n}\nconst ${target} = (...args) => crucible_replay.call(args);\n`,
      test: `${test}\n;crucible_replay.finish();\n`,
    });
    const recording = (program: string, callee: string): string => `${problem.setup ?? ''}${TEST_RANDOM}${ENCODER}${RECORDER}${program}\n`
      + `;const ${target} = (...args) => crucible_record(${callee}, args);\n${candidateTest}\n`;
    const argumentPrograms = [
      ...(problem.canonicalSolution === undefined ? [] : [recording(problem.prompt + problem.canonicalSolution, entry)]),
      recording(`${problem.prompt}\n}\n`, '() => undefined'),
    ];
    return {
      entryPoint: entry,
      candidateProgram: (program) => `${problem.setup ?? ''}${ENCODER}${DECODER}${program}\n${driver(entry)}`,
      trustedProgram,
      argumentPrograms,
    };
  },
};
