/**
 * Hostile session steps (issue #23, items 5, 6 and 10), on real session boxes through `SessionManager`: a step
 * that fakes the end of its step and then kills its REPL (python and bash, at several delays so that the REPL dies
 * before, during and after the agent's sweep) must not wedge the session; a child forked right after a faked end
 * must not run between steps; pipes at EOF must not make the agent spin; a step's output costs the server about
 * its own size; an idle session pins no more host memory than its limit, which admission reserves (item 7). The
 * programs are in test/hostile/programs/sessions/.
 */
// crucible-test: alone — REPLs are killed at set delays before, during and after the agent's sweep, and the agent's CPU between steps is measured (test/run.ts runs it with no other file).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { BoxEnvironment } from '../../src/sessions/environments/box-environment.js';
import { SessionManager } from '../../src/sessions/manager.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { SessionError, type Observation } from '../../src/sessions/types.js';

const programs = join(PROJECT_ROOT, 'test', 'hostile', 'programs', 'sessions');
const program = (name: string, prelude: string): string => `${prelude}\n${readFileSync(join(programs, name), 'utf8')}`;

let manager: SessionManager;

before(() => {
  manager = new SessionManager({
    maxSessions: 8, evictionIntervalMs: 0,
    defaultLimits: { cpuMs: 2000, wallMs: 6000, memoryKiB: 128 * 1024, outputBytes: 1 << 20, diskKiB: 16 * 1024 },
  });
});

after(async () => {
  await manager.close();
});

async function step(id: string, action: string): Promise<Observation> {
  return (await manager.step(id, action)).observation;
}

function boxOf(id: string) {
  const box = (manager.environmentOf(id) as BoxEnvironment | undefined)?.sessionBox;
  assert.ok(box, 'the session has a box');
  return box;
}

/** Host pid of the session agent of a box running as `uid`. */
function agentOf(uid: number): number {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      if (Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) !== uid) continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('session-agent')) return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  assert.fail(`no session agent runs as uid ${uid}`);
}

/** CPU time (user + system) process `pid` has used, ms. */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat (11 and 12 after the state), in clock ticks (100 per second).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

describe('a faked end of step, then the REPL killed: the session goes on (item 5)', () => {
  for (const kind of ['python', 'bash'] as const) {
    for (const delayS of [0, 0.001, 0.002, 0.005, 0.02]) {
      test(`${kind}, REPL killed ${delayS * 1000} ms after the faked end`, { timeout: 120_000 }, async () => {
        const id = (await manager.create({ environment: kind })).id;
        await step(id, kind === 'python' ? 'mark = 1' : 'MARK=1');
        const file = kind === 'python' ? 'forged_report_kill.py' : 'forged_report_kill.sh';
        const faked = await step(id, program(file, kind === 'python' ? `delay_s = ${delayS}` : `delay_s=${delayS}`));
        assert.ok(['ok', 'runtime_error'].includes(faked.status), `${faked.status}: ${faked.reason ?? ''}`);
        // The next step answers, runs in a working REPL and says the state was lost.
        const probe = kind === 'python' ? 'print("alive", "mark" in globals())' : 'echo alive ${MARK:-gone}';
        let next = await step(id, probe);
        const told = next;
        if (next.status !== 'ok') {
          // The REPL was still alive (stopped) when this step began and died in it: this step says so, the next works.
          assert.equal(next.status, 'runtime_error', `${next.status}: ${next.reason ?? ''}`);
          next = await step(id, probe);
        }
        assert.equal(next.status, 'ok', `${next.status}: ${next.reason ?? ''} ${next.stderr}`);
        assert.equal(next.stdout, kind === 'python' ? 'alive False\n' : 'alive gone\n');
        assert.equal(told.restarted, true);
        assert.match(String(told.notice), /(had ended after the previous step|was restarted after this step).* lost/);
        assert.equal((await step(id, kind === 'python' ? 'print(2)' : 'echo 2')).stdout, '2\n');
        await manager.delete(id);
      });
    }
  }

  test('TTL eviction closes a session whose REPL was killed after a faked end', { timeout: 120_000 }, async () => {
    const id = (await manager.create({ environment: 'python', ttlSeconds: 1 })).id;
    await step(id, program('forged_report_kill.py', 'delay_s = 0.001'));
    assert.equal(await manager.evictIdle(Date.now() + 5000), 1);
    assert.equal(manager.has(id), false);
  });
});

