/**
 * The dashboard's routes, registered on any fastify instance under a prefix: `crucible dashboard` serves them at
 * `/`, `crucible serve` mounts them at `/ui`. Pages are rendered on the server (`pages/*`); charts are drawn in
 * the browser by vega-embed; `events` streams live updates (`live.ts`).
 *
 * Routes (relative to the prefix):
 *   GET  /                              runs list, a leaderboard (?q, model, dataset, tag, status, k)
 *   GET  /runs/:id                      run page
 *   GET  /runs/:id/problem?task=T       problem page
 *   GET  /runs/:id/sample?task=T&index=I sample page
 *   GET  /compare?run=A&run=B…[&k=1][&plus=1]  compare page (N runs; ?a=A&b=B as before)
 *   GET  /training, /training/:id       training runs, a training run
 *   GET  /events                        server-sent events (live updates)
 *   GET  /api/runs, /api/runs/:id       JSON (the numbers the pages show)
 *   GET  /api/runs/:id/sample?task=T&index=I  JSON (a sample's verdict; a repository task's per-test status map)
 *   GET  /api/runs/:id/headline         JSON (a run's headline pass@k, recomputed while it runs; the runs list polls it)
 *   GET  /api/training/:id/series       JSON (a training run's buckets and chart specs; ?with=ID,ID&smooth=0.6)
 *   GET  /training/:id/problems, /api/training/:id/problems   difficulty per problem (pages/difficulty.ts)
 *   GET  /signals[/:id], /api/signals[/:id]   stored tests-quality and elo results (pages/signals.ts)
 *   POST /api/training/:run/events      reward events of a training run (docs/DASHBOARD.md)
 *   GET  /static/:file                  scripts and styles
 * Handlers answer their own errors (an HTML page for pages, `{error: {code, message}}` for the API), so the
 * host's error handler is never involved.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { comparePaired } from '../metrics/paired.js';
import { maxReportableK, type ProblemCounts } from '../metrics/pass-at-k.js';
import { rankRuns } from '../metrics/ranking.js';
import { analyseRun, runBootstrapOptions } from '../store/analysis.js';
import { StoreError } from '../store/errors.js';
import type { ProblemCountsRow, ResultStore, RunFilter, RunRow } from '../store/result-store.js';
import { normaliseEvent, trainingEventsBodySchema } from '../store/training-event.js';
import { assets } from './assets.js';
import { breakdownsOf } from './breakdowns.js';
import { difficultySpec, passAtKCurveSpec, verdictChartSpec, verdictHeatSpec } from './charts.js';
import { esc, page } from './html.js';
import { LiveFeed } from './live.js';
import { renderCompare, renderComparePicker } from './pages/compare.js';
import { renderProblem } from './pages/problem.js';
import { renderRun, verdictCounts } from './pages/run.js';
import { LIST_KS, renderRuns, STALLED_MS } from './pages/runs.js';
import { renderSample } from './pages/sample.js';
import { repositoryTestMap } from './repository-tests.js';
import { DEFAULT_SMOOTHING, renderTraining, renderTrainingList, trainingFacts, trainingSpecs } from './pages/training.js';
import type { TrainingLine } from './training-charts.js';
import { registerDifficultyPages } from './pages/difficulty.js';
import { registerSignalPages } from './pages/signals.js';

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
  /** A running run without an update for this long is shown as stalled, ms (default `STALLED_MS`, 60 s). */
  readonly stalledMs?: number;
}

const CSP = "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'";

const runFilterSchema = z.object({
  q: z.string().max(200).optional(),
  model: z.string().max(200).optional(),
  dataset: z.string().max(200).optional(),
  status: z.enum(['running', 'finished', 'failed', 'interrupted', '']).optional(),
  tag: z.string().max(100).optional(),
  k: z.string().regex(/^\d{1,3}$/, 'k is a number').transform(Number).optional(),
});
const idSchema = z.object({ id: z.string().regex(/^\d+$/, 'a run id is a number').transform(Number) });
const taskSchema = z.object({ task: z.string().min(1).max(1000), status: z.string().max(40).optional() });
const sampleSchema = taskSchema.extend({ index: z.string().regex(/^\d+$/, 'index is a number').transform(Number) });
const runIds = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v]))
  .pipe(z.array(z.string().regex(/^\d+$/, 'a run id is a number').transform(Number)).max(12, 'compare at most 12 runs'));
