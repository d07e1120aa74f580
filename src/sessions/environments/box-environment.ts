/**
 * The environments served by a session box (`python`, `bash`, `sqlite`): an action is the text of one step
 * (code, a command line, SQL), run by the box's persistent REPL under the session's per-step limits. What each
 * kind adds (its action's meaning, its set-up from the task, extra observation fields) is its own module's.
 */
import type { Capabilities } from '../../sandbox/capabilities.js';
import { SessionBox, type BoxKind, type BoxStepResult, type SessionSlots } from '../../sandbox/session-box.js';
import { SessionError, type Observation, type SessionLimits, type StepOutcome } from '../types.js';
import type { Environment } from './environment.js';

/** What one box environment kind defines. */
export interface BoxEnvironmentSpec {
  readonly kind: BoxKind;
  /** What the action is, for the error a non-string action gets ("Python code"). */
  readonly actionName: string;
  /** What a restart loses, for the notice (e.g. "variables, functions and imports"). */
  readonly stateName: string;
  /** The step that loads the task into a fresh box (sqlite: the task's SQL), or null. @throws SessionError */
  setup(task: unknown): string | null;
  /** Extra observation fields from the REPL's report (sqlite: the last result set). */
  observe(extra: unknown): Record<string, unknown>;
}

/** Where box environments get their slots and the host's capabilities. */
export interface BoxDeps {
  readonly caps: Capabilities;
  readonly slots: SessionSlots;
}

/** What a box kind's process is called in notices: shell, SQLite connection, Python REPL. */
function processName(kind: BoxKind): string {
  return kind === 'bash' ? 'shell' : kind === 'sqlite' ? 'SQLite connection' : 'Python REPL';
}

/** Observation of one box step. */
export function boxObservation(spec: BoxEnvironmentSpec, r: BoxStepResult): Observation {
  const process = processName(spec.kind);
  const notices: string[] = [];
  if (r.replacedBefore !== null) {
    const how = r.replacedBefore.signal ?? `exit ${r.replacedBefore.exitCode}`;
    notices.push(`the ${process} had ended after the previous step (${how}) and a fresh one ran this step: `
      + `${spec.stateName} of earlier steps are lost; files under /box and /tmp are kept`);
  }
  if (r.boxReplaced) {
    notices.push(`the session's box did not answer after this step was stopped (${r.status}${r.reason === undefined ? '' : `: ${r.reason}`}) `
      + 'and was replaced by a fresh one: every process, variable and file of earlier steps is lost');
  } else if (r.restarted) {
    notices.push(`the ${process} was restarted after this step (${r.status}${r.reason === undefined ? '' : `: ${r.reason}`}): `
      + `${spec.stateName} of earlier steps are lost; files under /box and /tmp are kept`);
  } else if (r.killedProcesses > 0) {
    notices.push(`${r.killedProcesses} process(es) the step left running were killed when it ended (background jobs do not outlive a step)`);
  }
  return {
    stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode, status: r.status, signal: r.signal,
    cpuMs: r.cpuMs, wallMs: r.wallMs, memoryKiB: r.memoryKiB, stdoutTruncated: r.stdoutTruncated, stderrTruncated: r.stderrTruncated,
    restarted: r.restarted || r.replacedBefore !== null,
    ...(r.reason === undefined ? {} : { reason: r.reason }),
    ...(notices.length === 0 ? {} : { notice: notices.join('; then ') }),
    ...spec.observe(r.extra),
  };
}

/** A session of one box kind. */
export class BoxEnvironment implements Environment {
  private box: SessionBox | null = null;
  private closed = false;
  private readonly setupStep: string | null;
  /** Said on the next step: a step whose caller went away restarted the REPL, and nobody was told. */
  private untoldRestart: string | null = null;

  constructor(private readonly spec: BoxEnvironmentSpec, task: unknown, private readonly limits: SessionLimits,
    private readonly deps: BoxDeps) {
    this.setupStep = spec.setup(task);
  }

  async start(): Promise<Observation> {
    this.closed = false;
    await this.openBox();
    return { stdout: '', stderr: '', exitCode: null, status: 'ok', message: `${this.spec.kind} session ready: each action is ${this.spec.actionName}` };
  }

  /** A fresh box with the task loaded. @throws SessionError (no slot, a task that does not load), Error */
  private async openBox(): Promise<SessionBox> {
    const slot = this.deps.slots.take();
    if (slot === null) throw new SessionError('session_limit', `every session slot (${this.deps.slots.maxSlots}) is in use`);
    const box = await SessionBox.start(this.spec.kind, slot, this.deps.caps, this.limits, (s) => this.deps.slots.give(s));
    this.box = box;
    if (this.setupStep !== null) {
      const loaded = await box.step(this.setupStep, this.limits);
      if (loaded.status !== 'ok') {
        await this.close();
        throw new SessionError('invalid_task', `task: loading it failed (${loaded.status}): ${(loaded.stderr || loaded.reason || '').slice(0, 500)}`, 'task');
      }
    }
    return box;
  }

  async step(action: unknown, signal?: AbortSignal): Promise<StepOutcome> {
    if (typeof action !== 'string') throw new SessionError('invalid_action', `action: must be a string (${this.spec.actionName})`, 'action');
    if (this.closed) throw new SessionError('closed', 'the session is closed');
    let notice: string | null = this.untoldRestart;
    this.untoldRestart = null;
    if (this.box === null || !this.box.alive) {
      // The box itself ended (Crucible's failure, its 24 h lifetime, or replaced after a silent agent and not
      // reopened then): a fresh one, and the step says so.
      await this.box?.close();
      this.box = null;
      await this.openBox();
      notice = 'the session\'s box had ended and a fresh one was started before this step: every process, variable and file of earlier steps is lost';
    }
    const result = await this.box!.step(action, this.limits, signal);
    if (result.boxReplaced) {
      // The box was killed because its agent went silent: a fresh one now, so the next step finds a working box.
      await this.box!.close();
      this.box = null;
      try {
        await this.openBox();
      } catch {
        // No fresh box now (no slot, a failing start): the next step tries again and says so.
      }
    }
    if (signal?.aborted === true && (result.restarted || result.boxReplaced)) {
      // The cancelled step's answer goes nowhere: the next step carries its notice.
      this.untoldRestart = `the previous step was cancelled (its caller went away) and its processes killed: the ${this.spec.kind === 'bash' ? 'shell' : 'REPL'} `
        + `was restarted, ${this.spec.stateName} of earlier steps are lost; files under /box and /tmp are kept`;
    }
    const observation = boxObservation(this.spec, result);
    return {
      observation: notice === null ? observation
        : { ...observation, restarted: true, notice: observation.notice === undefined ? notice : `${notice}; then ${observation.notice}` },
      reward: null, done: false,
    };
  }

  /** The box (for audits and tests), or null when closed. */
  get sessionBox(): SessionBox | null {
    return this.box;
  }

  async close(): Promise<void> {
    this.closed = true;
    const box = this.box;
    this.box = null;
    await box?.close();
  }
}
