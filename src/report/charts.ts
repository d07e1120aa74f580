/**
 * Charts of a run report as inline SVG strings, rendered on the server: a vega-lite spec is compiled to
 * vega, run in a headless `View` (renderer 'none', no DOM, no network) and serialised with `toSVG()`.
 * The SVG's `xmlns` attributes are dropped (inline SVG in HTML does not need them), so the report holds
 * no URL at all.
 */
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { PassAtKSummary } from '../metrics/summary.js';
import type { StatusCount } from './build.js';

/** Renders a vega-lite spec to an SVG string. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    return svg.replace(/\s+xmlns(:\w+)?="[^"]*"/g, '');
  } finally {
    view.finalize();
  }
}

interface CurveRow {
  readonly k: number;
  readonly passAtK: number;
  readonly lower: number;
  readonly upper: number;
  readonly series: string;
}

/** vega-lite spec of pass@k against k: a line per series with its confidence band. Values in percent. */
export function passAtKCurveSpec(series: Readonly<Record<string, PassAtKSummary>>): TopLevelSpec {
  const values: CurveRow[] = [];
  let confidence = 0.95;
  for (const [name, summary] of Object.entries(series)) {
    confidence = summary.bootstrap.confidence;
    for (const p of summary.points) {
      values.push({ k: p.k, passAtK: 100 * p.passAtK, lower: 100 * p.lower, upper: 100 * p.upper, series: name });
    }
  }
  const color = { field: 'series', type: 'nominal' as const, title: null };
  return {
    width: 520,
    height: 280,
    data: { values },
    encoding: { x: { field: 'k', type: 'quantitative', title: 'k', scale: { zero: false }, axis: { format: 'd', tickMinStep: 1 } } },
    layer: [
      {
        mark: { type: 'area', opacity: 0.25 },
        encoding: {
          y: { field: 'lower', type: 'quantitative', title: `pass@k (%), ${Math.round(confidence * 100)}% CI band`, scale: { domain: [0, 100] } },
          y2: { field: 'upper' },
          color,
        },
      },
      {
        mark: { type: 'line', point: values.length <= 40 },
        encoding: { y: { field: 'passAtK', type: 'quantitative' }, color },
      },
    ],
  };
}

/** vega-lite spec of a horizontal bar chart of verdict counts (statuses with zero samples left out). */
export function verdictChartSpec(counts: readonly StatusCount[]): TopLevelSpec {
  return {
    width: 520,
    data: { values: counts.filter((c) => c.count > 0).map((c) => ({ status: c.status, count: c.count })) },
    mark: 'bar',
    encoding: {
      y: { field: 'status', type: 'nominal', sort: '-x', title: null },
      x: { field: 'count', type: 'quantitative', title: 'samples' },
    },
  };
}