describe('nothing of a session runs between its steps (item 6)', () => {
  test('a child forked right after a faked end accrues no CPU between steps (10 tries)', { timeout: 300_000 }, async () => {
    const id = (await manager.create({ environment: 'python', limits: { cpuMs: 1000, wallMs: 4000 } })).id;
    for (let attempt = 0; attempt < 10; attempt++) {
      const r = await step(id, program('forged_report_burner.py', `# attempt ${attempt}`));
      assert.ok(['ok', 'runtime_error', 'time_limit_exceeded'].includes(r.status), `${r.status}: ${r.reason ?? ''}`);
      const box = boxOf(id);
      const before = box.sessionCpuNs();
      assert.notEqual(before, null, 'the session has a sub-cgroup to measure');
      // However loaded the host, a process that runs for 300 ms of wall time gets some CPU; a stopped one none.
      await sleep(300);
      assert.equal(box.sessionCpuNs(), before, `attempt ${attempt}: the session's processes used CPU between steps`);
      // The burners run again in the next step, which ends at its CPU limit and replaces the REPL.
      const next = await step(id, 'print("next")');
      assert.ok(['ok', 'time_limit_exceeded', 'runtime_error'].includes(next.status), next.status);
    }
    await manager.delete(id);
  });
});

describe('the agent never spins (item 5)', () => {
  test('a step that closed stdout, stderr and its report socket costs the agent no CPU while it sleeps', { timeout: 120_000 }, async () => {
    const id = (await manager.create({ environment: 'python', limits: { cpuMs: 1000, wallMs: 3000 } })).id;
    const agent = agentOf(boxOf(id).uid);
    const before = cpuMsOf(agent);
    const r = await step(id, program('closed_streams.py', ''));
    assert.equal(r.status, 'time_limit_exceeded', `${r.status}: ${r.reason ?? ''}`);
    // 3 s of waiting in poll() with a 50 ms timeout is ~60 wake-ups; a spinning agent burns a core's share.
    const spent = cpuMsOf(agent) - before;
    assert.ok(spent < 150, `the agent used ${spent} ms of CPU during a 3 s step whose streams were closed`);
    assert.equal((await step(id, 'print(1)')).stdout, '1\n');
    await manager.delete(id);
  });
});

describe('a step\'s output costs the server about its own size (item 10)', () => {
  test('1 MiB of control bytes comes back whole, raw, and the session goes on', { timeout: 120_000 }, async () => {
    const id = (await manager.create({ environment: 'python', limits: { outputBytes: 1 << 20 } })).id;
    const r = await step(id, program('output_amplifier.py', `n_bytes = ${1 << 20}`));
    assert.equal(r.status, 'ok', `${r.status}: ${r.reason ?? ''}`);
    assert.equal(r.stdout.length, 1 << 20);
    assert.equal(r.stdoutTruncated, false);
    assert.equal(r.stdout.charCodeAt(0), 1);
    assert.equal(r.stdout.charCodeAt(30), 31);
    const over = await step(id, program('output_amplifier.py', `n_bytes = ${(1 << 20) + 1}`));
    assert.equal(over.status, 'output_limit_exceeded');
    assert.equal(over.stdoutTruncated, true);
    assert.equal(over.stdout.length, 1 << 20, 'the cut output is the limit, flagged as cut');
    assert.equal((await step(id, 'print(3)')).stdout, '3\n');
    await manager.delete(id);
  });
  test('four steps that each write 16 MiB grow the server\'s resident memory by tens of MiB at most, not the 2.5 GiB they once cost', { timeout: 120_000 }, async () => {
    const id = (await manager.create({ environment: 'python', limits: { outputBytes: 1 << 20 } })).id;
    const baseKiB = process.memoryUsage().rss / 1024;
    let peakKiB = baseKiB;
    const sampler = setInterval(() => { peakKiB = Math.max(peakKiB, process.memoryUsage().rss / 1024); }, 5);
    try {
      for (let i = 0; i < 4; i++) {
        const r = await step(id, program('output_amplifier.py', `n_bytes = ${16 << 20}`));
        assert.equal(r.status, 'output_limit_exceeded', `${r.status}: ${r.reason ?? ''}`);
        assert.equal(r.stdout.length, 1 << 20);
      }
    } finally {
      clearInterval(sampler);
    }
    peakKiB = Math.max(peakKiB, process.memoryUsage().rss / 1024);
    const grownMiB = (peakKiB - baseKiB) / 1024;
    // 64 MiB written; the returned outputs are 4 MiB of text. Before the fix a step's output was held whole and
    // re-encoded several times (~20x its size); a bound of 48 MiB leaves room for the allocator and GC lag.
    console.log(`four 16 MiB steps: the server grew ${grownMiB.toFixed(1)} MiB`);
    assert.ok(grownMiB < 48, `the server grew by ${grownMiB.toFixed(1)} MiB over four 16 MiB steps`);
    assert.equal((await step(id, 'print(3)')).stdout, '3\n');
    await manager.delete(id);
  });
});

