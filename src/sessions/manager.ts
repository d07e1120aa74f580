/**
 * The session manager: create / step / reset / delete sessions of any environment, each with its own limits,
 * step count and idle TTL. One session runs one step at a time (a step sent while another runs waits for it);
 * different sessions run concurrently. Idle sessions past their TTL are evicted by a timer (`evictIdle`), which
 * closes them like a delete. `close` deletes every session and releases the session slots.
 *
 * Ids are random (128 bits, base64url): knowing one's own id says nothing about another session's.
 */
import { randomBytes } from 'node:crypto';
import { totalmem } from 'node:os';
import { detectCapabilities, type Capabilities } from '../sandbox/capabilities.js';
import { SESSION_BOX_OVERHEAD_KIB, SessionSlots } from '../sandbox/session-box.js';
import { BASH_ENVIRONMENT } from './environments/bash.js';
import { BoxEnvironment, type BoxEnvironmentSpec } from './environments/box-environment.js';
import type { Environment } from './environments/environment.js';
import { ProgramEnvironment, type ProgramBackend, type SubmitCount } from './environments/program.js';
import { PYTHON_ENVIRONMENT } from './environments/python.js';
import { RepositoryEnvironment, type RepositoryBackend } from './environments/repository.js';
import { SQLITE_ENVIRONMENT, SqliteEnvironment, type SqlSubmitJudge } from './environments/sqlite.js';
import {
  DEFAULT_SESSION_LIMITS, ENVIRONMENT_KINDS, REPOSITORY_SESSION_LIMITS, SESSION_LIMIT_RANGES, SessionError, type EnvironmentKind, type Observation,
  type SessionLimits, type StepOutcome,
} from './types.js';

/** Options of a manager. */
export interface SessionManagerOptions {
  /** Most sessions open at once (each holds a box slot, `program` sessions excepted); default 256. */
  readonly maxSessions?: number;
  /** Idle TTL of a session that does not ask for one, seconds; default 600. */
  readonly defaultTtlSeconds?: number;
  /** Largest TTL a session may ask for, seconds; default 86,400. */
  readonly maxTtlSeconds?: number;
  /** Limits of a session that does not set them (each field may be overridden per session). */
  readonly defaultLimits?: Partial<SessionLimits>;
  /** How `program` tasks are bound to problems and judged; without it `program` sessions are refused. */
  readonly programBackend?: ProgramBackend;
  /** How a `sqlite` task's submits are judged (InterCode-SQL); without it a task with a gold query is refused. */
  readonly sqlJudge?: SqlSubmitJudge;
  /** How `repository` tasks are bound to instances, prepared and judged; without it `repository` sessions are refused. */
  readonly repositoryBackend?: RepositoryBackend;
  /** How often idle sessions are looked for, ms; default 1000 (0: never; call `evictIdle` yourself). */
  readonly evictionIntervalMs?: number;
  /** Host capabilities (default: detected). */
  readonly caps?: Capabilities;
  /**
   * Host memory the open sessions may pin at once, KiB (default half the host's physical memory). A box session
   * pins up to its `memoryKiB` plus `SESSION_BOX_OVERHEAD_KIB` for its whole life, idle or not: its processes and
   * its files (tmpfs pages are charged to its memory cgroup), so that much is reserved when it opens and given
   * back when it closes. A `program` session holds nothing between steps and reserves nothing.
   */
  readonly memoryBudgetKiB?: number;
}

/** What `create` takes: the environment, its task, limits overriding the defaults, the idle TTL in seconds. */
export interface CreateSessionRequest {
  readonly environment: EnvironmentKind;
  readonly task?: unknown;
  readonly limits?: Partial<SessionLimits>;
  readonly ttlSeconds?: number;
}

/** Facts about a session returned with every answer: environment, steps taken and left, limits, TTL. */
export interface SessionInfo {
  readonly id: string;
  readonly environment: EnvironmentKind;
  readonly step: number;
  readonly stepsLeft: number;
  readonly limits: SessionLimits;
  readonly ttlSeconds: number;
  readonly [extra: string]: unknown;
}

/** Counters of a manager since it was made (monotonic except `open`). */
export interface SessionStats {
  readonly open: number;
  readonly openByEnvironment: Readonly<Record<EnvironmentKind, number>>;
  readonly created: number;
  readonly steps: number;
  readonly resets: number;
  readonly deleted: number;
  readonly evicted: number;
  /** Steps whose observation was `internal_error` (Crucible's failure, not the program's). */
  readonly internalErrors: number;
  /** Host memory the open sessions may pin (reserved at create), and the budget for it, KiB. */
  readonly reservedMemoryKiB: number;
  readonly memoryBudgetKiB: number;
}

