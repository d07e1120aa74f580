/**
 * Server-side HTML of the dashboard: the page layout, escaping, number formats, and how a chart is handed to
 * the browser (a vega-lite spec in a `<script type="application/json">` block that `browser/dashboard.ts`
 * renders with vega-embed). Every text that comes from a run — program text, outputs, task ids — goes through
 * `esc`: model-written programs are hostile, and the page's Content-Security-Policy allows no inline script.
 */
import type { TopLevelSpec } from 'vega-lite';
import { escapeHtml } from '../report/html.js';

/** Escape text for element content and quoted attributes. */
export const esc = escapeHtml;

/**
 * Text for a `<pre>` element: escaped, after a newline (the HTML parser drops one newline right after `<pre>`,
 * which would eat the text's own first line break).
 */
export function preText(text: string): string {
  return `\n${esc(text)}`;
}

/**
 * Okabe & Ito's colour-blind-safe palette ("Color Universal Design", 2008), without black and yellow (hard to
 * see on white): one colour per run in charts that overlay or compare runs.
 */
export const PALETTE: readonly string[] = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#000000', '#999999'];

/** Win / tie / loss colours from the same palette (blue, grey, vermillion). */
export const OUTCOME_COLOURS = { win: '#0072B2', tie: '#999999', loss: '#D55E00' } as const;

/**
 * Natural order of task ids: digit runs compare as numbers (HumanEval/2 < HumanEval/19 < HumanEval/100), the rest
 * by code unit; the browser sorts with `localeCompare(…, {numeric: true})`, which agrees on these ids.
 */
export function naturalCompare(a: string, b: string): number {
  const re = /(\d+)|(\D+)/g;
  const pa = a.match(re) ?? [];
  const pb = b.match(re) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    if (x === y) continue;
    const dx = /^\d/.test(x);
    const dy = /^\d/.test(y);
    if (dx && dy) {
      const diff = Number(x) - Number(y);
      if (diff !== 0) return diff;
      return x.length - y.length;
    }
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

/** A fraction as a percentage with two decimals ("22.12"). */
export function pct(fraction: number): string {
  return (100 * fraction).toFixed(2);
}

/** Milliseconds for people: "840 ms", "12.3 s". */
export function ms(value: number | null | undefined): string {
  if (value === null || value === undefined) return '–';
  return value < 10_000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;
}

/** KiB for people: "2.7 MiB". */
export function kib(value: number | null | undefined): string {
  if (value === null || value === undefined) return '–';
  return value < 1024 ? `${value} KiB` : `${(value / 1024).toFixed(1)} MiB`;
}

/** An epoch-ms time as "2026-11-24 01:09" (UTC). */
export function when(epochMs: number | null | undefined): string {
  if (epochMs === null || epochMs === undefined) return '–';
  return new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * A chart placeholder and its spec (rendered in the browser by vega-embed). `id` must be unique on the page;
 * `renderer` `canvas` for charts of thousands of marks (heat maps over 1,000 steps), which SVG draws slowly.
 */
export function chart(id: string, spec: TopLevelSpec, caption?: string, renderer: 'svg' | 'canvas' = 'svg'): string {
  const json = JSON.stringify(spec).replace(/</g, '\\u003c');
  return `<figure class="chart-box"><div class="chart" id="chart-${esc(id)}" data-chart="${esc(id)}" data-renderer="${renderer}"></div>` +
    `<script type="application/json" id="spec-${esc(id)}">${json}</script>` +
    (caption === undefined ? '' : `<figcaption>${esc(caption)}</figcaption>`) + '</figure>';
}

/** Options of a page. `base` is where the dashboard is mounted, ending in "/" (links are relative to it). */
export interface PageOptions {
  readonly base: string;
  readonly title: string;
  /** Breadcrumbs: [label, relative href | null]. */
  readonly crumbs?: readonly (readonly [string, string | null])[];
  /** Page kind, set on <body data-page> for the browser script and tests. */
  readonly page: string;
  /** Extra <body data-*> attributes (e.g. the run id a live page follows). */
  readonly data?: Readonly<Record<string, string | number>>;
  /** Whether the page draws charts (the browser script then loads vega, vega-lite and vega-embed after the content). */
  readonly charts?: boolean;
}

/** A whole page. */
export function page(options: PageOptions, body: string): string {
  const data = Object.entries(options.data ?? {}).map(([k, v]) => ` data-${k}="${esc(String(v))}"`).join('');
  const crumbs = (options.crumbs ?? []).map(([label, href]) => (href === null ? esc(label) : `<a href="${esc(href)}">${esc(label)}</a>`)).join(' › ');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<base href="${esc(options.base)}"><link rel="icon" href="data:,"><title>${esc(options.title)} · Crucible</title>
<link rel="stylesheet" href="static/dashboard.css"><script type="module" src="static/dashboard.js"></script>${options.charts === true ? '<link rel="preload" as="script" href="static/vega.min.js">' : ''}</head>
<body data-page="${esc(options.page)}"${data}>
<header><a class="brand" href="">Crucible</a><nav><a href="">Runs</a><a href="compare">Compare</a><a href="training">Training</a><a href="signals">Signals</a></nav>
<span id="live-status" class="live" title="live updates">●</span></header>
<main>${crumbs === '' ? '' : `<p class="crumbs">${crumbs}</p>`}<h1>${esc(options.title)}</h1>
${body}
</main></body></html>
`;
}

/** A table of label/value rows (values are HTML). */
export function facts(rows: readonly (readonly [string, string])[], id?: string): string {
  return `<table class="facts"${id === undefined ? '' : ` id="${esc(id)}"`}><tbody>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${v}</td></tr>`).join('')}</tbody></table>`;
}

/** The progress bar of a run: the numbers `crucible eval` prints on its bar (done/total, samples/s, ETA). */
export function progressBar(done: number, total: number, samplesPerSecond: number | null, etaSeconds: number | null): string {
  const fraction = total > 0 ? Math.min(1, done / total) : 0;
  const rate = samplesPerSecond === null ? '' : `${samplesPerSecond.toFixed(1)} samples/s`;
  const eta = etaSeconds === null ? '' : `ETA ${Math.round(etaSeconds)} s`;
  return `<div class="progress" data-testid="progress"><progress max="${total}" value="${done}"></progress>` +
    `<span class="progress-text"><span data-field="done">${done}</span>/<span data-field="total">${total}</span>` +
    ` <span data-field="rate">${esc(rate)}</span> <span data-field="eta">${esc(eta)}</span></span></div>`;
}

/** "3 min", "2 h", "4 d": how long ago (or how long), rounded. */
export function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} d`;
}

/** A status badge. */
export function badge(status: string): string {
  return `<span class="badge status-${esc(status)}">${esc(status.replace(/_/g, ' '))}</span>`;
}