const compareSchema = z.object({
  run: runIds.optional(), a: z.string().regex(/^\d+$/).transform(Number).optional(), b: z.string().regex(/^\d+$/).transform(Number).optional(),
  plus: z.string().optional(), k: z.string().regex(/^\d{1,3}$/, 'k is a number').transform(Number).optional(),
});
const trainingQuerySchema = z.object({
  with: runIds.optional(),
  smooth: z.string().regex(/^(0(\.\d+)?|\.\d+)$/, 'smooth is a number in [0, 1)').transform(Number).optional(),
});

/** What every route group of the dashboard uses: the app, the store, the mount point and the answer helpers. */
interface RouteKit {
  readonly app: FastifyInstance;
  readonly store: ResultStore;
  /** Mount point (`''` or e.g. `/ui`) and the pages' base URL (`${prefix}/`). */
  readonly prefix: string;
  readonly base: string;
  readonly stalledMs: number;
  html(reply: FastifyReply, body: string, status?: number): FastifyReply;
  problemPage(reply: FastifyReply, status: number, title: string, message: string): FastifyReply;
  apiError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply;
  /** Parse with zod or answer 400 naming the field (an HTML page, or JSON when `api`); undefined when refused. */
  parse<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, value: unknown, reply: FastifyReply, api?: boolean): T | undefined;
}

function routeKit(app: FastifyInstance, store: ResultStore, prefix: string, stalledMs: number): RouteKit {
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
  return { app, store, prefix, base, stalledMs, html, problemPage, apiError, parse };
}

/** Runs that have no headline yet get one (their analysis, cached for next time): old stores, imports before step 5. */
async function withHeadlines(store: ResultStore, runs: Awaited<ReturnType<ResultStore['listRuns']>>): Promise<typeof runs> {
  const missing = runs.filter((r) => r.headline === null && r.doneSamples > 0).slice(0, 20);
  if (missing.length === 0) return runs;
  for (const r of missing) {
    const run = await store.getRun(r.id);
    if (run !== undefined) await analyseRun(store, run, await store.problemCounts(r.id));
  }
  const fresh = new Map((await store.listRuns({ limit: 500 })).map((r) => [r.id, r]));
  return runs.map((r) => fresh.get(r.id) ?? r);
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
      ...(q.status ? { status: q.status } : {}), ...(q.tag ? { tag: q.tag } : {}),
    };
    const k = q.k !== undefined && (LIST_KS as readonly number[]).includes(q.k) ? q.k : 1;
    return html(reply, renderRuns(base, await withHeadlines(store, await store.listRuns(filter)), filter, { k, stalledMs: kit.stalledMs }));
  });

  app.get(`${prefix}/runs/:id`, async (request, reply) => {
    const p = parse(idSchema, request.params, reply);
    if (p === undefined) return reply;
    const run = await store.getRun(p.id);
    if (run === undefined) return problemPage(reply, 404, 'Run not found', `There is no run ${p.id} in ${store.location}.`);
    const problems = await store.problemCounts(run.id);
    const analysis = await analyseRun(store, run, problems);
    return html(reply, renderRun(base, run, {
      problems, analysis, totalProblems: (await store.taskIds(run.id)).length, breakdowns: breakdownsOf(problems, runBootstrapOptions(run)),
      reasons: await store.reasonCounts(run.id, 20), others: await store.listRuns({ limit: 200 }), stalledMs: kit.stalledMs,
      efficiency: await store.efficiencyOf(run.id),
    }));
  });

  app.get(`${prefix}/runs/:id/problem`, async (request, reply) => {
    const p = parse(idSchema, request.params, reply);
    const q = p === undefined ? undefined : parse(taskSchema, request.query, reply);
    if (p === undefined || q === undefined) return reply;
    const run = await store.getRun(p.id);
    if (run === undefined) return problemPage(reply, 404, 'Run not found', `There is no run ${p.id}.`);
    const problem = (await store.problemCounts(run.id)).find((x) => x.taskId === q.task);
    if (problem === undefined) return problemPage(reply, 404, 'Problem not found', `Run ${run.id} has no sample of ${q.task}.`);
    return html(reply, renderProblem(base, run, problem, await store.samplesOf(run.id, q.task), await store.problemInfo(run.id, q.task), q.status));
  });

  app.get(`${prefix}/runs/:id/sample`, async (request, reply) => {
    const p = parse(idSchema, request.params, reply);
    const q = p === undefined ? undefined : parse(sampleSchema, request.query, reply);
    if (p === undefined || q === undefined) return reply;
    const run = await store.getRun(p.id);
    if (run === undefined) return problemPage(reply, 404, 'Run not found', `There is no run ${p.id}.`);
    const sample = await store.sample(run.id, q.task, q.index);
    if (sample === undefined) return problemPage(reply, 404, 'Sample not found', `Run ${run.id} has no sample ${q.index} of ${q.task}.`);
    const efficiency = (await store.efficiencyOf(run.id)).find((r) => r.taskId === q.task && r.sampleIndex === q.index);
    return html(reply, renderSample(base, run, sample, efficiency, await store.problemInfo(run.id, q.task)));
  });
}

