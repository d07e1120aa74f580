/**
 * N runs compared on the problems they all attempted (`metrics/ranking.ts`): a ranking by pass@k with bootstrap
 * intervals of the value and of the rank, every pair's paired-bootstrap difference with a permutation p-value
 * Holm-adjusted over the pairs, and a heat map of per-problem pass rates. Two runs also get the two-run details
 * (`metrics/paired.ts`): P(A > B), wins/losses/ties, exact McNemar, flipped problems, every shared problem.
 *
 * Before any figure: runs on different problem files are compared on their shared task ids with a warning (the
 * prompts or tests behind an id may differ), and base + plus is refused when a run has no plus results (its
 * figure would read 0, not "unknown").
 */
import type { TopLevelSpec } from 'vega-lite';
import type { PairedComparison } from '../../metrics/paired.js';
import type { Ranking } from '../../metrics/ranking.js';
import type { RunListRow, RunRow } from '../../store/result-store.js';
import { differenceSpec, problemRunsHeatSpec, rankingSpec, rateScatterSpec } from '../charts.js';
import { chart, esc, facts, naturalCompare, page, PALETTE, pct } from '../html.js';

/** A problem solved by one run's samples and by none of the other's. */
export interface FlippedProblem {
  readonly taskId: string;
  readonly rateA: number;
  readonly rateB: number;
}

/** Problems solved (some sample passes) in exactly one of the two runs. */
export function flippedProblems(comparison: PairedComparison): { onlyA: FlippedProblem[]; onlyB: FlippedProblem[] } {
  return {
    onlyA: comparison.problems.filter((p) => p.rateA > 0 && p.rateB === 0),
    onlyB: comparison.problems.filter((p) => p.rateB > 0 && p.rateA === 0),
  };
}

/** What the comparison was asked and what it shows. */
export interface CompareView {
  readonly runs: readonly RunRow[];
  readonly ranking: Ranking;
  readonly plus: boolean;
  /** Per-problem pass rates of each run on the shared problems (heat map), by run id. */
  readonly rates: ReadonlyMap<number, ReadonlyMap<string, number>>;
  /** The two-run comparison, when exactly two runs are compared. */
  readonly pair?: PairedComparison;
  readonly warnings: readonly string[];
}

function signed(fraction: number): string {
  return `${fraction >= 0 ? '+' : ''}${pct(fraction)}`;
}

/** The form: runs to tick, k, base or base + plus. */
function picker(runs: readonly RunListRow[], chosen: readonly number[], k: number, plus: boolean): string {
  const rows = runs.map((r) => `<label class="pick-run"><input type="checkbox" name="run" value="${r.id}"${chosen.includes(r.id) ? ' checked' : ''}> ` +
    `${r.id} · ${esc(r.name)} <span class="muted">(${esc(r.model)} on ${esc(r.dataset)})</span></label>`).join('');
  return `<form class="compare-picker" method="get" action="compare"><details${chosen.length < 2 ? ' open' : ''}><summary>Runs (${chosen.length} chosen)</summary>` +
    `<div class="pick-list">${rows}</div></details><div class="filters"><label>pass@<input name="k" type="number" min="1" value="${k}" aria-label="k"></label>` +
    `<label><input type="radio" name="plus" value="0"${plus ? '' : ' checked'}> base tests</label>` +
    `<label><input type="radio" name="plus" value="1"${plus ? ' checked' : ''}> base + plus tests</label> <button type="submit">Compare</button></div></form>`;
}

/** Render the compare page without a comparison: the picker, and a refusal or a hint. */
export function renderComparePicker(base: string, runs: readonly RunListRow[], chosen: readonly number[], k: number, plus: boolean,
  refusal?: string, warnings: readonly string[] = []): string {
  const note = refusal === undefined ? '<p class="muted">Tick two or more runs of the same benchmark.</p>'
    : `<p class="error" data-testid="refusal">${esc(refusal)}</p>`;
  return page({ base, title: 'Compare runs', page: 'compare', crumbs: [['Runs', ''], ['compare', null]] },
    `${picker(runs, chosen, k, plus)}${warningsHtml(warnings)}${note}`);
}

function warningsHtml(warnings: readonly string[]): string {
  return warnings.length === 0 ? '' : `<div class="warning" data-testid="warnings">${warnings.map((w) => `<p>${esc(w)}</p>`).join('')}</div>`;
}

