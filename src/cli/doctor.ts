/** `crucible doctor`: what this host offers for isolation, and every toolchain. */
import type { Command } from 'commander';
import { LanguageRegistry } from '../languages/registry.js';
import { detectCapabilities } from '../sandbox/index.js';

/** Add `doctor` to the program. */
export function register(program: Command): void {
  program.command('doctor')
    .description('report user namespaces, bubblewrap, cgroups and toolchains')
    .option('--json', 'print as JSON')
    .action(async (opts: { json?: boolean }) => {
      const caps = detectCapabilities();
      const registry = LanguageRegistry.load();
      const toolchains = await registry.toolchains();
      // Same condition as Sandbox.create: root (slot network namespaces) and writable cgroups.
      const slotBoxes = caps.isolation && caps.cgroupWritable;
      if (opts.json) {
        process.stdout.write(JSON.stringify({ ...caps, slotBoxes, toolchains }) + '\n');
      } else {
        const yes = (b: boolean): string => (b ? 'yes' : 'NO');
        process.stdout.write([
          `bubblewrap:        ${caps.bwrapPath ?? 'NOT FOUND'} ${caps.bwrapVersion ?? ''}`,
          `user namespaces:   ${yes(caps.userNamespaces)}`,
          `root:              ${yes(caps.isRoot)}`,
          `cgroup:            ${caps.cgroupVersion}, writable: ${yes(caps.cgroupWritable)} (memory limit by ${caps.cgroupWritable ? 'cgroup' : 'RLIMIT_AS'})`,
          `native launcher:   ${yes(caps.nativeBuilt)}`,
          `isolation:         ${caps.isolation ? 'available' : 'UNAVAILABLE: untrusted code will not run without --unsafe-no-sandbox'}`,
          `slot boxes:        ${slotBoxes ? 'yes (one-shot runs share a box per slot; new pid, mount and IPC namespaces per run)' : 'no (a bubblewrap per run)'}`,
          ...caps.problems.map((p) => `  problem: ${p}`),
          'toolchains:',
          ...toolchains.map((t) => `  ${t.available ? 'ok     ' : 'MISSING'} ${t.id.padEnd(11)} ${t.version ?? ''} ${t.problem ?? ''}`),
        ].join('\n') + '\n');
      }
      if (!caps.isolation || toolchains.some((t) => !t.available)) process.exitCode = 1;
    });
}