describe('host memory: an idle session pins at most its memory limit, and admission reserves it (item 7)', () => {
  test('files filling every tmpfs stay within the session\'s memory cgroup; past the budget a session is refused', { timeout: 180_000 }, async () => {
    const MiB = 1024;
    const small = new SessionManager({
      maxSessions: 4, evictionIntervalMs: 0, memoryBudgetKiB: 300 * MiB,
      defaultLimits: { memoryKiB: 128 * MiB, diskKiB: 1024 * MiB, wallMs: 60_000, cpuMs: 20_000 },
    });
    try {
      const a = (await small.create({ environment: 'bash' })).id;
      const filled = (await small.step(a, program('fill_disk_idle.sh', ''))).observation;
      assert.ok(['ok', 'runtime_error', 'memory_limit_exceeded'].includes(filled.status), `${filled.status}: ${filled.reason ?? ''}`);
      const box = (small.environmentOf(a) as BoxEnvironment).sessionBox!;
      // The box's files are still there (the session sits idle with them) and all of it is in the slot's memory cgroup.
      const slotMemory = box.cgroupDirs.find((d) => d.includes('/memory/') && !d.endsWith('/session'))!;
      const pinnedKiB = Number(readFileSync(join(slotMemory, 'memory.usage_in_bytes'), 'utf8')) / 1024;
      assert.ok(pinnedKiB > 64 * MiB, `the files were written (${Math.round(pinnedKiB / MiB)} MiB pinned)`);
      assert.ok(pinnedKiB <= 128 * MiB + 16 * MiB, `an idle session pins ${Math.round(pinnedKiB / MiB)} MiB, more than its 128 MiB limit and the box's 16`);
      assert.equal(small.stats.reservedMemoryKiB, 144 * MiB);
      const b = (await small.create({ environment: 'python' })).id;
      assert.equal(small.stats.reservedMemoryKiB, 288 * MiB);
      await assert.rejects(small.create({ environment: 'sqlite' }),
        (e: unknown) => e instanceof SessionError && e.code === 'session_limit' && /host memory: .*288 MiB of the 300 MiB/.test(e.message));
      await assert.rejects(small.create({ environment: 'python', limits: { memoryKiB: 512 * MiB } }),
        (e: unknown) => e instanceof SessionError && e.code === 'invalid_task' && e.field === 'limits.memoryKiB');
      await small.delete(a);
      assert.equal(small.stats.reservedMemoryKiB, 144 * MiB);
      const c = (await small.create({ environment: 'sqlite' })).id;
      await small.delete(b);
      await small.delete(c);
      assert.equal(small.stats.reservedMemoryKiB, 0);
    } finally {
      await small.close();
    }
  });
});
