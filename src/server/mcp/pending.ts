/**
 * Requests a transport has received and not yet answered, so that a front end can let them answer before it
 * closes (stdin ended, SIGTERM). Counted at the transport, where a request arrives and its response leaves:
 * a tool call is pending from the moment its message is read, before any handler has started.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type Id = string | number;

function requestId(message: JSONRPCMessage): Id | undefined {
  return 'method' in message && 'id' in message ? message.id : undefined;
}

function responseId(message: JSONRPCMessage): Id | undefined {
  return !('method' in message) && 'id' in message && message.id !== null ? message.id as Id : undefined;
}

/**
 * Watch `transport` (already connected: its `onmessage` set by the server): `idle()` resolves once every request
 * it received has been answered (or it closed), `closed` when it closes.
 */
export function watchPending(transport: Transport): { idle(): Promise<void>; readonly closed: Promise<void> } {
  const pending = new Set<Id>();
  let markClosed = (): void => {};
  const closed = new Promise<void>((resolve) => { markClosed = resolve; });
  let waiters: (() => void)[] = [];
  const settle = (): void => {
    if (pending.size === 0) for (const wake of waiters.splice(0)) wake();
  };
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const id = requestId(message);
    if (id !== undefined) pending.add(id);
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } finally {
      const id = responseId(message);
      if (id !== undefined && pending.delete(id)) settle();
    }
  };
  const onclose = transport.onclose;
  transport.onclose = () => {
    // Nothing can be answered on a closed transport.
    pending.clear();
    settle();
    markClosed();
    onclose?.();
  };
  return {
    closed,
    idle: () => (pending.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => { waiters.push(resolve); })),
  };
}