interface Session {
  readonly id: string;
  readonly environment: EnvironmentKind;
  readonly task: unknown;
  readonly limits: SessionLimits;
  readonly ttlSeconds: number;
  env: Environment;
  step: number;
  /** Submits used over the session's life (`program`; a reset keeps the count). */
  readonly submits: SubmitCount;
  lastUsedMs: number;
  /** The chain of operations on this session (one at a time). */
  queue: Promise<unknown>;
  busy: number;
  closed: boolean;
  /** Host memory reserved for the session's life (see `SessionManagerOptions.memoryBudgetKiB`), KiB. */
  readonly reservedKiB: number;
}

const BOX_SPECS: Readonly<Record<'python' | 'bash' | 'sqlite', BoxEnvironmentSpec>> = {
  python: PYTHON_ENVIRONMENT, bash: BASH_ENVIRONMENT, sqlite: SQLITE_ENVIRONMENT,
};

/** `limits` over the defaults, each checked against `SESSION_LIMIT_RANGES`. @throws SessionError naming the field */
export function resolveLimits(defaults: SessionLimits, limits: Partial<SessionLimits> | undefined): SessionLimits {
  const out: Record<string, number> = { ...defaults };
  for (const [key, value] of Object.entries(limits ?? {})) {
    if (value === undefined) continue;
    const range = SESSION_LIMIT_RANGES[key as keyof SessionLimits];
    if (range === undefined) throw new SessionError('invalid_task', `limits.${key}: unknown limit`, `limits.${key}`);
    if (!Number.isInteger(value) || value < range.min || value > range.max) {
      throw new SessionError('invalid_task', `limits.${key}: must be an integer from ${range.min} to ${range.max}, got ${value}`, `limits.${key}`);
    }
    out[key] = value;
  }
  const resolved = out as unknown as SessionLimits;
  if (resolved.wallMs <= resolved.cpuMs && limits?.wallMs === undefined) return { ...resolved, wallMs: 3 * resolved.cpuMs + 2000 };
  return resolved;
}

/** Resolve when `turn` settles, or reject with `signal`'s reason as soon as it aborts. */
function waitOrAbort(turn: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return turn.then(() => undefined, () => undefined);
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const abort = (): void => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    void turn.then(() => undefined, () => undefined).then(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    });
  });
}

/** Sessions of every environment (see the module comment). */
export class SessionManager {
  private readonly sessions = new Map<string, Session>();
  private readonly slots: SessionSlots;
  private readonly caps: Capabilities;
  private readonly defaults: SessionLimits;
  private readonly maxSessions: number;
  private readonly defaultTtlSeconds: number;
  private readonly maxTtlSeconds: number;
  private readonly timer: NodeJS.Timeout | null;
  private closed = false;
  private counters = { created: 0, steps: 0, resets: 0, deleted: 0, evicted: 0, internalErrors: 0 };
  private readonly memoryBudgetKiB: number;
  private reservedKiB = 0;

  constructor(private readonly options: SessionManagerOptions = {}) {
    this.caps = options.caps ?? detectCapabilities();
    this.maxSessions = options.maxSessions ?? 256;
    this.defaultTtlSeconds = options.defaultTtlSeconds ?? 600;
    this.maxTtlSeconds = options.maxTtlSeconds ?? 86_400;
    this.defaults = resolveLimits(DEFAULT_SESSION_LIMITS, options.defaultLimits);
    this.slots = new SessionSlots(this.caps, this.maxSessions);
    this.memoryBudgetKiB = options.memoryBudgetKiB ?? Math.floor(totalmem() / 1024 / 2);
    const every = options.evictionIntervalMs ?? 1000;
    this.timer = every > 0 ? setInterval(() => void this.evictIdle(), every) : null;
    this.timer?.unref();
  }

  private environmentFor(kind: EnvironmentKind, task: unknown, limits: SessionLimits, submits: SubmitCount): Environment {
    if (kind === 'program') {
      if (this.options.programBackend === undefined) throw new SessionError('invalid_task', 'environment: this server has no judge for program sessions', 'environment');
      return new ProgramEnvironment(task, limits, this.options.programBackend, submits);
    }
    if (kind === 'repository') {
      if (this.options.repositoryBackend === undefined) {
        throw new SessionError('invalid_task', 'environment: this server has no repository tasks (start it with repository instances)', 'environment');
      }
      return new RepositoryEnvironment(task, limits, this.options.repositoryBackend, { caps: this.caps, slots: this.slots });
    }
    if (kind === 'sqlite') return new SqliteEnvironment(task, limits, { caps: this.caps, slots: this.slots }, this.options.sqlJudge, submits);
    return new BoxEnvironment(BOX_SPECS[kind], task, limits, { caps: this.caps, slots: this.slots });
  }

