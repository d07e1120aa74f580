/**
 * Drivers that replay each trainer client's requests against a server and derive the score or status exactly as
 * its contract (test/conformance/contracts/*.json) says the client does: verl's compute_score / check_correctness,
 * the SandboxFusion SDK's run_code, OpenRLHF's remote reward call, open-r1's Piston send_execute and its Codeforces
 * (score_submission) and IOI (score_subtasks) scorers. Written for the tests from the contracts; no upstream code.
 * Every driver also collects what in the server's answers the client could not read (`problems`).
 */
import { setTimeout as sleepMs } from 'node:timers/promises';
import {
  buildBody, ContestContractSchema, decide, exchange, loadContract, pythonRound, responseProblems, semaphore,
  WireContractSchema, type ContestContract, type Exchange, type ReplayOptions, type WireContract,
} from './contract.js';

export const VERL = loadContract('verl-sandbox-fusion', WireContractSchema);
export const SDK = loadContract('sandbox-fusion-sdk', WireContractSchema);
export const OPENRLHF = loadContract('openrlhf-remote-rm', WireContractSchema);
export const PISTON = loadContract('open-r1-piston', WireContractSchema);
export const CONTEST: ContestContract = loadContract('open-r1-contest', ContestContractSchema);

/** A replay's server, its time scale, and where answers the client could not read are collected. */
export interface DriverContext extends ReplayOptions {
  readonly problems: string[];
}

/** Exchange, and note every way the accepted answer differs from what the client reads. */
async function call(ctx: DriverContext, contract: WireContract, body: unknown, params: Record<string, unknown> = {}): Promise<Exchange> {
  const result = await exchange(contract, body, params, ctx);
  if (result.ok) for (const problem of responseProblems(contract, result.json)) ctx.problems.push(`${contract.request.path}: ${problem}`);
  return result;
}

// ---- verl --------------------------------------------------------------------------------------------------------

/** One test case's result as verl files it: true, false, or -1 .. -4 (contract `outcome`), with its status. */
export interface VerlCase {
  readonly result: boolean | number;
  readonly status: string;
}

/** The code compute_score takes from a completion (contract `scoring.extract`); null when there is no fence. */
export function verlExtract(completion: string): string | null {
  if (completion.includes('```python')) return completion.split('```python').at(-1)!.split('```')[0]!;
  if (!completion.includes('```')) return null;
  const parts = completion.split('```');
  let solution = parts[1]!;
  const newline = solution.indexOf('\n');
  if (newline >= 0 && /^[A-Za-z]+$/.test(solution.slice(0, newline).trim())) solution = solution.slice(newline + 1);
  return solution;
}

/** verl's check_correctness: one request per case, `concurrency` at once; compile errors spread to later cases. */
export async function verlCheckCorrectness(
  ctx: DriverContext, inOuts: { inputs: (string | null)[]; outputs: (string | null)[]; assert_case?: string[] }, generation: string,
  options: { timeout?: number; memoryLimitMb?: number; language?: string; concurrency?: number } = {},
): Promise<VerlCase[]> {
  const language = options.language ?? 'python';
  const limit = semaphore(options.concurrency ?? 8);
  const cases = await Promise.all(inOuts.inputs.map((input, i) => limit(async (): Promise<VerlCase> => {
    if (!VERL.request.languages!.includes(language)) return { result: -1, status: 'api_error' };
    const params = {
      timeout: options.timeout, memory_limit_mb: options.memoryLimitMb, language,
      code: `${generation}\n\n${inOuts.assert_case?.[i] ?? ''}`, stdin: input === null ? null : String(input),
    };
    const answer = await call(ctx, VERL, buildBody(VERL, params));
    if (!answer.ok) return { result: -1, status: 'api_error' };
    const then = decide(VERL.outcome!.rules, { ...(answer.json as Record<string, unknown>), expected: inOuts.outputs[i] ?? null });
    return then as VerlCase;
  })));
  const firstCompileError = cases.findIndex((c) => c.result === -4);
  if (firstCompileError < 0) return cases;
  return cases.map((c, i) => (i > firstCompileError && c.result !== -4 ? { result: -4, status: 'compile_error_skipped' } : c));
}

/** verl's compute_score: (score, per-case statuses), the score the fraction of cases whose result is true. */
export async function verlComputeScore(
  ctx: DriverContext, completion: string, testCases: { inputs: string[]; outputs: string[] },
  options: { timeout?: number; memoryLimitMb?: number; continuous?: boolean } = {},
): Promise<{ score: number; statuses: string[] }> {
  const solution = verlExtract(completion);
  if (solution === null) return { score: 0, statuses: [] };
  const cases = await verlCheckCorrectness(ctx, testCases, solution, { timeout: options.timeout ?? 10, memoryLimitMb: options.memoryLimitMb ?? 1024 });
  const considered = options.continuous ? cases.slice(0, 10) : cases;
  const passed = considered.filter((c) => c.result === true).length;
  return { score: considered.length === 0 ? 0 : passed / considered.length, statuses: cases.map((c) => c.status) };
}

