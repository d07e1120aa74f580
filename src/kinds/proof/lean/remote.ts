/**
 * Lean 4 judged through the operator's kimina-lean-server-compatible endpoint (`./client.ts`): the endpoint
 * setting, and one judgement (the problem's reference outputs, then the candidate's check, then `leanJudgement`).
 *
 * - **Endpoint**: the operator's, never a request's: `CRUCIBLE_LEAN_ENDPOINT` (a base URL; `crucible eval` and
 *   `crucible serve` set it from `--lean-endpoint`), optionally `CRUCIBLE_LEAN_API_KEY`. Without it a Lean problem
 *   cannot be judged: `LeanEndpointMissing`, Crucible's missing configuration (`internal_error`), never `failed`.
 * - **Time limit**: the judgement's time limit (`JudgeLimits.cpuMs`, `--time-limit`) is the server's limit per code
 *   (sent in whole seconds); our own deadline on the HTTP request is twice it plus `LEAN_GRACE_MS` (the server's
 *   queueing and Lean's start): a server that has not answered by then is the candidate's `timeout`, enforced from
 *   our side whatever the server does.
 * - **Server failures**: unreachable, 5xx, an answer out of shape, a REPL crash: `LeanServerError`
 *   (`internal_error`). HTTP 429 (`No available REPLs`) is tried again `LEAN_BUSY_RETRIES` times with a growing
 *   pause, then `LeanServerError`.
 * - **Reference**: our commands after the problem's statement file (proofs `sorry`) give the statements as Lean
 *   prints them; computed once per endpoint and problem in this process (a bounded map), never from a candidate.
 *   A statement file that does not check is the problem's failure: `LeanReferenceError` (`internal_error`).
 * The candidate's text leaves Crucible only in the `/verify` request; nothing of it runs on this machine.
 */
import { createHash } from 'node:crypto';
import type { LeanProofProblem } from '../../../formats/types.js';
import { LEAN_DEFAULT_AXIOMS, leanCheckCode, leanOutputs, type LeanOutputs } from './audit.js';
import { leanVerify, LeanServerError, type LeanServerOptions, type LeanVerifyResult } from './client.js';
import { leanJudgement, type LeanJudgement } from './verdict.js';

/** The environment variable naming the Lean endpoint's base URL. */
export const LEAN_ENDPOINT_ENV = 'CRUCIBLE_LEAN_ENDPOINT';
/** The environment variable holding an optional API key for the endpoint (`Authorization: Bearer`). */
export const LEAN_API_KEY_ENV = 'CRUCIBLE_LEAN_API_KEY';
/** What our HTTP deadline adds to twice the time limit (ms): the server's queueing, Lean's start, the network. */
export const LEAN_GRACE_MS = 1_000;
/** How many more times a 429 answer is tried. */
export const LEAN_BUSY_RETRIES = 3;
/** The first pause after a 429 (ms), doubled each time. */
const BUSY_PAUSE_MS = 100;
/** How many problems' reference outputs are remembered. */
const REFERENCE_CAPACITY = 512;

/** No endpoint is configured: Crucible's configuration is missing (the judge answers `internal_error`). */
export class LeanEndpointMissing extends Error {
  constructor() {
    super(`Lean proofs are checked by a kimina-lean-server-compatible endpoint, and none is configured: start Crucible with --lean-endpoint URL or set ${LEAN_ENDPOINT_ENV}`);
    this.name = 'LeanEndpointMissing';
  }
}

/** The problem's statement file does not check on the endpoint (the problem's failure, `internal_error`). */
export class LeanReferenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LeanReferenceError';
  }
}

/** The configured endpoint (`LEAN_ENDPOINT_ENV`, `LEAN_API_KEY_ENV`). @throws LeanEndpointMissing when unset or not an http(s) URL. */
export function leanEndpoint(env: NodeJS.ProcessEnv = process.env): { readonly url: string; readonly apiKey?: string } {
  const url = env[LEAN_ENDPOINT_ENV]?.trim() ?? '';
  if (url === '') throw new LeanEndpointMissing();
  if (!/^https?:\/\/[^\s]+$/.test(url)) throw new Error(`${LEAN_ENDPOINT_ENV} is not an http(s) URL: "${url}"`);
  const apiKey = env[LEAN_API_KEY_ENV];
  return apiKey === undefined || apiKey === '' ? { url } : { url, apiKey };
}

