/**
 * `program`: a coding task with tests (any problem Crucible can judge). Actions:
 * - `{kind: "run", code, stdin?}`: a free run of the program on `stdin` (a one-shot sandboxed run, compiled
 *   first if the language compiles); the observation is what it printed, its exit code and status;
 * - `{kind: "submit", code}`: the program judged on the task's tests through the `Judge` seam, outside anything
 *   the program can reach, so the reward cannot be forged; the observation is the verdict with feedback (the
 *   first failing test, expected vs got, within the session's `feedbackChars`: `src/sessions/feedback.ts`),
 *   the reward 1 for a pass and 0 otherwise, and `done` once a submission passes or the last submit is spent;
 *   a `verilog` problem with `formal` adds the formal check to the verdict (`verdict.formal`, as the task gives it).
 * Trust (issue #23): feedback shows only tests the task marks visible (`ProgramTask.visible`; by default none): of
 * a hidden test only its index and status, never its input, expected output, the program's output on it or a
 * reason quoting them; the detail and descriptions of hidden tests are dropped before feedback is even made. A
 * session has `limits.maxSubmits` submits over its whole life (a reset does not give them back), which bounds
 * what pass/fail signals can tell a policy about hidden tests.
 * The task is bound by a `ProgramBackend` (the server's: a loaded problem or inline tests, as `/v1/judge`).
 */
import { z } from 'zod';
import type { PlainRunOutcome } from '../../judge/judge.js';
import type { DetailedVerdict, FailedTestDetail } from '../../verdict/index.js';
import { formatFeedback } from '../feedback.js';
import { SessionError, type Observation, type SessionLimits, type StepOutcome } from '../types.js';
import type { Environment } from './environment.js';

/** A program task bound to its problem: runs and judges programs for one session. */
export interface ProgramTask {
  /** What the session's first observation tells the model (problem id, language, test count). */
  readonly summary: string;
  /** Whether the test of this index may be shown in feedback (its input, expected output, what the program did). */
  visible(index: number): boolean;
  /**
   * Whether the verdict's reason is the trusted side's summary (a `verilog` testbench's mismatch count, a `sql`
   * comparator's verdict) that quotes no hidden value, so it is shown with hidden tests too (not on internal_error,
   * whose reason may name the reference). Default false: the reason is shown only when the failing test is visible.
   */
  readonly summaryReason?: boolean;
  /**
   * Run `code` once on `stdin` under the session's CPU, wall, memory and output limits.
   * Never rejects for what the program does; rejects with the signal's reason when `signal` aborts.
   */
  run(code: string, stdin: string, limits: SessionLimits, signal?: AbortSignal): Promise<PlainRunOutcome>;
  /**
   * Judge `code` on the task's tests, with the verdict's detail when this call judged it and the tests'
   * descriptions (input, expected) for feedback when it did not. Never rejects for what the program does.
   */
  submit(code: string, signal?: AbortSignal): Promise<{ readonly verdict: DetailedVerdict; readonly tests?: readonly FailedTestDetail[] }>;
}

/** Binds a session's task (`{problem}` or `{tests}`, as the server takes it). @throws SessionError('invalid_task') */
export type ProgramBackend = (task: unknown) => ProgramTask;

/** Submits a session has used, over its whole life: shared by the environments a reset makes. */
export interface SubmitCount {
  used: number;
}

/** `verdict` with the detail of hidden tests dropped, and the descriptions of visible tests only. */
function visibleOnly(verdict: DetailedVerdict, tests: readonly FailedTestDetail[] | undefined, visible: (index: number) => boolean):
  { readonly verdict: DetailedVerdict; readonly tests?: readonly FailedTestDetail[] } {
  const failures = verdict.detail?.failures?.filter((f) => visible(f.index));
  const detail = verdict.detail === undefined ? undefined : { ...verdict.detail, ...(failures === undefined ? {} : { failures }) };
  const shown = tests?.filter((t) => visible(t.index));
  return { verdict: detail === undefined ? verdict : { ...verdict, detail }, ...(shown === undefined ? {} : { tests: shown }) };
}

const ActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('run'), code: z.string().max(1 << 20), stdin: z.string().max(16 << 20).optional() }).strict(),
  z.object({ kind: z.literal('submit'), code: z.string().max(1 << 20) }).strict(),
]);

