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
 * Communication tasks (`graders/manager.cpp`, compiled once per task): unlike the package's script, which runs
 * the manager and the contestant process(es) in one sandbox with one uid (so a contestant could read the manager's
 * `input.txt`, its /proc, or signal it), every process gets a box of its own (an interactive run,
 * `src/engine/interactive.ts`): the manager in the trusted box with the test's input as its stdin and the FIFO
 * paths CMS passes (made in its own box by Crucible's relay), each contestant process in a box of its own uid
 * connected to its FIFO pair by its stdin and stdout (`std_io`) or by FIFOs in its own box (`fifo_io`, a driver
 * there), the bytes relayed by Crucible outside the boxes. The manager's stdout (its score) and stderr are the
 * answer unless a checker judges it; a contestant process that ends other than `ok` (time, memory, a crash, a
 * non-zero exit) makes the test that failure (0, with the Batch messages), as CMS counts it. Limits: each
 * contestant process gets the task's time limit as CPU time and `memory_limit`; the manager the time limit
 * times (processes + 1) of CPU, `memory_limit` plus the relay's, and a wall bound past the contestants'.
 */
import { z } from 'zod';
import { constants as osConstants } from 'node:os';
import type { ExecutionResult, Limits } from '../../sandbox/types.js';
import { DEFAULT_COMPILE_LIMITS, runLimits, wallMsFor } from '../../limits.js';
import { ARTIFACT_DIR, type BoxCommand, type Built, type Executor } from '../executor.js';
import { harnessInterpreter } from '../harness-pool.js';
import { runInteractive } from '../interactive.js';
import { buildChecker, runChecker } from './run-checker.js';
import { cmsDiffMatch, echoed } from '../../kinds/checker/output-match.js';
import {
  artifactCommand, ContestInfraError, ContestRequestError, GXX, keepingRun, packageLimit, scriptStage, type PackageJob, type PackageOutcome,
  type ScriptStage,
} from './package-job.js';
import type { InteractiveResult } from '../../judge/plan.js';
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

/** A validated `grader_config.json`. */
type GraderConfig = z.infer<typeof GraderConfigSchema>;

/**
 * The contestant box's driver for `fifo_io` (our own lines, run in the contestant's box; nothing trusted is in it):
 * FIFOs in the box's /tmp between its stdin/stdout (the channel to the manager) and the program, which gets their
 * paths (the one it reads, the one it writes) and its index; exits with the program's status once what it wrote
 * is out.
 */
const FIFO_IO_DRIVER = [
  'd=$(mktemp -d); mkfifo "$d/in" "$d/out"',
  'cat > "$d/in" &',
  'cat "$d/out" & out=$!',
  `${ARTIFACT_DIR}/program "$d/in" "$d/out" "$@"`,
  'status=$?',
  'wait "$out"',
  'exit $status',
].join('\n');

/** Memory of the relay beside a Communication task's manager (Python), KiB. */
const RELAY_MEMORY_KIB = 64 * 1024;

/** Wall time the manager has past its contestants' bound, so a contestant that hangs is reported as its own time-out. */
const MANAGER_WALL_SLACK_MS = 5_000;

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

/** What the compile stage built: the contestant's program (solution + graders), the manager if any. */
interface CmsBuild {
  readonly compile: ScriptStage;
  readonly program: Built;
  readonly manager: Built | null;
}

/**
 * The package's `compile`: the checker (when the job has one), the manager (Communication), then the solution with
 * the grader files; each artifact keeps only its binary. A failure is the compile stage's non-zero exit.
 * @throws ContestInfraError when the sandbox failed.
 */
async function compileCms(executor: Executor, job: PackageJob, graders: ReadonlyMap<string, string>): Promise<CmsBuild | PackageOutcome> {
  const checkerSource = fileOf(job, 'checker/checker.cpp');
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
  let manager: Built | null = null;
  if (managerSource !== undefined) {
    const built = await executor.build({ argv: [GXX, '-x', 'c++', '-std=gnu++17', '-O2', '-o', 'manager', 'manager.cpp'],
      files: { ...boxFiles, 'manager.cpp': managerSource }, limits: DEFAULT_COMPILE_LIMITS, keep: ['manager'] });
    if (!built.ok) return compileFailed(built.result, 'Could not compile manager');
    manager = built;
    notes.push('Compiled manager');
  }
  if (missing !== undefined) return compileFailed(NO_RUN, `g++: error: graders/${missing}: No such file or directory\nFailed to compile ${problem}`);
  const program = await executor.build({ argv: [GXX, ...GRADER_COMPILE_FLAGS, '-o', 'program', ...sources], files: boxFiles,
    limits: DEFAULT_COMPILE_LIMITS, keep: ['program'] });
  if (!program.ok) return compileFailed(program.result, `Failed to compile ${problem}`);
  const said = [...notes, `Compiled ${problem} from ${sources.map((s) => 'graders/' + s).join(' ')} successfully`].join('\n') + '\n';
  return { compile: scriptStage(program.result, { stdout: said, stderr: program.result.stderr, code: 0 }), program, manager };
}

/** `graders/grader_config.json`, validated. @throws ContestRequestError naming the field, or saying it is not JSON. */
function graderConfig(text: string): GraderConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ContestRequestError(`graders/grader_config.json: not JSON (${(error as Error).message})`, 'files');
  }
  const parsed = GraderConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ContestRequestError(`graders/grader_config.json: ${issue.path.join('.')}: ${issue.message}`, 'files');
  }
  return parsed.data;
}

