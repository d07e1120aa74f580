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
import { TENANT_PATTERN, type JobPriority } from '../judge/judge.js';
import { ServiceError } from './errors.js';

/** The request a unit of judging belongs to. */
export interface RequestScope {
  /** Route pattern (`/v1/judge`, `/run_code`, ...), the label of per-endpoint metrics. */
  readonly route: string;
  /** Aborts when the client disconnects before the answer is complete. */
  readonly signal: AbortSignal;
  /** Who asks (`tenant` of a native body, else the `x-crucible-tenant` header): fairness on a queue's fleet. */
  readonly tenant?: string;
  /** `x-crucible-priority` (`interactive`, the default of a server, or `batch`): order on a queue's fleet. */
  readonly priority?: JobPriority;
}

/** The tenant and priority a request names. @throws ServiceError (400) naming the header at fault. */
function scheduling(request: FastifyRequest, bodyTenant: string | undefined): { tenant?: string; priority?: JobPriority } {
  const header = request.headers['x-crucible-tenant'];
  const tenant = bodyTenant ?? (typeof header === 'string' ? header : undefined);
  if (tenant !== undefined && !TENANT_PATTERN.test(tenant)) {
    throw new ServiceError('invalid_body', `x-crucible-tenant: expected 1-100 letters, digits and . : @ / - _, got ${JSON.stringify(tenant.slice(0, 120))}`, 'x-crucible-tenant');
  }
  const priority = request.headers['x-crucible-priority'];
  if (priority !== undefined && priority !== 'interactive' && priority !== 'batch') {
    throw new ServiceError('invalid_body', `x-crucible-priority: expected interactive or batch, got ${JSON.stringify(String(priority).slice(0, 40))}`, 'x-crucible-priority');
  }
  return { ...(tenant === undefined ? {} : { tenant }), ...(priority === undefined ? {} : { priority }) };
}

/** The reason a disconnected request's work is cancelled with. */
export class ClientGoneError extends Error {
  override readonly name = 'ClientGoneError';
  constructor() {
    super('the client disconnected before its answer was ready');
  }
}

/**
 * The scope of `request`: its route, a signal that aborts when the client disconnects early, and its tenant
 * (`bodyTenant`, a native body's `tenant`, wins over the header) and priority.
 * @throws ServiceError (400) for a malformed tenant or priority.
 */
export function requestScope(request: FastifyRequest, reply: FastifyReply, bodyTenant?: string): RequestScope {
  const named = scheduling(request, bodyTenant);
  const controller = new AbortController();
  const response = reply.raw;
  const onClose = (): void => {
    if (!response.writableFinished) controller.abort(new ClientGoneError());
  };
  if (response.destroyed) onClose();
  else response.once('close', onClose);
  return { route: request.routeOptions.url ?? 'unmatched', signal: controller.signal, ...named };
}
