/** The `crucible` command line: parse, dispatch to one file per command, report errors. */
import { Command, CommanderError } from 'commander';
import { reportError } from './errors.js';
import { register as registerEval } from './eval.js';
import { CRUCIBLE_VERSION } from './version.js';
import { register as registerCompare } from './compare.js';
import { register as registerDoctor } from './doctor.js';
import { register as registerFormats } from './formats.js';
import { register as registerLanguages } from './languages.js';
import { register as registerReport } from './report.js';
import { register as registerRerank } from './rerank.js';
import { register as registerRun } from './run.js';
import { register as registerServe } from './serve.js';
import { register as registerStore } from './store.js';
import { register as registerExport } from './export.js';
import { register as registerDashboard } from './dashboard.js';
import { register as registerWorker } from './worker.js';
import { register as registerMcp } from './mcp.js';
import { register as registerDebugLoop } from './debug-loop.js';
import { register as registerQueue } from './queue.js';
import { register as registerGenerate } from './generate.js';
import { register as registerElo } from './elo.js';
import { register as registerTestsQuality } from './tests-quality.js';


/**
 * A reader that stopped reading (`crucible store list | head`) closes the pipe: standard output then fails with
 * EPIPE, which ends the command quietly, as it ends `git log | head`; any other write error is reported.
 */
function quietOnClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  process.stderr.write(`crucible: cannot write the output: ${error.message}\n`);
  process.exit(1);
}

/** Run the CLI with `argv` (as in process.argv); resolves to the exit code. */
export async function runCli(argv: readonly string[]): Promise<number> {
  process.stdout.on('error', quietOnClosedPipe);
  const program = new Command();
  program.name('crucible').version(CRUCIBLE_VERSION)
    .description('run model-written code in a sandbox, judge it, and turn verdicts into rewards and evaluations')
    .exitOverride();
  for (const register of [registerEval, registerRun, registerLanguages, registerFormats, registerDoctor, registerCompare, registerReport, registerRerank, registerServe,
    registerGenerate, registerStore, registerExport, registerDashboard, registerWorker, registerQueue, registerMcp,
    registerDebugLoop, registerElo, registerTestsQuality]) register(program);
  try {
    await program.parseAsync(argv as string[]);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    return reportError(error);
  }
}
