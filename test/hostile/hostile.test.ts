/**
 * The hostile-program suite: each program attacks the sandbox one way (named by the attack). Every one must
 * end with the right status, leave the host unaffected, and leave no process behind.
 */
// crucible-test: alone — its attacks are checked against wall-clock bounds (1 MiB of output within 2 s, a grandchild not waited for within 5 s) (test/run.ts runs it with no other file).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runLimits } from '../../src/limits.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import type { ExecutionResult } from '../../src/sandbox/types.js';
import { runProcessesOf } from '../support/processes.js';
import { openExecutor } from '../support/sandbox.js';

const programs = join(PROJECT_ROOT, 'test', 'hostile', 'programs');
const LANG: Record<string, string> = { py: 'python', c: 'c', sh: 'bash' };

let server: Server;
let port = 0;
let connections = 0;
before(async () => {
  server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
after(() => {
  server.close();
});

// Every attack runs on both paths: long-lived slot boxes (the default on this host) and a fresh bubblewrap per
// run (hosts where slot boxes are unavailable, and long-lived harness boxes).
for (const slotBoxes of [true, false]) {
  const { sandbox, executor, languages } = openExecutor(2, { slotBoxes });

  async function attack(file: string, stdin = '', limits = runLimits({ cpuMs: 1000, memoryKiB: 256 * 1024, outputBytes: 1 << 20 })): Promise<ExecutionResult> {
    const ext = file.split('.').pop()!;
    const result = await executor.runProgram(languages.get(LANG[ext]!), readFileSync(join(programs, file), 'utf8'), stdin, limits);
    assert.deepEqual(runProcessesOf(sandbox), [], `${file}: a process of the run survived the verdict`);
    return result;
  }

  describe(`hostile programs (${slotBoxes ? 'slot boxes' : 'a bubblewrap per run'})`, () => {
    after(async () => {
      await executor.close();
      sandbox.close();
    });

    it('runs on the intended path', () => {
      assert.equal(sandbox.usesSlotBoxes, slotBoxes);
    });

    // The attacks that end on the wall bound (a sleeper; bash's fork bomb, whose bash waits between failed forks) run
    // under a 300 ms CPU limit, so their wall bound is 2.9 s rather than 1 s's 5 s (src/limits.ts `wallMsFor`).
    const wallBound = runLimits({ cpuMs: 300, memoryKiB: 256 * 1024, outputBytes: 1 << 20 });

    for (const file of ['fork_bomb.sh', 'fork_bomb.c']) {
      it(`${file}: held by the process limit, stopped by the time limit, host still forks`, async () => {
        const r = await attack(file, '', file.endsWith('.sh') ? wallBound : undefined);
        assert.equal(r.status, 'time_limit_exceeded', `${r.status}: ${r.reason}`);
        const probe = await attack('kill_parent.py');
        assert.equal(probe.status, 'ok');
      });
    }

    it('memory bomb: memory_limit_exceeded', async () => {
      const r = await attack('memory_bomb.py');
      assert.equal(r.status, 'memory_limit_exceeded', `${r.status}: ${r.reason}`);
    });

    it('infinite loop: time_limit_exceeded on CPU time', async () => {
      const r = await attack('infinite_loop.c');
      assert.equal(r.status, 'time_limit_exceeded');
      assert.ok(r.cpuMs >= 1000, `cpuMs ${r.cpuMs}`);
    });

    it('busy threads: the CPU bound counts every thread (stopped before 1 s of wall time on 2+ cores)', async () => {
      const r = await attack('busy_threads.c');
      assert.equal(r.status, 'time_limit_exceeded');
      assert.match(r.reason ?? '', /CPU/);
    });

    it('sleeping forever: stopped by the wall bound, with almost no CPU time', async () => {
      const r = await attack('sleep_forever.py', '', wallBound);
      assert.equal(r.status, 'time_limit_exceeded');
      assert.match(r.reason ?? '', /wall/);
      assert.ok(r.cpuMs < 150, `cpuMs ${r.cpuMs}`);
    });

    it('200 MB of stdout: output_limit_exceeded quickly, never a time-out', async () => {
      const r = await attack('stdout_flood.py');
      assert.equal(r.status, 'output_limit_exceeded');
      assert.ok(r.stdoutTruncated);
      assert.equal(r.stdout.length, 1 << 20);
      assert.ok(r.wallMs < 2000, `wallMs ${r.wallMs}`);
    });

    it('stderr flood: output_limit_exceeded', async () => {
      const r = await attack('stderr_flood.py');
      assert.equal(r.status, 'output_limit_exceeded');
      assert.ok(r.stderrTruncated);
    });

    it('connecting to public addresses and DNS: blocked', async () => {
      const r = await attack('connect_public.py');
      assert.equal(r.status, 'ok', r.stderr);
      assert.equal(r.stdout.trim(), 'blocked blocked blocked');
    });

    it("connecting to a server on the host's loopback: blocked, the server sees nothing", async () => {
      const r = await attack('connect_host_loopback.py', `${port}\n`);
      assert.equal(r.status, 'ok', r.stderr);
      assert.equal(r.stdout.trim(), 'blocked 127.0.0.1\nblocked localhost\nblocked ::1');
      assert.equal(connections, 0);
    });

    it("reading /etc/shadow, /root, /home and the project's files: nothing is there", async () => {
      const r = await attack('read_secrets.py', `${PROJECT_ROOT}\n`);
      assert.equal(r.status, 'ok', r.stderr);
      for (const line of r.stdout.trim().split('\n')) assert.match(line, /^denied /, line);
    });

    it('writing outside the work directory: denied; /box and /tmp are writable and private', async () => {
      const r = await attack('write_outside.py');
      assert.equal(r.status, 'ok', r.stderr);
      const lines = r.stdout.trim().split('\n');
      assert.deepEqual(lines.slice(-2), ['wrote /box/inside.txt', 'wrote /tmp/inside.txt']);
      for (const line of lines.slice(0, -2)) assert.match(line, /^denied /, line);
      assert.equal(existsSync('/usr/crucible-escape'), false);
      assert.equal(existsSync('/crucible-escape'), false);
    });

    it('killing its parent and pid 1: the judge survives and reports exactly', async () => {
      const r = await attack('kill_parent.py');
      assert.equal(r.status, 'ok', r.stderr);
      assert.equal(r.stdout.trim(), 'still here');
    });

    it('double fork + setsid: the grandchild does not outlive the verdict', async () => {
      const r = await attack('double_fork_setsid.py');
      assert.equal(r.status, 'ok', r.stderr);
      assert.equal(r.stdout.trim(), 'parent done');
      assert.ok(r.wallMs < 5000, `the verdict waited for the grandchild: ${r.wallMs} ms`);
    });

    it('filling /tmp: stopped by the memory or file-size limit, the host /tmp is untouched', async () => {
      const r = await attack('fill_tmp.py');
      assert.ok(['memory_limit_exceeded', 'runtime_error'].includes(r.status), `${r.status}: ${r.reason}`);
      assert.equal(existsSync('/tmp/fill0'), false);
    });
  });
}
