/** Operations routes: `GET /health` (no auth, for probes) and Prometheus `GET /metrics`. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from './context.js';
import type { Registry } from './metrics.js';

export function registerOps(app: FastifyInstance, ctx: ServerContext, registry: Registry): void {
  app.get('/health', async (_request, reply) => {
    const a = ctx.service.admission;
    // 503 while draining so a load balancer stops sending work here.
    reply.code(ctx.draining() ? 503 : 200);
    return {
      status: ctx.draining() ? 'draining' : 'ok',
      uptimeSeconds: Math.round((Date.now() - ctx.startedMs) / 1000),
      sandbox: { slots: ctx.sandbox.slotCount, busySlots: ctx.sandbox.busySlots, isolated: !ctx.sandbox.unsafeNoSandbox },
      queue: { running: a.running, waiting: a.depth, outstanding: a.outstanding, maxInFlight: a.maxInFlight,
        capacity: a.capacity, limit: a.limit },
      problems: ctx.service.problems.size,
    };
  });

  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', 'text/plain; version=0.0.4; charset=utf-8');
    return registry.render();
  });
}
