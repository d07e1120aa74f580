/**
 * Replay judging of HumanEval-X `script` problems (the default dialect): the candidate's code and the tests'
 * assertions never share a process. HumanEval-X's tests are hand-written (loops, random inputs, helper functions
 * of the prompt), so they cannot be read as literal cases the way MultiPL-E's are (`../split.ts`); instead
 * the test's calls of the entry point are recorded in the candidate's box and replayed in a trusted one:
 *
 * 1. Candidate's box: the program (prompt + completion) and the test, whose calls of the entry point `f` are
 *    rewritten to a recorder that serialises the arguments (before the call), calls `f` and prints
 *    `CRUCIBLE-CALL <k> <args json> <result json>` (k = 0, 1, … in call order). The test's assertions there do not
 *    decide anything.
 * 2. Trusted box (no candidate code): the problem's setup, the prompt with the entry point's body replaced by a
 *    replay stub (the prompt's helper functions stay), the same rewritten test and an end-of-tests marker with a
 *    nonce given on stdin only. The k-th call reads record k from a file Crucible writes into the box, checks
 *    that its own serialised arguments are the recorded ones (else the candidate's run diverged: `wrong_answer`),
 *    turns the recorded result into a value of the declared return type (data only, never evaluated) and returns
 *    it; the test's own assertions then judge those values. Every record must be used.
 * 3. The verdict: the candidate's run must have ended `ok` (and by the benchmark's stdout/stderr rules), and the
 *    trusted run must exit 0 and print the marker with the nonce.
 *
 * A candidate that exits early leaves calls without a record; one that prints records itself either repeats a
 * call number (refused) or claims results the trusted tests then judge: printing passing results is solving the
 * problem. Tests drawing random inputs use a trusted generator with a fixed seed in both boxes (each language's
 * test rewrites), so the arguments of both runs are equal unless the candidate interferes, which fails it.
 * The trusted program's source depends on the problem only (records and nonce come as a file and on stdin), so a
 * compiled language compiles it once.
 *
 * Driven calls (problems whose `ReplayProblem` has `argumentPrograms`: every HumanEval-X problem of JavaScript, C++, Go,
 * Java and Rust): step 1 above puts the
 * test's source, with every expected literal, in the candidate's box (issue #23 item 2). Instead the test's calls
 * are first recorded in a trusted box (setup + prompt + the canonical solution when the problem has one, else a
 * stub returning nothing, + the test with its assertions disarmed; the first that ends `ok` with records wins; only
 * the arguments are kept; once per problem). The candidate's box then holds prompt + completion + a driver that
 * reads one argument list per stdin line as data, calls the entry point and prints one record per call: no test,
 * no expected value. The planned run gives the driver no calls (its program loads and exits); `judgeReplayRun`
 * runs it again with the arguments on stdin under the plan's limits, requires its records to carry the same
 * arguments in order (no more records than lines), and writes the trusted arguments with the candidate's results
 * into the trusted box of step 2 (whose stub says when the candidate's run ended early).
 * A test whose later arguments depend on earlier results follows the canonical solution's results; a candidate
 * whose results differ then diverges (`wrong_answer`) — except, with `linkResults` (Rust tests composing two
 * functions the candidate defines, `decode_cyclic(&encode_cyclic(&s))`), an argument that was an earlier result of
 * another function: it is sent as a reference the driver fills with its own result, as the one-process test did.
 */
import type { ScriptProblem } from '../../../formats/types.js';
import type { ExecutionResult } from '../../../sandbox/types.js';
import { reasonWithStderr, runStatus, shortReason, type TestResult } from '../../../verdict/index.js';
import type { ExecutionTools } from '../../../judge/plan.js';
import type { Program } from '../../../judge/judge.js';
import type { JudgeLimits } from '../../../limits.js';
import { stderrRuleFailure, stdoutRuleFailure } from '../output-rules.js';
import { EXPECTED_VALUES_LIMITS } from '../split.js';
import { SCRIPT_MARKER } from '../one-program.js';

/** The tag of a call record line printed in the candidate's box. */
export const CALL_TAG = 'CRUCIBLE-CALL';

/** The file of records written into the trusted box: per call, the arguments' line then the result's line. */
export const REPLAY_FILE = 'crucible-calls.txt';

/** The stderr line prefix by which a replay stub says why it refused a record (the text is the reason). */
export const REPLAY_ERROR_TAG = 'CRUCIBLE-REPLAY-ERROR';

/** At most this many call records are accepted from one run. */
const MAX_CALLS = 100_000;

