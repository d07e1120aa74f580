/** `crucible dashboard`: browse the result store in a web browser (src/dashboard/), live while evals run. */
import { InvalidArgumentError, type Command } from 'commander';
import { startDashboard } from '../dashboard/server.js';
import { openResultStore } from '../store/open.js';
import { STORE_OPTION_HELP } from './store.js';

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError(`expected a port 0-65535, got "${value}"`);
  return n;
}

interface DashboardFlags {
  readonly host: string;
  readonly port: number;
  readonly store?: string;
  readonly allowedHosts?: string[];
}

/** Add `dashboard` to the program. */
export function register(program: Command): void {
  program.command('dashboard')
    .description('web dashboard of the result store: runs, problems, samples with diffs, comparisons, live training rewards')
    .option('--host <address>', 'address to bind (the dashboard has no authentication: keep it on loopback)', '127.0.0.1')
    .option('--port <n>', 'TCP port (0: any free port)', parsePort, 8765)
    .option('--store <spec>', STORE_OPTION_HELP)
    .option('--allowed-hosts <name...>', 'host names (Host header) to serve besides IP addresses and localhost (DNS rebinding defence); "*" for any')
    .action(async (flags: DashboardFlags) => {
      const store = await openResultStore(flags.store);
      const dashboard = await startDashboard({ store, host: flags.host, port: flags.port, allowedHosts: flags.allowedHosts ?? [] }).catch(async (error: unknown) => {
        await store.close();
        throw error;
      });
      process.stderr.write(`crucible dashboard: ${dashboard.url} (store ${store.location})\n`);
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          void dashboard.close().then(() => store.close()).then(resolve);
        };
        process.once('SIGTERM', stop);
        process.once('SIGINT', stop);
      });
    });
}
