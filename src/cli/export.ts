/** `crucible export RUN [--out DIR]`: a store run written back as a run directory (src/store/run-dir.ts). */
import { join } from 'node:path';
import type { Command } from 'commander';
import { exportRunDirectory } from '../store/run-dir.js';
import { STORE_OPTION_HELP, withStore } from './store.js';

interface ExportFlags {
  readonly out?: string;
  readonly store?: string;
}

/** Add `export` to the program. */
export function register(program: Command): void {
  program.command('export')
    .description('write a store run as a run directory (run.json, verdicts.jsonl, summary.json) for tools that read one')
    .argument('<run>', 'run id or name')
    .option('--out <dir>', 'directory to create (default: runs/<name>-<id>)')
    .option('--store <spec>', STORE_OPTION_HELP)
    .action(async (ref: string, flags: ExportFlags) => {
      await withStore(flags.store, async (store) => {
        const run = await store.resolveRun(ref);
        const out = flags.out ?? join('runs', `${run.name.replace(/[^\w.-]+/g, '_')}-${run.id}`);
        const { samples } = await exportRunDirectory(store, run, out);
        process.stdout.write(`exported run ${run.id} (${run.name}): ${samples} samples to ${out}\n`);
      });
    });
}
