/**
 * What the Piston contest packages (`codeforces`, `cms_ioi`) share: the job Crucible runs for one Piston
 * request, the stages it answers with (what the packages' `compile`/`run` scripts would have printed and exited
 * with, plus the solution's measured time and memory), the two errors (the request's fault; Crucible's own
 * failure), and a boxed run that keeps one file the program wrote (`INPUT_MODE=file`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMIT_RANGES, outOfRange, type LimitDisplay, type LimitUnit } from '../../limits.js';
import type { ExecutionResult, Limits, Mount } from '../../sandbox/types.js';
import type { PackageOutcome, ScriptStage } from '../../judge/plan.js';
import type { ContestBox } from './box.js';

export type { PackageOutcome, ScriptStage };

/** One file of a Piston request, decoded (its `name` may hold directories, e.g. `graders/grader.cpp`). */
export interface PackageFile {
  readonly name: string;
  readonly content: string;
}

/**
 * One Piston request for a contest package. `language` is the package language's canonical name (`c++17`,
 * `python3`, `cms`); `files` the request's, the solution first; `runCpuMs`/`memoryKiB` the limits when the
 * problem's own configuration says none; `runWallMs` Piston's `run_timeout` (wall, ms) when given.
 */
export interface PackageJob {
  readonly language: string;
  readonly files: readonly PackageFile[];
  readonly runCpuMs: number;
  readonly runWallMs?: number;
  readonly memoryKiB: number;
  /**
   * Largest CPU limit (ms) and memory limit (KiB) the job's own configuration may set (`grader_config`'s
   * `TIME_LIMIT`/`MEMORY_LIMIT`, `grader_config.json`'s `time_limit`/`memory_limit`): a server's maxima; default
   * the ranges of `LIMIT_RANGES`. A value past them is the request's error (`ContestRequestError`), never clamped.
   */
  readonly maxCpuMs?: number;
  readonly maxMemoryKiB?: number;
  /** Aborts when the client has gone: the run under way is killed, and nothing more starts. */
  readonly signal?: AbortSignal;
}

/** The request is malformed for its package (a missing or bad file); `field` names the request field. */
export class ContestRequestError extends Error {
  override readonly name = 'ContestRequestError';
  constructor(message: string, readonly field: string) {
    super(message);
  }
}

/**
 * A limit from a package's configuration file, checked against the job's maxima (`PackageJob.maxCpuMs`,
 * `maxMemoryKiB`): `value` in the range's unit (ms or KiB), `shown` as the file wrote it.
 * @throws ContestRequestError naming `files`, the file and its key, and the allowed range.
 */
export function packageLimit(job: PackageJob, kind: 'cpu' | 'memory', value: number, where: string, shown: string): number {
  const range = kind === 'cpu'
    ? { min: LIMIT_RANGES.cpuMs.min, max: job.maxCpuMs ?? LIMIT_RANGES.cpuMs.max }
    : { min: LIMIT_RANGES.memoryKiB.min, max: job.maxMemoryKiB ?? LIMIT_RANGES.memoryKiB.max };
  const [unit, as]: [LimitUnit, LimitDisplay] = kind === 'cpu' ? ['ms', 'seconds'] : ['KiB', 'MiB'];
  const problem = outOfRange(value, range, unit, as, shown);
  if (problem !== null) throw new ContestRequestError(`${where}: ${problem}`, 'files');
  return value;
}

/** Crucible (the sandbox or the host) failed: never a verdict about any program. */
export class ContestInfraError extends Error {
  override readonly name = 'ContestInfraError';
}

/** A stage printing `said.stdout`/`said.stderr` and exiting `said.code`, with the measured figures of `measured`. */
export function scriptStage(measured: ExecutionResult, said: { readonly stdout: string; readonly stderr: string; readonly code: number;
  readonly status?: string; readonly message?: string }): ScriptStage {
  return {
    stdout: said.stdout, stderr: said.stderr, code: said.code, signal: null,
    status: said.status ?? (said.code === 0 ? null : 'RE'), message: said.message ?? null,
    cpuMs: measured.cpuMs, wallMs: measured.wallMs, memoryKiB: measured.memoryKiB,
  };
}

/** How to start a program in a box: argv, read-only mounts, environment, and files it needs beside it. */
export interface BoxCommand {
  readonly argv: readonly string[];
  readonly mounts?: readonly Mount[];
  readonly env?: Readonly<Record<string, string>>;
  readonly files?: Readonly<Record<string, string>>;
  /** Limits to use instead of the caller's (e.g. after a language's multipliers). */
  readonly limits?: Limits;
}

/**
 * `argv` started with the stack limit raised to its hard limit, as the packages' run scripts do
 * (`ulimit -s unlimited`, "so you don't get RE with recursion"): a bash in the box raises it and execs the program
 * (same process, so its status is the program's). The stack still counts against the memory limit.
 */
export function withUnlimitedStack(argv: readonly string[]): string[] {
  return ['/usr/bin/bash', '-c', 'ulimit -s hard 2>/dev/null; exec "$@"', 'run', ...argv];
}

/** Bytes read back of a kept output file at most (the run's own output limit). */
function readKept(workDir: string, name: string, maxBytes: number): string | null {
  try {
    const data = readFileSync(join(workDir, name));
    return data.subarray(0, maxBytes).toString('utf8');
  } catch {
    return null;
  }
}

/**
 * Run `command` in a fresh box on `stdin` with `files` (plus the command's own) in /box, its stack limit raised
 * (`withUnlimitedStack`). With `keep`, the work
 * directory is kept and that file's text returned as `kept` (null when the program left none; only regular
 * files are copied out of a box, never links), then the directory is discarded.
 */
export async function keepingRun(box: ContestBox, command: BoxCommand, stdin: string, files: Readonly<Record<string, string>>,
  limits: Limits, keep: string | null, signal?: AbortSignal): Promise<{ result: ExecutionResult; kept: string | null }> {
  const { result, workDir } = await box.sandbox.run({
    argv: withUnlimitedStack(command.argv), mounts: command.mounts ?? [], env: command.env ?? {}, files: { ...files, ...command.files },
    stdin, limits: command.limits ?? limits, keepWorkDir: keep !== null, signal,
  });
  if (workDir === undefined) return { result, kept: null };
  const kept = keep === null ? null : readKept(workDir, keep, limits.outputBytes);
  box.sandbox.discard(workDir);
  return { result, kept };
}