// ---- SandboxFusion SDK -------------------------------------------------------------------------------------------

/** The SDK's RunCodeRequest (its defaults are the contract's). */
export interface SdkRequest {
  readonly code: string;
  readonly language: string;
  readonly stdin?: string | null;
  readonly compile_timeout?: number;
  readonly run_timeout?: number;
  readonly files?: Record<string, string>;
  readonly fetch_files?: string[];
}

/** The SDK's run_code: the parsed response, or the error it raises (after its attempts). */
export async function sdkRunCode(ctx: DriverContext, request: SdkRequest, maxAttempts?: number): Promise<Record<string, unknown>> {
  if (!SDK.request.languages!.includes(request.language)) throw new Error(`1 validation error for RunCodeRequest: language "${request.language}"`);
  const answer = await call(ctx, SDK, buildBody(SDK, { ...request }), maxAttempts === undefined ? {} : { max_attempts: maxAttempts });
  if (!answer.ok) {
    if (answer.status !== null && answer.status !== 200) throw new Error(`Faas api responded with code ${answer.status}: ${answer.text}`);
    const body = (answer.json ?? safeJson(answer.text)) as Record<string, unknown> | null;
    if (body?.['status'] === 'SandboxError') throw new Error(`Sandbox responded with error: ${String(body['message'])}`);
    throw new Error(`request failed: ${answer.failure}`);
  }
  const then = decide(SDK.outcome!.rules, answer.json as Record<string, unknown>) as { raise?: string };
  if (then.raise !== undefined) throw new Error(then.raise);
  return answer.json as Record<string, unknown>;
}

function safeJson(text: string): unknown {
  try { return JSON.parse(text); } catch { return null; }
}

// ---- OpenRLHF ----------------------------------------------------------------------------------------------------

/** What OpenRLHF keeps of a sample after the remote reward call (reward and scores null when it gave up). */
export interface OpenRlhfReward {
  readonly reward: unknown;
  readonly scores: unknown;
  readonly extraLogs: Record<string, unknown>;
}

/** OpenRLHF's single-turn executor with --remote_rm_url: the query is prompt + response + the end token. */
export async function openrlhfReward(ctx: DriverContext, sample: { prompt: string; response: string; label: string; endToken: string }): Promise<OpenRlhfReward> {
  const query = `${sample.prompt}${sample.response}${sample.endToken}`;
  const answer = await call(ctx, OPENRLHF, buildBody(OPENRLHF, { query: [query], prompts: [sample.prompt], labels: [sample.label] }));
  if (!answer.ok || answer.json === null || typeof answer.json !== 'object') return { reward: null, scores: null, extraLogs: {} };
  const then = decide(OPENRLHF.outcome!.rules, answer.json as Record<string, unknown>) as { reward: unknown; scores: unknown; extraLogs: unknown };
  const extraLogs = then.extraLogs !== null && typeof then.extraLogs === 'object' ? then.extraLogs as Record<string, unknown> : {};
  return { reward: then.reward ?? null, scores: then.scores ?? null, extraLogs };
}

/** Whether torch.tensor([value]) works on every extra_logs value: a number or a list of numbers. */
export function numericLogs(logs: Record<string, unknown>): boolean {
  const number = (v: unknown): boolean => typeof v === 'number';
  return Object.values(logs).every((v) => number(v) || (Array.isArray(v) && v.every(number)));
}

// ---- open-r1 -----------------------------------------------------------------------------------------------------

/** open-r1's PistonClient: a base URL (`.../api/v2`'s server), at most `maxRequests` jobs at once. */
export interface PistonClient {
  readonly ctx: DriverContext;
  readonly limit: <T>(work: () => Promise<T>) => Promise<T>;
}

export function pistonClient(ctx: DriverContext, maxRequests = 1): PistonClient {
  return { ctx, limit: semaphore(maxRequests) };
}

/** One Piston job as the caller gives it to send_execute. */
export interface PistonJob {
  readonly files: { name: string; content: string }[];
  readonly stdin?: string;
  readonly run_timeout?: number;
  readonly run_cpu_time?: number;
  readonly run_memory_limit?: number;
}

/**
 * send_execute: the JSON answer, or null when every attempt failed (after the contract's health check).
 * @throws Error when an answer is not JSON (the client does not retry that).
 */