/** Per-problem counts of a run on base or base + plus tests. */
function counts(problems: readonly ProblemCountsRow[], plus: boolean): ProblemCounts[] {
  return problems.filter((p) => p.n > 0).map((p) => ({ taskId: p.taskId, n: p.n, c: plus ? p.plusC : p.c }));
}

/** Why runs cannot be compared as asked (a refusal), and what to know about the comparison made (warnings). */
function compareChecks(runs: readonly RunRow[], problems: readonly (readonly ProblemCountsRow[])[], plus: boolean): { refusal?: string; warnings: string[] } {
  const warnings: string[] = [];
  if (plus) {
    const basesOnly = runs.filter((_, i) => !problems[i]!.some((p) => p.hasPlus));
    if (basesOnly.length > 0) {
      return { warnings, refusal: `Run${basesOnly.length > 1 ? 's' : ''} ${basesOnly.map((r) => `${r.id} (${r.name})`).join(', ')} ` +
        `${basesOnly.length > 1 ? 'have' : 'has'} no plus results (base tests only): a base + plus figure would read 0, not unknown. ` +
        'Compare on base tests, or leave out the runs without plus tests.' };
    }
  } else if (problems.some((ps) => ps.some((p) => p.hasPlus))) {
    warnings.push('Compared on base tests; some of these runs also have plus results (choose base + plus to compare those, when every run has them).');
  }
  const hashes = new Set(runs.map((r) => r.problemsHash));
  if (hashes.size > 1) {
    warnings.push(`These runs are on ${hashes.size} different problem files (${runs.map((r) => `${r.id}: ${r.dataset} ${r.problemsHash.slice(0, 8)}`).join(', ')}): ` +
      'they are compared on the task ids they share, but a shared id may have another prompt or other tests in each file.');
  }
  const limits = new Set(runs.map((r) => JSON.stringify(r.options)));
  if (limits.size > 1) warnings.push(`The runs were judged under different limits (${runs.map((r) => `${r.id}: ${JSON.stringify(r.options)}`).join('; ')}).`);
  const running = runs.filter((r) => r.status !== 'finished');
  if (running.length > 0) warnings.push(`Run${running.length > 1 ? 's' : ''} ${running.map((r) => `${r.id} (${r.status})`).join(', ')} did not finish: their figures are over the samples judged so far.`);
  return { warnings };
}

