/**
 * `--store` of `crucible tests-quality` and `crucible elo` (issue #28, item 8): their result, kept in the result store's
 * `signal_results` table (store step 9) so the dashboard's "Signals" pages and `crucible store signals` show it again.
 */
import type { Command } from 'commander';
import { STORE_ENV } from '../store/open.js';
import type { NewSignalResult, SignalKind, SignalResultRow } from '../store/result-store.js';
import { UsageError } from './errors.js';
import { STORE_OPTION_HELP, withStore } from './store.js';

/** Help text of the `--store` option of the two commands (opt-in: nothing is written without it); literal, as store.ts imports this module. */
export const SIGNAL_STORE_HELP = `also keep the result in the result store (a SQLite file or a postgres:// URL; without a value: ${'$'}${STORE_ENV}, else the default store)`;

/** Store `result` in the store named by `spec`; resolves to its id and the store's location. */
export async function storeSignalResult(spec: string | undefined, result: NewSignalResult): Promise<{ id: number; location: string }> {
  return withStore(spec, async (store) => ({ id: await store.addSignalResult(result), location: store.location }));
}

/** One line per stored result: id, kind, name, date (UTC) and its headline numbers. */
export function signalLine(r: SignalResultRow): string {
  const headline = Object.entries(r.headline).map(([k, v]) => `${k} ${typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(4) : String(v)}`).join(', ');
  return `${r.id}\t${r.kind}\t${r.name}\t${new Date(r.createdMs).toISOString().slice(0, 16).replace('T', ' ')}\t${headline}`;
}

/** Add `crucible store signals [--kind K] [--json] [--id N]` to the `store` command. */
export function registerSignalsCommand(store: Command): void {
  store.command('signals')
    .description('list the tests-quality and elo results kept in the store (--id N: one, whole)')
    .option('--kind <kind>', 'tests-quality or elo')
    .option('--id <n>', 'print one result whole (JSON)')
    .option('--json', 'print JSON')
    .option('--store <spec>', STORE_OPTION_HELP)
    .action(async (flags: { kind?: string; id?: string; json?: boolean; store?: string }) => {
      const kind: SignalKind | undefined = flags.kind === 'elo' || flags.kind === 'tests-quality' ? flags.kind : undefined;
      if (flags.kind !== undefined && kind === undefined) throw new UsageError(`--kind ${flags.kind}: expected tests-quality or elo`);
      await withStore(flags.store, async (s) => {
        if (flags.id !== undefined) {
          const id = Number(flags.id);
          const row = Number.isSafeInteger(id) ? await s.signalResult(id) : undefined;
          if (row === undefined) throw new UsageError(`--id ${flags.id}: no signal result with that id in ${s.location}`);
          process.stdout.write(JSON.stringify(row) + '\n');
          return;
        }
        const rows = await s.listSignalResults(kind);
        process.stdout.write(flags.json ? JSON.stringify(rows) + '\n' : rows.map(signalLine).join('\n') + (rows.length === 0 ? '' : '\n'));
      });
    });
}
