/**
 * A throw-away Redis server for tests: Debian's `redis-server` (`scripts/setup` installs it; the system service
 * is never used), a fresh directory under the system temp folder, a free loopback port (never a fixed one), no
 * persistence. `stop()` stops it by its own pid and deletes the folder.
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
  readonly pid: number;
  stop(): Promise<void>;
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
export async function startRedis(): Promise<RedisServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort());
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

async function startOn(port: number): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'crucible-redis-'));
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
    '--dir', dir, '--protected-mode', 'yes'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => { output += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { output += d.toString(); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let waited = 0; waited < 10_000; waited += 50) {
    if (child.exitCode !== null) break;
    if (await accepts(port)) return { url: `redis://127.0.0.1:${port}`, pid: child.pid!, stop };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(`redis-server did not start on port ${port}: ${output.slice(-2000)}`);
}
