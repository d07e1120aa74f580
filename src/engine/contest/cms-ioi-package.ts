/**
 * guipenedo/piston's `cms_ioi` package (v1.0.0: `packages/cms_ioi/1.0.0/{metadata.json,compile,run}`),
 * reimplemented over the sandbox: what open-r1's `ioi_scoring.run_submission` sends and `execute_ioi` reads.
 *
 * Files of a job (names with directories, as open-r1 sends them): the solution `graders/<id>.cpp`, the problem's
 * grader files (`graders/grader.cpp`, `graders/<id>.h`, `graders/stub.cpp`, `graders/manager.cpp`, ...,
 * `graders/grader_config.json` with `task_type`, `code`, `time_limit` seconds, `memory_limit` bytes),
 * optionally `checker/checker.cpp`, `input.txt` and `correct_output.txt`.
 *
 * Compile (the package's `compile`): the checker, when there is one (`g++ -std=gnu++17 -O2`); the manager for
 * Communication tasks; the problem's name is the first `graders/*.h` that is not `testlib.h` (sorted), and
 * `graders/<name>.cpp` + `graders/grader.cpp` + `graders/stub.cpp` (those present) are compiled together with
 * `g++ -DEVAL -std=gnu++17 -O2 -pipe -s`. Any failure is the compile stage's non-zero exit.
 * Run, Batch tasks (the package's `run`): the program on `input.txt` with `time_limit` (as CPU time) and
 * `memory_limit`; a failure prints `0` with "Time limit exceeded (Ts)" or "Runtime error with exit code N"
 * on stderr and exits 0 (the script's `exit $?` after a test returns the test's status, 0); with a non-empty
 * correct output, the checker's stdout (the score in [0, 1]), stderr and exit status, or without a checker
 * `1`/`0` by `cmsDiffMatch`; without a correct output, the program's output. open-r1 reads stdout as the score.
 * Communication tasks (`graders/manager.cpp`, compiled once per task): the manager and the contestant
 * process(es) run in ONE box, talking over FIFOs as the script wires them (`COMMUNICATION_DRIVER`); the manager's
 * stdout (its score) and stderr are the answer unless a checker judges it. Limits: each contestant process gets
 * the task's time limit as CPU time (whole seconds, `ulimit -t`; the script used a wall-clock `timeout` on the
 * manager), the box (manager + contestants) that times (processes + 1), and `memory_limit` per process.
 */
import { z } from 'zod';
import { constants as osConstants } from 'node:os';
import type { ExecutionResult } from '../../sandbox/types.js';
import { DEFAULT_COMPILE_LIMITS, runLimits } from '../../limits.js';
import { ARTIFACT_DIR, type BuildOutcome, type Built, type Executor } from '../executor.js';
import { buildChecker, runChecker } from './run-checker.js';
import { cmsDiffMatch, echoed } from '../../kinds/checker/output-match.js';
import {
  artifactCommand, ContestInfraError, ContestRequestError, GXX, keepingRun, scriptStage, type PackageJob, type PackageOutcome,
  type ScriptStage,
} from './package-job.js';
import type { PackageLanguage } from './codeforces-package.js';

/** The cms_ioi package's languages and aliases (`metadata.json`); both run the same scripts. */
export const CMS_IOI_LANGUAGES: readonly PackageLanguage[] = [
  { language: 'cms', aliases: ['cms_ioi'] },
  { language: 'cms_checker', aliases: ['cms_ioi_checker'] },
];

/** `graders/grader_config.json`, the fields the run script reads (others, e.g. CMS's own, pass through). */
export const GraderConfigSchema = z.object({
  task_type: z.string(),
  code: z.string().optional(),
  time_limit: z.number().positive(),
  memory_limit: z.number().positive().optional(),
  task_type_parameters_Communication_num_processes: z.number().int().min(1).max(16).optional(),
  task_type_parameters_Communication_user_io: z.enum(['std_io', 'fifo_io']).optional(),
  task_type_parameters_Communication_manager_args: z.string().optional(),
}).passthrough();

/** Where a Communication task's manager is mounted in the box (the program is at `ARTIFACT_DIR`). */
const MANAGER_DIR = '/manager';

