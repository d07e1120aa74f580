/**
 * A stub of a kimina-lean-server `/verify` endpoint for tests: it answers in the server's published shape
 * (project-numina/kimina-lean-server `app/schemas.py`: `{results: [{custom_id, error, response: {env, messages,
 * sorries, time}}]}`, `None` fields left out as its `response_model_exclude_none` does), with what a handler says
 * Lean would have printed for each code. It listens on port 0 of the loopback interface.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

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

/** Start a stub answering each code with `handler(code)` (which may take its time: a slow server). */
export async function startKiminaStub(handler: (code: string) => StubAnswer | Promise<StubAnswer>): Promise<KiminaStub> {
  const requests: unknown[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (req.method !== 'POST' || req.url !== '/verify') {
        res.writeHead(404).end('{"detail":"Not Found"}');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { codes: { custom_id: string; proof?: string; code?: string }[] };
      requests.push(body);
      const results: unknown[] = [];
      for (const c of body.codes) {
        const answer = await handler(c.proof ?? c.code ?? '');
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
  server.on('connection', (socket) => sockets.add(socket.on('close', () => sockets.delete(socket))));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy(); // a request still being answered (a slow handler) ends now
    }),
  };
}

/**
 * A toy Lean for the stub: one-line `theorem name : statement :=` declarations; our `#check`/`#print axioms` answered
 * from them; `ERROR` is a Lean error, `sorry` a hole; `loop_forever` the server's time-out, `CRASH_REPL` a REPL
 * failure, `NO_REPL` HTTP 429, `SLOW_SERVER` an answer after 3 s.
 */
export async function toyLean(raw: string): Promise<StubAnswer> {
  if (raw.includes('SLOW_SERVER')) await new Promise((resolve) => setTimeout(resolve, 3000));
  const code = raw.replace(/--.*$/gm, '');
  if (raw.includes('loop_forever')) return { error: 'Lean REPL command timed out in 5 seconds' };
  if (raw.includes('CRASH_REPL')) return { error: 'Lean REPL process exited unexpectedly' };
  if (code.includes('NO_REPL')) return { httpStatus: 429 };
  const lines = code.split('\n');
  const theorems = new Map<string, { statement: string; proof: string }>();
  const axioms = [...code.matchAll(/^axiom (\S+)/gm)].map((m) => m[1]!);
  for (const m of code.matchAll(/^theorem (\S+) : (.*?) :=([\s\S]*?)(?=^theorem |^set_option pp|^#|^axiom |(?![\s\S]))/gm)) {
    theorems.set(m[1]!, { statement: m[2]!.trim(), proof: m[3]! });
  }
  const messages: StubMessage[] = [];
  let sorries = 0;
  lines.forEach((line, i) => {
    const at = { line: i + 1, column: 0 };
    if (/\bERROR\b/.test(line)) messages.push({ severity: 'error', pos: at, data: 'unknown identifier \'ERROR\'' });
    if (/^\s*sorry\b|by sorry/.test(line)) {
      sorries++;
      messages.push({ severity: 'warning', pos: at, data: 'declaration uses \'sorry\'' });
    }
    const check = /^#check @_root_\.(\S+)$/.exec(line);
    if (check !== null) {
      const t = theorems.get(check[1]!);
      messages.push(t === undefined ? { severity: 'error', pos: at, data: `unknown constant '${check[1]}'` } : { severity: 'info', pos: at, data: `@${check[1]} : ${t.statement}` });
    }
    const print = /^#print axioms _root_\.(\S+)$/.exec(line);
    if (print !== null) {
      const proof = theorems.get(print[1]!)?.proof ?? '';
      const deps = [...(/\bsorry\b/.test(proof) ? ['sorryAx'] : []), ...axioms.filter((a) => proof.includes(a)),
        ...(/Classical/.test(proof) ? ['propext', 'Classical.choice', 'Quot.sound'] : [])];
      messages.push({ severity: 'info', pos: at, data: deps.length === 0 ? `'${print[1]}' does not depend on any axioms` : `'${print[1]}' depends on axioms: [${deps.join(', ')}]` });
    }
  });
  return { messages, sorries };
}