/** What a Lean run carries for its judgement (trusted side only): the endpoint, the problem, the candidate, the time limit (ms). */
export interface LeanCheck {
  readonly checker: 'lean';
  readonly endpoint: { readonly url: string; readonly apiKey?: string };
  readonly problem: LeanProofProblem;
  readonly candidate: string;
  readonly timeLimitMs: number;
}

/** The client's options for a check under `timeLimitMs`. */
function serverOptions(check: Pick<LeanCheck, 'endpoint' | 'timeLimitMs'>): LeanServerOptions {
  return { url: check.endpoint.url, timeoutMs: check.timeLimitMs, requestTimeoutMs: 2 * check.timeLimitMs + LEAN_GRACE_MS,
    ...(check.endpoint.apiKey === undefined ? {} : { apiKey: check.endpoint.apiKey }) };
}

/**
 * One code verified, 429 tried again (see the module comment); our deadline passing is a `timeout` result
 * (`leanVerify`). @throws LeanServerError
 */
async function verifyOne(options: LeanServerOptions, id: string, code: string): Promise<LeanVerifyResult> {
  for (let attempt = 0; ; attempt++) {
    try {
      const [result] = await leanVerify(options, [{ id, code }]);
      return result!;
    } catch (error) {
      if (error instanceof LeanServerError && error.status === 429 && attempt < LEAN_BUSY_RETRIES) {
        await new Promise((resolve) => setTimeout(resolve, BUSY_PAUSE_MS * 2 ** attempt));
        continue;
      }
      throw error;
    }
  }
}

const references = new Map<string, Promise<LeanOutputs>>();

/** The problem's reference outputs on this endpoint, made once (see the module comment). */
function leanReference(check: LeanCheck): Promise<LeanOutputs> {
  const key = createHash('sha256').update(JSON.stringify([check.endpoint.url, check.problem.statement, check.problem.theorems])).digest('hex');
  let pending = references.get(key);
  if (pending === undefined) {
    pending = (async () => {
      const ref = leanCheckCode(check.problem.statement, check.problem.theorems, []);
      const result = await verifyOne(serverOptions({ ...check, timeLimitMs: Math.max(check.timeLimitMs, 60_000) }), 'reference', ref.code);
      if (result.kind === 'error') throw new LeanServerError(`Lean server failed on the statement of ${check.problem.taskId}: ${result.error}`);
      if (result.kind === 'timeout') throw new LeanReferenceError(`the statement of ${check.problem.taskId} did not check in time: ${result.error}`);
      const error = result.messages.find((m) => m.severity === 'error');
      if (error !== undefined) throw new LeanReferenceError(`the statement of ${check.problem.taskId} does not check: line ${error.pos.line}: ${error.data.split('\n')[0]}`);
      return leanOutputs(result.messages, ref.blocks);
    })();
    if (references.size >= REFERENCE_CAPACITY) references.delete(references.keys().next().value!);
    references.set(key, pending);
    pending.catch(() => references.delete(key));
  }
  return pending;
}

/**
 * Judge a Lean candidate on the endpoint (see the module comment): the verdict, its findings and reason, and how
 * long the server took (ms). @throws LeanServerError, LeanReferenceError (Crucible's or the problem's failures)
 */
export async function judgeLean(check: LeanCheck): Promise<LeanJudgement & { readonly wallMs: number }> {
  const reference = await leanReference(check);
  const mine = leanCheckCode(check.candidate, check.problem.theorems, []);
  const started = performance.now();
  const result = await verifyOne(serverOptions(check), 'candidate', mine.code);
  const wallMs = Math.round(performance.now() - started);
  const judgement = leanJudgement({ statement: check.problem.statement, reference, allowedAxioms: check.problem.allowedAxioms ?? LEAN_DEFAULT_AXIOMS,
    blocks: mine.blocks, candidate: check.candidate, result });
  return { ...judgement, wallMs };
}
