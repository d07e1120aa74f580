/**
 * Allow-listed egress for a box that must reach one service (a package registry, for a dependency install) and
 * nothing else. A box has no network of its own (its slot's namespace holds only a loopback); this proxy listens
 * on a Unix socket in a directory the box gets read-only (`EgressProxy.mount`), and answers only HTTP `CONNECT`
 * requests for the allowed `host:port` pairs, which it connects from the host and then relays bytes both ways
 * (TLS stays end to end between the box's client and the service). Anything else is refused: other hosts and
 * ports, plain HTTP requests, a malformed request. Inside the box a trusted forwarder
 * (`harness/egress/forward.cjs`) puts the socket on a loopback TCP port, which the client is told as its proxy
 * (`npm_config_https_proxy`). DNS is the host's: the box resolves nothing.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeTree } from './cleanup.js';
import type { Mount } from './types.js';

/** Where the box sees the proxy's directory; the socket is `proxy.sock` in it. */
export const EGRESS_BOX_DIR = '/crucible/egress';
/** The socket's path in the box. */
export const EGRESS_BOX_SOCKET = `${EGRESS_BOX_DIR}/proxy.sock`;
/** Longest request head the proxy reads before refusing, bytes. */
const MAX_HEAD_BYTES = 8192;
/** A connection that sends no complete request head this fast is dropped, ms. */
const HEAD_TIMEOUT_MS = 10_000;

/** One allowed destination. */
export interface EgressDestination {
  readonly host: string;
  readonly port: number;
}

/** A running proxy (see the module comment). `close()` stops it and removes its directory. */
export class EgressProxy {
  private readonly sockets = new Set<Socket>();
  /** Connections relayed and refused, for logs and tests. */
  readonly counts = { relayed: 0, refused: 0 };

  private constructor(private readonly server: Server, readonly dir: string, private readonly allowed: ReadonlySet<string>) {}

  /** Start a proxy allowing exactly `allow`. @throws Error when the socket cannot be made. */
  static async start(allow: readonly EgressDestination[]): Promise<EgressProxy> {
    const dir = join(tmpdir(), `crucible-egress-${randomBytes(8).toString('hex')}`);
    mkdirSync(dir, { mode: 0o755 });
    const allowed = new Set(allow.map((d) => `${d.host.toLowerCase()}:${d.port}`));
    const server = createServer();
    const proxy = new EgressProxy(server, dir, allowed);
    server.on('connection', (socket) => proxy.handle(socket));
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(join(dir, 'proxy.sock'), () => resolve());
      });
      // The box's uid is not ours: anyone who can reach the directory may connect (and only reach `allow`).
      chmodSync(join(dir, 'proxy.sock'), 0o666);
    } catch (error) {
      server.close();
      removeTree(dir);
      throw error;
    }
    return proxy;
  }

  /** The read-only bind that gives a box the proxy's socket at `EGRESS_BOX_SOCKET`. */
  get mount(): Mount {
    return { hostPath: this.dir, boxPath: EGRESS_BOX_DIR };
  }

  private handle(client: Socket): void {
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    let head = Buffer.alloc(0);
    const timer = setTimeout(() => client.destroy(), HEAD_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_HEAD_BYTES) this.refuse(client, timer, 431, 'request head too large');
        return;
      }
      client.off('data', onData);
      clearTimeout(timer);
      const requestLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      const m = /^CONNECT ([A-Za-z0-9.-]+):(\d{1,5}) HTTP\/1\.[01]$/.exec(requestLine);
      if (m === null) return this.refuse(client, timer, 405, 'only CONNECT to the allowed hosts');
      const target = `${m[1]!.toLowerCase()}:${Number(m[2])}`;
      if (!this.allowed.has(target)) return this.refuse(client, timer, 403, `${target} is not allowed`);
      this.relay(client, m[1]!, Number(m[2]), head.subarray(end + 4));
    };
    client.on('data', onData);
  }

  private refuse(client: Socket, timer: NodeJS.Timeout, code: number, why: string): void {
    clearTimeout(timer);
    this.counts.refused++;
    client.end(`HTTP/1.1 ${code} Refused\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\ncrucible egress: ${why}\n`);
  }

  private relay(client: Socket, host: string, port: number, rest: Buffer): void {
    client.pause();
    const upstream = connect({ host, port });
    this.sockets.add(upstream);
    upstream.on('close', () => {
      this.sockets.delete(upstream);
      client.destroy();
    });
    client.on('close', () => upstream.destroy());
    upstream.on('error', () => {
      if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n');
    });
    upstream.on('connect', () => {
      this.counts.relayed++;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (rest.length > 0) upstream.write(rest);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  }

  /** Stop listening, drop every connection, remove the directory. Never throws. */
  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    removeTree(this.dir);
  }
}

/** Allowed destinations of a registry URL (`https://registry.npmjs.org/` -> registry.npmjs.org:443). @throws TypeError */
export function registryDestination(url: string): EgressDestination {
  const u = new URL(url);
  if (u.protocol !== 'https:') throw new TypeError(`registry ${url}: only https registries are reachable through the egress proxy`);
  return { host: u.hostname, port: u.port === '' ? 443 : Number(u.port) };
}
