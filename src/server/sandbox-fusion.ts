/**
 * SandboxFusion compatibility: `POST /run_code`, as verl's `verl/utils/reward_score/sandbox_fusion/utils.py`
 * (`call_sandbox_api`) sends it and parses the answer.
 *
 * Request (bytedance/SandboxFusion `sandbox/server/sandbox_api.py`, `RunCodeRequest`): `code`, `language`,
 * `stdin` (optional), `compile_timeout` and `run_timeout` (seconds, default 10; `compile_timeout` at most 60 s, a 400
 * naming it beyond), `memory_limit_MB` (-1 = the
 * server default), `files`, `fetch_files`, `args`. Unknown keys are ignored, as pydantic does. `language` is one of
 * `SANDBOX_FUSION_LANGUAGES` (or a Crucible language id); the names of `SANDBOX_FUSION_REFUSED` are a 400
 * `unsupported` saying why. `files` (relative path -> base64) are placed in the run's working directory beside the
 * program (`submission-files.ts` says which paths and sizes are accepted). `fetch_files` (files the program wrote,
 * returned in the answer's `files`) and `args` are not supported: non-empty is a 400 `unsupported`.
 * `run_timeout` is the run's wall-clock limit, as in SandboxFusion, and its CPU limit too (a sleeping program
 * holds a slot no longer than the caller asked). `memory_limit_MB` is -1 (the server's default) or within the
 * server's memory range; anything else (0, -7) is a 400 naming the range. Identical requests are run once
 * (in flight and remembered, `run-plain.ts`).
 *
 * `POST /submit` (the dataset API, `SubmitRequest`) is validated and answered 501 `not_implemented`, naming what
 * Crucible serves instead (`SUBMIT_NOT_IMPLEMENTED`).
 *
 * Response (`RunCodeResponse`): `status` `Success` | `Failed` | `SandboxError` (SandboxFusion's
 * `parse_run_status`: any step `Error` -> SandboxError; any `TimeLimitExceeded` or non-zero `return_code` ->
 * Failed), `message`, `compile_result` and `run_result` as `CommandRunResult` (`status` `Finished` | `Error` |
 * `TimeLimitExceeded`, `execution_time` in seconds, `return_code`, `stdout`, `stderr`; `sandbox/runners/
 * types.py`), `executor_pod_name`, `files`. A program killed for memory or output is `Finished` with the
 * negative signal number as `return_code` (what SandboxFusion's subprocess reports), and `message` says why.
 * Crucible's own failures are `SandboxError` (verl scores them -1, "api/sandbox error", never a program fault),
 * sent with HTTP 504 so that verl and the SDK retry them. Overloaded: 504 with `Retry-After`, the status verl's
 * client retries; counted in `crucible_overload_rejections_total{route="/run_code"}`.
 */
import { constants as osConstants } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { LIMIT_RANGES, mibToKiB, outOfRange, secondsToMs } from '../limits.js';
import type { ExecutionResult } from '../sandbox/types.js';
import type { ServerContext } from './context.js';
import { ServiceError } from './errors.js';
import { languageOf, runPlain } from './run-plain.js';
import { requestScope } from './scope.js';
import { decodeSubmissionFiles } from './submission-files.js';
import { parseBody } from './validate.js';

/**
 * SandboxFusion language names (`sandbox/runners/types.py`, `Language`) that map onto a Crucible language, with
 * SandboxFusion's semantics (`sandbox/runners/major.py`, `minor.py`): the test-runner modes run the real runner
 * (`pytest`, `go_test` as `go test`, `junit` as JUnit's console launcher, `D_ut` as a D program built with
 * -unittest, `jest` as Jest 29.7 on a `.test.ts` file), whose report of every test is the run's stdout (Jest's: its
 * stderr, as upstream) and whose exit status makes the status; `sql` (listed by SandboxFusion's API, with no runner
 * there) runs as a SQLite script. docs/API.md lists each mode's command.
 */
export const SANDBOX_FUSION_LANGUAGES: Readonly<Record<string, string>> = {
  python: 'python', cpp: 'cpp', nodejs: 'javascript', go: 'go', java: 'java', php: 'php', bash: 'bash',
  typescript: 'typescript', rust: 'rust', lua: 'lua', perl: 'perl', ruby: 'ruby',
  pytest: 'pytest', go_test: 'go-test', junit: 'junit', D_ut: 'd', csharp: 'csharp', R: 'r', scala: 'scala',
  kotlin_script: 'kotlin-script', racket: 'racket', sql: 'sql', verilog: 'verilog', jest: 'jest',
};

/**
 * SandboxFusion language names Crucible refuses (400 `unsupported`), each with the reason it cannot run here. The
 * reasons are facts of this platform (Debian bookworm, no GPU), checked with apt-cache when written.
 */
