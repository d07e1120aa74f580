/**
 * `repository`: an agent works on a real repository at a task's base commit (SWE-bench style) in a session box
 * whose `/testbed` is the prepared environment, copy-on-write (`src/sandbox/session-box.ts`), and submits a patch
 * that is judged like any repository sample (`src/kinds/repository/`), outside anything the agent can reach.
 * Actions (`{kind, ...}`, the shapes agents use: SWE-agent / OpenHands `str_replace_editor`):
 * - `{kind: "shell", command}`: a command line in the session's persistent bash (cwd, variables, files persist);
 * - `{kind: "view", path, view_range?}`: a file with line numbers (`[start, end]`, 1-based, end -1 for the last
 *   line), or a directory two levels deep; `{kind: "create", path, file_text}`; `{kind: "str_replace", path,
 *   old_str, new_str}` (old_str must occur exactly once); `{kind: "insert", path, insert_line, new_str}` (after
 *   that line; 0 is the top). Relative paths are under /testbed. (harness/repository/editor.cjs, run in the box.)
 * - `{kind: "run_tests"}`: the task's test command on the task's test files as they are in the session's tree
 *   (the tests that judge a submission are not shown);
 * - `{kind: "submit"}`: the session's changes since the base commit (`git diff`, new files included) are judged
 *   on the task's tests in a fresh box; the observation is the verdict, the reward the task's reward of it
 *   (binary by default), and `done` is true.
 * Reset is a new box over the same prepared environment: nothing the session wrote survives it, and the
 * prepared environment is never written.
 */
import { z } from 'zod';
import { SessionBox, type BoxStepResult, type SessionSlots } from '../../sandbox/session-box.js';
import type { Capabilities } from '../../sandbox/capabilities.js';
import type { DetailedVerdict } from '../../verdict/index.js';
import { boxObservation, type BoxEnvironmentSpec } from './box-environment.js';
import type { Environment } from './environment.js';
import { SessionError, type Observation, type SessionLimits, type StepOutcome } from '../types.js';

/** Where the repository is in the session's box. */
export const REPOSITORY_BOX_PATH = '/testbed';

/** A repository task bound to its instance (the server's loaded problem, or a test's). */
export interface RepositoryTask {
  /** What the first observation tells the agent: the problem statement and the actions. */
  readonly summary: string;
  /** What `run_tests` runs in /testbed (`sessionTestCommand`, src/kinds/repository/driver.ts). */
  readonly testCommand: string;
  /** The prepared environment (its layers) and the commit the session starts from. @throws Error when it cannot be prepared */
  prepare(signal?: AbortSignal): Promise<{ readonly layers: readonly string[]; readonly baseRevision: string }>;
  /** Judge a patch on the task's tests. Never rejects for what the patch does. */
  judge(patch: string, signal?: AbortSignal): Promise<DetailedVerdict>;
  /** The reward of a judged patch (null when there is none to give: Crucible's failure). */
  reward(verdict: DetailedVerdict, patch: string): number | null;
}

/** Binds a session's task to a repository instance. @throws SessionError('invalid_task') */
export type RepositoryBackend = (task: unknown) => RepositoryTask;

const path = z.string().min(1).max(4096);
const ActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('shell'), command: z.string().max(1 << 20) }).strict(),
  z.object({ kind: z.literal('view'), path, view_range: z.tuple([z.number().int(), z.number().int()]).optional() }).strict(),
  z.object({ kind: z.literal('create'), path, file_text: z.string().max(8 << 20) }).strict(),
  z.object({ kind: z.literal('str_replace'), path, old_str: z.string().min(1).max(8 << 20), new_str: z.string().max(8 << 20).default('') }).strict(),
  z.object({ kind: z.literal('insert'), path, insert_line: z.number().int().nonnegative(), new_str: z.string().max(8 << 20) }).strict(),
  z.object({ kind: z.literal('run_tests') }).strict(),
  z.object({ kind: z.literal('submit') }).strict(),
]);

type Action = z.output<typeof ActionSchema>;

/** How the session's shell steps read in observations. */
const SHELL_SPEC: BoxEnvironmentSpec = {
  kind: 'bash', actionName: 'an action object', stateName: 'the working directory, variables and functions',
  setup: () => null, observe: () => ({}),
};

/** A command that feeds `payload` (base64, so no text of it is ever bash) to `command` on stdin. */
function withStdin(command: string, payload: string): string {
  const encoded = Buffer.from(payload, 'utf8').toString('base64').replace(/(.{76})/g, '$1\n');
  return `${command} <<'CRUCIBLE_B64'\n${encoded}\nCRUCIBLE_B64`;
}

/** Most bytes of a submitted patch (the diff step's output cap). */
const MAX_PATCH_BYTES = 8 << 20;

/** What the environment needs from the session manager. */
export interface RepositoryDeps {
  readonly caps: Capabilities;
  readonly slots: SessionSlots;
}