  private info(s: Session, extra: Record<string, unknown> = {}): SessionInfo {
    return { id: s.id, environment: s.environment, step: s.step, stepsLeft: Math.max(0, s.limits.maxSteps - s.step),
      limits: s.limits, ttlSeconds: s.ttlSeconds, ...extra };
  }

  /**
   * Open a session and return its id, first observation and info.
   * @throws SessionError: `invalid_task` (an unknown environment, a task, limit or TTL out of range, naming the
   *   field), `session_limit` (every session place is taken), `closed`; Error when its box cannot start.
   */
  async create(request: CreateSessionRequest): Promise<{ readonly id: string; readonly observation: Observation; readonly info: SessionInfo }> {
    if (this.closed) throw new SessionError('closed', 'the session manager is closed');
    if (!ENVIRONMENT_KINDS.includes(request.environment)) {
      throw new SessionError('invalid_task', `environment: must be one of ${ENVIRONMENT_KINDS.join(', ')}`, 'environment');
    }
    const ttl = request.ttlSeconds ?? this.defaultTtlSeconds;
    if (!Number.isInteger(ttl) || ttl < 1 || ttl > this.maxTtlSeconds) {
      throw new SessionError('invalid_task', `ttlSeconds: must be an integer from 1 to ${this.maxTtlSeconds}`, 'ttlSeconds');
    }
    if (this.sessions.size >= this.maxSessions) throw new SessionError('session_limit', `${this.sessions.size} sessions are open, the most this server holds`);
    const limits = resolveLimits(request.environment === 'repository' ? { ...this.defaults, ...REPOSITORY_SESSION_LIMITS } : this.defaults,
      request.limits);
    const reservedKiB = this.reserveMemory(request.environment, limits);
    const submits: SubmitCount = { used: 0 };
    let env: Environment;
    try {
      env = this.environmentFor(request.environment, request.task, limits, submits);
    } catch (error) {
      this.reservedKiB -= reservedKiB;
      throw error;
    }
    const id = `s_${randomBytes(16).toString('base64url')}`;
    const session: Session = { id, environment: request.environment, task: request.task, limits, ttlSeconds: ttl, env, step: 0, submits,
      lastUsedMs: Date.now(), queue: Promise.resolve(), busy: 1, closed: false, reservedKiB };
    // Counted from now, so concurrent creates cannot overshoot maxSessions.
    this.sessions.set(id, session);
    try {
      const observation = await env.start();
      this.counters.created++;
      return { id, observation, info: this.info(session) };
    } catch (error) {
      this.sessions.delete(id);
      this.reservedKiB -= reservedKiB;
      await env.close();
      throw error;
    } finally {
      session.busy--;
      session.lastUsedMs = Date.now();
    }
  }

  /**
   * Reserve the host memory a new session may pin (see `SessionManagerOptions.memoryBudgetKiB`); returns it, KiB.
   * @throws SessionError `invalid_task` naming `limits.memoryKiB` when the session alone exceeds the budget,
   *   `session_limit` when the open sessions leave too little of it now.
   */
  private reserveMemory(environment: EnvironmentKind, limits: SessionLimits): number {
    if (environment === 'program') return 0;
    const need = limits.memoryKiB + SESSION_BOX_OVERHEAD_KIB;
    const mib = (kib: number): string => `${Math.round(kib / 1024)} MiB`;
    if (need > this.memoryBudgetKiB) {
      throw new SessionError('invalid_task', `limits.memoryKiB: a session of ${mib(limits.memoryKiB)} (${mib(need)} with its box) can never fit in `
        + `the ${mib(this.memoryBudgetKiB)} of host memory this server gives sessions`, 'limits.memoryKiB');
    }
    if (this.reservedKiB + need > this.memoryBudgetKiB) {
      throw new SessionError('session_limit', `host memory: the open sessions may pin ${mib(this.reservedKiB)} of the ${mib(this.memoryBudgetKiB)} `
        + `this server gives sessions (their memory limits, files included), and this one needs ${mib(need)}: retry once some close`);
    }
    this.reservedKiB += need;
    return need;
  }

  private get(id: string): Session {
    const s = this.sessions.get(id);
    if (s === undefined || s.closed) throw new SessionError('unknown_session', `no session "${id}" (never made, deleted, or evicted after its idle TTL)`);
    return s;
  }

