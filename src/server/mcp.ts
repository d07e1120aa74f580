/**
 * `/mcp`: Crucible's MCP tools (`src/mcp/server.ts`) over the streamable HTTP transport of the MCP spec
 * (2025-06-18, "Transports"), in its stateless form: every POST carries JSON-RPC messages and is answered on its
 * own (a JSON body, or an SSE stream for one request's messages), with no `Mcp-Session-Id`. Stateless suits a
 * judging service: a tool call needs nothing from an earlier call, any replica behind a load balancer can answer.
 * (Crucible's own sessions are named by their id in the tools' arguments, not by the MCP session.)
 *
 * The route sits behind the server's hooks like any other: bearer token, draining, body limit, JSON only. GET
 * (a server-to-client stream) and DELETE (ending an MCP session) have nothing to serve when there are no MCP
 * sessions: 405 with a JSON-RPC error, as the spec allows.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { createMcpServer } from '../mcp/server.js';
import type { SessionManager } from '../sessions/index.js';
import type { ServerContext } from './context.js';

/** Register `POST /mcp` (and the 405 answers of GET and DELETE); the session tools work on `sessions`. */
export function registerMcp(app: FastifyInstance, ctx: ServerContext, sessions?: SessionManager): void {
  app.post('/mcp', async (request, reply) => {
    const server = createMcpServer(ctx, { route: '/mcp', ...(sessions === undefined ? {} : { sessions }) });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    // The client hanging up (or the answer being complete) ends this request's MCP server: in-flight tool
    // calls see their signal abort, and their queue places and sandbox slots are freed.
    reply.raw.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    reply.hijack();
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
  const notAllowed = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; send JSON-RPC with POST' }, id: null };
  app.get('/mcp', async (_request, reply) => reply.code(405).header('allow', 'POST').send(notAllowed));
  app.delete('/mcp', async (_request, reply) => reply.code(405).header('allow', 'POST').send(notAllowed));
}