function swatch(i: number): string {
  return `<span class="swatch" style="background:${PALETTE[i % PALETTE.length]}"></span>`;
}

function rankingTable(view: CompareView, colour: ReadonlyMap<number, number>): string {
  const r = view.ranking;
  const ci = Math.round(r.bootstrap.confidence * 100);
  const byId = new Map(view.runs.map((x) => [x.id, x]));
  const rank = (x: { rank: number; rankLower: number; rankUpper: number }) =>
    `${Number.isInteger(x.rank) ? x.rank : x.rank.toFixed(1)} <span class="ci">[${x.rankLower}, ${x.rankUpper}]</span>`;
  return `<table id="ranking"><caption>pass@${r.k} (%) on the ${r.shared.length} shared problems (${view.plus ? 'base + plus' : 'base'} tests), ` +
    `${ci}% bootstrap intervals of the value and of the rank (${r.bootstrap.reps} replicates of the problems, seed ${r.bootstrap.seed})</caption>` +
    `<thead><tr><th>rank</th><th>run</th><th>model</th><th>pass@${r.k}</th><th>${ci}% CI</th><th>problems left out</th></tr></thead><tbody>` +
    r.runs.map((x) => {
      const run = byId.get(x.id)!;
      return `<tr data-run="${x.id}"><td data-field="rank">${rank(x)}</td><td>${swatch(colour.get(x.id)!)}<a href="runs/${x.id}">${x.id} · ${esc(run.name)}</a></td>` +
        `<td>${esc(run.model)}</td><td data-field="pass" data-value="${x.passAtK}">${pct(x.passAtK)}</td><td>[${pct(x.lower)}, ${pct(x.upper)}]</td>` +
        `<td>${r.leftOut.get(x.id) ?? 0}</td></tr>`;
    }).join('') + '</tbody></table>';
}

function pairsTable(view: CompareView): string {
  const r = view.ranking;
  const ci = Math.round(r.bootstrap.confidence * 100);
  const m = r.pairs.length;
  return `<table id="pairs"><caption>A − B in points of pass@${r.k} with ${ci}% paired-bootstrap intervals; p: two-sided paired permutation ` +
    `test (${r.permutationReps} sign flips of per-problem differences); Holm: p adjusted for the ${m} comparison${m === 1 ? '' : 's'} made here ` +
    `(Holm 1979). Claim "A differs from B" only where Holm p &lt; 0.05; the intervals are each at ${ci}%, not adjusted.</caption>` +
    `<thead><tr><th>A</th><th>B</th><th>A − B</th><th>${ci}% CI</th><th>p</th><th>Holm p</th><th>at 0.05</th></tr></thead><tbody>` +
    r.pairs.map((p) => {
      const d = p.comparison.differences[0]!;
      return `<tr data-pair="${p.a}-${p.b}"><td>${p.a}</td><td>${p.b}</td><td data-field="difference" data-value="${d.difference}">${signed(d.difference)}</td>` +
        `<td>[${signed(d.lower)}, ${signed(d.upper)}]</td><td data-field="p">${p.pValue.toPrecision(3)}</td>` +
        `<td data-field="holm" data-value="${p.holmPValue}">${p.holmPValue.toPrecision(3)}</td>` +
        `<td>${p.holmPValue < 0.05 ? (d.difference > 0 ? 'A higher' : 'B higher') : 'no claim'}</td></tr>`;
    }).join('') + '</tbody></table>';
}

