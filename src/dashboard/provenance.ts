/**
 * A run's provenance as a readable table: the code version (Crucible's version and git commit), the files with
 * their sha256, limits in their units, toolchains one per line, bootstrap settings, where the results came from
 * (run directory or import), sampling settings, and what the eval reported at the end (time, speed, ground truth,
 * retries). Fields nobody gave a row are shown last as compact JSON, so nothing recorded is hidden.
 */
import type { RunRow } from '../store/result-store.js';
import { esc, kib, ms, when } from './html.js';

type Row = [string, string];

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function codeRow(run: RunRow, code: Record<string, unknown> | undefined): Row {
  const commit = typeof code?.['commit'] === 'string' ? code['commit'] : undefined;
  const branch = typeof code?.['branch'] === 'string' ? code['branch'] : undefined;
  const version = `Crucible ${esc(run.crucibleVersion)}`;
  return ['code version', commit === undefined ? `${version} <span class="muted">(no git commit recorded)</span>`
    : `${version}, commit <code data-testid="commit" title="${esc(commit)}">${esc(commit.slice(0, 12))}</code>${branch === undefined ? '' : ` (${esc(branch)})`}`];
}

function limitsRow(options: Readonly<Record<string, unknown>>, per: string): Row {
  const cpu = num(options['timeLimitMs']);
  const memory = num(options['memoryLimitKiB']);
  const output = num(options['outputBytes']);
  return ['limits', `CPU ${cpu === undefined ? '–' : ms(cpu)} per ${per}, memory ${memory === undefined ? '–' : kib(memory)}, ` +
    `output ${output === undefined ? '–' : output >= 1 << 20 ? `${(output / (1 << 20)).toFixed(0)} MiB` : `${output} bytes`}`];
}

function toolchainsRow(toolchains: Record<string, unknown> | undefined): Row | undefined {
  if (toolchains === undefined || Object.keys(toolchains).length === 0) return undefined;
  return ['toolchains', Object.entries(toolchains).map(([id, v]) => `${esc(id)}: <code>${esc(typeof v === 'string' ? v : 'version unknown')}</code>`).join('<br>')];
}

function summaryRow(summary: Record<string, unknown> | undefined): Row | undefined {
  if (summary === undefined) return undefined;
  const wall = num(summary['wallMs']);
  const rate = num(summary['samplesPerSecond']);
  const gt = record(summary['groundTruth']);
  const parts = [
    wall === undefined ? undefined : `${(wall / 1000).toFixed(1)} s`,
    rate === undefined ? undefined : `${rate.toFixed(1)} samples/s`,
    num(summary['distinctPrograms']) === undefined ? undefined : `${summary['distinctPrograms']} distinct programs`,
    gt === undefined ? undefined : `ground truth: ${num(gt['runs']) ?? 0} runs, ${num(gt['cacheHits']) ?? 0} from cache`,
    num(summary['internalErrorRetries']) ? `${summary['internalErrorRetries']} attempts retried after internal errors` : undefined,
  ].filter((p): p is string => p !== undefined);
  return parts.length === 0 ? undefined : ['eval', esc(parts.join(' · '))];
}

/** The rows of a run's provenance table (label, HTML value). */
export function provenanceRows(run: RunRow): Row[] {
  const p = run.provenance;
  const summary = record(run.summary);
  const bootstrap = record(summary?.['bootstrap']) ?? record(p['bootstrap']);
  const per = run.problemsFile !== undefined && /humaneval|mbpp/i.test(run.dataset) ? 'program or test' : 'test (per program for unit tests)';
  const file = (path: string | undefined, hash: string) => `${path === undefined ? '' : `<code>${esc(path)}</code><br>`}sha256 <code>${esc(hash)}</code>`;
  const rows: (Row | undefined)[] = [
    codeRow(run, record(p['code']) ?? record(summary?.['code'])),
    ['problems', file(run.problemsFile, run.problemsHash)],
    ['samples', file(run.samplesFile, run.samplesHash)],
    ['format', esc(run.format ?? '–')],
    limitsRow(run.options, per),
    ['judging', p['allTests'] === true ? 'every test of a failing sample' : 'stops at a sample\'s first failing test (pass or fail is all pass@k needs)'],
    ['per-test results kept', run.keepTests === 'all' ? 'every test' : 'failing tests in full, passing tests as counts'],
    toolchainsRow(record(p['toolchains'])),
    typeof p['node'] === 'string' ? ['Node', esc(p['node'])] : undefined,
    bootstrap === undefined ? undefined : ['bootstrap', `${num(bootstrap['reps']) ?? '–'} replicates, seed ${num(bootstrap['seed']) ?? '–'}`],
    run.generation === null ? undefined : ['generation', Object.entries(run.generation).map(([k, v]) => `${esc(k)}: <code>${esc(typeof v === 'string' ? v : JSON.stringify(v))}</code>`).join('<br>')],
    typeof p['runDir'] === 'string' ? ['run directory', `<code>${esc(p['runDir'])}</code>`] : undefined,
    typeof p['importedFrom'] === 'string' ? ['imported from', `<code>${esc(p['importedFrom'])}</code> on ${when(num(p['importedMs']))} UTC`] : undefined,
    summaryRow(summary),
    ['created / finished (UTC)', `${when(run.createdMs)} / ${when(run.finishedMs)}`],
  ];
  const shown = new Set(['code', 'toolchains', 'node', 'bootstrap', 'runDir', 'importedFrom', 'importedMs', 'allTests', 'limits']);
  for (const [k, v] of Object.entries(p)) if (!shown.has(k)) rows.push([k, `<code>${esc(JSON.stringify(v))}</code>`]);
  return rows.filter((r): r is Row => r !== undefined);
}
