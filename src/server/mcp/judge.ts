/**
 * MCP tool `judge`: a submission (code or raw model text) on a loaded problem or inline stdin/stdout tests ->
 * its verdict, exactly as `POST /v1/judge` answers it: the same schema (`JudgeBodySchema`), the same submission
 * path and admission (`JudgeService`), the `Judge` seam underneath (`src/judge/judge.ts`).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { ServerContext } from '../context.js';
import { JudgeBodySchema, requestedAnalysis, verdictJson, withAnalysis } from '../native.js';
import type { RequestScope } from '../scope.js';
import type { Submission } from '../service.js';
import { parseBody } from '../validate.js';
import { toolError, toolResult } from './result.js';

/**
 * Input of `judge`: the fields of a `/v1/judge` body (docs/API.md, "Submissions"), as a raw shape so that the
 * tool's published JSON schema lists them; "exactly one of code/response and of problem/tests" is checked by
 * the full schema in `judge`.
 */
export const JUDGE_INPUT = JudgeBodySchema.innerType().shape;

/** Arguments of `judge` after the SDK's validation (before the exactly-one checks). */
export type JudgeInput = z.output<z.ZodObject<typeof JUDGE_INPUT>>;

export const JUDGE_DESCRIPTION = 'Judge a program against tests in Crucible\'s sandbox and return the verdict: status (passed, ' +
  'wrong_answer, runtime_error, time_limit_exceeded, memory_limit_exceeded, compile_error, no_code, ...), per-test ' +
  'results with cpuMs/wallMs and the reason of the first failure. Give exactly one of "code" (the program as is) or ' +
  '"response" (raw model text; the code is extracted from its fenced block), and exactly one of "problem" (an id ' +
  'loaded with --problems, e.g. "HumanEval/0") or "tests" ([{input, output}] stdin/stdout pairs).';

/**
 * Judge `input`. The result is the `/v1/judge` answer (`verdictJson`). Crucible's own failure is a tool error
 * `internal_error` with that verdict under `verdict`. @throws ServiceError for invalid combinations of fields,
 * an unknown problem or language, overload or shutdown (`guarded` makes these tool errors).
 */
export async function judge(ctx: ServerContext, input: JudgeInput, scope: RequestScope): Promise<CallToolResult> {
  const body = parseBody(JudgeBodySchema, input);
  const prepared = ctx.service.prepare({ ...body, failFast: body.failFast === true } as Submission);
  ctx.service.reserve([prepared]);
  const judged = await ctx.service.judgeReserved(withAnalysis(prepared, body.analysis), scope);
  // A model calling the tool sees every test's result unless it asks for the summary (`/v1/judge` defaults to the summary).
  const payload = verdictJson(judged.verdict, judged.extraction, { tests: body.detail !== 'summary' });
  const analysis = requestedAnalysis(judged);
  if (analysis !== undefined) payload.analysis = analysis;
  if (judged.verdict.status === 'internal_error') {
    return toolError('internal_error', judged.verdict.reason ?? 'crucible failed', { verdict: payload });
  }
  return toolResult(payload);
}
