/**
 * What the Piston contest packages (`codeforces`, `cms_ioi`) share: the job Crucible runs for one Piston
 * request, the stages it answers with (what the packages' `compile`/`run` scripts would have printed and exited
 * with, plus the solution's measured time and memory), the two errors (the request's fault; Crucible's own
 * failure), and a boxed run that keeps one file the program wrote (`INPUT_MODE=file`). Every compilation of a
 * package goes through the judge's one compile cache (`Executor.build`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMIT_RANGES, outOfRange, type LimitDisplay, type LimitUnit } from '../../limits.js';
import type { Sandbox } from '../../sandbox/index.js';
import type { ExecutionResult, Limits } from '../../sandbox/types.js';
import type { PackageRequest } from '../../judge/judge.js';
import type { PackageOutcome, ScriptStage } from '../../judge/plan.js';
import { ARTIFACT_DIR, type BoxCommand } from '../executor.js';

export type { PackageOutcome, ScriptStage };

/** One file of a Piston request, decoded (its `name` may hold directories, e.g. `graders/grader.cpp`). */
export interface PackageFile {
  readonly name: string;
  readonly content: string;
}

/**
 * One Piston request for a contest package (`PackageRequest`, `src/judge/judge.ts`), with the signal that aborts
 * it when the client has gone: the run under way is killed, and nothing more starts.
 */
export interface PackageJob extends Omit<PackageRequest, 'package'> {
  readonly signal?: AbortSignal;
}

/** The request is malformed for its package (a missing or bad file); `field` names the request field. */
export class ContestRequestError extends Error {
  override readonly name = 'ContestRequestError';
  constructor(message: string, readonly field: 'files' | 'language') {
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

/** The host's g++ (Debian `g++`). */
export const GXX = '/usr/bin/g++';

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
export async function keepingRun(sandbox: Sandbox, command: BoxCommand, stdin: string, files: Readonly<Record<string, string>>,
  keep: string | null, signal?: AbortSignal): Promise<{ result: ExecutionResult; kept: string | null }> {
  const { result, workDir } = await sandbox.run({
    ...command, argv: withUnlimitedStack(command.argv), files: { ...files, ...command.files }, stdin, keepWorkDir: keep !== null, signal,
  });
  if (workDir === undefined) return { result, kept: null };
  const kept = keep === null ? null : readKept(workDir, keep, command.limits.outputBytes);
  sandbox.discard(workDir);
  return { result, kept };
}

/** How the artifact of a contest build starts: `argv` with the artifact at `/artifact`, no toolchain, `limits`. */
export function artifactCommand(artifactDir: string, argv: readonly string[], limits: Limits): BoxCommand {
  return { argv, env: {}, mounts: [{ hostPath: artifactDir, boxPath: ARTIFACT_DIR }], files: {}, limits };
}