export async function pistonExecute(client: PistonClient, job: PistonJob, language = 'cms_ioi', maxRetries?: number): Promise<Record<string, unknown> | null> {
  const { ctx } = client;
  return client.limit(async () => {
    const params = { ...job, language, ...(maxRetries === undefined ? {} : { max_retries: maxRetries }) };
    const answer = await call(ctx, PISTON, buildBody(PISTON, params), params);
    if (answer.ok) return answer.json as Record<string, unknown>;
    if (answer.failure === 'not json') throw new Error(`Piston answered ${answer.status} with a body that is not JSON`);
    const check = PISTON.retry.healthCheck!;
    await sleepMs(check.afterSeconds * 1000 * (ctx.timeScale ?? 1));
    const health = await fetch(`${ctx.baseUrl}${check.path}`);
    if (!health.ok) throw new Error(`PistonError: every endpoint is unhealthy (${check.path} answered ${health.status})`);
    return null;
  });
}

/** A Codeforces problem as open-r1's data gives it. */
export interface CodeforcesProblem {
  readonly id: string;
  readonly official_tests: { input: string; output: string }[];
  readonly generated_checker: string | null;
  readonly time_limit: number;
  readonly memory_limit: number;
  readonly input_mode: string;
}

/** Python's str() of a number as grader_config writes it (1.0 stays 1.0). */
function pythonStr(value: number | string, float: boolean): string {
  if (typeof value === 'string') return value;
  return float && Number.isInteger(value) ? value.toFixed(1) : String(value);
}

/** One Codeforces test through the `codeforces` package (contract `codeforces.files`); null when it failed. */
async function cfTest(client: PistonClient, problem: CodeforcesProblem, test: { input: string; output: string }, submission: string, language: 'cpp' | 'python'): Promise<Record<string, unknown> | null> {
  const cf = CONTEST.codeforces;
  const files = [
    { name: `main.${language}`, content: submission },
    ...(problem.generated_checker ? [{ name: 'checker.py', content: problem.generated_checker }] : []),
    { name: 'input.txt', content: test.input },
    { name: 'correct_output.txt', content: test.output },
    {
      name: 'grader_config',
      content: [['TIME_LIMIT', pythonStr(problem.time_limit, true)], ['MEMORY_LIMIT', pythonStr(problem.memory_limit, false)], ['INPUT_MODE', problem.input_mode]]
        .map(([key, value]) => `${key}=${value}`).join('\n'),
    },
  ];
  try {
    return await pistonExecute(client, { files, run_timeout: (problem.time_limit + cf.runTimeoutMs.timeLimitSecondsPlus) * cf.runTimeoutMs.times }, cf.language[language]);
  } catch {
    return null; // score_single_test_case counts any exception as a failed test
  }
}

/** open-r1's score_submission (contract `codeforces.rules`). */
export async function cfScoreSubmission(
  client: PistonClient, problem: CodeforcesProblem, submission: string,
  options: { testBatchSize?: number; scoringMode?: 'pass_fail' | 'partial' | 'weighted_sum'; submissionLanguage?: 'cpp' | 'python' } = {},
): Promise<number | null> {
  const defaults = CONTEST.codeforces.defaults;
  const batchSize = options.testBatchSize ?? defaults.test_batch_size;
  const mode = options.scoringMode ?? defaults.scoring_mode;
  const tests = problem.official_tests; // generated tests: none in CF_TESTS_FOLDER here
  if (tests.length === 0) return null;
  if (!submission) return defaults.no_submission_reward;
  const batches = batchSize >= 1 ? Array.from({ length: Math.ceil(tests.length / batchSize) }, (_, i) => tests.slice(i * batchSize, (i + 1) * batchSize)) : [tests];
  let passed = 0;
  for (const batch of batches) {
    const results = await Promise.all(batch.map((test) => cfTest(client, problem, test, submission, options.submissionLanguage ?? defaults.submission_language)));
    if (results.some((r) => r !== null && (r['compile'] as { code: unknown }).code !== 0)) return defaults.no_compile_reward;
    const ok = results.map((r) => r !== null && (r['run'] as { code: unknown }).code === 0 && String((r['run'] as { stdout: unknown }).stdout).trim() === '1');
    if (mode === 'pass_fail' && ok.some((x) => !x)) break;
    passed += ok.filter(Boolean).length;
  }
  const passFail = passed === tests.length ? 1.0 : 0.0;
  if (mode === 'pass_fail') return passFail;
  if (mode === 'partial') return passed / tests.length;
  return passFail + 0.1 * (passed / tests.length);
}

