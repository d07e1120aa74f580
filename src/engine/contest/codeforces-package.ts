/**
 * guipenedo/piston's `codeforces` package (v1.0.0: `packages/codeforces/1.0.0/{metadata.json,compile,run}`),
 * reimplemented over the sandbox: what open-r1's `cf_scoring.score_submission` sends and reads.
 *
 * Files of a job: the solution first (`main.cpp`, `main.python`, ...; Piston passes the first file to the
 * scripts), `input.txt`, optional `correct_output.txt`, optional `checker.py`, optional `grader_config`
 * (bash `KEY=VALUE` lines: `TIME_LIMIT` seconds, `MEMORY_LIMIT` MB, `INPUT_MODE` `stdio` | `file`).
 *
 * Compile: C++ dialects as the package's `compile` (`g++ -DONLINE_JUDGE -O2 [-std=...] -pipe -s`), Python
 * skipped (exit 0), Java and Kotlin through Crucible's own language definitions. Run, as the package's `run`:
 * input with CRs at line ends removed; the solution on stdin/stdout, or with `INPUT_MODE=file` reading
 * `input.txt` and writing `output.txt`; its limits are `TIME_LIMIT` (as CPU time: Crucible judges CPU, the script
 * used a wall-clock `timeout`) and `MEMORY_LIMIT`. A time-out prints `0` and exits 124, exit status 134 prints `0`
 * and exits 134, any other failure prints `0` and exits with the solution's status (128+N for signal N). Then,
 * empty lines of the output removed: with `correct_output.txt` and `checker.py`, the checker (boxed, 10 s)
 * decides: stdout `1` when it printed `1` or `100`, else `0`, exit status the checker's; with
 * `correct_output.txt` only, `1` or `0` by `codeforcesMatch`; without it, the solution's output itself.
 * open-r1 counts a test passed when the run's exit code is 0 and its stdout is `1`.
 */
import { z } from 'zod';
import { constants as osConstants } from 'node:os';
import type { Language } from '../../languages/schema.js';
import type { ExecutionResult, Limits } from '../../sandbox/types.js';
import { runLimits } from '../../limits.js';
import { ARTIFACT_DIR, type Executor } from '../executor.js';
import { DEFAULT_COMPILE_LIMITS } from '../../limits.js';
import { runChecker } from './run-checker.js';
import { codeforcesMatch, dropEmptyLines, echoed, stripCarriageReturns } from '../../kinds/checker/output-match.js';
import {
  artifactCommand, ContestInfraError, ContestRequestError, GXX, keepingRun, packageLimit, scriptStage, type PackageJob, type PackageOutcome,
  type ScriptStage,
} from './package-job.js';

/** One language of a Piston package: its name and aliases (`metadata.json`). */
export interface PackageLanguage {
  readonly language: string;
  readonly aliases: readonly string[];
}

/** The codeforces package's languages and aliases, as its `metadata.json` lists them. */
export const CODEFORCES_LANGUAGES: readonly PackageLanguage[] = [
  { language: 'c++', aliases: ['GNU C++', 'cf_c++'] },
  { language: 'c++0x', aliases: ['GNU C++0x', 'cf_c++0x'] },
  { language: 'c++11', aliases: ['GNU C++11', 'cf_c++11'] },
  { language: 'c++14', aliases: ['C++14 (GCC 6-32)', 'cf_c++14'] },
  { language: 'c++17', aliases: ['C++17 (GCC 7-32)', 'C++17 (GCC 9-64)', 'cf_c++17'] },
  { language: 'c++20', aliases: ['C++20 (GCC 11-64)', 'C++20 (GCC 13-64)', 'cf_c++20'] },
  { language: 'python3', aliases: ['Python 3', 'cf_python3'] },
  { language: 'kotlin', aliases: ['Kotlin 1.4', 'cf_kotlin'] },
  { language: 'java', aliases: ['Java 17', 'cf_java'] },
];

/** `-std=` of each C++ dialect of the package's `compile` (plain `c++`: the compiler's default). */
const CXX_STD: Readonly<Record<string, string | null>> = {
  'c++': null, 'c++0x': 'c++0x', 'c++11': 'c++11', 'c++14': 'c++14', 'c++17': 'c++17', 'c++20': 'c++20',
};

/** Crucible language ids running the package's non-C++ languages. */
const REGISTRY_LANGUAGE: Readonly<Record<string, string>> = { python3: 'python', java: 'java', kotlin: 'kotlin' };

/** The Crucible language a package language runs as, or null for the package's C++ dialects. */
export function codeforcesRegistryLanguage(language: string): string | null {
  return REGISTRY_LANGUAGE[language] ?? null;
}

