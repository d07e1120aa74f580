/**
 * `crucible export RUN [--out DIR] [--format run-dir|tensorboard|wandb|wandb-offline] [--training]`: a store run
 * written for other tools: a run directory (src/store/run-dir.ts), or TensorBoard event files of an eval or a training
 * run (src/report/tensorboard.ts, src/report/tfevents.ts); `wandb` is the same event files with the run's labels beside
 * them (`crucible-run.json`), for `wandb sync --sync-tensorboard DIR`, which uploads TensorBoard logs as a W&B run;
 * `wandb-offline` is a W&B offline run directory of the same summaries (src/report/wandb-offline.ts), for `wandb sync`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { evalRunEvents, trainingRunEvents } from '../report/tensorboard.js';
import { eventFile, eventFileName, type SummaryEvent } from '../report/tfevents.js';
import { writeWandbOfflineRun } from '../report/wandb-offline.js';
import { analyseRun } from '../store/analysis.js';
import { StoreError } from '../store/errors.js';
import type { ResultStore } from '../store/result-store.js';
import { exportRunDirectory } from '../store/run-dir.js';
import { STORE_OPTION_HELP, withStore } from './store.js';

interface ExportFlags {
  readonly out?: string;
  readonly store?: string;
  readonly format: 'run-dir' | 'tensorboard' | 'wandb' | 'wandb-offline';
  readonly training?: boolean;
  readonly wandbProject: string;
}

/** What an exported run is made of: its summaries and, for W&B, its labels. */
interface Exported {
  readonly kind: 'eval' | 'training';
  /** Store run id and name. */
  readonly id: number;
  readonly name: string;
  readonly events: readonly SummaryEvent[];
  readonly labels: Record<string, unknown>;
  readonly tags: readonly string[];
}

/**
 * Write the summaries as `flags.format` asks: TensorBoard event files (with the labels beside them for `wandb`), or
 * a W&B offline run (its id derived from the store location, kind and run id, so exporting again names the same run).
 * Resolves to the path written.
 */
function writeSummaries(store: ResultStore, out: string, run: Exported, flags: ExportFlags): string {
  if (flags.format !== 'wandb-offline') return writeEvents(out, run.events, flags.format === 'wandb' ? run.labels : undefined);
  const id = createHash('sha256').update(`${store.location}\u0000${run.kind}\u0000${run.id}`).digest('hex').slice(0, 8);
  const startTime = run.events.length === 0 ? Date.now() / 1000 : Math.min(...run.events.map((e) => e.wallTime));
  return writeWandbOfflineRun(out, { id, project: flags.wandbProject, displayName: run.name, tags: [...run.tags], config: run.labels,
    notes: `crucible ${run.kind} run ${run.id} of ${store.location}`, startTime, events: run.events });
}

/**
 * Write `events` as one event file in `dir` (made; refused when it holds event files already) and, for W&B, the
 * run's labels. Resolves to the file's path.
 */
function writeEvents(dir: string, events: readonly SummaryEvent[], labels: Record<string, unknown> | undefined): string {
  mkdirSync(dir, { recursive: true });
  if (readdirSync(dir).some((n) => n.startsWith('events.out.tfevents.'))) {
    throw new StoreError('export_failed', `${dir} already holds TensorBoard event files: choose another --out`);
  }
  const start = events.length === 0 ? Date.now() / 1000 : Math.min(...events.map((e) => e.wallTime));
  const path = join(dir, eventFileName(start, hostname()));
  writeFileSync(path, eventFile(events, start));
  if (labels !== undefined) writeFileSync(join(dir, 'crucible-run.json'), JSON.stringify(labels, null, 2) + '\n');
  return path;
}

async function exportTraining(store: ResultStore, ref: string, flags: ExportFlags): Promise<string> {
  const run = await store.getTrainingRun(ref);
  if (run === undefined) throw new StoreError('run_not_found', `${store.location}: no training run has id or name "${ref}"`);
  const out = flags.out ?? join('runs', `training-${run.name.replace(/[^\w.-]+/g, '_')}-${run.id}`);
  const series = await store.trainingSeries(run.id);
  const path = writeSummaries(store, out, { kind: 'training', id: run.id, name: run.name, events: trainingRunEvents(series), tags: ['training'],
    labels: { name: run.name, kind: 'training', events: run.events, config: run.config ?? {} } }, flags);
  return `exported training run ${run.id} (${run.name}): ${series.buckets.length} ${series.unit}s to ${path}`;
}

async function exportEval(store: ResultStore, ref: string, flags: ExportFlags): Promise<string> {
  const run = await store.resolveRun(ref);
  const out = flags.out ?? join('runs', `${run.name.replace(/[^\w.-]+/g, '_')}-${run.id}`);
  if (flags.format === 'run-dir') {
    const { samples } = await exportRunDirectory(store, run, out);
    return `exported run ${run.id} (${run.name}): ${samples} samples to ${out}`;
  }
  const problems = await store.problemCounts(run.id);
  const analysis = await analyseRun(store, run, problems);
  if (analysis === undefined) throw new StoreError('export_failed', `run ${run.id} has no judged sample to export`);
  const labels = { name: run.name, kind: 'eval', model: run.model, dataset: run.dataset, tags: run.tags, generation: run.generation, options: run.options,
    provenance: run.provenance };
  const path = writeSummaries(store, out, { kind: 'eval', id: run.id, name: run.name, events: evalRunEvents(run, analysis, problems), tags: run.tags, labels },
    flags);
  return `exported run ${run.id} (${run.name}): pass@1..${analysis.base.maxK} to ${path}`;
}

/** Add `export` to the program. */
export function register(program: Command): void {
  program.command('export')
    .description('write a store run for other tools: a run directory (run.json, verdicts.jsonl, summary.json), TensorBoard event files, or a W&B offline run')
    .argument('<run>', 'run id or name (with --training: a training run)')
    .option('--out <dir>', 'directory to create (default: runs/<name>-<id>)')
    .addOption(new Option('--format <format>', 'run-dir, tensorboard (event files), wandb (event files and the run\'s labels, for wandb sync '
      + '--sync-tensorboard DIR), or wandb-offline (a W&B offline run directory, for wandb sync RUNDIR)')
      .choices(['run-dir', 'tensorboard', 'wandb', 'wandb-offline']).default('run-dir'))
    .option('--wandb-project <name>', 'with --format wandb-offline: the W&B project', 'crucible')
    .option('--training', 'RUN is a training run (reward events); formats tensorboard and wandb')
    .option('--store <spec>', STORE_OPTION_HELP)
    .action(async (ref: string, flags: ExportFlags) => {
      if (flags.training === true && flags.format === 'run-dir') throw new StoreError('export_failed', 'a training run exports as --format tensorboard, wandb or wandb-offline');
      await withStore(flags.store, async (store) => {
        const line = flags.training === true ? await exportTraining(store, ref, flags) : await exportEval(store, ref, flags);
        process.stdout.write(`${line}\n`);
        if (flags.format === 'wandb') process.stdout.write(`upload: wandb sync --sync-tensorboard ${flags.out ?? 'the directory above'}\n`);
        if (flags.format === 'wandb-offline') process.stdout.write('upload: wandb sync <the run directory above>\n');
        if (flags.out !== undefined && !existsSync(flags.out)) throw new StoreError('export_failed', `${flags.out} was not written`);
      });
    });
}
