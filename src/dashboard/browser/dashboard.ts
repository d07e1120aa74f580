/**
 * The dashboard's browser script (an ES module; compiled by `tsconfig.browser.json`): draws the charts whose
 * vega-lite specs the server put in the page (vega, vega-lite and vega-embed are loaded by this script once the
 * page's tables and numbers are shown, so they never delay them), sorts tables on a header click (task ids and
 * names in numeric order: HumanEval/2 < HumanEval/19), filters a problem's samples by verdict, and follows live
 * updates (server-sent events from `events`): progress numbers and pass@k of running evals (a run that stops
 * moving turns `stalled`), a training run's charts. The training page's smoothing slider redraws its charts.
 * Sets `body[data-charts-ready]` and `window.crucibleTimings` when the charts are drawn (the browser tests read them).
 */

interface EmbedResult { readonly view: { finalize(): void } }
type VegaEmbed = (el: HTMLElement, spec: unknown, options: Record<string, unknown>) => Promise<EmbedResult>;
interface RunUpdate { id: number; status: string; done: number; total: number; passed: number; samplesPerSecond: number | null; etaSeconds: number | null; updatedMs: number }
interface TrainingUpdate { id: number; events: number }
interface Headline { problemsJudged: number; problemsTotal: number; base: { k: number; passAtK: number; lower: number; upper: number }[];
  plus?: { k: number; passAtK: number; lower: number; upper: number }[] }

declare global {
  interface Window {
    vegaEmbed?: VegaEmbed;
    crucibleTimings?: { chartsReadyMs: number; charts: number };
    crucibleLive?: { runUpdates: number; trainingUpdates: number };
    /** The drawn vega views by chart id (tests read their scales). */
    crucibleViews?: Record<string, unknown>;
  }
}

const views = new Map<string, EmbedResult>();

async function draw(id: string, spec: unknown): Promise<void> {
  const el = document.getElementById(`chart-${id}`);
  const embed = window.vegaEmbed;
  if (el === null || embed === undefined) return;
  views.get(id)?.view.finalize();
  const result = await embed(el, spec, { actions: false, renderer: el.dataset['renderer'] === 'canvas' ? 'canvas' : 'svg' });
  views.set(id, result);
  (window.crucibleViews ??= {})[id] = result.view;
}

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.appendChild(script);
  });
}

async function drawAll(): Promise<void> {
  const boxes = [...document.querySelectorAll<HTMLElement>('.chart[data-chart]')];
  if (boxes.length > 0 && window.vegaEmbed === undefined) {
    // vega-lite and vega-embed need the vega global: load in order.
    await loadScript('static/vega.min.js');
    await loadScript('static/vega-lite.min.js');
    await loadScript('static/vega-embed.min.js');
  }
  await Promise.all(boxes.map((box) => {
    const id = box.dataset['chart']!;
    const spec = document.getElementById(`spec-${id}`)?.textContent;
    return spec ? draw(id, JSON.parse(spec)) : Promise.resolve();
  }));
  window.crucibleTimings = { chartsReadyMs: performance.now(), charts: boxes.length };
  document.body.dataset['chartsReady'] = '1';
}

/** Numeric-aware text order: digit runs compare as numbers. */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function sortable(): void {
  for (const th of document.querySelectorAll<HTMLTableCellElement>('table.sortable th[data-type]')) {
    th.addEventListener('click', () => {
      const table = th.closest('table')!;
      const body = table.tBodies[0]!;
      const i = th.cellIndex;
      const numeric = th.dataset['type'] === 'number';
      const dir = th.dataset['dir'] === 'asc' ? -1 : 1;
      for (const other of table.querySelectorAll<HTMLElement>('th[data-dir]')) delete other.dataset['dir'];
      th.dataset['dir'] = dir === 1 ? 'asc' : 'desc';
      const rows = [...body.rows];
      rows.sort((a, b) => {
        const x = a.cells[i]?.dataset['v'] ?? '';
        const y = b.cells[i]?.dataset['v'] ?? '';
        return dir * (numeric ? Number(x) - Number(y) : collator.compare(x, y));
      });
      for (const row of rows) body.appendChild(row);
    });
  }
}

