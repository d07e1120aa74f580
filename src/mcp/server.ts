/**
 * Crucible's Model Context Protocol server: the tools an agent (or an agentic-RL rollout through verl's MCP tool
 * support) calls to run and judge code in Crucible's sandbox, on one server context (`ServerContext`: judge,
 * admission queue, problems, limits). Built with the official TypeScript SDK (`@modelcontextprotocol/sdk`).
 * Transports are the front ends' business: `crucible mcp` connects it to stdio (`src/cli/mcp.ts`), `crucible
 * serve` to streamable HTTP at `/mcp` (`src/server/mcp.ts`).
 *
 * Tools: `run_code` (one run, no tests: `run-code.ts`), `judge` (a submission on a problem or inline tests ->
 * verdict: `judge.ts`). Each call is one admitted item, like an HTTP request; the SDK's per-request
 * `AbortSignal` (the client's `notifications/cancelled`, or its connection closing) cancels its work as a
 * disconnect cancels an HTTP request's. Errors: `result.ts`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerContext } from '../server/context.js';
import type { RequestScope } from '../server/scope.js';
import { CRUCIBLE_VERSION } from '../version.js';
import { judge, JUDGE_DESCRIPTION, JUDGE_INPUT } from './judge.js';
import { guarded } from './result.js';
import { runCode, RUN_CODE_DESCRIPTION, runCodeInput } from './run-code.js';

/** Options of `createMcpServer`. */
export interface McpServerOptions {
  /** Label of the calls' metrics and logs (`route` of their `RequestScope`), e.g. `mcp:stdio` or `/mcp`. */
  readonly route: string;
}

/** An MCP server exposing Crucible's tools on `ctx`; connect it to a transport with `server.connect`. */
export function createMcpServer(ctx: ServerContext, options: McpServerOptions): McpServer {
  const server = new McpServer({ name: 'crucible', version: CRUCIBLE_VERSION }, {
    capabilities: { tools: {} },
    instructions: 'Crucible runs and judges untrusted code in a sandbox. run_code: one run of a program on a stdin. ' +
      'judge: a program against a problem\'s tests (or inline stdin/stdout tests) -> verdict.',
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

  return server;
}
