/** `crucible run FILE --lang ID`: run one program in the sandbox and print its verdict. */
import type { Command } from 'commander';
import { LanguageRegistry } from '../languages/registry.js';
import { DEFAULT_RUN_LIMITS, mibToKiB, secondsToMs } from '../limits.js';
import { openJudge } from '../queue/open.js';
import type { ExecutionResult } from '../sandbox/index.js';
import { parseMemoryLimitMiB, parseTimeLimitSeconds, readInputFile, UNSAFE_NO_SANDBOX_HELP } from './options.js';

/** The JSON shape of `crucible run --json`: exactly the verdict's public fields. */
export function verdictJson(r: ExecutionResult): Record<string, unknown> {
  return {
    status: r.status, exitCode: r.exitCode, signal: r.signal, cpuMs: r.cpuMs, wallMs: r.wallMs, memoryKiB: r.memoryKiB,
    stdout: r.stdout, stderr: r.stderr, stdoutTruncated: r.stdoutTruncated, stderrTruncated: r.stderrTruncated,
    memoryEnforcement: r.memoryEnforcement, ...(r.reason !== undefined ? { reason: r.reason } : {}),
  };
}

function human(r: ExecutionResult): string {
  const lines = [
    `status:  ${r.status}${r.reason ? ` (${r.reason})` : ''}`,
    `exit:    ${r.exitCode ?? '-'}${r.signal ? `  signal: ${r.signal}` : ''}`,
    `cpu:     ${r.cpuMs} ms   wall: ${r.wallMs} ms   memory: ${r.memoryKiB} KiB (${r.memoryEnforcement})`,
  ];
  if (r.stdout) lines.push(`--- stdout${r.stdoutTruncated ? ' (truncated)' : ''}\n${r.stdout.replace(/\n$/, '')}`);
  if (r.stderr) lines.push(`--- stderr${r.stderrTruncated ? ' (truncated)' : ''}\n${r.stderr.replace(/\n$/, '')}`);
  return lines.join('\n') + '\n';
}

/** Add `run` to the program. */
export function register(program: Command): void {
  program.command('run')
    .description('run one program in the sandbox and print its verdict')
    .argument('<file>', 'source file')
    .requiredOption('--lang <id>', 'language id or alias (see `crucible languages`)')
    .option('--stdin <file>', 'file fed to standard input')
    .option('--time-limit <seconds>', 'CPU time limit in seconds', parseTimeLimitSeconds)
    .option('--memory-limit <MiB>', 'memory limit in MiB', parseMemoryLimitMiB)
    .option('--json', 'print the verdict as one JSON object')
    .option('--unsafe-no-sandbox', UNSAFE_NO_SANDBOX_HELP)
    .action(async (file: string, opts: { lang: string; stdin?: string; timeLimit?: number; memoryLimit?: number;
      json?: boolean; unsafeNoSandbox?: boolean }) => {
      const languages = LanguageRegistry.load();
      const language = languages.get(opts.lang);
      const source = readInputFile(file, 'program');
      const stdin = opts.stdin !== undefined ? readInputFile(opts.stdin, '--stdin') : '';
      const { judge } = await openJudge({ slots: 1, unsafeNoSandbox: opts.unsafeNoSandbox === true, languages, cacheDir: null });
      try {
        const outcome = await judge.runPlain({ program: { language: language.id, source }, stdin, limits: {
          cpuMs: opts.timeLimit === undefined ? DEFAULT_RUN_LIMITS.cpuMs : secondsToMs(opts.timeLimit),
          memoryKiB: opts.memoryLimit === undefined ? DEFAULT_RUN_LIMITS.memoryKiB : mibToKiB(opts.memoryLimit),
        } });
        // A failed compilation is the verdict; otherwise the run's.
        const result = outcome.run ?? outcome.compile!;
        process.stdout.write(opts.json ? JSON.stringify(verdictJson(result)) + '\n' : human(result));
        if (result.status === 'internal_error') process.exitCode = 1;
      } finally {
        await judge.close();
      }
    });
}