/** One problem made ready for replay judging. */
export interface ReplayProblem {
  /** The entry point's name (the function the prompt ends with). */
  readonly entryPoint: string;
  /** The candidate's program around `program` (prompt + completion, or a whole solution). */
  candidateProgram(program: string): string;
  /** The trusted program (depends on the problem only). */
  readonly trustedProgram: string;
  /**
   * Present when the language keeps the test out of the candidate's box (see "Driven calls" in the module
   * comment): trusted programs (the problem's setup, prompt, canonical solution or a stub, and the test with its
   * calls of the entry point recorded) that print the test's calls as call records, tried in order until one ends
   * `ok` with records; only their arguments are used. `candidateProgram` is then a driver that reads one
   * argument list per stdin line and prints a call record per line.
   */
  readonly argumentPrograms?: readonly string[];
  /**
   * With `argumentPrograms`, when the tests call several functions and each argument list is led by the function's
   * tag (`[{"$fn": name}, a, ...]`, Rust): an argument equal to the result of an earlier call of another function
   * (`decode_cyclic(&encode_cyclic(&s))`) is sent as `{"$r": k}` (call k's result), which the driver replaces by
   * its own k-th result (`linkResults`, `resolveResults`).
   */
  readonly linkResults?: boolean;
}

/** Replay judging of one language (see the module comment). */
export interface ReplaySplit {
  /** The problem ready for replay, or undefined when its prompt or test is not in a shape this language handles. */
  prepare(problem: ScriptProblem): ReplayProblem | undefined;
}

/** Call records as parsed: per call, its arguments' line and its result's line (tagged JSON each). */
export interface CallRecords {
  /** The trusted box's file: per call, the arguments' line then the result's line. */
  readonly file: string;
  readonly count: number;
  readonly args: readonly string[];
  readonly results: readonly string[];
}

/** The call records of a candidate's stdout as the trusted box's file, or why they are refused. */
export function callRecords(stdout: string): CallRecords | { readonly error: string } {
  const args: string[] = [];
  const results: string[] = [];
  const prefix = `${CALL_TAG} `;
  for (const raw of stdout.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!line.startsWith(prefix)) continue;
    const m = /^(\d{1,9}) (\[.*)$/s.exec(line.slice(prefix.length));
    if (m === null) return { error: 'a malformed call record line' };
    const k = Number(m[1]);
    if (k !== args.length) {
      return { error: k < args.length ? `call ${k + 1} was recorded twice (record lines printed by the program itself)`
        : `call record ${k + 1} came out of order (record lines printed by the program itself)` };
    }
    if (k >= MAX_CALLS) return { error: `more than ${MAX_CALLS} calls were recorded` };
    const rest = m[2]!;
    const end = jsonEnd(rest);
    if (end < 0 || rest[end] !== ' ') return { error: `call ${k + 1}: a malformed call record (arguments)` };
    const argLine = rest.slice(0, end);
    const result = rest.slice(end + 1);
    try {
      JSON.parse(argLine);
      JSON.parse(result);
    } catch {
      return { error: `call ${k + 1}: a malformed call record (not JSON)` };
    }
    args.push(argLine);
    results.push(result);
  }
  return { file: recordsFile(args, results), count: args.length, args, results };
}

/** The trusted box's file of records: per call, the arguments' line then the result's line. */
function recordsFile(args: readonly string[], results: readonly string[]): string {
  return args.map((a, k) => `${a}\n${results[k]}\n`).join('');
}

/** The index just past the JSON array starting `text` (strings skipped), or -1. */
function jsonEnd(text: string): number {
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    const c = text[at]!;
    if (c === '"') {
      at++;
      while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
      continue;
    }
    if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return at + 1;
    }
  }
  return -1;
}

/** Whether a stdout line is a call record (so a benchmark's "nothing else on stdout" rule can ignore it). */
function isCallLine(line: string): boolean {
  return line.replace(/\r$/, '').startsWith(`${CALL_TAG} `);
}

/** Whether `stdout` holds the marker line with `nonce` (as `hasMarker` in `../script.ts`). */
function hasMarkerLine(stdout: string, nonce: string): boolean {
  return stdout.split('\n').some((line) => line.replace(/\r$/, '') === `${SCRIPT_MARKER} ${nonce}`);
}

/** The stub's reason from the trusted run's stderr, if it refused a record. */
function replayError(stderr: string): string | undefined {
  const line = stderr.split('\n').find((l) => l.startsWith(`${REPLAY_ERROR_TAG} `));
  return line?.slice(REPLAY_ERROR_TAG.length + 1).trim();
}

/** Why the test's calls could not be recorded by trusted programs: Crucible's (or the problem's) failure, an `internal_error`. */
export class ReplayArgumentsError extends Error {}

/** The candidate's driver and the limits it is judged under, for a driven replay (the second run in `judgeReplayRun`). */
export interface DrivenReplay {
  readonly program: Program;
  readonly limits: JudgeLimits;
}

