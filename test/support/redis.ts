/**
 * A throw-away Redis server for tests: Debian's `redis-server` (`scripts/setup` installs it; the system service
 * is never used), a fresh directory under the system temp folder, a free loopback port (never a fixed one), no
 * persistence unless asked (`appendOnly`: an append-only file fsynced on every write). `crash()` SIGKILLs it,
 * `restart()` starts it again on the same port and directory; `stop()` stops it by its own pid and deletes the folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';

/** A running server. */
export interface RedisServer {
  /** redis://127.0.0.1:PORT */
  readonly url: string;
  /** The pid of the running server process (a new one after `restart`). */
  readonly pid: number;
  /** Kill the server at once (SIGKILL: no shutdown save), as a crash would. */
  crash(): Promise<void>;
  /** Start it again on the same port and directory (with persistence, from its append-only file). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** How the server keeps data: none (default), or an append-only file fsynced on every write (survives a crash). */
export interface RedisOptions {
  readonly appendOnly?: boolean;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Start a server (well under a second), on another port if the free one was taken in the meantime.
 * @throws Error with its output when it does not start within 10 s, three times.
 */
export async function startRedis(options: RedisOptions = {}): Promise<RedisServer> {
  for (let attempt = 1; ; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), 'crucible-redis-'));
    try {
      return await startOn(await freePort(), dir, options);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      if (attempt >= 3) throw error;
    }
  }
}

/** One redis-server process on `port` with its data in `dir`; resolves once it accepts connections. */
async function spawnServer(port: number, dir: string, options: RedisOptions): Promise<ChildProcess> {
  const persistence = options.appendOnly === true ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence,
    '--dir', dir, '--protected-mode', 'yes'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => { output += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { output += d.toString(); });
  for (let waited = 0; waited < 10_000; waited += 50) {
    if (child.exitCode !== null) break;
    if (await accepts(port)) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  await kill(child, 'SIGKILL');
  throw new Error(`redis-server did not start on port ${port}: ${output.slice(-2000)}`);
}

/** Signal a server and wait (at most 5 s) until it exits; SIGKILL if SIGTERM was not enough. */
async function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
}

async function startOn(port: number, dir: string, options: RedisOptions): Promise<RedisServer> {
  let child = await spawnServer(port, dir, options);
  return {
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child.pid!;
    },
    crash: () => kill(child, 'SIGKILL'),
    async restart(): Promise<void> {
      await kill(child, 'SIGTERM');
      child = await spawnServer(port, dir, options);
    },
    async stop(): Promise<void> {
      await kill(child, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
