/**
 * Test-only helper: runs the Python judge harness (zygote mode) inside bubblewrap and exchanges NDJSON with
 * it, one request at a time. The lead replaces this with the project's sandbox API; the flags that matter
 * for the harness are `--as-pid-1` (the harness must be pid 1: no other process of the box may hold the
 * host's pipes) and `--unshare-all` (its own pid namespace, so the end-of-job sweep sees only the job).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Repository root: this file runs as dist/test/harness/harness-box.js. */
export const REPO_ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

export function bwrapArgs(extra: readonly string[] = []): string[] {
  return [
    '--unshare-all', '--die-with-parent', '--new-session', '--as-pid-1',
    '--ro-bind', '/usr', '/usr', '--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64',
    '--symlink', 'usr/bin', '/bin', '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp',
    '--ro-bind', path.join(REPO_ROOT, 'harness'), '/crucible/harness',
    '--clearenv', '--setenv', 'PATH', '/usr/bin', '--setenv', 'PYTHONHASHSEED', '0',
    '/usr/bin/python3.11', '-s', '-P', '-S', '-B', '/crucible/harness/python/harness.py', ...extra,
  ];
}

export type HarnessResponse = Record<string, unknown> & { readonly status?: string; readonly id?: string };

export class HarnessBox {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: ((line: string) => void)[] = [];
  /** Every line the box wrote on stdout, in order (a forged extra line would show up here). */
  readonly lines: string[] = [];
  stderr = '';

  constructor(extraArgs: readonly string[] = []) {
    this.child = spawn('bwrap', bwrapArgs(extraArgs), { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', (d: Buffer) => { this.stderr += d.toString(); });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.lines.push(line);
      const w = this.waiting.shift();
      if (w) w(line);
    });
  }

  request(req: object, timeoutMs = 60_000): Promise<HarnessResponse> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`harness did not answer within ${timeoutMs} ms; stderr: ${this.stderr}`)), timeoutMs);
      this.waiting.push((line) => {
        clearTimeout(timer);
        try {
          resolve(JSON.parse(line) as HarnessResponse);
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      });
      this.child.stdin.write(`${JSON.stringify(req)}\n`);
    });
  }

  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
