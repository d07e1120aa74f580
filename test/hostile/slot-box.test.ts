/**
 * What a long-lived slot box must guarantee on top of the hostile suite: consecutive runs of ONE slot share a
 * bubblewrap box, so nothing a run leaves (files in /tmp or /dev/shm, SysV IPC objects, processes) may reach
 * the next run; a run sees only its own processes and work directory, holds no capability, and a box that
 * dies turns the run in progress into internal_error and is replaced for the next run.
 */
// crucible-test: alone — it gives a run's box at most 2 s (10 ms polls) to come up, then kills the box mid-run (test/run.ts runs it with no other file).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runLimits } from '../../src/limits.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { runProcessesOf } from '../support/processes.js';

const sandbox = Sandbox.create({ slots: 1 });
const limits = runLimits({ cpuMs: 5000, memoryKiB: 256 * 1024 });
const PYTHON = '/usr/bin/python3.11';

after(() => sandbox.close());

async function python(source: string, stdin = ''): Promise<{ status: string; stdout: string; stderr: string; reason?: string }> {
  const { result } = await sandbox.run({ argv: [PYTHON, '-S', '-c', source], limits, stdin });
  assert.deepEqual(runProcessesOf(sandbox), [], 'a process of the run survived the verdict');
  return result;
}

const LEAVE_TRACES = `
import ctypes, os, subprocess
libc = ctypes.CDLL(None, use_errno=True)
open('/tmp/trace', 'w').write('run 1')
open('/dev/shm/trace', 'w').write('run 1')
try:
    open('/dev/trace', 'w')
    print('wrote /dev/trace')
except OSError:
    print('denied /dev/trace')
print('shm', libc.shmget(0x5eed, 4096, 0o1666) >= 0)
subprocess.Popen(['/bin/sleep', '60'], start_new_session=True)
print('left a sleeper')
`;

const FIND_TRACES = `
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
for path in ('/tmp/trace', '/dev/shm/trace', '/dev/trace'):
    print(path, os.path.exists(path))
print('shm', libc.shmget(0x5eed, 0, 0) >= 0)
others = sorted(int(p) for p in os.listdir('/proc') if p.isdigit() and int(p) not in (1, os.getpid()))
print('other processes', others)
`;

describe('slot boxes: isolation between consecutive runs of one slot', () => {
  it('serves one-shot runs from a slot box on this host', () => {
    assert.equal(sandbox.usesSlotBoxes, true);
  });

  it('files in /tmp and /dev/shm, SysV shared memory and processes do not reach the next run', async () => {
    const first = await python(LEAVE_TRACES);
    assert.equal(first.status, 'ok', first.stderr);
    assert.equal(first.stdout, 'denied /dev/trace\nshm True\nleft a sleeper\n');
    const boxBefore = sandbox.slotBoxProcessIds;
    const second = await python(FIND_TRACES);
    assert.equal(second.status, 'ok', second.stderr);
    assert.equal(second.stdout,
      '/tmp/trace False\n/dev/shm/trace False\n/dev/trace False\nshm False\nother processes []\n');
    // Both runs were served by the same box: isolation came from the per-run namespaces, not a new box.
    assert.deepEqual(sandbox.slotBoxProcessIds, boxBefore);
  });

  it('a run is pid 2 under its own init, holds no capability, and cannot list the work directories', async () => {
    const r = await python(`
import os
status = dict(line.split(':\\t', 1) for line in open('/proc/self/status').read().splitlines() if ':\\t' in line)
print(os.getpid(), os.getppid())
print(*(status[k].strip() for k in ('CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb', 'NoNewPrivs')))
try:
    print(os.listdir('/crucible/runs'))
except PermissionError:
    print('denied /crucible/runs')
print(os.getcwd(), sorted(os.listdir('/box')))
`);
    assert.equal(r.status, 'ok', r.stderr);
    const zero = '0000000000000000';
    assert.equal(r.stdout, `2 1\n${zero} ${zero} ${zero} ${zero} ${zero} 1\ndenied /crucible/runs\n/box []\n`);
  });

  it("another run's kept work directory is out of reach", async () => {
    const kept = await sandbox.run({ argv: ['/bin/true'], files: { 'secret.txt': 'expected output' }, limits, keepWorkDir: true });
    assert.equal(kept.result.status, 'ok');
    try {
      const r = await python(`
import os, sys
for path in sys.stdin.read().split():
    try:
        open(os.path.join(path, 'secret.txt')).read()
        print('read', path)
    except OSError:
        print('denied')
`, `${kept.workDir} /crucible/runs/${kept.workDir!.split('/').slice(-2).join('/')}\n`);
      assert.equal(r.status, 'ok', r.stderr);
      assert.equal(r.stdout, 'denied\ndenied\n');
    } finally {
      sandbox.discard(kept.workDir!);
    }
  });

  it('a box that dies mid-run gives internal_error for that run, and the next run gets a new box', async () => {
    const pending = python('import time; print("started", flush=True); time.sleep(30)');
    let pids: readonly number[] = [];
    for (let i = 0; i < 200 && pids.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      pids = sandbox.slotBoxProcessIds;
    }
    assert.equal(pids.length, 2, 'bubblewrap and box-server are up');
    process.kill(pids[1]!, 'SIGKILL');
    const killed = await pending;
    assert.equal(killed.status, 'internal_error', `${killed.status}: ${killed.reason}`);
    const next = await python('print("fresh")');
    assert.equal(next.status, 'ok', next.stderr);
    assert.equal(next.stdout, 'fresh\n');
    assert.notDeepEqual(sandbox.slotBoxProcessIds, pids);
  });
});
