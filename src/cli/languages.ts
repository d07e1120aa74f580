/** `crucible languages`: each configured language with its detected toolchain version and availability. */
import type { Command } from 'commander';
import { LanguageRegistry } from '../languages/registry.js';

/** Add `languages` to the program. */
export function register(program: Command): void {
  program.command('languages')
    .description('list configured languages, their toolchain versions and availability')
    .option('--json', 'print as JSON')
    .action(async (opts: { json?: boolean }) => {
      const registry = LanguageRegistry.load();
      const statuses = await registry.toolchains();
      if (opts.json) {
        process.stdout.write(JSON.stringify(registry.languages.map((l, i) => ({
          id: l.id, name: l.name, aliases: l.aliases, compiled: l.compile !== undefined, packages: l.packages, ...statuses[i],
        }))) + '\n');
        return;
      }
      for (const [i, l] of registry.languages.entries()) {
        const s = statuses[i]!;
        const mark = s.available ? 'ok     ' : 'MISSING';
        process.stdout.write(`${mark} ${l.id.padEnd(11)} ${(s.version ?? '').slice(0, 60).padEnd(60)} ${s.problem ?? ''}\n`);
      }
      if (statuses.some((s) => !s.available)) process.exitCode = 1;
    });
}
