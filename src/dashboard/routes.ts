/**
 * The dashboard's routes, registered on any fastify instance under a prefix: `crucible dashboard` serves them at
 * `/`, `crucible serve` mounts them at `/ui`. Pages are rendered on the server (`pages/*`); charts are drawn in
 * the browser by vega-embed; `events` streams live updates (`live.ts`).
 *
 * Routes (relative to the prefix):
 *   GET  /                              runs list (?q, model, dataset, status)
 *   GET  /runs/:id                      run page
 *   GET  /runs/:id/problem?task=T       problem page
 *   GET  /runs/:id/sample?task=T&index=I sample page
 *   GET  /compare?a=A&b=B[&plus=1]      compare page
 *   GET  /training, /training/:id       training runs, a training run
 *   GET  /events                        server-sent events (live updates)
 *   GET  /api/runs, /api/runs/:id       JSON (the numbers the pages show)
 *   GET  /api/training/:id/series       JSON (a training run's buckets and chart specs)
 *   GET  /training/:id/problems, /api/training/:id/problems   difficulty per problem (pages/difficulty.ts)
 *   POST /api/training/:run/events      reward events of a training run (docs/DASHBOARD.md)
 *   GET  /static/:file                  scripts and styles
 * Handlers answer their own errors (an HTML page for pages, `{error: {code, message}}` for the API), so the
 * host's error handler is never involved.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { comparePaired } from '../metrics/paired.js';
import { maxReportableK, type ProblemCounts } from '../metrics/pass-at-k.js';
import { analyseRun } from '../store/analysis.js';
import { StoreError } from '../store/errors.js';
import type { ProblemCountsRow, ResultStore, RunFilter } from '../store/result-store.js';
import { normaliseEvent, trainingEventsBodySchema } from '../store/training-event.js';
import { assets } from './assets.js';
import { difficultySpec, passAtKCurveSpec, verdictChartSpec } from './charts.js';
import { esc, page } from './html.js';
import { LiveFeed } from './live.js';
import { renderCompare } from './pages/compare.js';
import { renderProblem } from './pages/problem.js';
import { renderRun, verdictCounts } from './pages/run.js';
import { renderRuns } from './pages/runs.js';
import { renderSample } from './pages/sample.js';
import { renderTraining, renderTrainingList, trainingFacts, trainingSpecs } from './pages/training.js';
import { registerDifficultyPages } from './pages/difficulty.js';

/** Options of `registerDashboard`. */
export interface DashboardOptions {
  /** The store the pages read (and training events go to). The caller opens and closes it. */
  readonly store: ResultStore;
  /** Mount point: `''` for the root, or a path such as `/ui` (no trailing slash). */
  readonly prefix?: string;
  /** Store poll interval of live updates while pages listen, ms (default 500). */
  readonly pollMs?: number;
  /** Accept `POST /api/training/:run/events` (default true). */
  readonly ingest?: boolean;
}

const CSP = "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'";

const runFilterSchema = z.object({
  q: z.string().max(200).optional(),
  model: z.string().max(200).optional(),
  dataset: z.string().max(200).optional(),
  status: z.enum(['running', 'finished', 'failed', 'interrupted', '']).optional(),
});
const idSchema = z.object({ id: z.string().regex(/^\d+$/, 'a run id is a number').transform(Number) });
const taskSchema = z.object({ task: z.string().min(1).max(1000) });
const sampleSchema = taskSchema.extend({ index: z.string().regex(/^\d+$/, 'index is a number').transform(Number) });
const compareSchema = z.object({ a: z.string().regex(/^\d+$/).transform(Number).optional(), b: z.string().regex(/^\d+$/).transform(Number).optional(), plus: z.string().optional() });

function counts(problems: readonly ProblemCountsRow[], plus: boolean): ProblemCounts[] {
  return problems.filter((p) => p.n > 0).map((p) => ({ taskId: p.taskId, n: p.n, c: plus ? p.plusC : p.c }));
}

/** What every route group of the dashboard uses: the app, the store, the mount point and the answer helpers. */
interface RouteKit {
  readonly app: FastifyInstance;
  readonly store: ResultStore;
  /** Mount point (`''` or e.g. `/ui`) and the pages' base URL (`${prefix}/`). */
  readonly prefix: string;
  readonly base: string;
  html(reply: FastifyReply, body: string, status?: number): FastifyReply;
  problemPage(reply: FastifyReply, status: number, title: string, message: string): FastifyReply;
  apiError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply;
  /** Parse with zod or answer 400 naming the field (an HTML page, or JSON when `api`); undefined when refused. */
  parse<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, value: unknown, reply: FastifyReply, api?: boolean): T | undefined;
}

