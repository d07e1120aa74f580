/**
 * The error catalog of `crucible serve`: every error body the service sends, by stable code.
 *
 * Wire shape (native routes and every compatibility route unless its family defines its own):
 * `{"error": {"code": "<code>", "message": "...", "field"?: "items[3].tests[0].output"}}`.
 * `docs/API.md` lists the same codes; `test/server/errors.test.ts` fails when the two drift apart.
 */

/** One catalog entry: the HTTP status and what the code means (the doc line). */
export interface ErrorEntry {
  readonly status: number;
  readonly description: string;
}

export const ERROR_CATALOG = {
  invalid_body: { status: 400, description: 'The body failed validation; `field` names the first offending field.' },
  invalid_json: { status: 400, description: 'The body is not JSON, or the Content-Type is not application/json.' },
  unknown_problem: { status: 400, description: 'A problem id that the server did not load with `--problems`.' },
  unknown_language: { status: 400, description: 'A language the server has no toolchain for.' },
  unsupported: { status: 400, description: 'A value the compatibility endpoint accepts but Crucible does not run (e.g. a GPU language, fetch_files).' },
  unauthorized: { status: 401, description: 'Missing or wrong `Authorization: Bearer <token>`.' },
  host_not_allowed: { status: 403, description: 'A server without a token serves only requests whose `Host` is an IP address, localhost or a name given with `--allowed-hosts` (DNS rebinding).' },
  not_found: { status: 404, description: 'No such route.' },
  unknown_training_run: { status: 404, description: 'No training run of this id or name in the server\'s result store.' },
  unknown_session: { status: 404, description: 'No session with this id: never made, deleted, or evicted after its idle TTL.' },
  no_store: { status: 409, description: 'The server has no result store (`--no-store`), so it keeps no training statistics.' },
  session_done: { status: 409, description: 'The session has taken all its steps (`limits.maxSteps`; reset or delete it), or a `program` session all its submits (`limits.maxSubmits`; a reset does not give them back).' },
  payload_too_large: { status: 413, description: 'The body is larger than `--body-limit-mib`, or a batch larger than the queue can ever hold.' },
  overloaded: { status: 429, description: 'The admission queue is full. Nothing was judged; retry after `Retry-After` seconds.' },
  internal_error: { status: 500, description: 'Crucible itself failed. Never a verdict about the program; retry or drop the sample.' },
  not_implemented: { status: 501, description: 'A compatibility request Crucible understands but does not serve yet; the message names what is supported.' },
  shutting_down: { status: 503, description: 'The server is draining for shutdown; retry against another instance.' },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** An error that leaves the service as a catalog response. */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  constructor(readonly code: ErrorCode, message: string, readonly field?: string,
    /** Seconds a client should wait before retrying (sent as `Retry-After`). */
    readonly retryAfterSeconds?: number) {
    super(message);
  }

  get status(): number {
    return ERROR_CATALOG[this.code].status;
  }

  /** The JSON body. */
  body(): { error: { code: ErrorCode; message: string; field?: string; retryAfterSeconds?: number } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.field === undefined ? {} : { field: this.field }),
        ...(this.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: this.retryAfterSeconds }),
      },
    };
  }
}