/** `grader_config` as the run script `source`s it. */
export interface CodeforcesConfig {
  /** Seconds (may be fractional), or null for none. */
  readonly timeLimitSeconds: number | null;
  /** MB (may be fractional), or null for none. */
  readonly memoryLimitMB: number | null;
  readonly inputMode: 'stdio' | 'file';
}

const ConfigValues = z.object({
  TIME_LIMIT: z.coerce.number().positive().optional(),
  MEMORY_LIMIT: z.coerce.number().positive().optional(),
  INPUT_MODE: z.string().optional(),
});

/**
 * Parse a `grader_config` (bash assignments `KEY=VALUE`, optionally quoted; other lines ignored).
 * @throws ContestRequestError naming the key for a value that is not a positive number.
 */
export function parseCodeforcesConfig(text: string | undefined): CodeforcesConfig {
  const values: Record<string, string> = {};
  for (const line of (text ?? '').split('\n')) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*?)\s*$/.exec(line);
    if (m) values[m[1]!] = m[2]!.replace(/^(["'])(.*)\1$/, '$2');
  }
  const parsed = ConfigValues.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ContestRequestError(`grader_config: ${issue.path.join('.')}: ${issue.message}`, 'files');
  }
  return {
    timeLimitSeconds: parsed.data.TIME_LIMIT ?? null,
    memoryLimitMB: parsed.data.MEMORY_LIMIT ?? null,
    // The script compares with "file"; anything else is stdio.
    inputMode: parsed.data.INPUT_MODE === 'file' ? 'file' : 'stdio',
  };
}

/** Exit status a bash script sees for a run: the program's, or 128+N for signal N, 124 for a time-out. */
function shellStatus(r: ExecutionResult): number {
  if (r.status === 'time_limit_exceeded') return 124;
  if (r.signal !== null) return 128 + ((osConstants.signals as Record<string, number | undefined>)[r.signal] ?? 9);
  return r.exitCode ?? 1;
}

/** The run stage when the solution failed: `handle_exit_code` of the script. */
function solutionFailed(r: ExecutionResult, config: CodeforcesConfig): ScriptStage {
  if (r.status === 'time_limit_exceeded') {
    return scriptStage(r, { stdout: '0\n', stderr: `Time limit exceeded (${config.timeLimitSeconds ?? ''}s)\n`, code: 124 });
  }
  if (r.status === 'memory_limit_exceeded') {
    return scriptStage(r, { stdout: '0\n', stderr: `Memory limit exceeded (${config.memoryLimitMB ?? ''}MB)\n`, code: 134 });
  }
  if (r.status === 'output_limit_exceeded') {
    return scriptStage(r, { stdout: '0\n', stderr: `Output limit exceeded: ${r.reason ?? ''}\n`, code: 1, status: 'OL' });
  }
  const code = shellStatus(r);
  return scriptStage(r, { stdout: '0\n', stderr: `Runtime error with exit code ${code}\n`, code });
}

/**
 * Compile and run one codeforces-package job in the sandbox and answer as the package's scripts would.
 * @throws ContestRequestError for a malformed job (no input.txt, a bad grader_config);
 *   ContestInfraError when the sandbox failed (never a verdict).
 */
