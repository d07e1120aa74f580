/**
 * MCP tools `session_create`, `session_step`, `session_reset`, `session_close`: Crucible's multi-turn environments
 * (`python`, `bash`, `sqlite`, `program`; `src/sessions/`) for agents, on the server's `SessionManager`. The same
 * schemas, admission and errors as the HTTP routes `/v1/sessions...` (`src/server/sessions.ts`, docs/API.md
 * "Sessions"). A session is named by its id in the arguments, not by the MCP session, so a session made through
 * one MCP connection (or over HTTP) can be stepped through another.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ServerContext } from '../context.js';
import { admittedSessionWork, asServiceError, CreateSessionSchema, isSqlSubmit, StepSchema } from '../sessions.js';
import { parseBody } from '../validate.js';
import { SessionError, type SessionManager } from '../../sessions/index.js';
import { toolResult } from './result.js';

const ID = z.string().min(1).describe('The session id session_create returned.');

/** Input of `session_create`: the body of `POST /v1/sessions`. */
export const SESSION_CREATE_INPUT = CreateSessionSchema.shape;
/** Input of `session_step`: the session id and the body of `POST /v1/sessions/{id}/step`. */
export const SESSION_STEP_INPUT = { id: ID, ...StepSchema.shape };
/** Input of `session_reset` and `session_close`. */
export const SESSION_ID_INPUT = { id: ID };

export const SESSION_DESCRIPTIONS = {
  create: 'Open a stateful environment in Crucible\'s sandbox and return its id, first observation and info. ' +
    'environment: "python" (a persistent REPL), "bash" (a persistent shell: cwd, variables, files), "sqlite" ' +
    '(task {sql, gold?, comparators?}: the database to load; with gold, InterCode-SQL\'s submit), "program" (task {problem: ID} or {tests: [{input, output}]}: a coding task ' +
    'whose submissions are judged; visibleTests: "all" or the indices of tests feedback may show, default none). ' +
    'limits (per step): cpuMs, wallMs, memoryKiB, processes, outputBytes, diskKiB, maxSteps, maxSubmits, feedbackChars; ' +
    'ttlSeconds: idle time before the session is closed.',
  step: 'Take one action in a session and return {observation: {stdout, stderr, exitCode, status, ...}, reward, done, info}. ' +
    'action: code (python), a command line (bash), SQL (sqlite; "submit" or {kind: "submit", query} judges the last or the given ' +
    'query against the task\'s gold: InterCode-SQL\'s reward, done), or for program {kind: "run", code, stdin?} to run ' +
    'the program once or {kind: "submit", code} to judge it (observation.feedback shows the first failing visible test ' +
    'and names a hidden one by index only; reward 1 when every test passes; at most maxSubmits submits). A step over its ' +
    'limits gets its status (time_limit_exceeded, ...) and the session survives.',
  reset: 'Reset a session to a pristine environment of the same task and limits (every file, process and variable of ' +
    'the old one gone); steps count from 0.',
  close: 'Close a session: its processes, files and cgroups are released. Its id is unknown afterwards.',
} as const;

/** Run a session operation outside admission (close), its `SessionError` as a catalog error. */
async function mapped<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SessionError) throw asServiceError(error);
    throw error;
  }
}

/**
 * The four tool bodies on `manager`. Each resolves with the HTTP route's answer as the tool result, or throws
 * `ServiceError` (`invalid_body` naming the field, `unknown_session`, `session_done`, `overloaded`,
 * `shutting_down`), which `guarded` turns into a tool error.
 */
export function sessionTools(ctx: ServerContext, manager: SessionManager) {
  return {
    create: async (args: unknown): Promise<CallToolResult> => {
      const body = parseBody(CreateSessionSchema, args);
      return toolResult(await admittedSessionWork(ctx, () => manager.create(body)));
    },
    step: async (args: { id: string; action: unknown }, signal: AbortSignal): Promise<CallToolResult> => {
      const body = parseBody(StepSchema, { action: args.action });
      const kind = manager.environmentKind(args.id);
      return toolResult(await admittedSessionWork(ctx, () => manager.step(args.id, body.action, signal), signal,
        kind === 'program' || (kind === 'sqlite' && isSqlSubmit(body.action))));
    },
    reset: async (args: { id: string }): Promise<CallToolResult> =>
      toolResult(await admittedSessionWork(ctx, () => manager.reset(args.id))),
    close: async (args: { id: string }): Promise<CallToolResult> => {
      await mapped(() => manager.delete(args.id));
      return toolResult({ id: args.id, deleted: true });
    },
  };
}
