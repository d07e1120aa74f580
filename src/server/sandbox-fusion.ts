/**
 * SandboxFusion compatibility: `POST /run_code`, as verl's `verl/utils/reward_score/sandbox_fusion/utils.py`
 * (`call_sandbox_api`) sends it and parses the answer.
 *
 * Request (bytedance/SandboxFusion `sandbox/server/sandbox_api.py`, `RunCodeRequest`): `code`, `language`,
 * `stdin` (optional), `compile_timeout` and `run_timeout` (seconds, default 10), `memory_limit_MB` (-1 = the
 * server default), `files`, `fetch_files`, `args`. Unknown keys are ignored, as pydantic does. Crucible
 * supports no extra files or arguments: non-empty `files`, `fetch_files` or `args` is a 400.
 * `run_timeout` bounds CPU time here (SandboxFusion bounds wall time); wall time is bounded at 3x + 2 s.
 *
 * Response (`RunCodeResponse`): `status` `Success` | `Failed` | `SandboxError` (SandboxFusion's
 * `parse_run_status`: any step `Error` -> SandboxError; any `TimeLimitExceeded` or non-zero `return_code` ->
 * Failed), `message`, `compile_result` and `run_result` as `CommandRunResult` (`status` `Finished` | `Error` |
 * `TimeLimitExceeded`, `execution_time` in seconds, `return_code`, `stdout`, `stderr`; `sandbox/runners/
 * types.py`), `executor_pod_name`, `files`. A program killed for memory or output is `Finished` with the
 * negative signal number as `return_code` (what SandboxFusion's subprocess reports), and `message` says why.
 * Crucible's own failures are `SandboxError` (verl scores them -1, "api/sandbox error", never a program fault).
 * Overloaded: 504 with `Retry-After`, the status verl's client retries.
 */
import { constants as osConstants } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { COMPAT_DEFAULTS, mibToKiB, secondsToMs } from '../limits.js';
import type { ExecutionResult } from '../sandbox/types.js';
import type { ServerContext } from './context.js';
import { ServiceError } from './errors.js';
import { languageOf, runPlain } from './run-plain.js';
import { parseBody } from './validate.js';

/** SandboxFusion language names (`sandbox/runners/types.py`, `Language`) that map onto a Crucible language. */
export const SANDBOX_FUSION_LANGUAGES: Readonly<Record<string, string>> = {
  python: 'python', cpp: 'cpp', nodejs: 'javascript', go: 'go', java: 'java', php: 'php', bash: 'bash',
  typescript: 'typescript', rust: 'rust', lua: 'lua', perl: 'perl', ruby: 'ruby',
};

export const RunCodeSchema = z.object({
  code: z.string(),
  language: z.string().min(1),
  stdin: z.string().nullable().optional(),
  compile_timeout: z.number().positive().default(10),
  run_timeout: z.number().positive().default(10),
  memory_limit_MB: z.number().int().default(-1),
  files: z.record(z.string().nullable()).default({}),
  fetch_files: z.array(z.string()).default([]),
  args: z.array(z.string()).default([]),
});

type CommandRunResult = {
  status: 'Finished' | 'Error' | 'TimeLimitExceeded';
  execution_time: number;
  return_code: number | null;
  stdout: string;
  stderr: string;
};

function signalNumber(name: string | null): number | null {
  if (name === null) return null;
  const n = (osConstants.signals as Record<string, number | undefined>)[name];
  return n === undefined ? null : n;
}

function commandResult(r: ExecutionResult, compileStep: boolean): CommandRunResult {
  const base = { execution_time: r.wallMs / 1000, stdout: r.stdout, stderr: r.stderr };
  switch (r.status) {
    case 'internal_error':
      return { ...base, status: 'Error', return_code: null };
    case 'time_limit_exceeded':
      return { ...base, status: 'TimeLimitExceeded', return_code: null };
    case 'ok':
      return { ...base, status: 'Finished', return_code: 0 };
    case 'compile_error':
      // The executor folds "compiler ran out of time" into compile_error; SandboxFusion says TimeLimitExceeded.
      if (compileStep && /time/i.test(r.reason ?? '')) return { ...base, status: 'TimeLimitExceeded', return_code: null };
      return { ...base, status: 'Finished', return_code: r.exitCode !== null && r.exitCode !== 0 ? r.exitCode : 1 };
    default: {
      const signo = signalNumber(r.signal);
      const code = r.exitCode !== null && r.exitCode !== 0 ? r.exitCode : -(signo ?? osConstants.signals.SIGKILL);
      return { ...base, status: 'Finished', return_code: code };
    }
  }
}

export function registerSandboxFusion(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/run_code', async (request, reply) => {
    const body = parseBody(RunCodeSchema, request.body);
    for (const field of ['files', 'fetch_files', 'args'] as const) {
      if (Object.keys(body[field]).length > 0) {
        throw new ServiceError('unsupported', `${field}: Crucible runs a single source file; "${field}" must be empty`, field);
      }
    }
    const language = languageOf(ctx, SANDBOX_FUSION_LANGUAGES[body.language] ?? body.language, 'language');
    const runCpuMs = secondsToMs(body.run_timeout);
    const compileCpuMs = secondsToMs(body.compile_timeout);
    if (runCpuMs > ctx.config.maxTimeLimitMs) {
      throw new ServiceError('invalid_body', `run_timeout: at most ${ctx.config.maxTimeLimitMs / 1000} s`, 'run_timeout');
    }
    const memoryKiB = body.memory_limit_MB <= 0 ? ctx.config.memoryLimitKiB : mibToKiB(body.memory_limit_MB);
    if (memoryKiB > ctx.config.maxMemoryLimitKiB) {
      throw new ServiceError('invalid_body', `memory_limit_MB: at most ${ctx.config.maxMemoryLimitKiB / 1024}`, 'memory_limit_MB');
    }
    let outcome;
    try {
      outcome = await runPlain(ctx, { language, source: body.code, stdin: body.stdin ?? '', runCpuMs,
        compileCpuMs: Math.min(compileCpuMs, COMPAT_DEFAULTS.maxCompileCpuMs), memoryKiB });
    } catch (error) {
      // verl retries 504 (Gateway Timeout) with a growing delay; 429 would end its retries at once.
      if (error instanceof ServiceError && error.code === 'overloaded') {
        reply.header('retry-after', String(error.retryAfterSeconds ?? 1));
        return reply.code(504).send(error.body());
      }
      throw error;
    }
    const compile = outcome.compile === null ? null : commandResult(outcome.compile, true);
    const run = outcome.run === null ? null : commandResult(outcome.run, false);
    const steps = [compile, run].filter((s): s is CommandRunResult => s !== null);
    const sources = [outcome.compile, outcome.run].filter((s): s is ExecutionResult => s !== null);
    let status: 'Success' | 'Failed' | 'SandboxError' = 'Success';
    if (steps.some((s) => s.status === 'Error')) status = 'SandboxError';
    else if (steps.some((s) => s.status === 'TimeLimitExceeded' || (s.return_code ?? 0) !== 0)) status = 'Failed';
    const notes = sources.filter((s) => s.status !== 'ok' && s.reason).map((s) => s.reason!);
    const cut = sources.filter((s) => s.stdoutTruncated || s.stderrTruncated).map(() => 'output was cut at the output limit');
    return {
      status,
      message: status === 'Success' ? '' : [...notes, ...cut].join('; '),
      compile_result: compile,
      run_result: run,
      executor_pod_name: null,
      files: {},
    };
  });
}