/** The driven run made for a planned run (the planned run gives the driver no calls), for the verdict's detail. */
const drivenRuns = new WeakMap<ExecutionResult, ExecutionResult>();

/** The run whose output a failing replay test shows: the driven run made for `planned`, else `planned` itself. */
export function shownRun(planned: ExecutionResult): ExecutionResult {
  return drivenRuns.get(planned) ?? planned;
}

/** Remembered argument lines per prepared problem (a failure is not remembered). */
const argumentMemo = new WeakMap<ReplayProblem, Promise<readonly string[]>>();

/**
 * The argument lines (one tagged-JSON array per call, in call order) of the test's calls of the entry point,
 * from the first of `replay.argumentPrograms` that ends `ok` with at least one record; remembered per problem.
 * @throws ReplayArgumentsError when none does (with each one's reason).
 */
export function testCallArguments(language: string, replay: ReplayProblem, tools: ExecutionTools): Promise<readonly string[]> {
  let found = argumentMemo.get(replay);
  if (found === undefined) {
    found = recordArguments(language, replay, tools);
    argumentMemo.set(replay, found);
    found.catch(() => argumentMemo.delete(replay));
  }
  return found;
}

async function recordArguments(language: string, replay: ReplayProblem, tools: ExecutionTools): Promise<readonly string[]> {
  const programs = replay.argumentPrograms ?? [];
  // An empty list: the test makes no call (its code is commented out), so it has no arguments.
  if (replay.argumentPrograms !== undefined && programs.length === 0) return [];
  const why: string[] = [];
  for (const source of programs) {
    // A line on stdin: an assembly's end-of-tests epilogue reads one (and prints it, a marker no one checks here).
    const run = await tools.runProgram({ language, source }, '\n', EXPECTED_VALUES_LIMITS);
    const records = run.status === 'ok' ? callRecords(run.stdout) : { error: `ended ${run.status}: ${run.reason ?? ''} ${run.stderr.slice(0, 200)}`.trim() };
    if ('error' in records) why.push(records.error);
    else if (records.count === 0) why.push('it recorded no call');
    else return replay.linkResults === true ? linkResults(records.args, records.results) : records.args;
  }
  throw new ReplayArgumentsError(`no trusted program recorded the test's calls (${why.join('; ') || 'none given'})`);
}

/** The top-level elements' texts of a JSON array's text (as written by a replay encoder: no insignificant spaces). */
function arrayElements(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 1;
  for (let at = 1; at < text.length - 1; at++) {
    const c = text[at]!;
    if (c === '"') {
      at++;
      while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    } else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, at));
      start = at + 1;
    }
  }
  if (text.length > 2) out.push(text.slice(start, text.length - 1));
  return out;
}

/**
 * Tagged argument lines (`[{"$fn": name}, a, ...]`) with each argument equal (as text) to the result of the latest
 * earlier call of another function replaced by `{"$r": k}`, that call's index (see `ReplayProblem.linkResults`).
 */
export function linkResults(args: readonly string[], results: readonly string[]): string[] {
  const tags = args.map((a) => arrayElements(a)[0]);
  return args.map((line, k) => {
    const [tag, ...values] = arrayElements(line);
    if (tag === undefined || !tag.startsWith('{"$fn":')) return line;
    const linked = values.map((v) => {
      for (let j = k - 1; j >= 0; j--) if (tags[j] !== tag && results[j] === v) return `{"$r":${j}}`;
      return v;
    });
    return `[${[tag, ...linked].join(',')}]`;
  });
}

/** An argument line with each `{"$r": k}` replaced by `results[k]`, or undefined when a reference has no result. */
export function resolveResults(line: string, results: readonly string[]): string | undefined {
  let missing = false;
  // `{"$r":` cannot occur inside a JSON string (its quote would be escaped there).
  const out = line.replace(/\{"\$r":(\d+)\}/g, (_, k: string) => {
    const r = results[Number(k)];
    if (r === undefined) missing = true;
    return r ?? '';
  });
  return missing ? undefined : out;
}

/** A test result's index and the CPU and wall time (ms) of the candidate's runs behind it. */
interface RunBase {
  readonly index: number;
  readonly cpuMs: number;
  readonly wallMs: number;
}

/** The failing test result of a candidate's run that did not end `ok`. */
function failedRun(base: RunBase, result: ExecutionResult): TestResult {
  return { ...base, status: runStatus(result), reason: shortReason(reasonWithStderr(result.reason, result.stderr)) ?? result.status };
}

/**
 * The driven run (see the module comment): the test's argument lines on the driver's stdin, its records checked
 * against them. Returns the run and the trusted box's file, or the failing test result.
 */
