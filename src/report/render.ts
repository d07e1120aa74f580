/** Entry point of `crucible report`: load a run directory, compute its report data, render it. */
import type { BootstrapOptions } from '../metrics/bootstrap.js';
import { buildReportData } from './build.js';
import type { WindowBy } from '../metrics/windows.js';
import { renderHtml } from './html.js';
import { loadRunOrStored } from './load-run.js';
import { renderMarkdown } from './markdown.js';

export type ReportFormat = 'md' | 'html';

/**
 * Renders the report of the run directory `dir` (or the store run with that id or name, see
 * `loadRunOrStored`) as markdown or self-contained HTML.
 * @throws RunLoadError when the run directory cannot be read; StoreError for a store run that cannot be read;
 * RangeError on bad bootstrap options.
 */
export async function renderRunReport(dir: string, format: ReportFormat, options: BootstrapOptions = {}, storeSpec?: string,
  view: { readonly windowBy?: WindowBy } = {}): Promise<string> {
  const data = buildReportData(await loadRunOrStored(dir, storeSpec), options, view);
  return format === 'html' ? renderHtml(data) : renderMarkdown(data);
}
