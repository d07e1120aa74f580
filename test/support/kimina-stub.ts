/**
 * A stub of a kimina-lean-server `/verify` endpoint for tests: it answers in the server's published shape
 * (project-numina/kimina-lean-server `app/schemas.py`: `{results: [{custom_id, error, response: {env, messages,
 * sorries, time}}]}`, `None` fields left out as its `response_model_exclude_none` does), with what a handler says
 * Lean would have printed for each code. It listens on port 0 of the loopback interface.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Lean message as the REPL gives it. */
export interface StubMessage {
  readonly severity: 'trace' | 'info' | 'warning' | 'error';
  readonly pos: { readonly line: number; readonly column: number };
  readonly data: string;
}

/** What the stub answers for one code: Lean's messages and sorries, a server error, or an HTTP status of its own. */
export type StubAnswer = { readonly messages: readonly StubMessage[]; readonly sorries?: number } | { readonly error: string } | { readonly httpStatus: number };

/** A running stub: its URL, the request bodies it got, and `close`. */
export interface KiminaStub {
  readonly url: string;
  readonly requests: unknown[];
  close(): Promise<void>;
}

/** Start a stub answering each code with `handler(code)`. */
export async function startKiminaStub(handler: (code: string) => StubAnswer): Promise<KiminaStub> {
  const requests: unknown[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/verify') {
        res.writeHead(404).end('{"detail":"Not Found"}');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { codes: { custom_id: string; proof?: string; code?: string }[] };
      requests.push(body);
      const results: unknown[] = [];
      for (const c of body.codes) {
        const answer = handler(c.proof ?? c.code ?? '');
        if ('httpStatus' in answer) {
          res.writeHead(answer.httpStatus, { 'content-type': 'application/json' }).end('{"detail":"No available REPLs"}');
          return;
        }
        if ('error' in answer) results.push({ custom_id: c.custom_id, error: answer.error });
        else {
          const sorries = Array.from({ length: answer.sorries ?? 0 }, () => ({ pos: { line: 1, column: 0 }, endPos: { line: 1, column: 5 }, goal: '⊢ False' }));
          results.push({ custom_id: c.custom_id, error: null, response: { env: 0, messages: answer.messages, ...(sorries.length > 0 ? { sorries } : {}), time: 0.25 } });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