function routeKit(app: FastifyInstance, store: ResultStore, prefix: string): RouteKit {
  const base = `${prefix}/`;
  const html = (reply: FastifyReply, body: string, status = 200): FastifyReply =>
    reply.code(status).header('content-security-policy', CSP).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
  const problemPage = (reply: FastifyReply, status: number, title: string, message: string): FastifyReply =>
    html(reply, page({ base, title, page: 'error' }, `<p class="error" data-testid="error">${esc(message)}</p><p><a href="">All runs</a></p>`), status);
  const apiError = (reply: FastifyReply, status: number, code: string, message: string): FastifyReply =>
    reply.code(status).send({ error: { code, message } });
  function parse<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, value: unknown, reply: FastifyReply, api = false): T | undefined {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    const message = `${issue.path.join('.') || 'request'}: ${issue.message}`;
    if (api) void apiError(reply, 400, 'invalid_request', message);
    else void problemPage(reply, 400, 'Bad request', message);
    return undefined;
  }
  return { app, store, prefix, base, html, problemPage, apiError, parse };
}

/** Static assets, the runs list, and a run's pages (run, problem, sample). */
function registerRunPages(kit: RouteKit, files: ReturnType<typeof assets>): void {
  const { app, store, prefix, base, html, problemPage, parse } = kit;
  app.get(`${prefix}/static/:file`, async (request, reply) => {
    const asset = files.get((request.params as { file: string }).file);
    if (asset === undefined) return reply.code(404).send({ error: { code: 'not_found', message: 'no such file' } });
    return reply.header('cache-control', 'public, max-age=3600').type(asset.type).send(asset.body);
  });

  app.get(`${prefix}/`, async (request, reply) => {
    const q = parse(runFilterSchema, request.query, reply);
    if (q === undefined) return reply;
    const filter: RunFilter = {
      ...(q.q ? { text: q.q } : {}), ...(q.model ? { model: q.model } : {}), ...(q.dataset ? { dataset: q.dataset } : {}),
      ...(q.status ? { status: q.status } : {}),
    };
    return html(reply, renderRuns(base, await store.listRuns(filter), filter));
  });

  app.get(`${prefix}/runs/:id`, async (request, reply) => {
    const p = parse(idSchema, request.params, reply);
    if (p === undefined) return reply;
    const run = await store.getRun(p.id);
    if (run === undefined) return problemPage(reply, 404, 'Run not found', `There is no run ${p.id} in ${store.location}.`);
    const problems = await store.problemCounts(run.id);
    const analysis = await analyseRun(store, run, problems);
    return html(reply, renderRun(base, run, problems, analysis, await store.listRuns({ limit: 200 })));
  });

  app.get(`${prefix}/runs/:id/problem`, async (request, reply) => {
    const p = parse(idSchema, request.params, reply);
    const q = p === undefined ? undefined : parse(taskSchema, request.query, reply);
    if (p === undefined || q === undefined) return reply;
    const run = await store.getRun(p.id);
    if (run === undefined) return problemPage(reply, 404, 'Run not found', `There is no run ${p.id}.`);
    const problem = (await store.problemCounts(run.id)).find((x) => x.taskId === q.task);
    if (problem === undefined) return problemPage(reply, 404, 'Problem not found', `Run ${run.id} has no sample of ${q.task}.`);
    return html(reply, renderProblem(base, run, problem, await store.samplesOf(run.id, q.task)));
  });

  app.get(`${prefix}/runs/:id/sample`, async (request, reply) => {
    const p = parse(idSchema, request.params, reply);
    const q = p === undefined ? undefined : parse(sampleSchema, request.query, reply);
    if (p === undefined || q === undefined) return reply;
    const run = await store.getRun(p.id);
    if (run === undefined) return problemPage(reply, 404, 'Run not found', `There is no run ${p.id}.`);
    const sample = await store.sample(run.id, q.task, q.index);
    if (sample === undefined) return problemPage(reply, 404, 'Sample not found', `Run ${run.id} has no sample ${q.index} of ${q.task}.`);
    return html(reply, renderSample(base, run, sample));
  });
}

/** The compare page: two runs, paired differences, flipped problems, McNemar. */
function registerComparePage(kit: RouteKit): void {
  const { app, store, prefix, base, html, parse } = kit;
  app.get(`${prefix}/compare`, async (request, reply) => {
    const q = parse(compareSchema, request.query, reply);
    if (q === undefined) return reply;
    const runs = await store.listRuns({ limit: 200 });
    if (q.a === undefined || q.b === undefined) return html(reply, renderCompare(base, runs));
    const [a, b] = await Promise.all([store.getRun(q.a), store.getRun(q.b)]);
    if (a === undefined || b === undefined) return html(reply, renderCompare(base, runs, undefined, `There is no run ${a === undefined ? q.a : q.b}.`), 404);
    const plus = q.plus === '1';
    const [ca, cb] = await Promise.all([store.problemCounts(a.id), store.problemCounts(b.id)]);
    try {
      const countsA = counts(ca, plus);
      const countsB = counts(cb, plus);
      const shared = new Set(countsB.map((c) => c.taskId));
      const maxK = maxReportableK([...countsA.filter((c) => shared.has(c.taskId)), ...countsB.filter((c) => countsA.some((x) => x.taskId === c.taskId))]);
      const comparison = comparePaired(countsA, countsB, { ks: [1, 10, 100].filter((k) => k <= maxK) });
      return html(reply, renderCompare(base, runs, { a, b, comparison, plus }));
    } catch (error) {
      return html(reply, renderCompare(base, runs, undefined, `Runs ${a.id} and ${b.id} cannot be compared: ${(error as Error).message}`), 400);
    }
  });
}