/** The compare page: N runs ranked on their shared problems, pairwise tests, and the two-run details for two. */
function registerComparePage(kit: RouteKit): void {
  const { app, store, prefix, base, html, parse } = kit;
  app.get(`${prefix}/compare`, async (request, reply) => {
    const q = parse(compareSchema, request.query, reply);
    if (q === undefined) return reply;
    const all = await store.listRuns({ limit: 200 });
    const ids = [...new Set([...(q.run ?? []), ...(q.a === undefined ? [] : [q.a]), ...(q.b === undefined ? [] : [q.b])])];
    const plus = q.plus === '1';
    const k = q.k ?? 1;
    if (ids.length < 2) return html(reply, renderComparePicker(base, all, ids, k, plus));
    const runs = await Promise.all(ids.map((id) => store.getRun(id)));
    const missing = ids.filter((_, i) => runs[i] === undefined);
    if (missing.length > 0) return html(reply, renderComparePicker(base, all, ids, k, plus, `There is no run ${missing.join(', ')}.`), 404);
    const found = runs as RunRow[];
    const problems = await Promise.all(found.map((r) => store.problemCounts(r.id)));
    const checks = compareChecks(found, problems, plus);
    if (checks.refusal !== undefined) return html(reply, renderComparePicker(base, all, ids, k, plus, checks.refusal, checks.warnings), 400);
    const perRun = problems.map((ps) => counts(ps, plus));
    try {
      const shared = new Set(perRun[0]!.map((c) => c.taskId).filter((t) => perRun.every((cs) => cs.some((c) => c.taskId === t))));
      const maxK = maxReportableK(perRun.flatMap((cs) => cs.filter((c) => shared.has(c.taskId))));
      const warnings = [...checks.warnings];
      let useK = k;
      if (shared.size > 0 && k > maxK) {
        warnings.push(`pass@${k} is not reportable on the shared problems (some run has only ${maxK} samples on one of them): showing pass@${maxK}.`);
        useK = maxK;
      }
      const options = runBootstrapOptions(found[0]!);
      const ranking = rankRuns(found.map((r, i) => ({ id: r.id, counts: perRun[i]! })), useK, options);
      const rates = new Map(found.map((r, i) => [r.id, new Map(perRun[i]!.map((c) => [c.taskId, c.c / c.n]))]));
      const pair = found.length === 2 ? comparePaired(perRun[0]!, perRun[1]!, { ...options, ks: [useK] }) : undefined;
      return html(reply, renderCompare(base, all, { runs: found, ranking, plus, rates, warnings, ...(pair === undefined ? {} : { pair }) }));
    } catch (error) {
      return html(reply, renderComparePicker(base, all, ids, k, plus, `Runs ${ids.join(', ')} cannot be compared: ${(error as Error).message}`, checks.warnings), 400);
    }
  });
}

/** The training lines a page draws: the run, then the runs overlaid on it (unknown ids are skipped). */
async function trainingLines(store: ResultStore, id: number, overlay: readonly number[]): Promise<TrainingLine[] | undefined> {
  const run = await store.getTrainingRun(String(id));
  if (run === undefined) return undefined;
  const lines: TrainingLine[] = [{ run, series: await store.trainingSeries(run.id) }];
  for (const other of overlay.filter((o) => o !== id).slice(0, 7)) {
    const o = await store.getTrainingRun(String(other));
    if (o !== undefined) lines.push({ run: o, series: await store.trainingSeries(o.id) });
  }
  return lines;
}

