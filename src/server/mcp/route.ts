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
 * again with `initialize`, as the spec says); all are closed when the server shuts down. Sessions are capped, so a
 * flood of `initialize` cannot exhaust the heap (issue #23; each holds an MCP server instance, ~76 KiB): a client
 * (remote address) holds at most `maxMcpSessionsPerClient` and the server `maxMcpSessions`; a new session past
 * either cap closes the least recently used idle session (the client's own first, so one client's flood evicts its
 * own sessions, never another client's while it has any), and when every one is busy the `initialize` is refused
 * with 429. Memory per client is thus at most its cap of sessions plus its requests (each bounded by the body
 * limit). The route sits behind the server's hooks like any other: bearer token, Host check, draining, body
 * limit, JSON only.
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
  /** Who opened it: the remote address. */
  readonly client: string;
  /** Its id once `initialize` has been answered. */
  id: string | null;
  lastUsedMs: number;
  /** Requests being handled now (a server-to-client GET stream does not count: closing the session ends it). */
  busy: number;
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

/**
 * The open MCP sessions of one server and their caps (see the module comment): `all` counts sessions being
 * initialized too, `byId` those whose `initialize` was answered.
 */
class McpSessionTable {
  readonly byId = new Map<string, OpenMcpSession>();
  readonly all = new Set<OpenMcpSession>();

  constructor(private readonly maxSessions: number, private readonly maxPerClient: number) {}

  /** Close `entry` (its transport and server) and forget it. Idempotent. */
  async close(entry: OpenMcpSession): Promise<void> {
    if (!this.all.delete(entry)) return;
    if (entry.id !== null) this.byId.delete(entry.id);
    await entry.transport.close();
    await entry.server.close();
  }

  /** Close the sessions idle for longer than `idleMs`. */
  sweep(idleMs: number): void {
    const now = Date.now();
    for (const entry of this.all) if (entry.busy === 0 && now - entry.lastUsedMs > idleMs) void this.close(entry);
  }

  /** The least recently used idle session among those `of` takes, if any. */
  private idleOldest(of: (e: OpenMcpSession) => boolean): OpenMcpSession | undefined {
    return [...this.all].filter((e) => e.busy === 0 && of(e)).sort((a, b) => a.lastUsedMs - b.lastUsedMs)[0];
  }

  /** Make room for one more session of `client`, closing idle ones past the caps; false when every candidate is busy. */
  async makeRoom(client: string): Promise<boolean> {
    const mine = [...this.all].filter((e) => e.client === client).length;
    if (mine >= this.maxPerClient) {
      const victim = this.idleOldest((e) => e.client === client);
      if (victim === undefined) return false;
      await this.close(victim);
    }
    if (this.all.size >= this.maxSessions) {
      const victim = this.idleOldest((e) => e.client === client) ?? this.idleOldest(() => true);
      if (victim === undefined) return false;
      await this.close(victim);
    }
    return true;
  }
}

/** A new MCP session of `client` (not yet initialized), in `table`. */
async function openMcpSession(ctx: ServerContext, table: McpSessionTable, client: string, sessions: SessionManager | undefined): Promise<OpenMcpSession> {
  const { StreamableHTTPServerTransport, createMcpServer } = await loadMcp();
  const server = createMcpServer(ctx, { route: '/mcp', ...(sessions === undefined ? {} : { sessions }) });
  const created: OpenMcpSession = {
    server,
    client,
    id: null,
    transport: new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        created.id = sessionId;
        if (table.all.has(created)) table.byId.set(sessionId, created);
      },
      onsessionclosed: () => { void table.close(created); },
    }),
    lastUsedMs: Date.now(),
    busy: 0,
  };
  table.all.add(created);
  await server.connect(created.transport);
  return created;
}

/** Register `/mcp` (POST, GET, DELETE); the session tools work on `sessions`. Returns the count of open MCP sessions (metrics). */
export function registerMcp(app: FastifyInstance, ctx: ServerContext, sessions?: SessionManager): { readonly open: () => number } {
  const table = new McpSessionTable(ctx.config.maxMcpSessions, ctx.config.maxMcpSessionsPerClient);
  const sweeper = setInterval(() => table.sweep(MCP_SESSION_IDLE_MS), 60_000);
  sweeper.unref();
  // Before the listener closes: open server-to-client streams would otherwise hold the shutdown.
  app.addHook('preClose', async () => {
    clearInterval(sweeper);
    await Promise.all([...table.all].map((entry) => table.close(entry)));
  });

  const handle = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const header = request.headers['mcp-session-id'];
    const id = typeof header === 'string' ? header : undefined;
    let entry = id === undefined ? undefined : table.byId.get(id);
    if (id !== undefined && entry === undefined) return rpcError(reply, 404, `Session not found: MCP session "${id}" is closed or unknown; initialize again`);
    if (entry === undefined) {
      const { isInitializeRequest } = await loadMcp();
      if (request.method !== 'POST' || !isInitializeRequest(request.body)) {
        return rpcError(reply, 400, 'Bad Request: no Mcp-Session-Id; start an MCP session with an initialize request');
      }
      if (!(await table.makeRoom(request.ip))) {
        reply.header('retry-after', '5');
        return rpcError(reply, 429, `Too many MCP sessions: every one of this client's ${ctx.config.maxMcpSessionsPerClient} (or the server's `
          + `${ctx.config.maxMcpSessions}) is busy; retry when one answers or end one with DELETE`);
      }
      entry = await openMcpSession(ctx, table, request.ip, sessions);
    }
    const current = entry;
    current.lastUsedMs = Date.now();
    const counted = request.method !== 'GET';
    if (counted) current.busy++;
    reply.hijack();
    try {
      await current.transport.handleRequest(request.raw, reply.raw, request.body);
    } finally {
      if (counted) current.busy--;
      current.lastUsedMs = Date.now();
      // An initialize that did not open a session leaves nothing behind.
      if (current.id === null) void table.close(current);
    }
    return undefined;
  };
  app.post('/mcp', handle);
  app.get('/mcp', handle);
  app.delete('/mcp', handle);
  return { open: () => table.all.size };
}
