/**
 * Trainer clients' wire contracts (test/conformance/contracts/*.json: each client's request, the response fields
 * it reads, how it turns them into a score or status, its retries and time-outs, with the upstream repository,
 * commit and files they were read from) and the generic machinery that replays one against a server: the request
 * body built from the contract's field list, one exchange with the contract's retry policy and time-out, the
 * response checked against the fields and types the client reads, and the contract's rule tables evaluated.
 * Client-specific derivations (code extraction, batching, sums) are in drivers.ts. Test code: no upstream code
 * is needed or run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleepMs } from 'node:timers/promises';
import { z } from 'zod';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';

/** Where the contract files are. */
export const CONTRACTS_DIR = join(PROJECT_ROOT, 'test', 'conformance', 'contracts');

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * A condition on one field of a rule's subject: a scalar (equal), `{not}`, `{in}`, `{notIn}`, `{includes}` (a
 * substring), `{present}`, or `{equalsExpected: "trailing-newlines"}` (equal to the subject's `expected` once
 * trailing newlines are removed from both, a null field counting as ""). A missing field satisfies only
 * `{present: false}`.
 */
const MatcherSchema = z.union([
  Scalar,
  z.object({ not: Scalar }).strict(),
  z.object({ in: z.array(Scalar) }).strict(),
  z.object({ notIn: z.array(Scalar) }).strict(),
  z.object({ includes: z.string() }).strict(),
  z.object({ present: z.boolean() }).strict(),
  z.object({ equalsExpected: z.literal('trailing-newlines') }).strict(),
]);
export type Matcher = z.infer<typeof MatcherSchema>;

/** One row of a rule table: every condition of `when` holds -> `then` (the first such row decides). */
export const RuleSchema = z.object({ when: z.record(MatcherSchema), then: z.unknown() }).strict();
export type Rule = z.infer<typeof RuleSchema>;

const SourceSchema = z.object({
  repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  files: z.array(z.string().min(1)).min(1),
}).strict();

const FieldSpecSchema = z.object({
  type: z.string().regex(/^(string|number|boolean|object|array|null)(\|(string|number|boolean|object|array|null))*$/),
  value: z.unknown().optional(),
  param: z.string().optional(),
  default: z.unknown().optional(),
  optional: z.boolean().optional(),
  note: z.string().optional(),
}).strict();
type FieldSpec = z.infer<typeof FieldSpecSchema>;

const DelaySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('linear'), initialSeconds: z.number().nonnegative() }).strict(),
  z.object({ kind: z.literal('constant'), seconds: z.number().nonnegative() }).strict(),
  z.object({
    kind: z.literal('exponential'), initialSeconds: z.number().positive(), base: z.number().positive(), maxSeconds: z.number().positive(),
    jitterFraction: z.number().nonnegative(), extraSecondsBeforeRetry: z.number().nonnegative(),
  }).strict(),
  z.object({
    kind: z.literal('exponential-jitter'), initialSeconds: z.number().positive(), base: z.number().positive(), maxSeconds: z.number().positive(),
    jitterSeconds: z.number().nonnegative(),
  }).strict(),
]);
type Delay = z.infer<typeof DelaySchema>;

const RetrySchema = z.object({
  retryOnStatus: z.union([z.array(z.number().int()), z.enum(['any-non-200', 'any-4xx-5xx'])]),
  retryOnSandboxError: z.boolean().optional(),
  retryOnBody: z.record(MatcherSchema).optional(),
  otherHttpErrors: z.literal('stop').optional(),
  networkErrors: z.enum(['stop', 'retry']),
  nonJsonBody: z.enum(['stop', 'retry', 'fatal']),
  maxAttempts: z.union([z.number().int().positive(), z.object({ param: z.string(), default: z.number().int().nonnegative(), plus: z.number().int() }).strict()]),
  delay: DelaySchema,
  sleepsAfterLastAttempt: z.boolean().optional(),
  readsRetryAfter: z.boolean(),
  afterLastAttempt: z.string(),
  healthCheck: z.object({ afterSeconds: z.number().nonnegative(), method: z.literal('GET'), path: z.string().startsWith('/') }).strict().optional(),
  fatal: z.string().optional(),
  note: z.string().optional(),
}).strict();

