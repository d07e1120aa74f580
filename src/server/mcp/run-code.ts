/**
 * MCP tool `run_code`: compile (if the language compiles) and run one program once in the sandbox on a stdin,
 * with no tests: what `/run_code` (SandboxFusion) and `/api/v2/execute` (Piston) do, through the same
 * deduplicating, admission-controlled path (`runPlain`, `src/server/run-plain.ts`).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { DEFAULT_COMPILE_LIMITS, DEFAULT_RUN_LIMITS, LIMIT_RANGES, limitSchema } from '../../limits.js';
import type { ServeConfig } from '../config.js';
import type { ServerContext } from '../context.js';
import { languageOf, runPlain } from '../run-plain.js';
import type { RequestScope } from '../scope.js';
import { toolError, toolResult } from './result.js';

/**
 * Input of `run_code` on a server with `config`'s maxima (a zod raw shape: the SDK publishes it as the tool's
 * JSON schema and validates calls with it; a limit out of range is refused naming the range).
 */
export function runCodeInput(config: ServeConfig) {
  return {
    language: z.string().min(1).describe('Language id or alias, e.g. "python", "cpp", "javascript", "rust" (see `crucible languages`).'),
    code: z.string().describe('The whole program (source of one file).'),
    stdin: z.string().optional().describe('Standard input of the run; default empty.'),
    timeLimitMs: limitSchema({ min: LIMIT_RANGES.cpuMs.min, max: config.maxTimeLimitMs }, 'ms').optional()
      .describe(`CPU time limit of the run, ms (${LIMIT_RANGES.cpuMs.min} to ${config.maxTimeLimitMs}); default ${DEFAULT_RUN_LIMITS.cpuMs}. The wall-clock bound is 3x + 2 s.`),
    memoryLimitKiB: limitSchema({ min: LIMIT_RANGES.memoryKiB.min, max: config.maxMemoryLimitKiB }, 'KiB').optional()
      .describe(`Memory limit, KiB (${LIMIT_RANGES.memoryKiB.min} to ${config.maxMemoryLimitKiB}); default ${config.memoryLimitKiB}.`),
  };
}

/** Arguments of `run_code` after validation. */
export type RunCodeInput = z.output<z.ZodObject<ReturnType<typeof runCodeInput>>>;

export const RUN_CODE_DESCRIPTION = 'Run one program once in Crucible\'s sandbox (no network, limits enforced from outside) and return ' +
  'what it did: status (ok, runtime_error, time_limit_exceeded, memory_limit_exceeded, output_limit_exceeded, ' +
  'compile_error), exit code, stdout, stderr, cpuMs, wallMs, memoryKiB. Nothing persists between calls; use ' +
  'session_create for state that does.';

/**
 * Run `input` once. The result is `{status, compile, run}`: `status` is the run's (or the failed
 * compilation's), `compile` null for interpreted languages, `run` null when compilation failed; both are
 * the sandbox's `ExecutionResult` (ms, KiB, truncation flags). Crucible's own failure is a tool error
 * `internal_error` carrying the same result. @throws ServiceError for an unknown language, a limit above the
 * overload or shutdown (`guarded` makes these tool errors).
 */
export async function runCode(ctx: ServerContext, input: RunCodeInput, scope: RequestScope): Promise<CallToolResult> {
  const language = languageOf(ctx, input.language, 'language');
  const outcome = await runPlain(ctx, {
    language, source: input.code, stdin: input.stdin ?? '',
    runCpuMs: input.timeLimitMs ?? DEFAULT_RUN_LIMITS.cpuMs,
    compileCpuMs: DEFAULT_COMPILE_LIMITS.cpuMs,
    memoryKiB: input.memoryLimitKiB ?? ctx.config.memoryLimitKiB,
  }, scope);
  const final = outcome.run ?? outcome.compile;
  const status = final?.status ?? 'internal_error';
  const payload = { status, language: language.id, compile: outcome.compile, run: outcome.run };
  if (status === 'internal_error') return toolError('internal_error', final?.reason ?? 'crucible failed', payload);
  return toolResult(payload);
}
