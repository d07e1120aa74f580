/**
 * The dashboard's "Signals" pages (issue #28, item 8): results of `crucible tests-quality` and `crucible elo` kept in
 * the store (`signal_results`, store step 9; written with those commands' `--store`).
 *   GET /signals              every stored result, newest first, with its headline numbers
 *   GET /signals/:id          one result: tests-quality's per-problem TPR/TNR, redundant tests, minimal subset and
 *                             mutation score; elo's rating with its interval and each contest's place and rating
 *   GET /api/signals[/:id]    the same as JSON
 * The formulas are in docs/METRICS.md ("Test-suite quality", "Elo"); this module only formats. A stored report is
 * read back through zod (fields it lacks show as '–'), never trusted as typed.
 */
import type { PageRouteKit } from './route-kit.js';
import { z } from 'zod';
import type { SignalResultRow } from '../../store/result-store.js';
import { esc, facts, naturalCompare, page, pct, when } from '../html.js';

/** What these pages need of the dashboard's routes. */
export type SignalsRouteKit = PageRouteKit;

const rate = z.number().nullable().optional();
const QualitySchema = z.object({
  overall: z.object({ tpr: rate, tnr: rate, baseTnr: rate, mutationScore: rate, problems: z.number().optional(), tests: z.number().optional() }).passthrough().optional(),
  problems: z.array(z.object({
    taskId: z.string(), testCount: z.number().optional(), correct: z.number().optional(), incorrect: z.number().optional(), tpr: rate, tnr: rate,
    base: z.object({ tnr: rate }).passthrough().optional(), redundant: z.array(z.unknown()).optional(), minimalSubset: z.array(z.unknown()).optional(),
    minimalSubsetExact: z.boolean().optional(), mutation: z.object({ score: rate, killed: z.number().optional(), generated: z.number().optional(),
      stillborn: z.number().optional() }).passthrough().optional(),
  }).passthrough()).default([]),
}).passthrough();

const EloSchema = z.object({
  model: z.string().nullable().optional(),
  rating: z.object({ point: z.number(), lower: z.number(), upper: z.number() }).passthrough(),
  contests: z.array(z.object({ id: z.string(), points: z.number().nullable().optional(), solved: z.number().nullable().optional(),
    penalty: z.number().nullable().optional(), place: z.number(), participants: z.number(), rating: z.number(), clamped: z.boolean().optional(),
    percentile: z.number().optional() }).passthrough()).default([]),
}).passthrough();

const rateText = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : pct(v));

function headlineText(r: SignalResultRow): string {
  const h = r.headline;
  const n = (k: string): number | null => (typeof h[k] === 'number' ? h[k] as number : null);
  if (r.kind === 'elo') return `Elo <span data-field="rating">${n('rating')?.toFixed(0) ?? '–'}</span> [${n('lower')?.toFixed(0) ?? '–'}, ${n('upper')?.toFixed(0) ?? '–'}] over ${n('contests') ?? '–'} contests`;
  return `TPR <span data-field="tpr">${rateText(n('tpr'))}</span>%, TNR <span data-field="tnr">${rateText(n('tnr'))}</span>%` +
    `${n('baseTnr') === null ? '' : ` (base inputs ${rateText(n('baseTnr'))}%)`}, mutation score ${rateText(n('mutationScore'))}%, ` +
    `${n('problems') ?? '–'} problems, ${n('correct') ?? '–'} correct and ${n('incorrect') ?? '–'} incorrect solutions`;
}

/** The list page: every stored result, newest first. */
export function renderSignalList(base: string, rows: readonly SignalResultRow[]): string {
  const body = rows.length === 0
    ? '<p class="empty">No tests-quality or elo result is stored. Run <code>crucible tests-quality … --store</code> or <code>crucible elo … --store</code>.</p>'
    : `<div class="table-wrap"><table id="signals"><thead><tr><th>id</th><th>kind</th><th>name</th><th>created (UTC)</th><th>result</th></tr></thead><tbody>${rows.map((r) =>
      `<tr data-id="${r.id}" data-kind="${esc(r.kind)}"><td><a href="signals/${r.id}">${r.id}</a></td><td>${esc(r.kind)}</td><td>${esc(r.name)}</td>` +
      `<td>${when(r.createdMs)}</td><td>${headlineText(r)}</td></tr>`).join('')}</tbody></table></div>`;
  return page({ base, title: 'Signals', page: 'signals', crumbs: [['Runs', ''], ['signals', null]] },
    `<p class="muted">Test-suite quality (docs/METRICS.md, "Test-suite quality") and Elo ratings (docs/METRICS.md, "Elo") kept in the store.</p>${body}`);
}

