/** The `crucible` command line: parse, dispatch to one file per command, report errors. */
import { Command, CommanderError } from 'commander';
import { reportError } from './errors.js';
import { CRUCIBLE_VERSION } from './version.js';

/** A command's module: it adds the command (with its options and action) to the program. */
interface CommandModule {
  register(program: Command): void;
}

/**
 * Every command, by the name it is typed as, with its module, in the order `crucible --help` lists them. A command's
 * module (and what it needs: the engine, the server, the dashboard's renderers, ...) is loaded only when that
 * command runs, so `crucible eval` does not pay for loading `serve` and `dashboard` (the whole set cost ~0.7 s of
 * CPU per start, `eval` alone ~0.3 s); help, `--version` and a mistyped command load them all.
 */
const COMMANDS: Readonly<Record<string, () => Promise<CommandModule>>> = {
  'eval': () => import('./eval.js'),
  'run': () => import('./run.js'),
  'languages': () => import('./languages.js'),
  'formats': () => import('./formats.js'),
  'doctor': () => import('./doctor.js'),
  'compare': () => import('./compare.js'),
  'report': () => import('./report.js'),
  'rerank': () => import('./rerank.js'),
  'serve': () => import('./serve.js'),
  'generate': () => import('./generate.js'),
  'store': () => import('./store.js'),
  'export': () => import('./export.js'),
  'dashboard': () => import('./dashboard.js'),
  'worker': () => import('./worker.js'),
  'queue': () => import('./queue.js'),
  'mcp': () => import('./mcp.js'),
  'debug-loop': () => import('./debug-loop.js'),
  'elo': () => import('./elo.js'),
  'tests-quality': () => import('./tests-quality.js'),
  'repo': () => import('./repo.js'),
  'validate-package': () => import('./validate-package.js'),
};

/** The modules to load for `argv`: the named command's alone, or every command when no known one is named. */
function commandsFor(argv: readonly string[]): (() => Promise<CommandModule>)[] {
  const name = argv.slice(2).find((arg) => !arg.startsWith('-'));
  const one = name === undefined || !Object.hasOwn(COMMANDS, name) ? undefined : COMMANDS[name];
  return one === undefined ? Object.values(COMMANDS) : [one];
}

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
  for (const module of await Promise.all(commandsFor(argv).map((load) => load()))) module.register(program);
  try {
    await program.parseAsync(argv as string[]);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    return reportError(error);
  }
}
