/**
 * The `crucible serve` the conformance files drive: the CLI spawned on a free port (no result store: a test must not
 * write into the user's), started before a file's tests and stopped after them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import type { DriverContext } from './drivers.js';

/** Start `crucible serve --port 0` and read its URL from the line it prints when listening. */
function startServe(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(join(PROJECT_ROOT, 'bin', 'crucible'), ['serve', '--port', '0', '--slots', '2', '--log-level', 'warn', '--no-store'],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    // The CLI says where it listens on stderr ("crucible serve: listening on URL"); logs go to stdout.
    let seen = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`crucible serve did not say where it listens within 120 s:\n${seen}`));
    }, 120_000);
    const read = (chunk: Buffer): void => {
      seen += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!.replace(/\/$/, '') });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`crucible serve exited (${code}) before listening:\n${seen}`));
    });
  });
}

/**
 * Register, in the calling test file, hooks that start `crucible serve` before its tests and stop it (SIGTERM, then
 * wait for the exit) after them. Returns a factory of replay contexts on that server (call it inside a test: the
 * URL is known once the server listens); a context's `problems` must stay empty.
 */
export function servedForFile(): () => DriverContext {
  let server: ChildProcess | undefined;
  let url = '';
  before(async () => {
    ({ child: server, url } = await startServe());
  });
  after(async () => {
    if (server === undefined || server.exitCode !== null) return;
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  });
  return () => ({ baseUrl: url, problems: [] });
}