function setText(root: ParentNode, selector: string, text: string): void {
  for (const el of root.querySelectorAll<HTMLElement>(selector)) el.textContent = text;
}

function showProgress(root: ParentNode, u: RunUpdate): void {
  for (const bar of root.querySelectorAll<HTMLProgressElement>('[data-testid="progress"] progress')) {
    bar.max = u.total;
    bar.value = u.done;
  }
  setText(root, '[data-field="done"]', String(u.done));
  setText(root, '[data-field="total"]', String(u.total));
  setText(root, '[data-field="rate"]', u.samplesPerSecond === null ? '' : `${u.samplesPerSecond.toFixed(1)} samples/s`);
  setText(root, '[data-field="eta"]', u.etaSeconds === null ? '' : `ETA ${Math.round(u.etaSeconds)} s`);
}

let refreshing = false;
let again = false;

/** Refresh a run page's numbers and charts from the API (one request at a time; the latest change wins). */
async function refreshRun(id: string): Promise<void> {
  if (refreshing) {
    again = true;
    return;
  }
  refreshing = true;
  try {
    const data = await (await fetch(`api/runs/${id}`)).json() as {
      run: { doneSamples: number; passedSamples: number; totalSamples: number; status: string };
      verdicts: { status: string; count: number }[];
      problems: { taskId: string; n: number; c: number }[];
      totalProblems: number;
      analysis: { base: { points: { k: number; passAtK: number; lower: number; upper: number }[] } } | null;
      specs: Record<string, unknown>;
    };
    setText(document, '[data-testid="done"]', String(data.run.doneSamples));
    setText(document, '[data-testid="passed"]', String(data.run.passedSamples));
    if (data.run.status === 'running') {
      setText(document, '[data-testid="coverage"]', `pass@k over ${data.problems.length} of ${data.totalProblems} problems judged so far ` +
        `(${data.run.doneSamples} of ${data.run.totalSamples} samples): not final, problems still to come may be harder or easier`);
    }
    for (const v of data.verdicts) setText(document, `#verdicts tr[data-status="${v.status}"] [data-field="count"]`, String(v.count));
    for (const p of data.analysis?.base.points ?? []) {
      const cell = document.querySelector<HTMLElement>(`#pass-at-k tr[data-series="base"] td[data-k="${p.k}"]`);
      if (cell !== null) {
        cell.dataset['value'] = String(p.passAtK);
        cell.innerHTML = `${(100 * p.passAtK).toFixed(2)} <span class="ci">[${(100 * p.lower).toFixed(2)}, ${(100 * p.upper).toFixed(2)}]</span>`;
      }
    }
    for (const p of data.problems) {
      const row = document.querySelector<HTMLElement>(`#problems tr[data-task="${CSS.escape(p.taskId)}"]`);
      if (row === null) continue;
      const c = row.querySelector<HTMLElement>('[data-field="c"]');
      const rate = row.querySelector<HTMLElement>('[data-field="rate"]');
      if (c !== null) { c.textContent = String(p.c); c.dataset['v'] = String(p.c); }
      if (rate !== null) { rate.textContent = (100 * p.c / p.n).toFixed(2); rate.dataset['v'] = String(p.c / p.n); }
    }
    await Promise.all(Object.entries(data.specs).map(([chart, spec]) => draw(chart, spec)));
  } finally {
    refreshing = false;
    if (again) {
      again = false;
      void refreshRun(id);
    }
  }
}

/** The training page's query: the runs overlaid and the smoothing weight. */
function trainingQuery(): string {
  const body = document.body.dataset;
  const params = new URLSearchParams();
  for (const id of (body['with'] ?? '').split(',').filter((x) => x !== '')) params.append('with', id);
  params.set('smooth', body['smooth'] ?? '0.6');
  return params.toString();
}