/** Training pages and the live event stream. */
function registerTrainingPages(kit: RouteKit, feed: LiveFeed): void {
  const { app, store, prefix, base, html, problemPage, parse } = kit;
  app.get(`${prefix}/training`, async (_request, reply) => html(reply, renderTrainingList(base, await store.listTrainingRuns())));

  app.get(`${prefix}/training/:id`, async (request, reply) => {
    const p = parse(idSchema, request.params, reply);
    if (p === undefined) return reply;
    const run = await store.getTrainingRun(String(p.id));
    if (run === undefined) return problemPage(reply, 404, 'Training run not found', `There is no training run ${p.id}.`);
    return html(reply, renderTraining(base, run, await store.trainingSeries(run.id)));
  });

  app.get(`${prefix}/events`, async (request, reply) => {
    reply.hijack();
    feed.attach(reply.raw);
    void feed.poll();
  });
}

/** JSON API: runs, a run's analysis and chart specs. */
function registerRunApi(kit: RouteKit): void {
  const { app, store, prefix, apiError, parse } = kit;
  app.get(`${prefix}/api/runs`, async () => ({ runs: await store.listRuns() }));

  app.get(`${prefix}/api/runs/:id`, async (request, reply) => {
    const p = parse(idSchema, request.params, reply, true);
    if (p === undefined) return reply;
    const run = await store.getRun(p.id);
    if (run === undefined) return apiError(reply, 404, 'run_not_found', `no run ${p.id}`);
    const problems = await store.problemCounts(run.id);
    const analysis = await analyseRun(store, run, problems);
    const verdicts = verdictCounts(problems);
    const series = analysis === undefined ? {} : { base: analysis.base, ...(analysis.plus === undefined ? {} : { 'base + plus': analysis.plus }) };
    return {
      run, problems, verdicts, analysis: analysis ?? null,
      specs: analysis === undefined ? {} : {
        curve: passAtKCurveSpec(series), verdicts: verdictChartSpec(verdicts),
        difficulty: difficultySpec(problems.map((x) => ({ taskId: x.taskId, passRate: x.c / x.n }))),
      },
    };
  });
}

/** JSON API of training runs: a run's series, and (with `ingest`) reward events in. */
function registerTrainingApi(kit: RouteKit, ingest: boolean): void {
  const { app, store, prefix, apiError, parse } = kit;
  app.get(`${prefix}/api/training/:id/series`, async (request, reply) => {
    const p = parse(idSchema, request.params, reply, true);
    if (p === undefined) return reply;
    const run = await store.getTrainingRun(String(p.id));
    if (run === undefined) return apiError(reply, 404, 'training_run_not_found', `no training run ${p.id}`);
    const series = await store.trainingSeries(run.id);
    return { run, series, facts: trainingFacts(run, series), specs: trainingSpecs(series) };
  });

  if (ingest) {
    app.post(`${prefix}/api/training/:run/events`, async (request, reply) => {
      const name = (request.params as { run: string }).run;
      if (!/^[\w.:@/-]{1,200}$/.test(name)) return apiError(reply, 400, 'invalid_request', 'run: 1-200 characters of letters, digits and . : @ / - _');
      const body = parse(trainingEventsBodySchema, request.body, reply, true);
      if (body === undefined) return reply;
      try {
        const now = Date.now();
        const id = await store.recordTrainingEvents(name, body.events.map((e) => normaliseEvent(e, now)));
        return reply.code(202).send({ trainingRunId: id, accepted: body.events.length });
      } catch (error) {
        const code = error instanceof StoreError ? error.code : 'store_unavailable';
        return apiError(reply, 503, code, `the store could not record the events: ${(error as Error).message}`);
      }
    });
  }
}

/**
 * Register the dashboard on `app` under `options.prefix`. Resolves to its live feed (closed with the app).
 * @throws Error when the static assets are missing (build not run, node_modules incomplete).
 */
export async function registerDashboard(app: FastifyInstance, options: DashboardOptions): Promise<LiveFeed> {
  const prefix = options.prefix ?? '';
  const kit = routeKit(app, options.store, prefix);
  const files = assets();
  const feed = new LiveFeed(options.store, options.pollMs);
  // Before the server closes: an open event stream would otherwise hold the close open.
  app.addHook('preClose', async () => feed.close());
  if (prefix !== '') app.get(prefix, async (_request, reply) => reply.redirect(kit.base));
  registerRunPages(kit, files);
  registerComparePage(kit);
  registerTrainingPages(kit, feed);
  registerRunApi(kit);
  registerTrainingApi(kit, options.ingest !== false);
  registerDifficultyPages(kit);
  return feed;
}
