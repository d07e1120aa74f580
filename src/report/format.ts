/** Number formatting shared by the report renderers. */
import type { PassAtKEstimate } from '../metrics/summary.js';

/** A fraction as a percentage with two decimals, e.g. 0.4 → "40.00". */
export function percent(fraction: number): string {
  return (100 * fraction).toFixed(2);
}

/** "40.00 [31.10, 48.90]": a pass@k estimate and its interval, in percent. */
export function estimateWithInterval(e: PassAtKEstimate): string {
  return `${percent(e.passAtK)} [${percent(e.lower)}, ${percent(e.upper)}]`;
}

/** The estimate at k, or undefined when k is not on the curve. */
export function pointAt(points: readonly PassAtKEstimate[], k: number): PassAtKEstimate | undefined {
  return points.find((p) => p.k === k);
}