async function refreshTraining(id: string): Promise<void> {
  const data = await (await fetch(`api/training/${id}/series?${trainingQuery()}`)).json() as { facts: [string, string][]; specs: Record<string, unknown> };
  const table = document.querySelector('#training-facts tbody');
  if (table !== null) {
    // The facts are HTML the server escaped (numbers and fixed labels).
    table.innerHTML = data.facts.map(([k, v]) => `<tr><th>${k.replace(/</g, '&lt;')}</th><td>${v}</td></tr>`).join('');
  }
  await Promise.all(Object.entries(data.specs).map(([chart, spec]) => draw(chart, spec)));
}

/** The smoothing slider redraws the charts (no reload) and keeps the URL in step. */
function smoothing(): void {
  const slider = document.getElementById('smoothing') as HTMLInputElement | null;
  const id = document.body.dataset['training'];
  if (slider === null || id === undefined) return;
  let timer: number | undefined;
  slider.addEventListener('input', () => {
    document.body.dataset['smooth'] = slider.value;
    setText(document, '#smoothing-value', Number(slider.value).toFixed(2));
    window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      history.replaceState(null, '', `training/${id}?${trainingQuery()}`);
      void refreshTraining(id);
    }, 120);
  });
}

/** The training list's overlay form: the first ticked run is the page, the others `with`. */
function overlayForm(): void {
  const form = document.getElementById('overlay-form') as HTMLFormElement | null;
  if (form === null) return;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const picked = [...document.querySelectorAll<HTMLInputElement>('#training-runs input[name="pick"]:checked')].map((i) => i.value);
    if (picked.length === 0) return;
    const params = new URLSearchParams();
    for (const id of picked.slice(1)) params.append('with', id);
    location.href = `training/${picked[0]}${picked.length > 1 ? `?${params.toString()}` : ''}`;
  });
}

/** The problem page's verdict filter: show the samples of one verdict (or all). */
function verdictFilter(): void {
  const bar = document.getElementById('verdict-filter');
  if (bar === null) return;
  const apply = (status: string) => {
    for (const b of bar.querySelectorAll<HTMLButtonElement>('button')) b.classList.toggle('on', (b.dataset['status'] ?? '') === status);
    for (const row of document.querySelectorAll<HTMLTableRowElement>('#samples tbody tr')) row.hidden = status !== '' && row.dataset['status'] !== status;
  };
  bar.addEventListener('click', (event) => {
    const button = (event.target as HTMLElement).closest('button');
    if (button === null) return;
    const status = button.dataset['status'] ?? '';
    apply(status);
    const url = new URL(location.href);
    if (status === '') url.searchParams.delete('status');
    else url.searchParams.set('status', status);
    history.replaceState(null, '', url.toString());
  });
  apply(document.body.dataset['filter'] ?? '');
}

/** The runs list's compare form: enabled once two runs are ticked. */
function compareForm(): void {
  const button = document.getElementById('compare-selected') as HTMLButtonElement | null;
  if (button === null) return;
  const update = () => {
    button.disabled = document.querySelectorAll('#runs input[name="run"]:checked').length < 2;
  };
  document.addEventListener('change', update);
  update();
}

/**
 * Running rows of the runs list that have not moved for the stalled time turn `stalled` (their speed is gone), at
 * the moment they pass it: the next check is timed for the first row due (at most 2 s apart, for rows the live feed
 * adds), so a stalled run shows within ~50 ms instead of up to a 2 s polling period late.
 */
function stalledWatch(): void {
  const stalledMs = Number(document.body.dataset['stalledMs'] ?? 60_000);
  const check = () => {
    let nextMs = 2000;
    for (const row of document.querySelectorAll<HTMLElement>('#runs tr[data-status="running"]')) {
      if (row.dataset['shown'] === 'stalled') continue;
      const dueMs = Number(row.dataset['updated'] ?? 0) + stalledMs - Date.now();
      if (dueMs >= 0) {
        nextMs = Math.min(nextMs, dueMs + 50);
        continue;
      }
      row.dataset['shown'] = 'stalled';
      const badge = row.querySelector<HTMLElement>('[data-field="status"] .badge');
      if (badge !== null) { badge.textContent = 'stalled'; badge.className = 'badge status-stalled'; }
      const cell = row.querySelector<HTMLElement>('[data-field="samples"]');
      const done = row.querySelector('[data-field="done"]')?.textContent ?? '';
      const total = row.querySelector('[data-field="total"]')?.textContent ?? '';
      if (cell !== null) cell.innerHTML = `<span class="stalled-note" data-testid="stalled">${done}/${total}, no progress for over ${Math.round(stalledMs / 1000)} s</span>`;
    }
    window.setTimeout(check, Math.max(100, nextMs));
  };
  check();
}

