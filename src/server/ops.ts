/**
 * Operations routes: `GET /health` (no auth, for probes) and Prometheus `GET /metrics`.
 *
 * `/health` answers 200 `ok` only when the last self-test (`health.ts`: a real confined program in the sandbox
 * and a known-good program through the Python judge harness, at most a few seconds old) worked; otherwise 503
 * `degraded` with the reason, so a load balancer stops sending work here and an operator sees why. 503
 * `draining` during shutdown (no self-test then). The body also carries the counts of items Crucible failed
 * (`internal_error`), by route, since start.
 */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from './context.js';
import type { Registry } from './metrics.js';

export function registerOps(app: FastifyInstance, ctx: ServerContext, registry: Registry): void {
  app.get('/health', async (_request, reply) => {
    const a = ctx.service.admission;
    const common = {
      uptimeSeconds: Math.round((Date.now() - ctx.startedMs) / 1000),
      sandbox: ctx.sandbox === null ? null : { slots: ctx.sandbox.slotCount, busySlots: ctx.sandbox.busySlots, isolated: !ctx.sandbox.unsafeNoSandbox },
      queue: { running: a.running, waiting: a.depth, outstanding: a.outstanding, maxInFlight: a.maxInFlight,
        capacity: a.capacity, limit: a.limit },
      internalErrors: ctx.metrics.internalErrors.byLabel('route'),
      problems: ctx.service.problems.size,
    };
    // 503 while draining so a load balancer stops sending work here.
    if (ctx.draining()) return reply.code(503).send({ status: 'draining', ...common });
    const report = await ctx.health.report();
    const selfTest = {
      ok: report.ok, pending: report.pending, checks: report.checks,
      ageSeconds: report.testedAtMs === null ? null : Math.max(0, Math.round((Date.now() - report.testedAtMs) / 1000)),
    };
    if (!report.ok) return reply.code(503).send({ status: 'degraded', reason: report.reason ?? 'the self-test failed', selfTest, ...common });
    return { status: 'ok', selfTest, ...common };
  });

  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', 'text/plain; version=0.0.4; charset=utf-8');
    await registry.refresh();
    return registry.render();
  });
}
