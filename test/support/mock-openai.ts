/**
 * A loopback OpenAI-compatible server for the generation tests and `bench:generate`: `POST /v1/chat/completions`
 * and `POST /v1/completions`, answering deterministically (the same request always gets the same text), with
 * injectable faults (any status with any headers, e.g. 429 + Retry-After; a request that never answers; a reset
 * connection; fewer choices than asked; n > 1 refused; null content; truncation via `respond`), a set capacity
 * (`slots` choices in progress at once, each request holding `n` of them for `latencyMs`, the rest queued FIFO,
 * as a batching server does), a pause after a number of answered choices (the kill-and-resume test), and a log
 * of every request and of every sample answered.
 *
 * A sample is named by its prompt text and its seed: a request for n choices with seed s answers the samples
 * s, s+1, ..., s+n-1 (Crucible sends seed + first index: `src/generate/params.ts`), so `answered` counts each
 * sample however it was asked for (one request with n = 10, or ten single requests).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One choice the mock answers. */
export interface MockChoice {
  readonly content: string | null;
  readonly reasoning?: string | null;
  readonly finishReason?: string;
}

/** A request as the mock saw it. */
export interface MockRequest {
  /** 1-based number of the request among all received. */
  readonly seq: number;
  readonly api: 'chat' | 'completions';
  readonly body: Readonly<Record<string, unknown>>;
  /** The completion prompt, or the chat messages' contents joined by `\n---\n`. */
  readonly promptText: string;
  readonly n: number;
  readonly seed: number | undefined;
  /** Requests with this exact body received before this one. */
  readonly repeat: number;
}

/** A fault instead of an answer. */
export type MockFault =
  | { readonly kind: 'status'; readonly status: number; readonly message?: string; readonly headers?: Readonly<Record<string, string>> }
  | { readonly kind: 'hang' }
  | { readonly kind: 'reset' }
  | { readonly kind: 'fewer'; readonly choices: number };

/** Options of a mock. */
export interface MockOptions {
  /** Choices in progress at once (default: no limit). */
  readonly slots?: number;
  /** Time a request holds its slots, ms (default 0). */
  readonly latencyMs?: number;
  /** A fault for a request, or undefined to answer it. */
  readonly fault?: (request: MockRequest) => MockFault | undefined;
  /** The choice answering sample `sampleSeed` of a request (default: a text derived from prompt and seed). */
  readonly respond?: (request: MockRequest, sampleSeed: number, choice: number) => MockChoice;
  /** Refuse n > 1 with a 400 naming `n`, as a server without parallel sampling does. */
  readonly refuseN?: boolean;
  /** Hold every request (never answer) once this many choices have been answered, until `resume()`. */
  readonly pauseAfterChoices?: number;
  /** The model name served (other names: 404). */
  readonly model?: string;
}

/** A running mock. */
export interface MockServer {
  /** Base URL, `http://127.0.0.1:PORT/v1`. */
  readonly url: string;
  readonly requests: MockRequest[];
  /** Times each sample (`sampleKey`) was answered. */
  readonly answered: Map<string, number>;
  /** Choices answered so far. */
  answeredChoices(): number;
  /** Most requests open at once (received, not yet answered or failed). */
  maxOpen(): number;
  /** Answer held requests and stop pausing. */
  resume(): void;
  close(): Promise<void>;
}

/** The name of a sample: prompt text and its seed. */
export function sampleKey(promptText: string, sampleSeed: number): string {
  return `${createHash('sha256').update(promptText).digest('hex').slice(0, 16)}#${sampleSeed}`;
}

/** The default text of a sample: deterministic in prompt and seed. */
export function defaultText(promptText: string, sampleSeed: number): string {
  return `    return ${JSON.stringify(createHash('sha256').update(`${promptText}\0${sampleSeed}`).digest('hex').slice(0, 12))}\n`;
}

function promptTextOf(api: 'chat' | 'completions', body: Record<string, unknown>): string {
  if (api === 'completions') return String(body['prompt'] ?? '');
  const messages = Array.isArray(body['messages']) ? body['messages'] as { content?: unknown }[] : [];
  return messages.map((m) => String(m.content ?? '')).join('\n---\n');
}