const TimeoutsSchema = z.object({
  requestSeconds: z.union([
    z.null(),
    z.object({ sumOf: z.array(z.string()).min(1), plus: z.number() }).strict(),
    z.object({ constant: z.number().positive() }).strict(),
    z.object({ sockRead: z.number().positive() }).strict(),
  ]),
  note: z.string(),
}).strict();

/** A client that sends one kind of HTTP request: verl, the SandboxFusion SDK, OpenRLHF, open-r1's Piston client. */
export const WireContractSchema = z.object({
  client: z.string(),
  source: SourceSchema,
  summary: z.string(),
  request: z.object({
    method: z.enum(['GET', 'POST']),
    path: z.string().startsWith('/'),
    headers: z.record(z.string()),
    bodyEncoding: z.string(),
    body: z.record(FieldSpecSchema),
    languages: z.array(z.string()).optional(),
    languagesNote: z.string().optional(),
  }).strict(),
  timeouts: TimeoutsSchema,
  retry: RetrySchema,
  response: z.object({ fields: z.record(z.string()), enums: z.record(z.array(z.string())).optional(), note: z.string().optional() }).strict(),
  outcome: z.object({ subject: z.string(), rules: z.array(RuleSchema).min(1), note: z.string().optional() }).strict().optional(),
  scoring: z.record(z.unknown()),
}).strict();
export type WireContract = z.infer<typeof WireContractSchema>;

/** open-r1's scorers, which send their jobs through its Piston client (open-r1-piston.json). */
export const ContestContractSchema = z.object({
  client: z.string(),
  source: SourceSchema,
  summary: z.string(),
  codeforces: z.object({
    language: z.object({ cpp: z.string(), python: z.string() }).strict(),
    files: z.array(z.record(z.string())).min(1),
    runTimeoutMs: z.object({ timeLimitSecondsPlus: z.number(), times: z.number() }).strict(),
    passes: z.string(), compileFailed: z.string(), exception: z.string(), tests: z.string(), batches: z.string(),
    rules: z.array(z.string()),
    defaults: z.object({
      test_batch_size: z.number().int(), scoring_mode: z.enum(['pass_fail', 'partial', 'weighted_sum']),
      no_compile_reward: z.number(), no_submission_reward: z.number(), submission_language: z.enum(['cpp', 'python']),
    }).strict(),
  }).strict(),
  ioi: z.object({
    language: z.string(),
    addIncludes: z.string(),
    files: z.array(z.record(z.string())).min(1),
    runTimeoutMs: z.object({ timeLimitSecondsPlus: z.number(), times: z.number(), rounded: z.boolean() }).strict(),
    runMemoryLimit: z.string(),
    execute: z.array(RuleSchema).min(1),
    executeNote: z.string(),
    testStatus: z.array(RuleSchema).min(1),
    subtask: z.record(z.string()),
    scoreSubtasks: z.array(z.string()),
  }).strict(),
}).strict();
export type ContestContract = z.infer<typeof ContestContractSchema>;

