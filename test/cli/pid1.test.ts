/**
 * `crucible serve` as pid 1 of a pid namespace, as in a container started without an init (issue #23, item 11):
 * it runs itself under `crucible-reaper` (a child subreaper), so the orphans its sandboxes leave are reaped and no
 * zombie accumulates; SIGTERM still reaches the server, which drains and exits 0. Run with `unshare --pid --fork
 * --mount-proc`; real requests (plain runs, judging, a session box opened and closed) make real orphans.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { httpCall } from '../support/http.js';
import { freePort } from '../support/ports.js';

let unshare: ChildProcess;
let url = '';

/** Host pids of `pid`'s children. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Host pids of every descendant of `pid`. */
function descendants(pid: number): number[] {
  const out: number[] = [];
  for (const child of childrenOf(pid)) out.push(child, ...descendants(child));
  return out;
}

function stateOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2]!;
  } catch {
    return 'gone';
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** The namespace's pid 1 (the process unshare forked), as a host pid. */
function namespaceInit(): number {
  const [init] = childrenOf(unshare.pid!);
  assert.ok(init !== undefined, 'unshare started the namespace');
  return init;
}

before(async () => {
  const port = await freePort();
  unshare = spawn('unshare', ['--pid', '--fork', '--mount-proc', join(PROJECT_ROOT, 'bin', 'crucible'), 'serve', '--port', String(port),
    '--no-store', '--log-level', 'warn'], { stdio: ['ignore', 'ignore', 'pipe'] });
  url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const up = await fetch(`${url}/health`).then(() => true, () => false);
    if (up) break;
    assert.ok(i < 600 && unshare.exitCode === null, 'crucible serve did not start as pid 1');
    await sleep(100);
  }
});

after(() => {
  if (unshare.exitCode === null) unshare.kill('SIGKILL');
});

test('as pid 1, serve runs under crucible-reaper and leaves no zombie; SIGTERM drains it', { timeout: 300_000 }, async () => {
  const init = namespaceInit();
  const tree = descendants(init);
  assert.ok(tree.some((pid) => commandOf(pid).includes('crucible-reaper')), `no crucible-reaper under pid 1: ${tree.map(commandOf).join(' | ')}`);
  for (let i = 0; i < 6; i++) {
    const run = await httpCall(url, 'POST', '/run_code', { language: 'python', code: `import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(0.2)\n    os._exit(0)\nprint(${i})` });
    assert.equal(run.body.run_result.stdout, `${i}\n`);
    const judged = await httpCall(url, 'POST', '/v1/judge', { language: 'c', code: `int main(void){return ${i};}`, tests: [{ input: '', output: '' }] });
    assert.equal(judged.body.status, i === 0 ? 'passed' : 'runtime_error');
  }
  const session = await httpCall(url, 'POST', '/v1/sessions', { environment: 'bash' });
  assert.equal((await httpCall(url, 'POST', `/v1/sessions/${session.body.id}/step`, { action: 'sleep 0.1 & echo hi' })).body.observation.stdout, 'hi\n');
  assert.equal((await httpCall(url, 'DELETE', `/v1/sessions/${session.body.id}`)).status, 200);
  // Processes that just ended may be zombies for a moment; reaped ones go. None may stay.
  let zombies: number[] = [];
  for (let i = 0; i < 300; i++) {
    zombies = descendants(init).filter((pid) => stateOf(pid) === 'Z');
    if (zombies.length === 0) break;
    await sleep(100);
  }
  assert.deepEqual(zombies.map(commandOf), [], 'zombies under pid 1');
  const exited = new Promise<number | null>((resolve) => unshare.once('exit', (code) => resolve(code)));
  process.kill(init, 'SIGTERM');
  assert.equal(await exited, 0, 'serve drained and exited 0 through the reaper');
});