/** The two-run details: P(A > B), wins, McNemar, flipped problems, every shared problem. */
function pairDetails(a: RunRow, b: RunRow, c: PairedComparison): string {
  const mcnemar = c.mcnemar.applicable
    ? `only A ${c.mcnemar.onlyA}, only B ${c.mcnemar.onlyB}, exact two-sided p = <span data-testid="mcnemar-p">${c.mcnemar.pValue.toPrecision(4)}</span>`
    : `not applicable: ${esc(c.mcnemar.reason)}`;
  const stats = facts([
    ['A', `<a href="runs/${a.id}">${a.id} · ${esc(a.name)}</a> (${esc(a.model)} on ${esc(a.dataset)})`],
    ['B', `<a href="runs/${b.id}">${b.id} · ${esc(b.name)}</a> (${esc(b.model)} on ${esc(b.dataset)})`],
    ['shared problems', `<span data-testid="shared">${c.sharedProblems}</span>`],
    ['P(A > B)', `<span data-testid="poi">${c.probabilityOfImprovement.toFixed(4)}</span> (rliable probability of improvement; samples as runs)`],
    ['problems by pass rate', `A better <span data-testid="wins">${c.wins}</span>, B better <span data-testid="losses">${c.losses}</span>, ties <span data-testid="ties">${c.ties}</span>`],
    ['McNemar', mcnemar],
  ], 'compare-facts');
  const flipped = flippedProblems(c);
  const list = (items: readonly FlippedProblem[], id: string, run: RunRow, rate: (p: FlippedProblem) => number) => items.length === 0 ? '<p class="muted">none</p>'
    : `<ul id="${id}" class="flipped">${items.map((p) => `<li><a href="runs/${run.id}/problem?task=${encodeURIComponent(p.taskId)}">${esc(p.taskId)}</a> (${pct(rate(p))}%)</li>`).join('')}</ul>`;
  const byDiff = [...c.problems].sort((x, y) => Math.abs(y.rateA - y.rateB) - Math.abs(x.rateA - x.rateB) || naturalCompare(x.taskId, y.taskId));
  const table = `<table class="sortable" id="shared-problems"><thead><tr><th data-type="task">task</th><th data-type="number">pass rate A (%)</th>` +
    `<th data-type="number">pass rate B (%)</th><th data-type="number">A − B</th><th data-type="text">outcome</th></tr></thead><tbody>` +
    byDiff.map((p) => `<tr data-task="${esc(p.taskId)}"><td data-v="${esc(p.taskId)}">${esc(p.taskId)} <a href="runs/${a.id}/problem?task=${encodeURIComponent(p.taskId)}">A</a> ` +
      `<a href="runs/${b.id}/problem?task=${encodeURIComponent(p.taskId)}">B</a></td><td data-v="${p.rateA}">${pct(p.rateA)}</td><td data-v="${p.rateB}">${pct(p.rateB)}</td>` +
      `<td data-v="${p.rateA - p.rateB}">${signed(p.rateA - p.rateB)}</td><td data-v="${p.outcome}">${p.outcome}</td></tr>`).join('') + '</tbody></table>';
  return `<section><h2>Runs ${a.id} and ${b.id}</h2>${stats}</section>
<section class="two"><div><h3>Solved by A only (${flipped.onlyA.length})</h3>${list(flipped.onlyA, 'only-a', a, (p) => p.rateA)}
<h3>Solved by B only (${flipped.onlyB.length})</h3>${list(flipped.onlyB, 'only-b', b, (p) => p.rateB)}</div><div>${chart('scatter', rateScatterSpec(c.problems), 'pass rate per shared problem')}</div></section>
<section><h2>Shared problems by difference</h2>${table}</section>`;
}

/** Render the compare page of N runs. */
export function renderCompare(base: string, all: readonly RunListRow[], view: CompareView): string {
  const chosen = view.runs.map((r) => r.id);
  const colour = new Map(chosen.map((id, i) => [id, i]));
  const spec: TopLevelSpec = rankingSpec(view.ranking, view.runs, colour);
  const [a, b] = view.runs;
  const diffs = view.ranking.pairs.map((p) => ({ ...p.comparison.differences[0]!, label: `${p.a} − ${p.b}` }));
  const body = `${picker(all, chosen, view.ranking.k, view.plus)}${warningsHtml(view.warnings)}
<section class="two"><div><h2>Ranking</h2>${rankingTable(view, colour)}</div><div>${chart('ranking', spec, 'pass@k with its interval, one colour per run (colour-blind-safe palette)')}</div></section>
<section><h2>Pairs</h2><div class="two"><div>${pairsTable(view)}</div><div>${chart('difference', differenceSpec(diffs))}</div></div></section>
<section><h2>Pass rate per shared problem</h2>${chart('problems', problemRunsHeatSpec(view.ranking.shared, view.runs, view.rates), 'rows: runs; columns: problems in task order; click a cell for the problem')}</section>
${view.pair !== undefined && a !== undefined && b !== undefined ? pairDetails(a, b, view.pair) : ''}`;
  return page({ base, title: `Compare ${chosen.join(', ')}`, page: 'compare', charts: true, crumbs: [['Runs', ''], ['compare', null]] }, body);
}