/**
 * The in-box driver of a Communication task (our own few lines, run in the sandbox with the programs it starts,
 * never on the host): FIFOs per contestant process in /tmp; contestant i started first, on the FIFOs as
 * stdin/stdout (`std_io`, stderr dropped) or as arguments (`fifo_io`), with its index when there are several,
 * under `ulimit -t` (the task's time limit, whole seconds, per process: CMS limits each contestant process);
 * then the manager on `input.txt` with the FIFO pairs and the task's manager arguments. The box's stdout and exit
 * status are the manager's; contestants still alive after it are killed.
 * Arguments: process count, user_io, contestant CPU seconds, then the manager's own arguments.
 */
const COMMUNICATION_DRIVER = [
  'n=$1; io=$2; cpu=$3; shift 3',
  'd=$(mktemp -d)',
  'pids=(); margs=()',
  'for ((i = 0; i < n; i++)); do',
  '  mkfifo "$d/u${i}_to_m" "$d/m_to_u${i}"',
  '  idx=(); if [ "$n" -ne 1 ]; then idx=("$i"); fi',
  '  if [ "$io" = fifo_io ]; then',
  `    (ulimit -t "$cpu"; exec ${ARTIFACT_DIR}/program "$d/m_to_u${'$'}{i}" "$d/u${'$'}{i}_to_m" "${'$'}{idx[@]}") &`,
  '  else',
  `    (ulimit -t "$cpu"; exec ${ARTIFACT_DIR}/program "${'$'}{idx[@]}" < "$d/m_to_u${'$'}{i}" > "$d/u${'$'}{i}_to_m" 2>/dev/null) &`,
  '  fi',
  '  pids+=($!)',
  '  margs+=("$d/u${i}_to_m" "$d/m_to_u${i}")',
  'done',
  `${MANAGER_DIR}/manager "${'$'}{margs[@]}" "$@" < input.txt`,
  'status=$?',
  'kill -9 "${pids[@]}" 2>/dev/null',
  'exit $status',
].join('\n');

const GRADER_COMPILE_FLAGS = ['-DEVAL', '-std=gnu++17', '-O2', '-pipe', '-s'];

/** Files under `dir/`, by their name inside it (only direct children: the scripts never look deeper). */
function filesUnder(job: PackageJob, dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const f of job.files) {
    const name = f.name.replace(/^\.\//, '');
    if (name.startsWith(dir + '/') && !name.slice(dir.length + 1).includes('/')) found.set(name.slice(dir.length + 1), f.content);
  }
  return found;
}

function compileFailed(result: ExecutionResult, said: string): PackageOutcome {
  if (result.status === 'internal_error') throw new ContestInfraError(result.reason ?? 'the sandbox failed');
  const stderr = `${result.stderr}${said}\n`;
  return { compile: scriptStage(result, { stdout: '', stderr, code: 1 }), run: null };
}

const NO_RUN: ExecutionResult = { status: 'ok', exitCode: 0, signal: null, cpuMs: 0, wallMs: 0, memoryKiB: 0, stdout: '', stderr: '',
  stdoutTruncated: false, stderrTruncated: false, memoryEnforcement: 'cgroup' };

/**
 * Compile and run one cms_ioi job in the sandbox and answer as the package's scripts would.
 * @throws ContestRequestError for a malformed job (a bad grader_config.json); ContestInfraError when the sandbox failed.
 */
