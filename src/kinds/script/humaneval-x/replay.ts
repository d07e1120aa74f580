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
 */
import type { ScriptProblem } from '../../../formats/types.js';
import type { ExecutionResult } from '../../../sandbox/types.js';
import { reasonWithStderr, runStatus, shortReason, type TestResult } from '../../../verdict/index.js';
import type { ExecutionTools } from '../../../judge/plan.js';
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
}

/** Replay judging of one language (see the module comment). */
export interface ReplaySplit {
  /** The problem ready for replay, or undefined when its prompt or test is not in a shape this language handles. */
  prepare(problem: ScriptProblem): ReplayProblem | undefined;
}

/** The call records of a candidate's stdout as the trusted box's file, or why they are refused. */
export function callRecords(stdout: string): { readonly file: string; readonly count: number } | { readonly error: string } {
  const out: string[] = [];
  const prefix = `${CALL_TAG} `;
  for (const raw of stdout.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!line.startsWith(prefix)) continue;
    const m = /^(\d{1,9}) (\[.*)$/s.exec(line.slice(prefix.length));
    if (m === null) return { error: 'a malformed call record line' };
    const k = Number(m[1]);
    if (k !== out.length / 2) {
      return { error: k < out.length / 2 ? `call ${k + 1} was recorded twice (record lines printed by the program itself)`
        : `call record ${k + 1} came out of order (record lines printed by the program itself)` };
    }
    if (k >= MAX_CALLS) return { error: `more than ${MAX_CALLS} calls were recorded` };
    const rest = m[2]!;
    const end = jsonEnd(rest);
    if (end < 0 || rest[end] !== ' ') return { error: `call ${k + 1}: a malformed call record (arguments)` };
    const args = rest.slice(0, end);
    const result = rest.slice(end + 1);
    try {
      JSON.parse(args);
      JSON.parse(result);
    } catch {
      return { error: `call ${k + 1}: a malformed call record (not JSON)` };
    }
    out.push(args, result);
  }
  return { file: out.map((l) => `${l}\n`).join(''), count: out.length / 2 };
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

/**
 * Judge the candidate's run of a replay problem (see the module comment): check its run, then replay its records
 * in the trusted box with `nonce` on stdin.
 */
export async function judgeReplayRun(problem: ScriptProblem, replay: ReplayProblem, nonce: string, index: number,
  result: ExecutionResult, tools: ExecutionTools): Promise<TestResult> {
  const base = { index, cpuMs: result.cpuMs, wallMs: result.wallMs };
  if (result.status !== 'ok') {
    return { ...base, status: runStatus(result), reason: shortReason(reasonWithStderr(result.reason, result.stderr)) ?? result.status };
  }
  const rule = stderrRuleFailure(problem, result.stderr) ?? stdoutRuleFailure(problem, result.stdout, isCallLine);
  if (rule !== undefined) return { ...base, ...rule };
  const records = callRecords(result.stdout);
  if ('error' in records) return { ...base, status: 'wrong_answer', reason: shortReason(records.error)! };
  const trusted = await tools.runProgram({ language: problem.language, source: replay.trustedProgram }, `${nonce}\n`,
    EXPECTED_VALUES_LIMITS, { [REPLAY_FILE]: records.file });
  if (trusted.status === 'compile_error' || trusted.status === 'internal_error') {
    return { ...base, status: 'internal_error',
      reason: shortReason(`the trusted replay program ended ${trusted.status}: ${trusted.reason ?? ''} ${trusted.stderr.slice(0, 400)}`.trim())! };
  }
  const refused = replayError(trusted.stderr);
  if (refused !== undefined) return { ...base, status: 'wrong_answer', reason: shortReason(`replaying the recorded calls: ${refused}`)! };
  if (trusted.status !== 'ok') {
    return { ...base, status: 'wrong_answer', reason: shortReason(`the tests failed on the program's recorded results (${records.count} calls): `
      + `${reasonWithStderr(trusted.reason, trusted.stderr) ?? trusted.status}`)! };
  }
  if (!hasMarkerLine(trusted.stdout, nonce)) {
    return { ...base, status: 'wrong_answer', reason: 'the tests did not run to the end on the program\'s recorded results' };
  }
  return { ...base, status: 'passed' };
}