/** Training pages and the live event stream. */
function registerTrainingPages(kit: RouteKit, feed: LiveFeed): void {
  const { app, store, prefix, base, html, problemPage, parse } = kit;
  app.get(`${prefix}/training`, async (_request, reply) => html(reply, renderTrainingList(base, await store.listTrainingRuns())));

  app.get(`${prefix}/training/:id`, async (request, reply) => {
    const p = parse(idSchema, request.params, reply);
    const q = p === undefined ? undefined : parse(trainingQuerySchema, request.query, reply);
    if (p === undefined || q === undefined) return reply;
    const lines = await trainingLines(store, p.id, q.with ?? []);
    if (lines === undefined) return problemPage(reply, 404, 'Training run not found', `There is no training run ${p.id}.`);
    return html(reply, renderTraining(base, lines, await store.listTrainingRuns(), Math.min(0.99, q.smooth ?? DEFAULT_SMOOTHING)));
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
      run, problems, verdicts, analysis: analysis ?? null, totalProblems: (await store.taskIds(run.id)).length,
      efficiency: await store.efficiencyOf(run.id),
      specs: analysis === undefined ? {} : {
        curve: passAtKCurveSpec(series), verdicts: verdictChartSpec(verdicts), heatmap: verdictHeatSpec(problems, run.id),
        difficulty: difficultySpec(problems.map((x) => ({ taskId: x.taskId, passRate: x.c / x.n }))),
      },
    };
  });

  app.get(`${prefix}/api/runs/:id/sample`, async (request, reply) => {
    const p = parse(idSchema, request.params, reply, true);
    const q = p === undefined ? undefined : parse(sampleSchema, request.query, reply, true);
    if (p === undefined || q === undefined) return reply;
    const run = await store.getRun(p.id);
    if (run === undefined) return apiError(reply, 404, 'run_not_found', `no run ${p.id}`);
    const sample = await store.sample(run.id, q.task, q.index);
    if (sample === undefined) return apiError(reply, 404, 'sample_not_found', `run ${run.id} has no sample ${q.index} of ${q.task}`);
    const map = repositoryTestMap(await store.problemInfo(run.id, q.task), sample);
    return { run: run.id, ...sample, ...(map === undefined ? {} : { testStatusMap: map }) };
  });

  app.get(`${prefix}/api/runs/:id/headline`, async (request, reply) => {
    const p = parse(idSchema, request.params, reply, true);
    if (p === undefined) return reply;
    const run = await store.getRun(p.id);
    if (run === undefined) return apiError(reply, 404, 'run_not_found', `no run ${p.id}`);
    await analyseRun(store, run, await store.problemCounts(run.id));
    return { id: run.id, headline: (await store.getRun(run.id))?.headline ?? null };
  });
}

/** The `eventKey` of each event of an ingest batch: its own, else `<Idempotency-Key>#<index>` when the batch has a key. */
function keyedEvents<T extends { eventKey?: string | undefined }>(events: readonly T[], batchKey: string | undefined): T[] {
  return batchKey === undefined ? [...events] : events.map((e, i) => (e.eventKey === undefined ? { ...e, eventKey: `${batchKey}#${i}` } : e));
}

/** JSON API of training runs: a run's series, and (with `ingest`) reward events in. */
function registerTrainingApi(kit: RouteKit, ingest: boolean): void {
  const { app, store, prefix, apiError, parse } = kit;
  app.get(`${prefix}/api/training/:id/series`, async (request, reply) => {
    const p = parse(idSchema, request.params, reply, true);
    const q = p === undefined ? undefined : parse(trainingQuerySchema, request.query, reply, true);
    if (p === undefined || q === undefined) return reply;
    const lines = await trainingLines(store, p.id, q.with ?? []);
    if (lines === undefined) return apiError(reply, 404, 'training_run_not_found', `no training run ${p.id}`);
    const { run, series } = lines[0]!;
    return { run, series, facts: trainingFacts(run, series), specs: trainingSpecs(lines, Math.min(0.99, q.smooth ?? DEFAULT_SMOOTHING)) };
  });

  if (ingest) {
    app.post(`${prefix}/api/training/:run/events`, async (request, reply) => {
      const name = (request.params as { run: string }).run;
      if (!/^[\w.:@/-]{1,200}$/.test(name)) return apiError(reply, 400, 'invalid_request', 'run: 1-200 characters of letters, digits and . : @ / - _');
      const header = request.headers['idempotency-key'];
      const batchKey = typeof header === 'string' ? header : undefined;
      if (batchKey !== undefined && !/^[\x21-\x7e]{1,200}$/.test(batchKey)) {
        return apiError(reply, 400, 'invalid_request', 'Idempotency-Key: 1-200 printable ASCII characters without spaces');
      }
      const body = parse(trainingEventsBodySchema, request.body, reply, true);
      if (body === undefined) return reply;
      try {
        const now = Date.now();
        const result = await store.recordTrainingBatch(name, keyedEvents(body.events, batchKey).map((e) => normaliseEvent(e, now)));
        return reply.code(202).send({ trainingRunId: result.trainingRunId, accepted: body.events.length, recorded: result.recorded, duplicates: result.duplicates });
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
  const kit = routeKit(app, options.store, prefix, options.stalledMs ?? STALLED_MS);
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
  registerSignalPages(kit);
  return feed;
}
