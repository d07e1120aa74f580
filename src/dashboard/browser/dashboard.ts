/**
 * The dashboard's browser script (an ES module; compiled by `tsconfig.browser.json`): draws the charts whose
 * vega-lite specs the server put in the page (vega, vega-lite and vega-embed are loaded by this script once the
 * page's tables and numbers are shown, so they never delay them), sorts
 * tables on a header click, and follows live updates (server-sent events from `events`): progress numbers and
 * counts of a running eval, a training run's charts. Sets `body[data-charts-ready]` and
 * `window.crucibleTimings` when the charts are drawn (the browser tests read them).
 */

interface EmbedResult { readonly view: { finalize(): void } }
type VegaEmbed = (el: HTMLElement, spec: unknown, options: Record<string, unknown>) => Promise<EmbedResult>;
interface RunUpdate { id: number; status: string; done: number; total: number; passed: number; samplesPerSecond: number | null; etaSeconds: number | null }
interface TrainingUpdate { id: number; events: number }

declare global {
  interface Window {
    vegaEmbed?: VegaEmbed;
    crucibleTimings?: { chartsReadyMs: number; charts: number };
    crucibleLive?: { runUpdates: number; trainingUpdates: number };
  }
}

const views = new Map<string, EmbedResult>();

async function draw(id: string, spec: unknown): Promise<void> {
  const el = document.getElementById(`chart-${id}`);
  const embed = window.vegaEmbed;
  if (el === null || embed === undefined) return;
  views.get(id)?.view.finalize();
  views.set(id, await embed(el, spec, { actions: false, renderer: 'svg' }));
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
        return dir * (numeric ? Number(x) - Number(y) : x.localeCompare(y));
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
      run: { doneSamples: number; passedSamples: number };
      verdicts: { status: string; count: number }[];
      problems: { taskId: string; n: number; c: number }[];
      analysis: { base: { points: { k: number; passAtK: number; lower: number; upper: number }[] } } | null;
      specs: Record<string, unknown>;
    };
    setText(document, '[data-testid="done"]', String(data.run.doneSamples));
    setText(document, '[data-testid="passed"]', String(data.run.passedSamples));
    for (const v of data.verdicts) setText(document, `#verdicts tr[data-status="${v.status}"] [data-field="count"]`, String(v.count));
    for (const p of data.analysis?.base.points ?? []) {
      const cell = document.querySelector<HTMLElement>(`#pass-at-k tr[data-series="base"] td[data-k="${p.k}"]`);
      if (cell !== null) {
        cell.dataset['value'] = String(p.passAtK);
        cell.innerHTML = `${(100 * p.passAtK).toFixed(2)} <span class="ci">[${(100 * p.lower).toFixed(2)}, ${(100 * p.upper).toFixed(2)}]</span>`;
      }
    }
    for (const p of data.problems) {
      const row = document.querySelector<HTMLTableRowElement>(`#problems tr[data-task="${CSS.escape(p.taskId)}"]`);
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

async function refreshTraining(id: string): Promise<void> {
  const data = await (await fetch(`api/training/${id}/series`)).json() as { facts: [string, string][]; specs: Record<string, unknown> };
  const table = document.querySelector('#training-facts tbody');
  if (table !== null) {
    // The facts are HTML the server escaped (numbers and fixed labels).
    table.innerHTML = data.facts.map(([k, v]) => `<tr><th>${k.replace(/</g, '&lt;')}</th><td>${v}</td></tr>`).join('');
  }
  await Promise.all(Object.entries(data.specs).map(([chart, spec]) => draw(chart, spec)));
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
    const u = JSON.parse((event as MessageEvent<string>).data) as RunUpdate;
    counters.runUpdates++;
    const row = document.querySelector<HTMLElement>(`#runs tr[data-run="${u.id}"]`);
    // The unfiltered runs list shows a new run, or a run that changed status, by loading again.
    if (body['page'] === 'runs' && location.search === '' && (row === null || row.dataset['status'] !== u.status)) {
      location.reload();
      return;
    }
    if (row !== null) {
      showProgress(row, u);
      const cell = row.querySelector<HTMLElement>('[data-field="samples"]');
      if (cell !== null && row.querySelector('progress') === null) cell.textContent = `${u.done}/${u.total}`;
      const passed = row.querySelector<HTMLElement>('[data-field="passed"]');
      if (passed !== null && u.done > 0) passed.textContent = (100 * u.passed / u.done).toFixed(2);
      if (u.status !== 'running') setText(row, '[data-field="status"] .badge', u.status);
    }
    if (body['run'] === String(u.id)) {
      showProgress(document, u);
      if (body['status'] === 'running' && u.status !== 'running') location.reload();
      else void refreshRun(String(u.id));
    }
  });
  source.addEventListener('training', (event) => {
    const u = JSON.parse((event as MessageEvent<string>).data) as TrainingUpdate;
    counters.trainingUpdates++;
    setText(document, `#training-runs tr[data-training="${u.id}"] [data-field="events"]`, String(u.events));
    if (body['training'] === String(u.id)) void refreshTraining(String(u.id));
  });
}

sortable();
live();
void drawAll();
export {};