const headlineAsked = new Map<number, number>();

/** A running row's pass@k at the list's k, from the run's headline (asked at most every 3 s per run). */
async function refreshHeadline(row: HTMLElement, id: number): Promise<void> {
  const now = Date.now();
  if (now - (headlineAsked.get(id) ?? 0) < 3000) return;
  headlineAsked.set(id, now);
  const { headline } = await (await fetch(`api/runs/${id}/headline`)).json() as { headline: Headline | null };
  const k = Number(document.body.dataset['k'] ?? 1);
  const point = headline?.base.find((p) => p.k === k);
  const cell = row.querySelector<HTMLElement>('[data-field="pass"]');
  if (cell !== null && point !== undefined) {
    cell.dataset['v'] = String(point.passAtK);
    cell.innerHTML = `<span class="num">${(100 * point.passAtK).toFixed(2)}</span><span class="ci">[${(100 * point.lower).toFixed(2)}, ${(100 * point.upper).toFixed(2)}]</span>`;
  }
  const coverage = row.querySelector<HTMLElement>('[data-field="coverage"]');
  if (coverage !== null && headline !== null) coverage.textContent = `${headline.problemsJudged}/${headline.problemsTotal}`;
}

function onRunUpdate(u: RunUpdate): void {
  const body = document.body.dataset;
  const row = document.querySelector<HTMLElement>(`#runs tr[data-run="${u.id}"]`);
  // The unfiltered runs list shows a new run, or a run that changed status, by loading again.
  const unfiltered = [...new URLSearchParams(location.search).keys()].every((key) => key === 'k');
  if (body['page'] === 'runs' && unfiltered && (row === null || row.dataset['status'] !== u.status)) {
    location.reload();
    return;
  }
  if (row !== null) {
    row.dataset['updated'] = String(u.updatedMs);
    showProgress(row, u);
    const cell = row.querySelector<HTMLElement>('[data-field="samples"]');
    if (cell !== null && row.querySelector('progress') === null) cell.textContent = `${u.done}/${u.total}`;
    if (u.status === 'running' && u.done > 0) void refreshHeadline(row, u.id);
    if (u.status !== 'running') setText(row, '[data-field="status"] .badge', u.status);
  }
  if (body['run'] === String(u.id) && body['page'] === 'run') {
    showProgress(document, u);
    if (body['status'] === 'running' && u.status !== 'running') location.reload();
    else void refreshRun(String(u.id));
  }
}

function live(): void {
  const body = document.body.dataset;
  const counters = { runUpdates: 0, trainingUpdates: 0 };
  window.crucibleLive = counters;
  const source = new EventSource('events');
  const status = document.getElementById('live-status');
  source.addEventListener('open', () => status?.classList.add('on'));
  source.addEventListener('error', () => status?.classList.remove('on'));
  source.addEventListener('run', (event) => {
    counters.runUpdates++;
    onRunUpdate(JSON.parse((event as MessageEvent<string>).data) as RunUpdate);
  });
  source.addEventListener('training', (event) => {
    const u = JSON.parse((event as MessageEvent<string>).data) as TrainingUpdate;
    counters.trainingUpdates++;
    setText(document, `#training-runs tr[data-training="${u.id}"] [data-field="events"]`, String(u.events));
    const shown = [body['training'], ...(body['with'] ?? '').split(',')];
    if (body['training'] !== undefined && shown.includes(String(u.id))) void refreshTraining(body['training']);
  });
}

sortable();
verdictFilter();
compareForm();
stalledWatch();
smoothing();
overlayForm();
live();
void drawAll();
export {};