  /**
   * Run `work` after every earlier operation on `s`; the session is busy (not evictable) meanwhile. A caller whose
   * `signal` aborts while it waits for its turn leaves at once with the signal's reason (its work never runs), so
   * a client that hangs up behind a long step holds nothing.
   */
  private serial<T>(s: Session, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    s.busy++;
    const turn = s.queue;
    const run = (async () => {
      await waitOrAbort(turn, signal);
      if (s.closed) throw new SessionError('unknown_session', `no session "${s.id}" (deleted while this call waited)`);
      return work();
    })();
    // The next operation waits for this one's turn AND its work: a caller that left early does not let the next
    // step overtake the step still running.
    s.queue = Promise.all([turn, run.catch(() => undefined)]).then(() => undefined);
    return run.finally(() => {
      s.busy--;
      s.lastUsedMs = Date.now();
    });
  }

  /**
   * Take one step. `done` is true when the environment says so (a `program` solved) or this was the session's
   * last step (`maxSteps`). @throws SessionError: `unknown_session`, `invalid_action` (naming the field),
   * `session_done` (no step left).
   */
  async step(id: string, action: unknown, signal?: AbortSignal): Promise<StepOutcome & { readonly info: SessionInfo }> {
    const s = this.get(id);
    return this.serial(s, async () => {
      if (s.step >= s.limits.maxSteps) throw new SessionError('session_done', `the session has taken all its ${s.limits.maxSteps} steps; reset or delete it`);
      const outcome = await s.env.step(action, signal);
      s.step++;
      this.counters.steps++;
      if (outcome.observation.status === 'internal_error') this.counters.internalErrors++;
      const last = s.step >= s.limits.maxSteps;
      return { ...outcome, done: outcome.done || last, info: this.info(s) };
    }, signal);
  }

  /** A pristine environment of the same task and limits (the old one is closed first); steps count from 0. */
  async reset(id: string): Promise<{ readonly id: string; readonly observation: Observation; readonly info: SessionInfo }> {
    const s = this.get(id);
    return this.serial(s, async () => {
      await s.env.close();
      s.env = this.environmentFor(s.environment, s.task, s.limits, s.submits);
      s.step = 0;
      this.counters.resets++;
      try {
        const observation = await s.env.start();
        return { id: s.id, observation, info: this.info(s) };
      } catch (error) {
        // The session cannot be rebuilt: it is gone rather than half there.
        await this.remove(s);
        throw error;
      }
    });
  }

  private async remove(s: Session): Promise<void> {
    this.forget(s);
    await s.env.close();
  }

  /** Mark `s` closed, out of the map, its memory reservation given back (once). */
  private forget(s: Session): void {
    if (!s.closed) this.reservedKiB -= s.reservedKiB;
    s.closed = true;
    this.sessions.delete(s.id);
  }

  /** Close a session: processes, files, cgroups and slot released before this resolves. @throws SessionError */
  async delete(id: string): Promise<void> {
    const s = this.get(id);
    this.forget(s);
    this.counters.deleted++;
    // After any operation under way (its processes are killed by closing the box).
    await s.env.close();
    await s.queue;
    await s.env.close();
  }

  /**
   * Close sessions idle past their TTL (none is busy; a step always ends within its limits, so a busy session
   * becomes idle); returns how many. They are closed together, so one slow close does not hold the others.
   * Never throws.
   */
  async evictIdle(nowMs = Date.now()): Promise<number> {
    const stale = [...this.sessions.values()].filter((s) => !s.closed && s.busy === 0 && nowMs - s.lastUsedMs > s.ttlSeconds * 1000);
    this.counters.evicted += stale.length;
    await Promise.all(stale.map((s) => this.remove(s).catch(() => undefined)));
    return stale.length;
  }

  /** Counters for `/metrics`. */
  get stats(): SessionStats {
    const openByEnvironment = Object.fromEntries(ENVIRONMENT_KINDS.map((k) => [k, 0])) as Record<EnvironmentKind, number>;
    for (const s of this.sessions.values()) openByEnvironment[s.environment]++;
    return { open: this.sessions.size, openByEnvironment, ...this.counters, reservedMemoryKiB: this.reservedKiB, memoryBudgetKiB: this.memoryBudgetKiB };
  }

  /** Whether `id` names an open session. */
  has(id: string): boolean {
    return this.sessions.has(id);
  }

  /** The environment kind of an open session, or undefined. */
  environmentKind(id: string): EnvironmentKind | undefined {
    return this.sessions.get(id)?.environment;
  }

  /** The environment of an open session (for audits and tests). */
  environmentOf(id: string): Environment | undefined {
    return this.sessions.get(id)?.env;
  }

  /** Delete every session and release the session slots. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer !== null) clearInterval(this.timer);
    await Promise.all([...this.sessions.values()].map((s) => this.remove(s).catch(() => undefined)));
    this.slots.close();
  }
}
