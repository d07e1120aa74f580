/**
 * `crucible store`: the result store from the command line — `import DIR...` (run directories into the
 * store), `list`, `delete RUN`, `where` (which store the flags and environment name). The store itself is
 * src/store/; `--store` is shared by every command that reads or writes it.
 */
import { Option, type Command } from 'commander';
import { StoreError } from '../store/errors.js';
import { openResultStore, resolveStoreLocation, STORE_ENV } from '../store/open.js';
import type { KeepTests, ResultStore } from '../store/result-store.js';
import { importRunDirectory } from '../store/run-dir.js';
import { registerUserError } from './errors.js';
import { registerSignalsCommand } from './signal-results.js';

registerUserError(StoreError);

/** Help text of every `--store` option. */
export const STORE_OPTION_HELP = `result store: a SQLite file or a postgres:// URL (default $${STORE_ENV}, else ~/.local/share/crucible/crucible.db)`;

/** Open the store named by `spec`, run `fn`, close it. */
export async function withStore<T>(spec: string | undefined, fn: (store: ResultStore) => Promise<T>): Promise<T> {
  const store = await openResultStore(spec);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

interface StoreFlags {
  readonly store?: string;
  readonly json?: boolean;
  readonly name?: string;
  readonly keepTests?: KeepTests;
  readonly model?: string;
  readonly tag?: string[];
  readonly untag?: string[];
  readonly allowDuplicate?: boolean;
}

const repeatable = (value: string, previous: string[]): string[] => [...previous, value];

/** Add `store` and its subcommands to the program. */
export function register(program: Command): void {
  const store = program.command('store').description('the result store: import run directories, list and delete runs');
  store.command('import')
    .description('import run directories (verdicts.jsonl, run.json, summary.json) into the store')
    .argument('<dirs...>', 'run directories written by crucible eval --out')
    .option('--name <name>', 'run name (default: the directory name; one directory only)')
    .addOption(new Option('--keep-tests <which>', 'per-test results kept: failing tests in full and passing tests as counts, or all').choices(['failing', 'all']).default('failing'))
    .option('--model <name>', 'the model that wrote the samples (default: run.json\'s labels, else the samples file\'s name)')
    .option('--tag <tag>', 'a label of the run (repeatable)', repeatable, [] as string[])
    .option('--allow-duplicate', 'import a directory the store holds already (default: refused)')
    .option('--store <spec>', STORE_OPTION_HELP)
    .action(async (dirs: string[], flags: StoreFlags) => {
      if (flags.name !== undefined && dirs.length > 1) throw new StoreError('import_failed', '--name names one run: give one directory');
      await withStore(flags.store, async (s) => {
        for (const dir of dirs) {
          const result = await importRunDirectory(s, dir, { ...(flags.name === undefined ? {} : { name: flags.name }), keepTests: flags.keepTests ?? 'failing',
            ...(flags.model === undefined ? {} : { model: flags.model }), ...((flags.tag ?? []).length === 0 ? {} : { tags: flags.tag }),
            allowDuplicate: flags.allowDuplicate === true });
          process.stdout.write(`imported ${dir} as run ${result.runId}: ${result.samples} samples` +
            `${result.superseded > 0 ? ` (${result.superseded} superseded lines skipped)` : ''} into ${s.location}\n`);
        }
      });
    });
  store.command('list')
    .description('list the runs of the store, newest first')
    .option('--json', 'one JSON array')
    .option('--store <spec>', STORE_OPTION_HELP)
    .action(async (flags: StoreFlags) => {
      await withStore(flags.store, async (s) => {
        const runs = await s.listRuns();
        if (flags.json === true) {
          process.stdout.write(JSON.stringify(runs) + '\n');
          return;
        }
        process.stdout.write(`${s.location}\n`);
        for (const r of runs) {
          process.stdout.write(`${String(r.id).padStart(5)}  ${r.status.padEnd(11)} ${`${r.doneSamples}/${r.totalSamples}`.padStart(12)}  ` +
            `${new Date(r.createdMs).toISOString().slice(0, 16).replace('T', ' ')}  ${r.name}  (${r.model} on ${r.dataset})` +
            `${r.tags.length === 0 ? '' : `  [${r.tags.join(', ')}]`}\n`);
        }
      });
    });
  store.command('delete')
    .description('delete a run and everything stored for it')
    .argument('<run>', 'run id or name')
    .option('--store <spec>', STORE_OPTION_HELP)
    .action(async (ref: string, flags: StoreFlags) => {
      await withStore(flags.store, async (s) => {
        const run = await s.resolveRun(ref);
        await s.deleteRun(run.id);
        process.stdout.write(`deleted run ${run.id} (${run.name})\n`);
      });
    });
  store.command('label')
    .description('set the model a run is shown under and add or remove its tags')
    .argument('<run>', 'run id or name')
    .option('--model <name>', 'the model that wrote the samples')
    .option('--tag <tag>', 'add a tag (repeatable)', repeatable, [] as string[])
    .option('--untag <tag>', 'remove a tag (repeatable)', repeatable, [] as string[])
    .option('--store <spec>', STORE_OPTION_HELP)
    .action(async (ref: string, flags: StoreFlags) => {
      await withStore(flags.store, async (s) => {
        const run = await s.resolveRun(ref);
        const removed = new Set(flags.untag ?? []);
        const tags = [...run.tags, ...(flags.tag ?? [])].filter((t) => !removed.has(t));
        await s.labelRun(run.id, { ...(flags.model === undefined ? {} : { model: flags.model }), tags });
        const after = await s.resolveRun(String(run.id));
        process.stdout.write(`run ${run.id} (${run.name}): model ${after.model}, tags ${after.tags.length === 0 ? '(none)' : after.tags.join(', ')}\n`);
      });
    });
  registerSignalsCommand(store);
  store.command('where')
    .description('print which store --store and the environment name')
    .option('--store <spec>', STORE_OPTION_HELP)
    .action((flags: StoreFlags) => {
      const location = resolveStoreLocation(flags.store);
      process.stdout.write(`${location.backend} ${location.display}\n`);
    });
}