function send(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Start a mock on a free loopback port. */
export async function startMockOpenAI(options: MockOptions = {}): Promise<MockServer> {
  const requests: MockRequest[] = [];
  const answered = new Map<string, number>();
  const seen = new Map<string, number>();
  const sockets = new Set<Socket>();
  let choicesAnswered = 0;
  let open = 0;
  let maxOpen = 0;
  /** Choices decided to be answered (the pause counts these: answers finish later). */
  let promised = 0;
  let paused = false;
  let pauseAfter = options.pauseAfterChoices;
  const held: (() => void)[] = [];
  let inUse = 0;
  const queue: { n: number; start: () => void }[] = [];
  const slots = options.slots ?? Number.POSITIVE_INFINITY;

  const drain = (): void => {
    while (queue.length > 0 && inUse + queue[0]!.n <= slots) {
      const next = queue.shift()!;
      inUse += next.n;
      next.start();
    }
  };
  /** Hold `n` slots for the latency, then run `done`. */
  const occupy = (n: number, done: () => void): void => {
    const need = Math.min(n, slots);
    queue.push({ n: need, start: () => setTimeout(() => {
      inUse -= need;
      drain();
      done();
    }, options.latencyMs ?? 0) });
    drain();
  };

  const answer = (req: MockRequest, res: ServerResponse, choices: number): void => {
    const base = req.seed ?? 0;
    const list = Array.from({ length: choices }, (_, j) => {
      const choice = options.respond?.(req, base + j, j) ?? { content: defaultText(req.promptText, base + j) };
      const text = req.api === 'chat'
        ? { message: { role: 'assistant', content: choice.content, ...(choice.reasoning === undefined ? {} : { reasoning_content: choice.reasoning }) } }
        : { text: choice.content };
      return { index: j, ...text, finish_reason: choice.finishReason ?? 'stop' };
    });
    res.on('finish', () => {
      for (let j = 0; j < choices; j++) {
        const key = sampleKey(req.promptText, base + j);
        answered.set(key, (answered.get(key) ?? 0) + 1);
      }
      choicesAnswered += choices;
    });
    send(res, 200, { id: `mock-${req.seq}`, object: req.api === 'chat' ? 'chat.completion' : 'text_completion', created: 0,
      model: req.body['model'], choices: list, usage: { prompt_tokens: req.promptText.length, completion_tokens: 7 * choices, total_tokens: 0 } });
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string): void => {
    const api = req.url === '/v1/chat/completions' ? 'chat' : req.url === '/v1/completions' ? 'completions' : undefined;
    if (api === undefined || req.method !== 'POST') return send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return send(res, 400, { error: { message: 'body is not JSON' } });
    }
    if (options.model !== undefined && body['model'] !== options.model) {
      return send(res, 404, { error: { message: `The model \`${String(body['model'])}\` does not exist.` } });
    }
    const n = typeof body['n'] === 'number' ? body['n'] : 1;
    const repeat = seen.get(raw) ?? 0;
    seen.set(raw, repeat + 1);
    const request: MockRequest = { seq: requests.length + 1, api, body, promptText: promptTextOf(api, body), n,
      seed: typeof body['seed'] === 'number' ? body['seed'] : undefined, repeat };
    requests.push(request);
    if (options.refuseN === true && n > 1) return send(res, 400, { error: { message: 'n must be 1: this server does not sample in parallel' } });
    const fault = options.fault?.(request);
    if (fault?.kind === 'hang') return;
    if (fault?.kind === 'reset') return void req.socket.destroy();
    if (fault?.kind === 'status') return send(res, fault.status, { error: { message: fault.message ?? `injected ${fault.status}` } }, fault.headers);
    const choices = fault?.kind === 'fewer' ? fault.choices : n;
    occupy(choices, () => {
      if (res.destroyed) return;
      if (paused || (pauseAfter !== undefined && promised >= pauseAfter)) {
        paused = true;
        held.push(() => {
          if (res.destroyed) return;
          promised += choices;
          answer(request, res, choices);
        });
        return;
      }
      promised += choices;
      answer(request, res, choices);
    });
  };

  const server = createServer((req, res) => {
    maxOpen = Math.max(maxOpen, ++open);
    res.on('close', () => open--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    answered,
    answeredChoices: () => choicesAnswered,
    maxOpen: () => maxOpen,
    resume(): void {
      paused = false;
      pauseAfter = undefined;
      const pending = held.splice(0);
      for (const run of pending) run();
    },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
