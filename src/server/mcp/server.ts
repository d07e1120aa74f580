/**
 * Crucible's Model Context Protocol server: the tools an agent (or an agentic-RL rollout through verl's MCP tool
 * support) calls to run and judge code in Crucible's sandbox, on one server context (`ServerContext`: judge,
 * admission queue, problems, limits). Built with the official TypeScript SDK (`@modelcontextprotocol/sdk`).
 * Transports are the front ends' business: `crucible mcp` connects it to stdio (`src/cli/mcp.ts`), `crucible
 * serve` to streamable HTTP at `/mcp` (`src/server/mcp/route.ts`).
 *
 * Tools: `run_code` (one run, no tests: `run-code.ts`), `judge` (a submission on a problem or inline tests ->
 * verdict: `judge.ts`), and with a session manager `session_create`, `session_step`, `session_reset`,
 * `session_close` (multi-turn environments: `sessions.ts`). Each call is one admitted item, like an HTTP request; the SDK's per-request
 * `AbortSignal` (the client's `notifications/cancelled`, or its connection closing) cancels its work as a
 * disconnect cancels an HTTP request's. Errors: `result.ts`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerContext } from '../context.js';
import type { SessionManager } from '../../sessions/index.js';
import type { RequestScope } from '../scope.js';
import { CRUCIBLE_VERSION } from '../../version.js';
import { judge, JUDGE_DESCRIPTION, JUDGE_INPUT } from './judge.js';
import { guarded } from './result.js';
import { runCode, RUN_CODE_DESCRIPTION, runCodeInput } from './run-code.js';
import { SESSION_CREATE_INPUT, SESSION_DESCRIPTIONS, SESSION_ID_INPUT, SESSION_STEP_INPUT, sessionTools } from './sessions.js';

/** Options of `createMcpServer`. */
export interface McpServerOptions {
  /** Label of the calls' metrics and logs (`route` of their `RequestScope`), e.g. `mcp:stdio` or `/mcp`. */
  readonly route: string;
  /** The sessions the `session_*` tools work on; without it those tools are not offered. */
  readonly sessions?: SessionManager;
}

/** An MCP server exposing Crucible's tools on `ctx`; connect it to a transport with `server.connect`. */
export function createMcpServer(ctx: ServerContext, options: McpServerOptions): McpServer {
  const server = new McpServer({ name: 'crucible', version: CRUCIBLE_VERSION }, {
    capabilities: { tools: {} },
    instructions: 'Crucible runs and judges untrusted code in a sandbox. run_code: one run of a program on a stdin. ' +
      'judge: a program against a problem\'s tests (or inline stdin/stdout tests) -> verdict. session_*: stateful ' +
      'python/bash/sqlite/program environments whose state persists between steps.',
  });
  const scope = (signal: AbortSignal): RequestScope => ({ route: options.route, signal });

  server.registerTool('run_code', {
    title: 'Run code',
    description: RUN_CODE_DESCRIPTION,
    inputSchema: runCodeInput(ctx.config),
    annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
  }, (args, extra) => guarded(() => runCode(ctx, args, scope(extra.signal))));

  server.registerTool('judge', {
    title: 'Judge code against tests',
    description: JUDGE_DESCRIPTION,
    inputSchema: JUDGE_INPUT,
    annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
  }, (args, extra) => guarded(() => judge(ctx, args, scope(extra.signal))));

  if (options.sessions !== undefined) registerSessionTools(server, sessionTools(ctx, options.sessions), scope);
  return server;
}

function registerSessionTools(server: McpServer, tools: ReturnType<typeof sessionTools>, scope: (signal: AbortSignal) => RequestScope): void {
  const stateful = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
  server.registerTool('session_create', { title: 'Open a session', description: SESSION_DESCRIPTIONS.create,
    inputSchema: SESSION_CREATE_INPUT, annotations: stateful }, (args) => guarded(() => tools.create(args)));
  server.registerTool('session_step', { title: 'Step a session', description: SESSION_DESCRIPTIONS.step,
    inputSchema: SESSION_STEP_INPUT, annotations: stateful }, (args, extra) => guarded(() => tools.step(args, scope(extra.signal).signal)));
  server.registerTool('session_reset', { title: 'Reset a session', description: SESSION_DESCRIPTIONS.reset,
    inputSchema: SESSION_ID_INPUT, annotations: { ...stateful, destructiveHint: true } }, (args) => guarded(() => tools.reset(args)));
  server.registerTool('session_close', { title: 'Close a session', description: SESSION_DESCRIPTIONS.close,
    inputSchema: SESSION_ID_INPUT, annotations: { ...stateful, destructiveHint: true, idempotentHint: true } }, (args) => guarded(() => tools.close(args)));
}