/** Read and validate contracts/<name>.json. @throws Error naming the file and the field when it does not parse. */
export function loadContract<T extends z.ZodTypeAny>(name: string, schema: T): z.infer<T> {
  const path = join(CONTRACTS_DIR, `${name}.json`);
  const parsed = schema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${path}: field "${issue.path.join('.')}": ${issue.message}`);
  }
  return parsed.data;
}

// ---- subjects and rules -----------------------------------------------------------------------------------------

const MISSING = Symbol('missing');

/** The value at a dotted path (`run.stdout`), or MISSING when a step of it is absent. */
export function fieldAt(subject: unknown, path: string): unknown {
  let value: unknown = subject;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !(key in value)) return MISSING;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const trimNewlines = (text: string): string => text.replace(/\n+$/, '');

function holds(subject: Record<string, unknown>, path: string, matcher: Matcher): boolean {
  const value = fieldAt(subject, path);
  if (matcher !== null && typeof matcher === 'object' && 'present' in matcher) return (value !== MISSING) === matcher.present;
  if (value === MISSING) return false;
  if (matcher === null || typeof matcher !== 'object') return value === matcher;
  if ('not' in matcher) return value !== matcher.not;
  if ('in' in matcher) return matcher.in.includes(value as z.infer<typeof Scalar>);
  if ('notIn' in matcher) return !matcher.notIn.includes(value as z.infer<typeof Scalar>);
  if ('includes' in matcher) return typeof value === 'string' && value.includes(matcher.includes);
  return trimNewlines(String(value ?? '')) === trimNewlines(String(subject['expected'] ?? ''));
}

/** Fill `{path}` placeholders of a text, and `{field: path}` references, from the subject. */
export function resolve(then: unknown, subject: Record<string, unknown>): unknown {
  if (typeof then === 'string') {
    return then.replace(/\{([\w.]+)\}/g, (_, path: string) => {
      const value = fieldAt(subject, path);
      return value === MISSING ? '' : value === null ? 'None' : String(value);
    });
  }
  if (then !== null && typeof then === 'object' && !Array.isArray(then)) {
    const entries = Object.entries(then as Record<string, unknown>);
    if (entries.length === 1 && entries[0]![0] === 'field' && typeof entries[0]![1] === 'string') {
      const value = fieldAt(subject, entries[0]![1]);
      return value === MISSING ? undefined : value;
    }
    return Object.fromEntries(entries.map(([key, value]) => [key, resolve(value, subject)]));
  }
  return then;
}

/** The `then` of the first rule whose conditions all hold, resolved against the subject. @throws when none holds. */
export function decide(rules: readonly Rule[], subject: Record<string, unknown>): unknown {
  for (const rule of rules) {
    if (Object.entries(rule.when).every(([path, matcher]) => holds(subject, path, matcher))) return resolve(rule.then, subject);
  }
  throw new Error(`no rule holds for ${JSON.stringify(subject).slice(0, 300)}`);
}

/** Whether every condition holds (a retryOnBody table, say). */
export function allHold(conditions: Record<string, Matcher>, subject: Record<string, unknown>): boolean {
  return Object.entries(conditions).every(([path, matcher]) => holds(subject, path, matcher));
}

// ---- requests and responses -------------------------------------------------------------------------------------

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * The request body as the client builds it: the contract's fields in order, each its constant `value`, else the
 * caller's `params[param]`, else its `default`; an `optional` field without a value is left out.
 * @throws Error when a required field has no value or a value is not of the declared type.
 */
export function buildBody(contract: WireContract, params: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(contract.request.body) as [string, FieldSpec][]) {
    let value: unknown;
    if ('value' in spec) value = spec.value;
    else if (spec.param !== undefined && params[spec.param] !== undefined) value = params[spec.param];
    else if ('default' in spec) value = spec.default;
    else if (spec.optional) continue;
    else throw new Error(`${contract.client}: no value for the request field "${name}"`);
    if (!spec.type.split('|').includes(typeOf(value))) throw new Error(`${contract.client}: "${name}" must be ${spec.type}, not ${typeOf(value)}`);
    body[name] = value;
  }
  return body;
}

/**
 * What in `response` differs from the fields the client reads (`response.fields`: dotted path -> allowed types,
 * `|`-separated; a nested field is checked only when its parent object is there; a field whose types do not
 * include null must be present) and from `response.enums`. Empty when the client can read it.
 */
export function responseProblems(contract: WireContract, response: unknown): string[] {
  const problems: string[] = [];
  for (const [path, types] of Object.entries(contract.response.fields)) {
    const parent = path.includes('.') ? fieldAt(response, path.slice(0, path.lastIndexOf('.'))) : response;
    if (parent === MISSING || parent === null || typeOf(parent) !== 'object') continue;
    const value = fieldAt(response, path);
    const allowed = types.split('|');
    if (value === MISSING) {
      if (!allowed.includes('null')) problems.push(`${path}: missing`);
    } else if (!allowed.includes(typeOf(value))) {
      problems.push(`${path}: ${typeOf(value)}, the client reads ${types}`);
    }
  }
  for (const [path, values] of Object.entries(contract.response.enums ?? {})) {
    const value = fieldAt(response, path);
    if (value !== MISSING && value !== null && !values.includes(String(value))) problems.push(`${path}: "${String(value)}" is not one of ${values.join(', ')}`);
  }
  return problems;
}

/** The client's request time-out for these body fields, in ms; null when it has none. */
export function requestTimeoutMs(contract: WireContract, body: Record<string, unknown>): number | null {
  const spec = contract.timeouts.requestSeconds;
  if (spec === null) return null;
  if ('constant' in spec) return spec.constant * 1000;
  if ('sockRead' in spec) return spec.sockRead * 1000;
  return (spec.sumOf.reduce((sum, field) => sum + Number(body[field]), 0) + spec.plus) * 1000;
}

/** Seconds the client waits before attempt `attempt` (2, 3, ...), as its policy computes it (with its jitter). */
export function delayBeforeSeconds(delay: Delay, attempt: number): number {
  const failed = attempt - 1; // the number of the attempt that just failed, 1-based
  switch (delay.kind) {
    case 'linear': return delay.initialSeconds * failed;
    case 'constant': return delay.seconds;
    case 'exponential': {
      const base = Math.min(delay.initialSeconds * delay.base ** (failed - 1), delay.maxSeconds);
      return base + base * delay.jitterFraction * (2 * Math.random() - 1) + delay.extraSecondsBeforeRetry;
    }
    case 'exponential-jitter':
      return Math.max(0, Math.min(delay.initialSeconds * delay.base ** (failed - 1) + Math.random() * delay.jitterSeconds, delay.maxSeconds));
  }
}

/** One attempt of an exchange, as the test sees it. */
export interface Attempt {
  readonly attempt: number;
  /** HTTP status, or null when no answer came (network error, time-out). */
  readonly status: number | null;
  /** The server's Retry-After header (the clients ignore it; the test checks it is sent). */
  readonly retryAfter: string | null;
  /** Seconds the client waited before this attempt (its policy's figure; the replay may sleep less, see `timeScale`). */
  readonly waitedSeconds: number;
  readonly error?: string;
}

/** How one exchange ended: the JSON of an accepted answer, or why the client gave up. */
export interface Exchange {
  readonly ok: boolean;
  readonly status: number | null;
  readonly json: unknown;
  /** The raw body of the last answer. */
  readonly text: string;
  readonly attempts: readonly Attempt[];
  /** Why it failed: `http <status>`, `network: ...`, `timeout`, `not json`, `exhausted`. */
  readonly failure?: string;
}

/** How a replay runs: where the server is, and how long a policy's wait really sleeps (1 = as long as the client). */
export interface ReplayOptions {
  readonly baseUrl: string;
  readonly timeScale?: number;
  readonly onAttempt?: (attempt: Attempt) => void;
}

function isRetryableStatus(contract: WireContract, status: number): boolean {
  const rule = contract.retry.retryOnStatus;
  if (rule === 'any-non-200') return status !== 200;
  if (rule === 'any-4xx-5xx') return status >= 400;
  return rule.includes(status);
}

/** The number of attempts the policy allows (a `max_retries`-style parameter plus one, or a constant). */
export function maxAttempts(contract: WireContract, params: Record<string, unknown>): number {
  const spec = contract.retry.maxAttempts;
  if (typeof spec === 'number') return spec;
  const given = params[spec.param];
  return (typeof given === 'number' ? given : spec.default) + spec.plus;
}

/**
 * One exchange as the client makes it: `contract.request` to `baseUrl + path` with `body`, its time-out, and its
 * retry policy (which statuses, bodies and errors it retries, how many attempts, how long it waits; it never
 * reads Retry-After). The waits are the policy's, slept `timeScale` times as long.
 */
export async function exchange(contract: WireContract, body: unknown, params: Record<string, unknown>, options: ReplayOptions): Promise<Exchange> {
  const { retry } = contract;
  const limit = maxAttempts(contract, params);
  const timeoutMs = requestTimeoutMs(contract, (body ?? {}) as Record<string, unknown>);
  const attempts: Attempt[] = [];
  const record = (attempt: Attempt): void => { attempts.push(attempt); options.onAttempt?.(attempt); };
  let last = { status: null as number | null, text: '', failure: 'exhausted' };
  for (let attempt = 1; attempt <= limit; attempt++) {
    const waitedSeconds = attempt === 1 ? 0 : delayBeforeSeconds(retry.delay, attempt);
    if (waitedSeconds > 0) await sleepMs(waitedSeconds * 1000 * (options.timeScale ?? 1));
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${options.baseUrl}${contract.request.path}`, {
        method: contract.request.method, headers: contract.request.headers, body: JSON.stringify(body),
        ...(timeoutMs === null ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
      });
      text = await response.text();
    } catch (error) {
      const name = (error as Error).name === 'TimeoutError' ? 'timeout' : `network: ${(error as Error).message}`;
      record({ attempt, status: null, retryAfter: null, waitedSeconds, error: name });
      last = { status: null, text: '', failure: name };
      if (retry.networkErrors === 'stop') return { ok: false, status: null, json: null, text: '', attempts, failure: name };
      continue;
    }
    const retryAfter = response.headers.get('retry-after');
    let json: unknown;
    let parsed = true;
    try { json = JSON.parse(text); } catch { parsed = false; }
    if (!parsed && retry.nonJsonBody === 'fatal') {
      record({ attempt, status: response.status, retryAfter, waitedSeconds, error: 'not json' });
      return { ok: false, status: response.status, json: null, text, attempts, failure: 'not json' };
    }
    const retryable = isRetryableStatus(contract, response.status)
      || (parsed && retry.retryOnSandboxError === true && fieldAt(json, 'status') === 'SandboxError')
      || (parsed && retry.retryOnBody !== undefined && json !== null && typeof json === 'object' && allHold(retry.retryOnBody, json as Record<string, unknown>));
    record({ attempt, status: response.status, retryAfter, waitedSeconds, ...(retryable ? { error: 'retried' } : {}) });
    last = { status: response.status, text, failure: retryable ? 'exhausted' : `http ${response.status}` };
    if (retryable) continue;
    if (response.status < 200 || response.status > 299) {
      return { ok: false, status: response.status, json: parsed ? json : null, text, attempts, failure: `http ${response.status}` };
    }
    if (!parsed) {
      if (retry.nonJsonBody === 'retry') { last = { status: response.status, text, failure: 'not json' }; continue; }
      return { ok: false, status: response.status, json: null, text, attempts, failure: 'not json' };
    }
    return { ok: true, status: response.status, json, text, attempts };
  }
  if (retry.sleepsAfterLastAttempt) await sleepMs(delayBeforeSeconds(retry.delay, limit + 1) * 1000 * (options.timeScale ?? 1));
  return { ok: false, status: last.status, json: null, text: last.text, attempts, failure: last.failure };
}

/** A counting semaphore: at most `size` of the wrapped calls at once (a client's concurrency limit). */
export function semaphore(size: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/** Python's round(x, digits) for the values scorers produce: to nearest, ties to even. */
export function pythonRound(value: number, digits: number): number {
  const scale = 10 ** digits;
  const scaled = value * scale;
  const floor = Math.floor(scaled);
  const fraction = scaled - floor;
  const rounded = fraction > 0.5 ? floor + 1 : fraction < 0.5 ? floor : (floor % 2 === 0 ? floor : floor + 1);
  return rounded / scale;
}