/** A `repository` session (see the module comment). */
export class RepositoryEnvironment implements Environment {
  private box: SessionBox | null = null;
  private baseRevision = '';
  private submitted = false;
  private readonly task: RepositoryTask;

  constructor(task: unknown, private readonly limits: SessionLimits, backend: RepositoryBackend, private readonly deps: RepositoryDeps) {
    this.task = backend(task);
  }

  async start(signal?: AbortSignal): Promise<Observation> {
    let prepared;
    try {
      prepared = await this.task.prepare(signal);
    } catch (error) {
      throw new SessionError('invalid_task', `task: its repository could not be prepared: ${(error as Error).message}`, 'task');
    }
    this.baseRevision = prepared.baseRevision;
    const slot = this.deps.slots.take();
    if (slot === null) throw new SessionError('session_limit', `every session slot (${this.deps.slots.maxSlots}) is in use`);
    this.box = await SessionBox.start('bash', slot, this.deps.caps, this.limits, (s) => this.deps.slots.give(s),
      { layers: prepared.layers, boxPath: REPOSITORY_BOX_PATH, writable: 'overlay' });
    const cd = await this.box.step(`cd ${REPOSITORY_BOX_PATH} && export TMPDIR=${REPOSITORY_BOX_PATH}/.crucible/tmp`, this.limits);
    if (cd.status !== 'ok') {
      await this.close();
      throw new Error(`the repository session could not enter ${REPOSITORY_BOX_PATH}: ${cd.stderr || cd.reason || cd.status}`);
    }
    this.submitted = false;
    return { stdout: '', stderr: '', exitCode: null, status: 'ok', message: this.task.summary };
  }

  private async shell(command: string, outputBytes = this.limits.outputBytes, signal?: AbortSignal): Promise<BoxStepResult> {
    if (this.box === null) throw new SessionError('closed', 'the session is closed');
    return this.box.step(command, { ...this.limits, outputBytes }, signal);
  }

  async step(action: unknown, signal?: AbortSignal): Promise<StepOutcome> {
    const parsed = ActionSchema.safeParse(action);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = ['action', ...issue.path].join('.');
      throw new SessionError('invalid_action', `${field}: ${issue.message} (a repository action is {"kind": "shell"|"view"|"create"|"str_replace"|"insert"|"run_tests"|"submit", ...})`, field);
    }
    const a: Action = parsed.data;
    if (a.kind === 'submit') return this.submit(signal);
    let command: string;
    if (a.kind === 'shell') command = a.command;
    else if (a.kind === 'run_tests') command = `( cd ${REPOSITORY_BOX_PATH} && ${this.task.testCommand} )`;
    else {
      const { kind, ...rest } = a;
      command = withStdin('/usr/bin/node /crucible/harness/repository/editor.cjs', JSON.stringify({ command: kind, ...rest }));
    }
    const result = await this.shell(command, this.limits.outputBytes, signal);
    return { observation: boxObservation(SHELL_SPEC, result), reward: null, done: this.submitted };
  }

  /** The session's changes since the base commit, judged (see the module comment). */
  private async submit(signal?: AbortSignal): Promise<StepOutcome> {
    const diff = await this.shell(`( cd ${REPOSITORY_BOX_PATH} && git add -A -N >/dev/null 2>&1; `
      + `git -c core.hooksPath=/dev/null diff --no-color --no-ext-diff --full-index --binary ${this.baseRevision} )`, MAX_PATCH_BYTES, signal);
    if (diff.status !== 'ok' || diff.stdoutTruncated) {
      return {
        observation: { ...boxObservation(SHELL_SPEC, diff), status: diff.status === 'ok' ? 'output_limit_exceeded' : diff.status,
          reason: diff.stdoutTruncated ? `the patch is larger than ${MAX_PATCH_BYTES} bytes` : `git diff failed: ${diff.reason ?? diff.stderr.slice(0, 300)}` },
        reward: null, done: false,
      };
    }
    const patch = diff.stdout;
    const verdict = await this.task.judge(patch, signal);
    this.submitted = true;
    const passed = verdict.tests.filter((t) => t.status === 'passed').length;
    return {
      observation: {
        stdout: '', stderr: '', exitCode: null, status: verdict.status, cpuMs: verdict.cpuMs, wallMs: verdict.wallMs,
        // Counts only for an unresolved patch: the names of the tests that judge it stay hidden.
        ...(verdict.status === 'wrong_answer' ? { reason: `${passed} of ${verdict.testCount} tests passed` }
          : verdict.reason === undefined ? {} : { reason: verdict.reason }),
        verdict: { status: verdict.status, passed: verdict.passed, testCount: verdict.testCount, passedTests: passed,
          ...(verdict.score === undefined ? {} : { score: verdict.score }) },
        patchBytes: Buffer.byteLength(patch),
      },
      reward: this.task.reward(verdict, patch),
      done: true,
    };
  }

  /** The box (for audits and tests), or null when closed. */
  get sessionBox(): SessionBox | null {
    return this.box;
  }

  async close(): Promise<void> {
    const box = this.box;
    this.box = null;
    await box?.close();
  }
}
