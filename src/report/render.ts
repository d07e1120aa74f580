/** Entry point of `crucible report`: load a run directory, compute its report data, render it. */
import type { BootstrapOptions } from '../metrics/bootstrap.js';
import { buildReportData } from './build.js';
import { renderHtml } from './html.js';
import { loadRun } from './load-run.js';
import { renderMarkdown } from './markdown.js';

export type ReportFormat = 'md' | 'html';

/**
 * Renders the report of the run directory `dir` as markdown or self-contained HTML.
 * @throws RunLoadError when the run directory cannot be read; RangeError on bad bootstrap options.
 */
export async function renderRunReport(dir: string, format: ReportFormat, options: BootstrapOptions = {}): Promise<string> {
  const data = buildReportData(await loadRun(dir), options);
  return format === 'html' ? renderHtml(data) : renderMarkdown(data);
}
