/**
 * Two runs compared on their shared problems (src/metrics/paired.ts): pass@k difference A − B with paired
 * bootstrap intervals, P(A > B), wins/losses/ties, exact McNemar (one sample per problem only), problems that
 * flipped (solved by one run's samples and by none of the other's), and every shared problem by difference.
 */
import type { PairedComparison } from '../../metrics/paired.js';
import type { RunListRow, RunRow } from '../../store/result-store.js';
import { differenceSpec, rateScatterSpec } from '../charts.js';
import { chart, esc, facts, page, pct } from '../html.js';

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

function signed(fraction: number): string {
  return `${fraction >= 0 ? '+' : ''}${pct(fraction)}`;
}

function picker(runs: readonly RunListRow[], a?: number, b?: number): string {
  const select = (name: string, chosen?: number) => `<select name="${name}" aria-label="run ${name.toUpperCase()}">${runs.map((r) =>
    `<option value="${r.id}"${r.id === chosen ? ' selected' : ''}>${r.id} · ${esc(r.name)} (${esc(r.model)} on ${esc(r.dataset)})</option>`).join('')}</select>`;
  return `<form class="filters" method="get" action="compare"><label>A ${select('a', a)}</label> <label>B ${select('b', b)}</label>` +
    ` <label><input type="checkbox" name="plus" value="1"> base + plus</label> <button type="submit">Compare</button></form>`;
}

/** Render the compare page; without a comparison, only the picker. */
export function renderCompare(base: string, runs: readonly RunListRow[], pair?: { a: RunRow; b: RunRow; comparison: PairedComparison; plus: boolean },
  error?: string): string {
  if (pair === undefined) {
    return page({ base, title: 'Compare two runs', page: 'compare', crumbs: [['Runs', ''], ['compare', null]] },
      `${picker(runs)}${error === undefined ? '<p class="muted">Pick two runs of the same benchmark.</p>' : `<p class="error">${esc(error)}</p>`}`);
  }
  const { a, b, comparison: c } = pair;
  const ci = Math.round(c.bootstrap.confidence * 100);
  const diffs = `<table id="differences"><caption>${pair.plus ? 'base + plus tests' : 'base tests'}; A − B with ${ci}% paired-bootstrap intervals ` +
    `(${c.bootstrap.reps} replicates over shared problems, seed ${c.bootstrap.seed})</caption><thead><tr><th>k</th><th>A</th><th>B</th><th>A − B</th><th>${ci}% CI</th></tr></thead><tbody>` +
    c.differences.map((d) => `<tr data-k="${d.k}"><th>pass@${d.k}</th><td data-value="${d.a}">${pct(d.a)}</td><td data-value="${d.b}">${pct(d.b)}</td>` +
      `<td data-value="${d.difference}" data-field="difference">${signed(d.difference)}</td><td>[${signed(d.lower)}, ${signed(d.upper)}]</td></tr>`).join('') + '</tbody></table>';
  const mcnemar = c.mcnemar.applicable
    ? `only A ${c.mcnemar.onlyA}, only B ${c.mcnemar.onlyB}, exact two-sided p = <span data-testid="mcnemar-p">${c.mcnemar.pValue.toPrecision(4)}</span>`
    : `not applicable: ${esc(c.mcnemar.reason)}`;
  const stats = facts([
    ['A', `<a href="runs/${a.id}">${a.id} · ${esc(a.name)}</a> (${esc(a.model)} on ${esc(a.dataset)})`],
    ['B', `<a href="runs/${b.id}">${b.id} · ${esc(b.name)}</a> (${esc(b.model)} on ${esc(b.dataset)})`],
    ['shared problems', `<span data-testid="shared">${c.sharedProblems}</span> (only in A: ${c.onlyInA.length}, only in B: ${c.onlyInB.length})`],
    ['P(A > B)', `<span data-testid="poi">${c.probabilityOfImprovement.toFixed(4)}</span> (rliable probability of improvement; samples as runs)`],
    ['problems by pass rate', `A better <span data-testid="wins">${c.wins}</span>, B better <span data-testid="losses">${c.losses}</span>, ties <span data-testid="ties">${c.ties}</span>`],
    ['McNemar', mcnemar],
  ], 'compare-facts');
  const flipped = flippedProblems(c);
  const list = (items: readonly FlippedProblem[], id: string, run: RunRow, rate: (p: FlippedProblem) => number) => items.length === 0 ? '<p class="muted">none</p>'
    : `<ul id="${id}">${items.map((p) => `<li><a href="runs/${run.id}/problem?task=${encodeURIComponent(p.taskId)}">${esc(p.taskId)}</a> (${pct(rate(p))}%)</li>`).join('')}</ul>`;
  const byDiff = [...c.problems].sort((x, y) => Math.abs(y.rateA - y.rateB) - Math.abs(x.rateA - x.rateB) || x.taskId.localeCompare(y.taskId));
  const table = `<table class="sortable" id="shared-problems"><thead><tr><th data-type="text">task</th><th data-type="number">pass rate A (%)</th>` +
    `<th data-type="number">pass rate B (%)</th><th data-type="number">A − B</th><th data-type="text">outcome</th></tr></thead><tbody>` +
    byDiff.map((p) => `<tr data-task="${esc(p.taskId)}"><td data-v="${esc(p.taskId)}">${esc(p.taskId)} <a href="runs/${a.id}/problem?task=${encodeURIComponent(p.taskId)}">A</a> ` +
      `<a href="runs/${b.id}/problem?task=${encodeURIComponent(p.taskId)}">B</a></td><td data-v="${p.rateA}">${pct(p.rateA)}</td><td data-v="${p.rateB}">${pct(p.rateB)}</td>` +
      `<td data-v="${p.rateA - p.rateB}">${signed(p.rateA - p.rateB)}</td><td data-v="${p.outcome}">${p.outcome}</td></tr>`).join('') + '</tbody></table>';
  const body = `${picker(runs, a.id, b.id)}${stats}
<section class="two"><div><h2>pass@k difference</h2>${diffs}</div><div>${chart('difference', differenceSpec(c.differences))}</div></section>
<section class="two"><div><h2>Flipped problems</h2><h3>Solved by A only (${flipped.onlyA.length})</h3>${list(flipped.onlyA, 'only-a', a, (p) => p.rateA)}
<h3>Solved by B only (${flipped.onlyB.length})</h3>${list(flipped.onlyB, 'only-b', b, (p) => p.rateB)}</div><div>${chart('scatter', rateScatterSpec(c.problems), 'pass rate per shared problem')}</div></section>
<section><h2>Shared problems by difference</h2>${table}</section>`;
  return page({ base, title: `Compare ${a.id} and ${b.id}`, page: 'compare', charts: true, crumbs: [['Runs', ''], ['compare', null]] }, body);
}
