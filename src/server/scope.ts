/**
 * What a route hands the judging service about the request it serves: the route (metrics per endpoint) and an
 * `AbortSignal` that fires when the client goes away before its answer is complete.
 *
 * A client that disconnects (a trainer killed, a time-out in its HTTP client, a cancelled batch) must not keep
 * sandbox slots busy: the signal reaches the admission queue (a waiting item leaves the line and never starts)
 * and every `Judge` call (`CallOptions.signal`: the sandbox kills the run under way, the slot is freed). Work
 * shared with another client's identical request goes on for that client (`SharedWork`).
 *
 * Detection: Node's `ServerResponse` emits `close` when its connection closes, and also after a complete answer;
 * only a `close` before the response finished writing (`writableFinished` false) is a disconnect.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The request a unit of judging belongs to. */
export interface RequestScope {
  /** Route pattern (`/v1/judge`, `/run_code`, ...), the label of per-endpoint metrics. */
  readonly route: string;
  /** Aborts when the client disconnects before the answer is complete. */
  readonly signal: AbortSignal;
}

/** The reason a disconnected request's work is cancelled with. */
export class ClientGoneError extends Error {
  override readonly name = 'ClientGoneError';
  constructor() {
    super('the client disconnected before its answer was ready');
  }
}

/** The scope of `request`: its route and a signal that aborts when the client disconnects early. */
export function requestScope(request: FastifyRequest, reply: FastifyReply): RequestScope {
  const controller = new AbortController();
  const response = reply.raw;
  const onClose = (): void => {
    if (!response.writableFinished) controller.abort(new ClientGoneError());
  };
  if (response.destroyed) onClose();
  else response.once('close', onClose);
  return { route: request.routeOptions.url ?? 'unmatched', signal: controller.signal };
}