async function drivenRun(problem: ScriptProblem, replay: ReplayProblem, driven: DrivenReplay, base: RunBase, planned: ExecutionResult,
  tools: ExecutionTools): Promise<TestResult | { readonly run: ExecutionResult; readonly file: string; readonly count: number }> {
  let args: readonly string[];
  try {
    args = await testCallArguments(problem.language, replay, tools);
  } catch (error) {
    if (!(error instanceof ReplayArgumentsError)) throw error;
    return { ...base, status: 'internal_error', reason: shortReason(error.message)! };
  }
  const run = await tools.runProgram(driven.program, args.map((a) => `${a}\n`).join(''), driven.limits);
  drivenRuns.set(planned, run);
  const sum = { ...base, cpuMs: base.cpuMs + run.cpuMs, wallMs: base.wallMs + run.wallMs };
  if (run.status !== 'ok') return failedRun(sum, run);
  const rule = stderrRuleFailure(problem, run.stderr) ?? stdoutRuleFailure(problem, run.stdout, isCallLine);
  if (rule !== undefined) return { ...sum, ...rule };
  const records = callRecords(run.stdout);
  if ('error' in records) return { ...sum, status: 'wrong_answer', reason: shortReason(records.error)! };
  if (records.count > args.length) {
    return { ...sum, status: 'wrong_answer', reason: `the program's run recorded ${records.count} calls, the tests make ${args.length}` };
  }
  // The trusted arguments with references to earlier results (`linkResults`) made the program's own results.
  const sent = args.slice(0, records.count).map((a, k) => resolveResults(a, records.results.slice(0, k)));
  const diverged = records.args.findIndex((a, k) => a !== sent[k]);
  if (diverged >= 0) {
    return { ...sum, status: 'wrong_answer', reason: shortReason(`call ${diverged + 1}: the program's run recorded other arguments than the tests pass`)! };
  }
  return { run: { ...run, cpuMs: sum.cpuMs, wallMs: sum.wallMs }, file: recordsFile(records.args, records.results), count: records.count };
}

/**
 * Judge the candidate's run of a replay problem (see the module comment): check its run (with `driven`, run the
 * driver on the test's calls first), then replay its records in the trusted box with `nonce` on stdin.
 */
export async function judgeReplayRun(problem: ScriptProblem, replay: ReplayProblem, nonce: string, index: number,
  result: ExecutionResult, tools: ExecutionTools, driven?: DrivenReplay): Promise<TestResult> {
  let base: RunBase = { index, cpuMs: result.cpuMs, wallMs: result.wallMs };
  if (result.status !== 'ok') return failedRun(base, result);
  let file: string;
  let count: number;
  if (driven !== undefined) {
    const d = await drivenRun(problem, replay, driven, base, result, tools);
    if ('status' in d) return d;
    ({ file, count } = d);
    base = { index, cpuMs: d.run.cpuMs, wallMs: d.run.wallMs };
  } else {
    const rule = stderrRuleFailure(problem, result.stderr) ?? stdoutRuleFailure(problem, result.stdout, isCallLine);
    if (rule !== undefined) return { ...base, ...rule };
    const records = callRecords(result.stdout);
    if ('error' in records) return { ...base, status: 'wrong_answer', reason: shortReason(records.error)! };
    ({ file, count } = records);
  }
  return replayInTrustedBox(problem, replay, nonce, base, file, count, tools);
}

/** The trusted box's verdict on the recorded results (`file`, `count` calls): passed when its tests ran to the end. */
async function replayInTrustedBox(problem: ScriptProblem, replay: ReplayProblem, nonce: string, base: RunBase,
  file: string, count: number, tools: ExecutionTools): Promise<TestResult> {
  const trusted = await tools.runProgram({ language: problem.language, source: replay.trustedProgram }, `${nonce}\n`,
    EXPECTED_VALUES_LIMITS, { [REPLAY_FILE]: file });
  if (trusted.status === 'compile_error' || trusted.status === 'internal_error') {
    return { ...base, status: 'internal_error',
      reason: shortReason(`the trusted replay program ended ${trusted.status}: ${trusted.reason ?? ''} ${trusted.stderr.slice(0, 400)}`.trim())! };
  }
  const refused = replayError(trusted.stderr);
  if (refused !== undefined) return { ...base, status: 'wrong_answer', reason: shortReason(`replaying the recorded calls: ${refused}`)! };
  if (trusted.status !== 'ok') {
    return { ...base, status: 'wrong_answer', reason: shortReason(`the tests failed on the program's recorded results (${count} calls): `
      + `${reasonWithStderr(trusted.reason, trusted.stderr) ?? trusted.status}`)! };
  }
  if (!hasMarkerLine(trusted.stdout, nonce)) {
    return { ...base, status: 'wrong_answer', reason: 'the tests did not run to the end on the program\'s recorded results' };
  }
  return { ...base, status: 'passed' };
}
