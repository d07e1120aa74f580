/** `crucible languages`: each configured language with its detected toolchain version and availability. */
import { join } from 'node:path';
import type { Command } from 'commander';
import { prepareLanguages } from '../languages/prepare.js';
import { LanguageRegistry, missingToolchainFiles } from '../languages/registry.js';
import { PROJECT_ROOT } from '../sandbox/paths.js';

/** Add `languages` to the program. */
export function register(program: Command): void {
  program.command('languages')
    .description('list configured languages, their toolchain versions and availability')
    .option('--json', 'print as JSON')
    .option('--prepare', 'make the warm-start files of the installed toolchains (e.g. JVM class-data archives; run by scripts/setup, as root)')
    .action(async (opts: { json?: boolean; prepare?: boolean }) => {
      const registry = LanguageRegistry.load();
      if (opts.prepare) {
        const outcomes = prepareLanguages(registry.languages, (l) => missingToolchainFiles(l).length === 0,
          join(PROJECT_ROOT, 'languages', 'support'), (line) => process.stderr.write(`prepare: ${line}\n`));
        if (outcomes.some((o) => o.action === 'failed')) process.exitCode = 1;
        return;
      }
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
        process.stdout.write(`${mark} ${l.id.padEnd(12)} ${(s.version ?? '').slice(0, 60).padEnd(60)} ${s.problem ?? ''}\n`);
      }
      const available = statuses.filter((s) => s.available).length;
      process.stdout.write(`${available} of ${statuses.length} languages available\n`);
      if (available < statuses.length) process.exitCode = 1;
    });
}