export async function runCmsIoiJob(executor: Executor, job: PackageJob): Promise<PackageOutcome> {
  const file = (name: string): string | undefined => job.files.find((f) => f.name.replace(/^\.\//, '') === name)?.content;
  const graders = filesUnder(job, 'graders');
  const checkerSource = file('checker/checker.cpp');
  const notes: string[] = [];
  if (checkerSource !== undefined) {
    const built = await buildChecker(executor, { kind: 'cms', source: checkerSource, ...checkerHeader(job) });
    if (!built.ok) return compileFailed(built.result, 'Could not compile checker');
    notes.push('Compiled checker');
  }
  if (graders.size === 0) return compileFailed(NO_RUN, 'Grader folder was not found');
  const headers = [...graders.keys()].filter((n) => n.endsWith('.h') && n !== 'testlib.h').sort();
  const problem = headers[0] === undefined ? '?' : headers[0].slice(0, -2);
  const sources = [`${problem}.cpp`, ...['grader.cpp', 'stub.cpp'].filter((n) => graders.has(n))];
  const missing = sources.find((n) => !graders.has(n));
  const boxFiles = Object.fromEntries([...graders].filter(([name]) => name !== 'manager.cpp'));
  const managerSource = graders.get('manager.cpp');
  let manager: BuildOutcome | null = null;
  if (managerSource !== undefined) {
    manager = await executor.build({ argv: [GXX, '-x', 'c++', '-std=gnu++17', '-O2', '-o', 'manager', 'manager.cpp'],
      files: { ...boxFiles, 'manager.cpp': managerSource }, limits: DEFAULT_COMPILE_LIMITS });
    if (!manager.ok) return compileFailed(manager.result, 'Could not compile manager');
    notes.push('Compiled manager');
  }
  const built = missing !== undefined
    ? null
    : await executor.build({ argv: [GXX, ...GRADER_COMPILE_FLAGS, '-o', 'program', ...sources], files: boxFiles, limits: DEFAULT_COMPILE_LIMITS });
  if (built === null) return compileFailed(NO_RUN, `g++: error: graders/${missing}: No such file or directory\nFailed to compile ${problem}`);
  if (!built.ok) return compileFailed(built.result, `Failed to compile ${problem}`);
  const compile = scriptStage(built.result, { stdout: [...notes, `Compiled ${problem} from ${sources.map((s) => 'graders/' + s).join(' ')} successfully`].join('\n') + '\n',
    stderr: built.result.stderr, code: 0 });

  const configText = graders.get('grader_config.json');
  if (configText === undefined) {
    return { compile, run: scriptStage(NO_RUN, { stdout: '', stderr: 'Error: graders/grader_config.json not found\n', code: 1 }) };
  }
  let config: z.infer<typeof GraderConfigSchema>;
  try {
    const parsed = GraderConfigSchema.safeParse(JSON.parse(configText));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ContestRequestError(`graders/grader_config.json: ${issue.path.join('.')}: ${issue.message}`, 'files');
    }
    config = parsed.data;
  } catch (error) {
    if (error instanceof ContestRequestError) throw error;
    throw new ContestRequestError(`graders/grader_config.json: not JSON (${(error as Error).message})`, 'files');
  }
  const memoryKiB = config.memory_limit === undefined ? job.memoryKiB : Math.ceil(config.memory_limit / 1024);
  const wall = job.runWallMs === undefined ? {} : { wallMs: job.runWallMs };
  const input = file('input.txt') ?? '';
  const program = { hostPath: built.artifactDir, boxPath: ARTIFACT_DIR };
  let r: ExecutionResult;
  if (config.task_type === 'Batch') {
    const limits = runLimits({ cpuMs: Math.ceil(config.time_limit * 1000), memoryKiB, ...wall });
    ({ result: r } = await keepingRun(executor.sandbox, artifactCommand(built.artifactDir, [`${ARTIFACT_DIR}/program`], limits), input, {}, null, job.signal));
  } else if (config.task_type === 'Communication') {
    if (manager === null) return { compile, run: scriptStage(NO_RUN, { stdout: '', stderr: 'graders/manager.cpp is missing\n', code: 127 }) };
    const processes = config.task_type_parameters_Communication_num_processes ?? 1;
    const cpuSeconds = Math.max(1, Math.ceil(config.time_limit));
    // The box holds the manager and every contestant process: its CPU and memory bounds are theirs together;
    // each contestant process has its own CPU limit (ulimit -t) inside.
    const limits = runLimits({ cpuMs: cpuSeconds * 1000 * (processes + 1), memoryKiB: memoryKiB * (processes + 1), ...wall });
    const managerArgs = (config.task_type_parameters_Communication_manager_args ?? '').split(/\s+/).filter((a) => a !== '');
    const argv = ['/usr/bin/bash', '-c', COMMUNICATION_DRIVER, 'communication', String(processes),
      config.task_type_parameters_Communication_user_io ?? 'std_io', String(cpuSeconds), ...managerArgs];
    ({ result: r } = await keepingRun(executor.sandbox, { argv, env: {}, files: {}, mounts: [program, { hostPath: (manager as Built).artifactDir, boxPath: MANAGER_DIR }],
      limits: { ...limits, processes: Math.max(limits.processes, 8 * (processes + 2)) } }, '', { 'input.txt': input }, null, job.signal));
  } else {
    return { compile, run: scriptStage(NO_RUN, { stdout: '0\n', stderr: `Unsupported task type "${config.task_type}"\n`, code: 1 }) };
  }
  if (r.status === 'internal_error') throw new ContestInfraError(r.reason ?? 'the sandbox failed');
  // The script lets the program's (or manager's) stderr through, before its own messages.
  const stage = await cmsVerdict(executor, job, config, r, input, checkerSource);
  return { compile, run: { ...stage, stderr: r.stderr + stage.stderr }, programStatus: r.status };
}

/** The run stage after the program ran (its stderr not included): the script's failure message, check or output. */
async function cmsVerdict(executor: Executor, job: PackageJob, config: z.infer<typeof GraderConfigSchema>, r: ExecutionResult, input: string,
  checkerSource: string | undefined): Promise<ScriptStage> {
  const file = (name: string): string | undefined => job.files.find((f) => f.name.replace(/^\.\//, '') === name)?.content;
  if (r.status !== 'ok') return batchFailed(r, config.time_limit);
  const correct = file('correct_output.txt');
  // `CORRECT_OUTPUT=$(cat correct_output.txt)`, then `[ -n "$CORRECT_OUTPUT" ]`.
  // Communication without a checker: the manager's own output is the answer (its score), correct output or not.
  const managerJudges = config.task_type === 'Communication' && checkerSource === undefined;
  if (correct === undefined || correct.replace(/\n+$/, '') === '' || managerJudges) return scriptStage(r, { stdout: r.stdout, stderr: '', code: 0 });
  if (checkerSource !== undefined) {
    const verdict = await runChecker(executor, { kind: 'cms', source: checkerSource, ...checkerHeader(job) },
      { input, output: r.stdout, answer: echoed(correct) }, job.signal);
    const c = verdict.run;
    if (c?.status === 'internal_error') throw new ContestInfraError(c.reason ?? 'the sandbox failed');
    if (c === null) throw new ContestInfraError('the checker did not run');
    const code = c.status === 'ok' ? 0 : c.signal !== null ? 128 + ((osConstants.signals as Record<string, number | undefined>)[c.signal] ?? 9) : c.exitCode ?? 1;
    return scriptStage(r, { stdout: c.stdout, stderr: c.stderr, code, ...(verdict.verdict === 'fail' ? { status: 'XX', message: verdict.message } : {}) });
  }
  const same = cmsDiffMatch(correct, r.stdout);
  return scriptStage(r, { stdout: same ? '1\n' : '0\n', stderr: same ? 'Output is correct (diff)\n' : `Output isn't correct (diff)\n`, code: 0 });
}

/** The checker's own testlib.h when the job ships one under checker/. */
function checkerHeader(job: PackageJob): { testlibHeader?: string } {
  const header = filesUnder(job, 'checker').get('testlib.h');
  return header === undefined ? {} : { testlibHeader: header };
}

/** `handle_exit_code` of the run script for a failed Batch run (then `exit $?` exits 0, see the module doc). */
function batchFailed(r: ExecutionResult, timeLimitSeconds: number): ScriptStage {
  if (r.status === 'time_limit_exceeded') return scriptStage(r, { stdout: '0\n', stderr: `Time limit exceeded (${timeLimitSeconds}s)\n`, code: 0 });
  if (r.status === 'memory_limit_exceeded') {
    // The script's `ulimit -v` makes allocation fail inside the program; Crucible's limit says so outright.
    return scriptStage(r, { stdout: '0\n', stderr: 'Memory limit exceeded\n', code: 0 });
  }
  const status = r.signal !== null ? 128 + ((osConstants.signals as Record<string, number | undefined>)[r.signal] ?? 9) : r.exitCode ?? 1;
  return scriptStage(r, { stdout: '0\n', stderr: `Runtime error with exit code ${status}\n`, code: 0 });
}