/** open-r1's add_includes (contract `ioi.addIncludes`). */
export function addIncludes(code: string, problemId: string): string {
  if (!code) return code;
  let header = '#include <bits/stdc++.h>\n';
  const own = `#include "${problemId}.h"`;
  if (!code.includes(own)) header += `${own}\n`;
  if (!code.includes('using namespace std;') && !code.includes('std::')) header += '\nusing namespace std;\n\n';
  return header + code;
}

/** An IOI subtask as open-r1 scores it. */
export interface IoiSubtask {
  readonly id: string;
  readonly subtask: string;
  readonly score: number;
  readonly score_precision: number;
  readonly test_names: string[];
  readonly test_cases: Record<string, [string, string]>;
  readonly time_limit: number;
  readonly memory_limit: number;
  readonly grader_files: [string, string][];
}

interface TestResult { readonly name: string; readonly score: number; readonly status: string }

/** A subtask's result: its tests, and the score, weighted score and status open-r1 derives from them. */
export interface SubtaskResult {
  readonly score: number;
  readonly weightedScore: number;
  readonly status: string;
  readonly tests: readonly TestResult[];
}

const STATUS_ORDER: Record<string, number> = { CE: -1, RE: 0, WA: 1, MLE: 2, TLE: 3, PA: 4, AC: 5, SKIPPED: 999 };

function subtaskResult(subtask: IoiSubtask, tests: TestResult[]): SubtaskResult {
  if (tests.length === 0) return { score: 0, weightedScore: 0, status: 'SKIPPED', tests };
  const low = Math.min(...tests.map((t) => t.score));
  const status = tests.map((t) => t.status).reduce((a, b) => (STATUS_ORDER[b]! < STATUS_ORDER[a]! ? b : a));
  return { score: pythonRound(low, subtask.score_precision), weightedScore: pythonRound(low * subtask.score, subtask.score_precision), status, tests };
}

/** One IOI test through the `cms_ioi` package, scored by execute_ioi's and the status table of the contract. */
async function ioiTest(client: PistonClient, subtask: IoiSubtask, name: string, submission: string): Promise<TestResult> {
  const ioi = CONTEST.ioi;
  const [input, output] = subtask.test_cases[name]!;
  const files = [
    { name: `graders/${subtask.id.toLowerCase()}.cpp`, content: submission },
    { name: 'input.txt', content: input },
    ...(output ? [{ name: 'correct_output.txt', content: output }] : []),
    ...subtask.grader_files.filter(([, content]) => content).map(([fileName, content]) => ({ name: fileName, content })),
  ];
  const runTimeout = Math.round((subtask.time_limit + ioi.runTimeoutMs.timeLimitSecondsPlus) * ioi.runTimeoutMs.times);
  const response = await pistonExecute(client, { files, run_timeout: runTimeout, run_memory_limit: subtask.memory_limit }, ioi.language);
  if (response === null) throw new TypeError('argument of type \'NoneType\' is not iterable (send_execute gave up)');
  const then = decide(ioi.execute, response) as { raise?: string; score?: string; feedback?: string };
  if (then.raise !== undefined) throw new Error(then.raise);
  const score = Number(then.score);
  if (!Number.isFinite(score)) throw new Error(`could not convert string to float: ${JSON.stringify(then.score)}`);
  return { name, score, status: decide(ioi.testStatus, { score, feedback: then.feedback ?? '' }) as string };
}

/** open-r1's score_subtasks (contract `ioi.scoreSubtasks`), with skip_mode's batches of one. */
export async function ioiScoreSubtasks(client: PistonClient, subtasks: readonly IoiSubtask[], submission: string, skipMode = true): Promise<SubtaskResult[]> {
  const cache = new Map<string, TestResult>();
  const out: SubtaskResult[] = [];
  for (const subtask of subtasks) {
    const tests: TestResult[] = subtask.test_names.map((name) => cache.get(name) ?? { name, score: 0, status: 'SKIPPED' });
    if (!submission || tests.some((t) => t.status !== 'SKIPPED' && t.score === 0)) {
      out.push(subtaskResult(subtask, tests));
      continue;
    }
    const toRun = subtask.test_names.map((name, index) => ({ name, index })).filter(({ name }) => !cache.has(name));
    const batchSize = skipMode ? 1 : toRun.length;
    for (let at = 0; at < toRun.length; at += Math.max(batchSize, 1)) {
      const batch = toRun.slice(at, at + Math.max(batchSize, 1));
      const results = await Promise.all(batch.map(({ name }) => ioiTest(client, subtask, name, submission)));
      batch.forEach(({ name, index }, i) => { cache.set(name, results[i]!); tests[index] = results[i]!; });
      if (results.some((r) => r.score === 0)) break;
    }
    out.push(subtaskResult(subtask, tests));
  }
  return out;
}