/** A file of the job by name (a leading `./` ignored). */
function fileOf(job: PackageJob, name: string): string | undefined {
  return job.files.find((f) => f.name.replace(/^\.\//, '') === name)?.content;
}

/**
 * Compile and run one cms_ioi job in the sandbox and answer as the package's scripts would (Communication tasks
 * in boxes of their own: see the module comment).
 * @throws ContestRequestError for a malformed job (a bad grader_config.json); ContestInfraError when the sandbox failed.
 */
export async function runCmsIoiJob(executor: Executor, job: PackageJob): Promise<PackageOutcome> {
  const graders = filesUnder(job, 'graders');
  const built = await compileCms(executor, job, graders);
  if (!('program' in built)) return built;
  const { compile, program, manager } = built;
  const configText = graders.get('grader_config.json');
  if (configText === undefined) {
    return { compile, run: scriptStage(NO_RUN, { stdout: '', stderr: 'Error: graders/grader_config.json not found\n', code: 1 }) };
  }
  const config = graderConfig(configText);
  const memoryKiB = config.memory_limit === undefined ? job.memoryKiB
    : packageLimit(job, 'memory', Math.ceil(config.memory_limit / 1024), 'graders/grader_config.json: memory_limit', `${config.memory_limit} bytes`);
  packageLimit(job, 'cpu', Math.ceil(config.time_limit * 1000), 'graders/grader_config.json: time_limit', `${config.time_limit} s`);
  const limits = runLimits({ cpuMs: Math.ceil(config.time_limit * 1000), memoryKiB, ...job.runWallMs === undefined ? {} : { wallMs: job.runWallMs } });
  const input = fileOf(job, 'input.txt') ?? '';
  let r: ExecutionResult;
  if (config.task_type === 'Batch') {
    ({ result: r } = await keepingRun(executor.sandbox, artifactCommand(program.artifactDir, [`${ARTIFACT_DIR}/program`], limits), input, {}, null, job.signal));
  } else if (config.task_type === 'Communication') {
    if (manager === null) return { compile, run: scriptStage(NO_RUN, { stdout: '', stderr: 'graders/manager.cpp is missing\n', code: 127 }) };
    r = await runCommunication(executor, { program, manager, config, limits, input }, job.signal);
  } else {
    return { compile, run: scriptStage(NO_RUN, { stdout: '0\n', stderr: `Unsupported task type "${config.task_type}"\n`, code: 1 }) };
  }
  if (r.status === 'internal_error') throw new ContestInfraError(r.reason ?? 'the sandbox failed');
  // The script lets the program's (or manager's) stderr through, before its own messages.
  const stage = await cmsVerdict(executor, job, config, r, input, fileOf(job, 'checker/checker.cpp'));
  return { compile, run: { ...stage, stderr: r.stderr + stage.stderr }, programStatus: r.status };
}

/**
 * A Communication test as an interactive run (see the module comment). Its result, as the package's scripts saw
 * their one box: the first contestant process that ended other than `ok` (with the manager's stderr), else the
 * manager's own result; CPU time is the contestants', memory their largest, wall time the manager's.
 * @throws ContestInfraError when the sandbox failed (or has too few slots for the task's boxes).
 */
async function runCommunication(executor: Executor, task: { readonly program: Built; readonly manager: Built; readonly config: GraderConfig;
  readonly limits: Limits; readonly input: string }, signal: AbortSignal | undefined): Promise<ExecutionResult> {
  const { config, limits } = task;
  const processes = config.task_type_parameters_Communication_num_processes ?? 1;
  const fifoIo = config.task_type_parameters_Communication_user_io === 'fifo_io';
  const managerArgs = (config.task_type_parameters_Communication_manager_args ?? '').split(/\s+/).filter((a) => a !== '');
  const managerLimits = { ...limits, cpuMs: limits.cpuMs * (processes + 1), memoryKiB: limits.memoryKiB + RELAY_MEMORY_KIB,
    wallMs: Math.max(limits.wallMs + MANAGER_WALL_SLACK_MS, wallMsFor(limits.cpuMs * (processes + 1))) };
  const contestant = (i: number): BoxCommand => {
    const index = processes === 1 ? [] : [String(i)];
    const argv = fifoIo ? ['/usr/bin/bash', '-c', FIFO_IO_DRIVER, 'fifo_io', ...index] : [`${ARTIFACT_DIR}/program`, ...index];
    return artifactCommand(task.program.artifactDir, argv, fifoIo ? { ...limits, processes: limits.processes + 8 } : limits);
  };
  let ran: InteractiveResult;
  try {
    ran = await runInteractive(executor.sandbox, harnessInterpreter(executor.languages.get('python')), {
      trusted: { ...artifactCommand(task.manager.artifactDir, [`${ARTIFACT_DIR}/manager`], managerLimits), args: managerArgs, stdin: task.input },
      candidates: Array.from({ length: processes }, (_, i) => contestant(i)),
      channels: 'fifo',
    }, signal);
  } catch (error) {
    signal?.throwIfAborted();
    if (error instanceof RangeError) throw new ContestInfraError(`this Communication task needs ${processes + 1} boxes at once: ${error.message}`);
    throw error;
  }
  const failed = (r: ExecutionResult, byPeer: boolean): boolean => r.status !== 'ok' && !byPeer;
  const broken = [ran.trusted, ...ran.candidates].find((r, i) => r.status === 'internal_error'
    && !(i === 0 ? ran.endedByPeer.trusted : ran.endedByPeer.candidates[i - 1]));
  if (broken !== undefined) return broken;
  const measured = { cpuMs: ran.candidates.reduce((sum, r) => sum + r.cpuMs, 0), memoryKiB: Math.max(...ran.candidates.map((r) => r.memoryKiB)),
    wallMs: ran.trusted.wallMs };
  const contestantFailed = ran.candidates.find((r, i) => failed(r, ran.endedByPeer.candidates[i]!));
  if (contestantFailed !== undefined) return { ...contestantFailed, ...measured, stdout: ran.trusted.stdout, stderr: ran.trusted.stderr };
  return { ...ran.trusted, ...measured };
}

/** The run stage after the program ran (its stderr not included): the script's failure message, check or output. */
async function cmsVerdict(executor: Executor, job: PackageJob, config: GraderConfig, r: ExecutionResult, input: string,
  checkerSource: string | undefined): Promise<ScriptStage> {
  if (r.status !== 'ok') return batchFailed(r, config.time_limit);
  const correct = fileOf(job, 'correct_output.txt');
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
