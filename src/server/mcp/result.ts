/**
 * Tool results of Crucible's MCP server, and how failures become tool errors.
 *
 * MCP (spec 2025-06-18, "Tools": error handling) separates protocol errors (unknown tool, arguments that fail
 * the input schema: the SDK answers those itself) from tool execution errors, which are results with
 * `isError: true` so that the model calling the tool reads them. Every result here carries the same JSON twice:
 * as `structuredContent` for programs and as one text block for models. A tool error's text starts with the
 * catalog code of `crucible serve` (`src/server/errors.ts`), e.g. `unknown_language: language: unknown
 * language "cobol"`, so callers can branch on it as HTTP clients branch on `error.code`.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { messageOf } from '../../errors.js';
import { ServiceError, type ErrorCode } from '../errors.js';

/** A successful tool result: `payload` (plain JSON-able data) as structured content and as JSON text. */
export function toolResult(payload: object): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload as Record<string, unknown> };
}

/**
 * A tool execution error: `code: message` as text; structured content `{error: {code, message, field?,
 * retryAfterSeconds?}, ...extra}` (the HTTP API's error body, plus e.g. the verdict of an `internal_error`).
 */
export function toolError(code: ErrorCode, message: string, extra: Record<string, unknown> = {},
  details: { field?: string; retryAfterSeconds?: number } = {}): CallToolResult {
  const error = new ServiceError(code, message, details.field, details.retryAfterSeconds);
  const retry = details.retryAfterSeconds === undefined ? '' : ` (retry after ${details.retryAfterSeconds} s)`;
  return {
    content: [{ type: 'text', text: `${code}: ${message}${retry}` }],
    structuredContent: { ...error.body(), ...extra },
    isError: true,
  };
}

/**
 * Run a tool body; a `ServiceError` it throws (bad arguments the schema could not see, unknown problem or
 * language, overload, shutdown) becomes a tool error with its code. Anything else is Crucible's own failure:
 * `internal_error`, never blamed on the caller's program.
 */
export async function guarded(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ServiceError) {
      return toolError(error.code, error.message, {}, {
        ...(error.field === undefined ? {} : { field: error.field }),
        ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
      });
    }
    return toolError('internal_error', `crucible failed: ${messageOf(error)}`);
  }
}