function qualityBody(result: unknown): string {
  const parsed = QualitySchema.safeParse(result);
  if (!parsed.success) return `<p class="empty">The stored report does not have the shape of a tests-quality report: ${esc(parsed.error.issues[0]?.message ?? '')}</p>`;
  const problems = [...parsed.data.problems].sort((a, b) => naturalCompare(a.taskId, b.taskId));
  const rows = problems.map((p) => `<tr data-task="${esc(p.taskId)}"><td>${esc(p.taskId)}</td><td>${p.testCount ?? '–'}</td><td>${p.correct ?? '–'}</td>` +
    `<td>${p.incorrect ?? '–'}</td><td data-field="tpr">${rateText(p.tpr)}</td><td data-field="tnr">${rateText(p.tnr)}</td><td>${rateText(p.base?.tnr)}</td>` +
    `<td>${p.redundant?.length ?? '–'}</td><td>${p.minimalSubset?.length ?? '–'}${p.minimalSubsetExact === false ? ' (greedy)' : ''}</td>` +
    `<td data-field="mutation">${rateText(p.mutation?.score)}</td></tr>`).join('');
  return `<div class="table-wrap"><table id="signal-problems"><caption>Per problem (rates in %)</caption><thead><tr><th>task</th><th>tests</th><th>correct</th>` +
    '<th>incorrect</th><th>TPR</th><th>TNR</th><th>base-only TNR</th><th>redundant tests</th><th>minimal subset</th><th>mutation score</th></tr></thead>' +
    `<tbody>${rows}</tbody></table></div>`;
}

function eloBody(result: unknown): string {
  const parsed = EloSchema.safeParse(result);
  if (!parsed.success) return `<p class="empty">The stored result does not have the shape of an elo rating: ${esc(parsed.error.issues[0]?.message ?? '')}</p>`;
  const rows = parsed.data.contests.map((c) => `<tr data-contest="${esc(c.id)}"><td>${esc(c.id)}</td>` +
    `<td>${c.points !== null && c.points !== undefined ? `${c.points} points` : `${c.solved ?? '–'} solved, penalty ${c.penalty ?? '–'}`}</td>` +
    `<td>${c.place} of ${c.participants}</td><td data-field="rating">${c.rating.toFixed(2)}${c.clamped === true ? ' (at a bound)' : ''}</td>` +
    `<td>${c.percentile === undefined ? '–' : pct(c.percentile)}</td></tr>`).join('');
  return `<div class="table-wrap"><table id="signal-contests"><caption>Per contest (CodeElo: the rating whose expected place is the model's)</caption>` +
    `<thead><tr><th>contest</th><th>result</th><th>place</th><th>rating</th><th>humans rated below (%)</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** One stored result's page. */
export function renderSignal(base: string, r: SignalResultRow): string {
  const inputs = Object.entries(r.inputs).map(([k, v]): [string, string] => [k, `<code>${esc(typeof v === 'string' ? v : JSON.stringify(v))}</code>`]);
  const body = `${facts([['kind', esc(r.kind)], ['name', esc(r.name)], ['created', `${when(r.createdMs)} UTC`], ['result', headlineText(r)], ...inputs], 'signal-facts')}
<section><h2>${r.kind === 'elo' ? 'Contests' : 'Problems'}</h2>${r.kind === 'elo' ? eloBody(r.result) : qualityBody(r.result)}</section>`;
  return page({ base, title: `${r.kind} ${r.id}: ${r.name}`, page: 'signal', crumbs: [['Runs', ''], ['signals', 'signals'], [String(r.id), null]] }, body);
}

/** Register the pages and the JSON API of the module comment. */
export function registerSignalPages(kit: SignalsRouteKit): void {
  const { app, store, prefix, base, html, problemPage, apiError } = kit;
  const byId = async (id: string): Promise<SignalResultRow | undefined> => (/^\d{1,15}$/.test(id) ? store.signalResult(Number(id)) : undefined);
  app.get(`${prefix}/signals`, async (_request, reply) => html(reply, renderSignalList(base, await store.listSignalResults())));
  app.get<{ Params: { id: string } }>(`${prefix}/signals/:id`, async (request, reply) => {
    const row = await byId(request.params.id);
    if (row === undefined) return problemPage(reply, 404, 'Signal result not found', `There is no tests-quality or elo result ${request.params.id}.`);
    return html(reply, renderSignal(base, row));
  });
  app.get(`${prefix}/api/signals`, async () => ({ signals: await store.listSignalResults() }));
  app.get<{ Params: { id: string } }>(`${prefix}/api/signals/:id`, async (request, reply) => {
    const row = await byId(request.params.id);
    return row === undefined ? apiError(reply, 404, 'signal_not_found', `no signal result ${request.params.id}`) : row;
  });
}