export async function runCodeforcesJob(executor: Executor, job: PackageJob): Promise<PackageOutcome> {
  const file = (name: string): string | undefined => job.files.find((f) => f.name === name)?.content;
  const solution = job.files[0]!;
  const input = file('input.txt');
  if (input === undefined) throw new ContestRequestError('files: the codeforces package needs input.txt', 'files');
  const config = parseCodeforcesConfig(file('grader_config'));
  const cpuMs = config.timeLimitSeconds !== null
    ? packageLimit(job, 'cpu', Math.ceil(config.timeLimitSeconds * 1000), 'grader_config: TIME_LIMIT', `${config.timeLimitSeconds} s`) : job.runCpuMs;
  const memoryKiB = config.memoryLimitMB !== null
    ? packageLimit(job, 'memory', Math.ceil(config.memoryLimitMB * 1024), 'grader_config: MEMORY_LIMIT', `${config.memoryLimitMB} MB`) : job.memoryKiB;
  const limits: Limits = runLimits({ cpuMs, memoryKiB, ...(job.runWallMs === undefined ? {} : { wallMs: job.runWallMs }) });
  const solutionInput = stripCarriageReturns(input);
  const fileMode = config.inputMode === 'file';

  const registryId = codeforcesRegistryLanguage(job.language);
  let compile: ScriptStage;
  let run: { result: ExecutionResult; kept: string | null };
  const runFiles: Record<string, string> = fileMode ? { 'input.txt': solutionInput } : {};
  const keep = fileMode ? 'output.txt' : null;
  if (registryId === null) {
    const std = CXX_STD[job.language];
    const argv = [GXX, '-DONLINE_JUDGE', '-O2', ...std ? [`-std=${std}`] : [], '-pipe', '-s', '-o', 'a.out', 'main.cpp'];
    const built = await executor.build({ argv, files: { 'main.cpp': solution.content }, limits: DEFAULT_COMPILE_LIMITS });
    compile = scriptStage(built.result, { stdout: built.result.stdout, stderr: built.result.stderr, code: built.ok ? 0 : shellStatus(built.result) });
    if (!built.ok) return { compile: checkInfra(built.result, compile), run: null };
    run = await keepingRun(executor.sandbox, artifactCommand(built.artifactDir, [`${ARTIFACT_DIR}/a.out`], limits),
      fileMode ? '' : solutionInput, runFiles, keep, job.signal);
  } else {
    const language: Language = languageOrThrow(executor, registryId, job.language);
    const outcome = await executor.compile(language, solution.content);
    const said = outcome.result ?? null;
    compile = said === null
      ? { stdout: `Skipping compile - ${job.language}\n`, stderr: '', code: 0, signal: null, status: null, message: null, cpuMs: 0, wallMs: 0, memoryKiB: 0 }
      : scriptStage(said, { stdout: said.stdout, stderr: said.stderr, code: outcome.ok ? 0 : shellStatus(said) });
    if (!outcome.ok) return { compile: checkInfra(outcome.result, compile), run: null };
    run = await keepingRun(executor.sandbox, executor.command(language, solution.content, outcome, limits), fileMode ? '' : solutionInput,
      runFiles, keep, job.signal);
  }
  const r = run.result;
  if (r.status === 'internal_error') throw new ContestInfraError(r.reason ?? 'the sandbox failed');
  // The script lets the solution's stderr through in stdio mode (file mode sends it to /dev/null).
  const passed = fileMode ? '' : r.stderr;
  const stage = await codeforcesVerdict(executor, job, config, r, run.kept, solutionInput);
  return { compile, run: { ...stage, stderr: passed + stage.stderr } };
}

/** The run stage after the solution ran (its stderr not included): the script's failure, check or output. */
async function codeforcesVerdict(executor: Executor, job: PackageJob, config: CodeforcesConfig, r: ExecutionResult, kept: string | null,
  solutionInput: string): Promise<ScriptStage> {
  const file = (name: string): string | undefined => job.files.find((f) => f.name === name)?.content;
  const fileMode = config.inputMode === 'file';
  if (r.status !== 'ok') return solutionFailed(r, config);

  const output = dropEmptyLines(fileMode ? kept ?? '' : r.stdout);
  const correct = file('correct_output.txt');
  if (correct === undefined) return scriptStage(r, { stdout: output, stderr: '', code: 0 });
  const answer = dropEmptyLines(stripCarriageReturns(echoed(correct)));
  const checker = file('checker.py');
  if (checker !== undefined) {
    const verdict = await runChecker(executor, { kind: 'python', source: checker }, { input: solutionInput, output, answer }, job.signal);
    const checkerRun = verdict.run;
    if (checkerRun?.status === 'internal_error') throw new ContestInfraError(checkerRun.reason ?? 'the sandbox failed');
    const accepted = verdict.verdict === 'ok';
    // The script exits with the checker's own status; a time-out is `timeout`'s SIGTERM, 143.
    const code = checkerRun === null ? 1 : checkerRun.status === 'time_limit_exceeded' ? 143 : checkerRun.status === 'ok' ? 0 : shellStatus(checkerRun);
    // The checker's stderr passes through the script too.
    return scriptStage(r, {
      stdout: accepted ? '1\n' : '0\n',
      stderr: (checkerRun?.stderr ?? '') + (accepted ? 'Output is correct (checker)\n' : `Output isn't correct (checker)\n`),
      code,
      ...(verdict.verdict === 'fail' ? { status: 'XX', message: verdict.message } : {}),
    });
  }
  const same = codeforcesMatch(answer, output);
  return scriptStage(r, { stdout: same ? '1\n' : '0\n', stderr: same ? 'Output is correct (diff)\n' : `Output isn't correct (diff)\n`, code: 0 });
}

/** A compile stage whose failure was the host's is Crucible's failure, not a compile error. */
function checkInfra(result: ExecutionResult, stage: ScriptStage): ScriptStage {
  if (result.status === 'internal_error') throw new ContestInfraError(result.reason ?? 'the sandbox failed');
  return stage;
}

function languageOrThrow(executor: Executor, id: string, asked: string): Language {
  if (!executor.languages.has(id)) throw new ContestRequestError(`language: ${asked} runs as Crucible's ${id}, which has no toolchain here`, 'language');
  return executor.languages.get(id);
}
