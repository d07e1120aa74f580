/**
 * One HTTP POST of JSON to an OpenAI-compatible server, on Node's own `http`/`https` with a keep-alive agent:
 * one time-out covers the whole exchange (connect, headers, body), the body read is capped, and every way it
 * can end is a value (`HttpResult`), never an exception. Node's `fetch` is not used because its dispatcher's
 * header and body time-outs (300 s each, not settable without the undici package) would cut long generations
 * behind Crucible's own time-out.
 */
import http from 'node:http';
import https from 'node:https';

/** How an exchange ended. `ms` is its wall time. */
export type HttpResult =
  | { readonly kind: 'response'; readonly status: number; readonly headers: http.IncomingHttpHeaders; readonly body: string; readonly ms: number }
  | { readonly kind: 'timeout'; readonly ms: number }
  | { readonly kind: 'network'; readonly message: string; readonly ms: number }
  | { readonly kind: 'too_large'; readonly bytes: number; readonly ms: number }
  | { readonly kind: 'aborted'; readonly ms: number };

/**
 * Cancellation of requests in flight, cheaper than an AbortSignal listener per request (dozens of listeners on one
 * signal make every add and remove a scan): `watch` registers a request's cancel function until it ends.
 */
export class Cancellation {
  private readonly active = new Set<() => void>();
  private cancelled = false;

  get isCancelled(): boolean {
    return this.cancelled;
  }

  /** Run `cancel` when `cancelAll` is called (at once if it was); returns the function that unregisters it. */
  watch(cancel: () => void): () => void {
    if (this.cancelled) {
      cancel();
      return () => undefined;
    }
    this.active.add(cancel);
    return () => this.active.delete(cancel);
  }

  /** Cancel every request in flight and every later one. */
  cancelAll(): void {
    this.cancelled = true;
    for (const cancel of [...this.active]) cancel();
    this.active.clear();
  }
}

/** Options of an `HttpPoster`. */
export interface HttpPosterOptions {
  /** Most open connections (the run's concurrency). */
  readonly maxSockets: number;
  /** Largest response body read, bytes (default 64 MiB). */
  readonly maxResponseBytes?: number;
}

/** Posts JSON bodies over pooled keep-alive connections. `close` ends the pooled connections. */
export class HttpPoster {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly maxResponseBytes: number;

  constructor(options: HttpPosterOptions) {
    const agent = { keepAlive: true, maxSockets: options.maxSockets, maxFreeSockets: options.maxSockets, scheduling: 'fifo' as const };
    this.httpAgent = new http.Agent(agent);
    this.httpsAgent = new https.Agent(agent);
    this.maxResponseBytes = options.maxResponseBytes ?? 64 << 20;
  }

  /** POST `body` (JSON text) to `url` with `headers`, ending it after `timeoutMs` or when `cancellation` cancels it. */
  post(url: URL, body: string, headers: Readonly<Record<string, string>>, timeoutMs: number, cancellation?: Cancellation): Promise<HttpResult> {
    const started = performance.now();
    const ms = (): number => performance.now() - started;
    if (cancellation?.isCancelled === true) return Promise.resolve({ kind: 'aborted', ms: 0 });
    return new Promise<HttpResult>((resolve) => {
      let settled = false;
      let unwatch = (): void => undefined;
      const finish = (result: HttpResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        unwatch();
        resolve(result);
      };
      const secure = url.protocol === 'https:';
      const request = (secure ? https : http).request(url, {
        method: 'POST', agent: secure ? this.httpsAgent : this.httpAgent,
        headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
      }, (response) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > this.maxResponseBytes) {
            finish({ kind: 'too_large', bytes, ms: ms() });
            request.destroy();
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => finish({ kind: 'response', status: response.statusCode ?? 0, headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'), ms: ms() }));
        response.on('error', (error) => finish({ kind: 'network', message: error.message, ms: ms() }));
        response.on('aborted', () => finish({ kind: 'network', message: 'the server closed the connection mid-response', ms: ms() }));
      });
      const timer = setTimeout(() => {
        finish({ kind: 'timeout', ms: ms() });
        request.destroy();
      }, timeoutMs);
      if (cancellation !== undefined) {
        const stop = cancellation.watch(() => {
          finish({ kind: 'aborted', ms: ms() });
          request.destroy();
        });
        unwatch = () => { stop(); };
      }
      request.on('error', (error) => finish({ kind: 'network', message: error.message, ms: ms() }));
      request.end(body);
    });
  }

  /** Close pooled connections. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
