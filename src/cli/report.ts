/** `crucible report RUN`: markdown or self-contained HTML report of one run directory (see src/report/). */
import { writeFile } from 'node:fs/promises';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { RunLoadError } from '../report/load-run.js';
import { renderRunReport, type ReportFormat } from '../report/render.js';
import { ReportOptionError } from '../report/sections.js';
import type { WindowBy } from '../metrics/windows.js';
import { registerUserError } from './errors.js';
import { STORE_OPTION_HELP } from './store.js';

registerUserError(RunLoadError);
registerUserError(ReportOptionError);

function parseNonNegativeInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError(`${name} must be a non-negative integer`);
    return n;
  };
}

interface ReportFlags {
  readonly format: ReportFormat;
  readonly output?: string;
  readonly reps?: number;
  readonly seed?: number;
  readonly store?: string;
  readonly windowBy?: WindowBy;
}

/** Adds `report` to the program. */
export function register(program: Command): void {
  program
    .command('report')
    .description('Report of one run: pass@k with bootstrap CIs, pass@k curve, verdict counts, per-problem table')
    .argument('<run>', 'run directory (written by crucible eval --out or crucible export), or a store run id or name')
    .addOption(new Option('--format <format>', 'output format').choices(['md', 'html']).default('md'))
    .option('--output <file>', 'write the report to FILE instead of standard output')
    .option('--reps <n>', 'bootstrap replicates (default 2000)', parseNonNegativeInt('--reps'))
    .option('--seed <s>', 'bootstrap seed (default: a fixed seed, so results repeat)', parseNonNegativeInt('--seed'))
    .option('--store <spec>', STORE_OPTION_HELP)
    .addOption(new Option('--window-by <window>', 'pass@k per release window (the run\'s problems must carry release dates)').choices(['month', 'release']))
    .action(async (run: string, flags: ReportFlags) => {
      const text = await renderRunReport(run, flags.format, {
        ...(flags.reps === undefined ? {} : { reps: flags.reps }),
        ...(flags.seed === undefined ? {} : { seed: flags.seed }),
      }, flags.store, flags.windowBy === undefined ? {} : { windowBy: flags.windowBy });
      if (flags.output === undefined) process.stdout.write(text);
      else await writeFile(flags.output, text, 'utf8');
    });
}
