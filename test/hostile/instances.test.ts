/**
 * Several Crucible instances on one host, in different pid namespaces (a container, `unshare --pid`), where a pid
 * says nothing about liveness: each names what it makes by a random instance id and holds a flock for its life,
 * so neither sweeps the other's work directories, cgroups or namespaces while both run programs; a killed
 * instance's leftovers are swept by the next instance to start.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { runLimits } from '../../src/limits.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';

const CHILD = join(PROJECT_ROOT, 'dist', 'test', 'support', 'instance-child.js');

interface Child {
  readonly process: ChildProcess;
  readonly lines: Record<string, unknown>[];
  /** Resolves with the first line that `match` accepts. */
  waitFor(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  readonly exited: Promise<number | null>;
}

/** Start another instance in new pid and mount namespaces; it dies with the `unshare` that holds it. */
function startInstance(runs: number): Child {
  const child = spawn('unshare', ['--pid', '--fork', '--mount-proc', '--kill-child=SIGKILL', process.execPath, CHILD,
    '--instance-child', String(runs)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  const waiters: { match: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void }[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  createInterface({ input: child.stdout! }).on('line', (text) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (waiter.match(line)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    process: child, lines, exited,
    waitFor: (match) => new Promise((resolve, reject) => {
      const found = lines.find(match);
      if (found) return resolve(found);
      waiters.push({ match, resolve });
      void exited.then((code) => reject(new Error(`the other instance exited (${code}) first: ${stderr.slice(-500)}`)));
    }),
  };
}

/** Everything on the host named by instance `id`. */
function leftovers(id: string): string[] {
  const found: string[] = [];
  if (existsSync(join(tmpdir(), `crucible-${id}`))) found.push(join(tmpdir(), `crucible-${id}`));
  for (const controller of ['memory', 'pids', 'cpuacct']) {
    const base = `/sys/fs/cgroup/${controller}/crucible`;
    if (existsSync(base)) for (const name of readdirSync(base)) if (name.startsWith(`${id}-`)) found.push(join(base, name));
  }
  for (const name of readdirSync('/run/crucible/ns')) if (name.startsWith(`${id}-`)) found.push(join('/run/crucible/ns', name));
  if (existsSync(`/run/crucible/instances/${id}.lock`)) found.push(`/run/crucible/instances/${id}.lock`);
  return found;
}

async function runMany(sandbox: Sandbox, count: number, midway: () => void): Promise<string[]> {
  const outputs: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i === Math.floor(count / 2)) midway();
    const { result } = await sandbox.run({ argv: ['/usr/bin/python3.11', '-S', '-c', `print(${i})`], limits: runLimits() });
    outputs.push(`${result.status} ${result.stdout.trim()} ${result.reason ?? ''}`.trim());
  }
  return outputs;
}

describe('several instances on one host', () => {
  it('an instance in another pid namespace and this one run programs concurrently; neither disturbs the other', async () => {
    const ours = Sandbox.create({ slots: 1, boxSlots: 1 });
    let extra: Sandbox | null = null;
    try {
      const other = startInstance(20);
      const ready = await other.waitFor((line) => line['ready'] === true);
      const theirIds = ready['instanceIds'] as string[];
      // Our runs, with a new sandbox made halfway: its start sweeps while the other instance is running.
      const outputs = await runMany(ours, 20, () => {
        extra = Sandbox.create({ slots: 1, boxSlots: 1 });
      });
      assert.deepEqual(outputs, Array.from({ length: 20 }, (_, i) => `ok ${i}`));
      await other.waitFor((line) => line['holding'] === true);
      for (const id of [...theirIds, ...(other.lines.find((line) => 'second' in line)?.['second'] as string[])]) {
        assert.ok(existsSync(join(tmpdir(), `crucible-${id}`)), 'the other instance kept its work roots');
      }
      other.process.stdin!.end();
      assert.equal(await other.exited, 0);
      const theirs = other.lines.filter((line) => 'i' in line).map((line) => `${line['status']} ${String(line['stdout']).trim()}`);
      assert.deepEqual(theirs, Array.from({ length: 20 }, (_, i) => `ok ${i}`));
      // It swept nothing of ours either: we still run.
      const after = await runMany(ours, 2, () => {});
      assert.deepEqual(after, ['ok 0', 'ok 1']);
      for (const id of theirIds) assert.deepEqual(leftovers(id), [], 'the other instance cleaned up after itself');
    } finally {
      (extra as Sandbox | null)?.close();
      ours.close();
    }
  });

  it("a killed instance's work root, cgroups, namespace files and lock are swept by the next instance", async () => {
    const other = startInstance(0);
    const ready = await other.waitFor((line) => line['ready'] === true);
    await other.waitFor((line) => line['holding'] === true);
    const theirIds = ready['instanceIds'] as string[];
    for (const id of theirIds) assert.notDeepEqual(leftovers(id), [], 'the other instance made its resources');
    other.process.kill('SIGKILL');
    await other.exited;
    const next = Sandbox.create({ slots: 1, boxSlots: 1 });
    try {
      for (const id of theirIds) assert.deepEqual(leftovers(id), [], `leftovers of the killed instance ${id}`);
      const { result } = await next.run({ argv: ['/usr/bin/python3.11', '-S', '-c', 'print("alive")'], limits: runLimits() });
      assert.equal(result.stdout, 'alive\n');
    } finally {
      next.close();
    }
  });
});