export const SANDBOX_FUSION_REFUSED: Readonly<Record<string, string>> = {
  cuda: 'needs an NVIDIA GPU and the CUDA toolkit (SandboxFusion builds the files with cmake and nvcc and runs ./build/main '
    + "on a GPU); this server has no GPU, and Debian bookworm's main archive has no CUDA toolkit",
  python_gpu: 'needs a GPU and a CUDA build of PyTorch (SandboxFusion runs compile.py and run.py in its GPU Python '
    + 'environment); this server has no GPU, and PyTorch is not packaged in Debian bookworm',
  julia: 'needs Julia, which Debian bookworm does not package (julia was removed from Debian after bullseye); '
    + 'Crucible installs toolchains from Debian only',
  swift: 'needs the Swift toolchain (swiftc), which Debian bookworm does not package (its "swift" package is '
    + 'OpenStack Swift, an object store); Crucible installs toolchains from Debian only',
  lean: 'needs Lean 4 with a prebuilt Mathlib project (SandboxFusion runs `lake build` against one); neither is '
    + 'packaged in Debian, and elan downloads them from the network, which this server does not have',
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

/**
 * SandboxFusion's dataset API request (`SubmitRequest`, SDK `sandbox_fusion/models.py`): `dataset`, `id`,
 * `completion`, `config` (`TestConfig`: `dataset_type`, `language`, `provided_data`, ...). Validated so that a
 * malformed body is a 400 naming the field, as for every route.
 */
export const SubmitSchema = z.object({
  dataset: z.string().min(1),
  id: z.union([z.string(), z.number()]),
  completion: z.string(),
  config: z.object({
    dataset_type: z.string().nullable().optional(),
    language: z.string().nullable().optional(),
    provided_data: z.unknown().optional(),
  }).passthrough(),
});

/** What `/submit` answers (501): SandboxFusion's dataset registry is not served; these are. */
export const SUBMIT_NOT_IMPLEMENTED = 'SandboxFusion /submit (its dataset registry: dataset ids, TestConfig, provided_data) is not '
  + 'implemented by Crucible. Supported instead: SandboxFusion /run_code (one program, stdin/stdout), Crucible /v1/judge and /v1/rewards '
  + 'for problems loaded with `crucible serve --problems` (HumanEval, EvalPlus HumanEval+/MBPP+, CodeT, Crucible stdin/stdout), '
  + 'and Piston /api/v2/execute with the codeforces and cms_ioi packages (docs/API.md).';

export function registerSandboxFusion(app: FastifyInstance, ctx: ServerContext): void {
  // The dataset API's one judging route: a clear 501 (not a 404) once the body is a well-formed SubmitRequest.
  app.post('/submit', async (request) => {
    const body = parseBody(SubmitSchema, request.body);
    throw new ServiceError('not_implemented', `${SUBMIT_NOT_IMPLEMENTED} (asked: dataset "${body.dataset}", id ${JSON.stringify(body.id)})`, 'dataset');
  });

  app.post('/run_code', async (request, reply) => {
    const body = parseBody(RunCodeSchema, request.body);
    const refused = SANDBOX_FUSION_REFUSED[body.language];
    if (refused !== undefined) {
      throw new ServiceError('unsupported', `language: "${body.language}" is not available on Crucible: it ${refused}`, 'language');
    }
    if (body.fetch_files.length > 0) {
      throw new ServiceError('unsupported', 'fetch_files: Crucible does not return files a program wrote (the run\'s '
        + 'working directory is discarded with its box); fetch_files must be empty', 'fetch_files');
    }
    if (body.args.length > 0) {
      throw new ServiceError('unsupported', 'args: SandboxFusion\'s /run_code takes no arguments and Crucible passes none; '
        + 'args must be empty', 'args');
    }
    const language = languageOf(ctx, SANDBOX_FUSION_LANGUAGES[body.language] ?? body.language, 'language');
    const files = decodeSubmissionFiles(body.files, [language.sourceFile, ...language.compile?.include ?? []]);
    // run_timeout is SandboxFusion's wall-clock limit: the run's wall limit, and its CPU limit too.
    const runMs = secondsToMs(body.run_timeout);
    const timeRange = { min: LIMIT_RANGES.cpuMs.min, max: ctx.config.maxTimeLimitMs };
    const timeProblem = outOfRange(runMs, timeRange, 'ms', 'seconds', `${body.run_timeout} s`);
    if (timeProblem !== null) throw new ServiceError('invalid_body', `run_timeout: ${timeProblem}`, 'run_timeout');
    const compileCpuMs = secondsToMs(body.compile_timeout);
    const compileProblem = outOfRange(compileCpuMs, LIMIT_RANGES.compileCpuMs, 'ms', 'seconds', `${body.compile_timeout} s`);
    if (compileProblem !== null) throw new ServiceError('invalid_body', `compile_timeout: ${compileProblem}`, 'compile_timeout');
    const memoryKiB = body.memory_limit_MB === -1 ? ctx.config.memoryLimitKiB : mibToKiB(body.memory_limit_MB);
    const memoryRange = { min: LIMIT_RANGES.memoryKiB.min, max: ctx.config.maxMemoryLimitKiB };
    const memoryProblem = outOfRange(memoryKiB, memoryRange, 'KiB', 'MiB', `${body.memory_limit_MB} MB`);
    if (memoryProblem !== null) {
      throw new ServiceError('invalid_body', `memory_limit_MB: ${memoryProblem} (or -1 for the server's default)`, 'memory_limit_MB');
    }
    let outcome;
    try {
      outcome = await runPlain(ctx, { language, source: body.code, stdin: body.stdin ?? '', runCpuMs: runMs, runWallMs: runMs,
        compileCpuMs, memoryKiB, files }, requestScope(request, reply));
    } catch (error) {
      // verl retries 504 (Gateway Timeout) with a growing delay; 429 would end its retries at once.
      if (error instanceof ServiceError && error.code === 'overloaded') {
        ctx.metrics.rejected.inc({ route: '/run_code' });
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
    const answer = {
      status,
      message: status === 'Success' ? '' : [...notes, ...cut].join('; '),
      compile_result: compile,
      run_result: run,
      executor_pod_name: null,
      files: {},
    };
    // Crucible's own failure (after the judge's own retries): 504, the status verl's client retries (1 s, 2 s),
    // and any non-200 the SandboxFusion SDK retries; the body still says SandboxError for clients that read it.
    if (status === 'SandboxError') return reply.code(504).header('retry-after', '1').send(answer);
    return answer;
  });
}