function runObservation(outcome: PlainRunOutcome): Observation {
  const run = outcome.run;
  const compile = outcome.compile === null ? {} : {
    compile: { status: outcome.compile.status, stderr: outcome.compile.stderr, cpuMs: outcome.compile.cpuMs },
  };
  if (run === null) {
    const c = outcome.compile!;
    return { stdout: '', stderr: c.stderr, exitCode: c.exitCode, status: c.status === 'internal_error' ? 'internal_error' : 'compile_error',
      ...(c.reason === undefined ? {} : { reason: c.reason }), ...compile };
  }
  return {
    stdout: run.stdout, stderr: run.stderr, exitCode: run.exitCode, status: run.status, signal: run.signal,
    cpuMs: run.cpuMs, wallMs: run.wallMs, memoryKiB: run.memoryKiB, stdoutTruncated: run.stdoutTruncated,
    stderrTruncated: run.stderrTruncated, ...(run.reason === undefined ? {} : { reason: run.reason }), ...compile,
  };
}

/** A `program` session (see the module comment). Holds no box: every run is a one-shot sandboxed run. */
export class ProgramEnvironment implements Environment {
  private readonly task: ProgramTask;
  private solved = false;

  constructor(task: unknown, private readonly limits: SessionLimits, backend: ProgramBackend,
    private readonly submits: SubmitCount = { used: 0 }) {
    this.task = backend(task);
  }

  async start(): Promise<Observation> {
    this.solved = false;
    return { stdout: '', stderr: '', exitCode: null, status: 'ok', message: this.task.summary };
  }

  async step(action: unknown, signal?: AbortSignal): Promise<StepOutcome> {
    const parsed = ActionSchema.safeParse(action);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = ['action', ...issue.path].join('.');
      throw new SessionError('invalid_action', `${field}: ${issue.message} (a program action is {"kind": "run", "code", "stdin"?} or {"kind": "submit", "code"})`, field);
    }
    const a = parsed.data;
    if (a.kind === 'run') {
      const outcome = await this.task.run(a.code, a.stdin ?? '', this.limits, signal);
      return { observation: runObservation(outcome), reward: null, done: this.solved };
    }
    if (this.submits.used >= this.limits.maxSubmits) {
      throw new SessionError('session_done', `the session has used all its ${this.limits.maxSubmits} submits (limits.maxSubmits); runs are still allowed`);
    }
    const judged = await this.task.submit(a.code, signal);
    // Crucible's own failure costs the policy no submit.
    if (judged.verdict.status !== 'internal_error') this.submits.used++;
    const visible = (index: number): boolean => this.task.visible(index);
    const { verdict, tests } = visibleOnly(judged.verdict, judged.tests, visible);
    const feedback = formatFeedback(verdict, { budgetChars: this.limits.feedbackChars, visible, ...(tests === undefined ? {} : { tests }) });
    if (verdict.passed) this.solved = true;
    const passedTests = verdict.tests.reduce((k, t) => k + (t.status === 'passed' ? 1 : 0), 0);
    // The verdict's reason often quotes the first failing test's expected value: kept only when that test is visible,
    // or when the task says it is a trusted summary (then it also ends the feedback text when the budget has room).
    const summary = this.task.summaryReason === true && verdict.status !== 'internal_error';
    const reason = verdict.reason !== undefined && (summary || feedback.failingTest === null || feedback.failingTest.hidden !== true) ? verdict.reason : undefined;
    const summaryLine = summary && reason !== undefined && !feedback.text.includes(reason) ? `\n${reason}` : '';
    const feedbackText = summaryLine !== '' && feedback.text.length + summaryLine.length <= this.limits.feedbackChars ? feedback.text + summaryLine : feedback.text;
    const lastSubmit = this.submits.used >= this.limits.maxSubmits;
    return {
      observation: {
        stdout: '', stderr: '', exitCode: null, status: verdict.status,
        cpuMs: verdict.cpuMs, wallMs: verdict.wallMs,
        ...(reason === undefined ? {} : { reason }),
        verdict: { status: verdict.status, passed: verdict.passed, testCount: verdict.testCount, passedTests,
          ...(verdict.score === undefined ? {} : { score: verdict.score }),
          ...(verdict.formal === undefined ? {} : { formal: verdict.formal }) },
        feedback: feedbackText,
        feedbackCut: feedback.cut,
        failingTest: feedback.failingTest,
        submitsLeft: this.limits.maxSubmits - this.submits.used,
      },
      // Crucible's own failure is no verdict on the program: no reward rather than a zero.
      reward: verdict.status === 'internal_error' ? null : verdict.passed ? 1 : 0,
      done: this.solved || lastSubmit,
    };
  }

  async close(): Promise<void> {
    // Nothing held between steps: every run was a one-shot sandboxed run.
  }
}
