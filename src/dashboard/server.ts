/** `crucible dashboard` as a library: a standalone fastify server with the dashboard at `/`. */
import Fastify, { type FastifyInstance } from 'fastify';
import type { ResultStore } from '../store/result-store.js';
import { hostAllowed, hostRefusal } from './allowed-hosts.js';
import { registerDashboard } from './routes.js';

/** Options of `startDashboard`. */
export interface StartDashboardOptions {
  readonly store: ResultStore;
  /** Address to bind (default 127.0.0.1: the dashboard has no authentication). */
  readonly host?: string;
  /** TCP port; 0 (default) picks a free one. */
  readonly port?: number;
  readonly pollMs?: number;
  /**
   * Host names (the `Host` header) served besides IP addresses and localhost; `*` for any. The dashboard has no
   * authentication, so by default a request naming another host is refused (DNS rebinding: `allowed-hosts.ts`).
   */
  readonly allowedHosts?: readonly string[];
  /** A running run without an update for this long shows as stalled, ms (default 60 s). */
  readonly stalledMs?: number;
}

/** A running dashboard. `close` stops the server (not the store: it belongs to the caller). */
export interface DashboardHandle {
  readonly app: FastifyInstance;
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Start a dashboard server. @throws the listen error (address in use, …). */
export async function startDashboard(options: StartDashboardOptions): Promise<DashboardHandle> {
  const app = Fastify({ logger: false });
  const allowedHosts = options.allowedHosts ?? [];
  app.addHook('onRequest', async (request, reply) => {
    if (!hostAllowed(request.headers.host, allowedHosts)) {
      await reply.code(403).type('text/plain; charset=utf-8').send(hostRefusal(request.headers.host));
    }
  });
  await registerDashboard(app, { store: options.store, ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
    ...(options.stalledMs === undefined ? {} : { stalledMs: options.stalledMs }) });
  const host = options.host ?? '127.0.0.1';
  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port ?? 0;
  const shown = host.includes(':') ? `[${host}]` : host;
  return { app, url: `http://${shown}:${port}/`, port, close: () => app.close() };
}
