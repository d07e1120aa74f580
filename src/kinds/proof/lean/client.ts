/**
 * A client of a kimina-lean-server-compatible `/verify` endpoint (project-numina/kimina-lean-server,
 * `app/routers/backward.py` and `app/schemas.py`): Lean 4 is not installable from Debian, so Lean proofs are
 * checked by such a server that the user runs, and Crucible only sends the code and audits the answer
 * (`./audit.ts`).
 *
 * Request (POST `<url>/verify`, JSON): `{codes: [{custom_id, proof}], timeout: <seconds>, disable_cache}`.
 * Response: `{results: [{custom_id, error: string|null, response?: {env, messages?: [{severity, pos: {line,
 * column}, endPos?, data}], sorries?: [...], time?}}]}`. `error` is the server's: `Lean REPL command timed out in
 * N seconds` (a time-out), or a REPL failure. HTTP 429 (`No available REPLs`) and 5xx are the server's failures.
 * Every answer is validated (zod); an answer that is not this shape is a `LeanServerError`, never a verdict.
 */
import { z } from 'zod';
import type { LeanMessage } from './audit.js';

/** The server failed or answered out of shape (Crucible's side of the line: `internal_error`, retried). */
export class LeanServerError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'LeanServerError';
  }
}

const PosSchema = z.object({ line: z.number().int(), column: z.number().int() }).passthrough();
const MessageSchema = z.object({
  severity: z.enum(['trace', 'info', 'warning', 'error']), pos: PosSchema, endPos: PosSchema.nullable().optional(), data: z.string(),
}).passthrough();
const ResultSchema = z.object({
  custom_id: z.union([z.string(), z.number()]).transform(String),
  error: z.string().nullable().optional(),
  response: z.object({
    env: z.number().int().optional(),
    messages: z.array(MessageSchema).optional(),
    sorries: z.array(z.unknown()).optional(),
    time: z.number().optional(),
  }).passthrough().nullable().optional(),
}).passthrough();
const VerifyResponseSchema = z.object({ results: z.array(ResultSchema) }).passthrough();

/** One verified code: the server's error (a time-out or REPL failure), or its messages and sorries. */
export type LeanVerifyResult =
  | { readonly id: string; readonly kind: 'timeout'; readonly error: string }
  | { readonly id: string; readonly kind: 'error'; readonly error: string }
  | { readonly id: string; readonly kind: 'checked'; readonly messages: readonly LeanMessage[]; readonly sorries: number };

/** Where the server is and how long a check may take. */
export interface LeanServerOptions {
  /** Base URL, e.g. `http://localhost:8000` (the request goes to `<url>/verify`). */
  readonly url: string;
  /** The server's own time limit per code, ms (sent in seconds, rounded up). */
  readonly timeoutMs: number;
  /** Our HTTP deadline for the whole request, ms (default: the server's time limit plus 30 s). */
  readonly requestTimeoutMs?: number;
  /** An API key, sent as `Authorization: Bearer <key>` when given. */
  readonly apiKey?: string;
}

/**
 * Verify `codes` (id -> Lean source) in one request. Our deadline (`requestTimeoutMs`) passing makes every code a
 * `timeout` result (the time limit is enforced from our side). Throws `LeanServerError`; rejects with `signal`'s reason.
 */
export async function leanVerify(options: LeanServerOptions, codes: readonly { id: string; code: string }[], signal?: AbortSignal): Promise<LeanVerifyResult[]> {
  const seconds = Math.max(1, Math.ceil(options.timeoutMs / 1000));
  const requestMs = options.requestTimeoutMs ?? options.timeoutMs + 30_000;
  const deadline = AbortSignal.timeout(requestMs);
  const body = JSON.stringify({ codes: codes.map((c) => ({ custom_id: c.id, proof: c.code })), timeout: seconds, disable_cache: false });
  let response: Response;
  let text: string;
  try {
    response = await fetch(new URL('verify', options.url.endsWith('/') ? options.url : `${options.url}/`), {
      method: 'POST', body, signal: signal === undefined ? deadline : AbortSignal.any([signal, deadline]),
      headers: { 'content-type': 'application/json', ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }) },
    });
    text = await response.text();
  } catch (error) {
    if (signal?.aborted === true) throw signal.reason;
    if (deadline.aborted) {
      const error = `the Lean server did not answer within ${requestMs} ms (our deadline: the time limit plus grace)`;
      return codes.map(({ id }) => ({ id, kind: 'timeout', error }));
    }
    throw new LeanServerError(`Lean server unreachable at ${options.url}: ${(error as Error).message}`);
  }
  if (!response.ok) throw new LeanServerError(`Lean server answered HTTP ${response.status}: ${text.slice(0, 200)}`, response.status);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new LeanServerError(`Lean server answered non-JSON: ${text.slice(0, 200)}`);
  }
  const parsed = VerifyResponseSchema.safeParse(raw);
  if (!parsed.success) throw new LeanServerError(`Lean server answered out of shape: ${parsed.error.issues[0]?.message ?? ''} at ${parsed.error.issues[0]?.path.join('.') ?? ''}`);
  return codes.map(({ id }) => {
    const result = parsed.data.results.find((r) => r.custom_id === id);
    if (result === undefined) throw new LeanServerError(`Lean server answered no result for ${id}`);
    if (typeof result.error === 'string' && result.error !== '') {
      return /timed out/i.test(result.error) ? { id, kind: 'timeout', error: result.error } : { id, kind: 'error', error: result.error };
    }
    if (result.response === null || result.response === undefined) throw new LeanServerError(`Lean server answered neither error nor response for ${id}`);
    const messages = (result.response.messages ?? []).map((m) => ({ severity: m.severity, pos: { line: m.pos.line, column: m.pos.column }, data: m.data }));
    return { id, kind: 'checked', messages, sorries: result.response.sorries?.length ?? 0 };
  });
}
