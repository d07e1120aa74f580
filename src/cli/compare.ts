/**
 * `crucible compare RUN_A RUN_B`: paired comparison of two run directories (see src/metrics/paired.ts). Runs that
 * share no problem are a one-line error; runs whose toolchain package sets differ (`src/apps/provenance.ts`) get a
 * warning, since their verdicts may differ for that reason alone.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { packageSetDifferences } from '../apps/provenance.js';
import { RunLoadError, type LoadedRun } from '../report/load-run.js';
import { registerUserError, UsageError } from './errors.js';
import { countsFromRecords, type PassField } from '../metrics/counts.js';
import { maxReportableK } from '../metrics/pass-at-k.js';
import { comparePaired, type PairedComparison } from '../metrics/paired.js';
import { loadRunOrStored } from '../report/load-run.js';
import { STORE_OPTION_HELP } from './store.js';

registerUserError(RunLoadError);

const DEFAULT_KS = [1, 10];

function parseNonNegativeInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError(`${name} must be a non-negative integer`);
    return n;
  };
}

function parseKs(value: string): number[] {
  const ks = value.split(',').map((s) => s.trim());
  if (ks.some((k) => !/^[1-9]\d*$/.test(k))) throw new InvalidArgumentError('--k must be a comma-separated list of integers >= 1, e.g. 1,10');
  return ks.map(Number);
}

function signed(fraction: number): string {
  const p = (100 * fraction).toFixed(2);
  return fraction >= 0 ? `+${p}` : p;
}

function formatText(runA: string, runB: string, r: PairedComparison, field: PassField): string {
  const ci = `${Math.round(r.bootstrap.confidence * 100)}%`;
  const lines = [
    `A: ${runA}`,
    `B: ${runB}`,
    `tests: ${field === 'passed' ? 'base' : 'base + plus'}`,
    `shared problems: ${r.sharedProblems} (only in A: ${r.onlyInA.length}, only in B: ${r.onlyInB.length})`,
    '',
  ];
  for (const d of r.differences) {
    lines.push(
      `pass@${d.k}: A ${(100 * d.a).toFixed(2)}  B ${(100 * d.b).toFixed(2)}  A-B ${signed(d.difference)} ` +
        `[${ci} CI ${signed(d.lower)}, ${signed(d.upper)}]`,
    );
  }
  lines.push(
    `P(A > B): ${r.probabilityOfImprovement.toFixed(4)} (rliable probability of improvement; samples as runs)`,
    `problems by pass rate: A better ${r.wins}, B better ${r.losses}, ties ${r.ties}`,
    r.mcnemar.applicable
      ? `McNemar exact: only A ${r.mcnemar.onlyA}, only B ${r.mcnemar.onlyB}, p = ${r.mcnemar.pValue.toPrecision(4)}`
      : `McNemar exact: not applicable (${r.mcnemar.reason})`,
    `bootstrap: ${r.bootstrap.reps} paired replicates over problems, seed ${r.bootstrap.seed}`,
  );
  return lines.join('\n') + '\n';
}

interface CompareFlags {
  readonly json?: boolean;
  readonly k?: number[];
  readonly reps?: number;
  readonly seed?: number;
  readonly plus?: boolean;
  readonly store?: string;
}

/** A field of a run's summary (summary.json, or the store run's), undefined when absent. */
function summaryField(run: LoadedRun, key: string): unknown {
  return typeof run.summary === 'object' && run.summary !== null ? (run.summary as Record<string, unknown>)[key] : undefined;
}

/** Adds `compare` to the program. */
export function register(program: Command): void {
  program
    .command('compare')
    .description('Compare two runs on their shared problems: pass@k difference with paired bootstrap CI, P(A > B), wins/losses, McNemar')
    .argument('<runA>', 'run A: a run directory (crucible eval --out, crucible export) or a store run id or name')
    .argument('<runB>', 'run B: the same')
    .option('--json', 'print the comparison as JSON')
    .option('--k <list>', `k values to compare, comma-separated (default ${DEFAULT_KS.join(',')}, those every problem allows)`, parseKs)
    .option('--reps <n>', 'bootstrap replicates (default 2000)', parseNonNegativeInt('--reps'))
    .option('--seed <s>', 'bootstrap seed (default: a fixed seed, so results repeat)', parseNonNegativeInt('--seed'))
    .option('--plus', 'count a sample as passed only if it passed the EvalPlus plus inputs too')
    .option('--store <spec>', STORE_OPTION_HELP)
    .action(async (runA: string, runB: string, flags: CompareFlags) => {
      const field: PassField = flags.plus === true ? 'plusPassed' : 'passed';
      const [a, b] = await Promise.all([loadRunOrStored(runA, flags.store), loadRunOrStored(runB, flags.store)]);
      const countsA = countsFromRecords(a.records, field);
      const countsB = countsFromRecords(b.records, field);
      const inB = new Set(countsB.map((c) => c.taskId));
      if (!countsA.some((c) => inB.has(c.taskId))) {
        throw new UsageError(`${runA} and ${runB} share no problem (A has ${countsA.length}, e.g. "${countsA[0]?.taskId ?? '-'}"; `
          + `B has ${countsB.length}, e.g. "${countsB[0]?.taskId ?? '-'}"): a paired comparison needs runs of the same benchmark`);
      }
      const warnings = packageSetDifferences(summaryField(a, 'toolchainPackages'), summaryField(b, 'toolchainPackages'));
      for (const w of warnings) process.stderr.write(`crucible: warning: toolchain packages differ: ${w}\n`);
      const maxK = maxReportableK([...countsA, ...countsB]);
      const ks = flags.k ?? DEFAULT_KS.filter((k) => k <= maxK);
      const result = comparePaired(countsA, countsB, {
        ks,
        ...(flags.reps === undefined ? {} : { reps: flags.reps }),
        ...(flags.seed === undefined ? {} : { seed: flags.seed }),
      });
      process.stdout.write(
        flags.json === true ? JSON.stringify({ runA, runB, field, ...result, warnings }, null, 2) + '\n' : formatText(runA, runB, result, field),
      );
    });
}
