/**
 * `/mcp`: Crucible's MCP tools (`src/server/mcp/server.ts`) over the streamable HTTP transport of the MCP spec
 * (2025-06-18, "Transports"), with MCP sessions: `initialize` (a POST without `Mcp-Session-Id`) opens one (its id
 * comes back in the `Mcp-Session-Id` header), every later POST, GET (the server-to-client stream) and DELETE (end
 * it) carries that id. Sessions, rather than the stateless form, because a client's `notifications/cancelled`
 * travels in a request of its own and must reach the server instance running the call it cancels: a cancelled
 * `run_code` or `judge` then leaves the admission queue or has its program killed, as a disconnect does on the
 * other routes. (Crucible's own environment sessions are named by their id in the tools' arguments, not by the
 * MCP session.)
 *
 * An MCP session idle for `MCP_SESSION_IDLE_MS` is closed (a later request with its id: 404, and the client starts
 * again with `initialize`, as the spec says); all are closed when the server shuts down. The route sits behind the
 * server's hooks like any other: bearer token, draining, body limit, JSON only.
 */
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionManager } from '../../sessions/index.js';
import type { ServerContext } from '../context.js';

/** An MCP session unused this long is closed, ms (30 minutes). */
export const MCP_SESSION_IDLE_MS = 30 * 60_000;

interface OpenMcpSession {
  readonly server: McpServer;
  readonly transport: StreamableHTTPServerTransport;
  lastUsedMs: number;
}

function rpcError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).send({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

/**
 * The MCP SDK and Crucible's MCP server, loaded on the first MCP session rather than at start-up: every command
 * reaches this module through the server, and the SDK costs ~150 ms to import.
 */
const loadMcp = (() => {
  let loaded: Promise<{
    StreamableHTTPServerTransport: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;
    isInitializeRequest: typeof import('@modelcontextprotocol/sdk/types.js').isInitializeRequest;
    createMcpServer: typeof import('./server.js').createMcpServer;
  }> | undefined;
  return () => loaded ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('./server.js'),
  ]).then(([http, types, server]) => ({
    StreamableHTTPServerTransport: http.StreamableHTTPServerTransport,
    isInitializeRequest: types.isInitializeRequest,
    createMcpServer: server.createMcpServer,
  }));
})();

/** Register `/mcp` (POST, GET, DELETE); the session tools work on `sessions`. */
export function registerMcp(app: FastifyInstance, ctx: ServerContext, sessions?: SessionManager): void {
  const open = new Map<string, OpenMcpSession>();
  const close = async (id: string): Promise<void> => {
    const entry = open.get(id);
    if (entry === undefined) return;
    open.delete(id);
    await entry.transport.close();
    await entry.server.close();
  };
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [id, entry] of open) if (now - entry.lastUsedMs > MCP_SESSION_IDLE_MS) void close(id);
  }, 60_000);
  sweeper.unref();
  // Before the listener closes: open server-to-client streams would otherwise hold the shutdown.
  app.addHook('preClose', async () => {
    clearInterval(sweeper);
    await Promise.all([...open.keys()].map(close));
  });

  const handle = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const header = request.headers['mcp-session-id'];
    const id = typeof header === 'string' ? header : undefined;
    let entry = id === undefined ? undefined : open.get(id);
    if (id !== undefined && entry === undefined) return rpcError(reply, 404, `Session not found: MCP session "${id}" is closed or unknown; initialize again`);
    if (entry === undefined) {
      const { StreamableHTTPServerTransport, isInitializeRequest, createMcpServer } = await loadMcp();
      if (request.method !== 'POST' || !isInitializeRequest(request.body)) {
        return rpcError(reply, 400, 'Bad Request: no Mcp-Session-Id; start an MCP session with an initialize request');
      }
      const server = createMcpServer(ctx, { route: '/mcp', ...(sessions === undefined ? {} : { sessions }) });
      const created: OpenMcpSession = {
        server,
        transport: new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => { open.set(sessionId, created); },
          onsessionclosed: (sessionId) => { void close(sessionId); },
        }),
        lastUsedMs: Date.now(),
      };
      await server.connect(created.transport);
      entry = created;
    }
    entry.lastUsedMs = Date.now();
    reply.hijack();
    await entry.transport.handleRequest(request.raw, reply.raw, request.body);
    return undefined;
  };
  app.post('/mcp', handle);
  app.get('/mcp', handle);
  app.delete('/mcp', handle);
}
