/**
 * A run's writable space (/box, /tmp, /dev/shm) is one tmpfs of `limits.diskKiB` that dies with the run: a
 * program that writes past it gets ENOSPC and a verdict that says so, never the host's disk; a tree no path can
 * name (3000 levels of 50-character names), modes 000, odd names and links never reach the host, so clean-up
 * cannot fail and the slot is always released. A kept work directory (a compilation's) receives only a
 * sanitised copy that Crucible can list and remove. Both one-shot paths, and the Python harness's boxes.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runLimits } from '../../src/limits.js';
import { PythonHarnessPool } from '../../src/engine/harness-pool.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import type { ExecutionResult, Limits } from '../../src/sandbox/types.js';
import { runProcessesOf } from '../support/processes.js';
import { openExecutor, pythonInterpreter } from '../support/sandbox.js';

const programs = join(PROJECT_ROOT, 'test', 'hostile', 'programs');
const source = (file: string): string => readFileSync(join(programs, file), 'utf8');
const PYTHON = '/usr/bin/python3.11';

/** Every file and directory under `dir` (paths relative to it), and the deepest level reached. */
function listTree(dir: string): { readonly entries: string[]; readonly depth: number } {
  const entries: string[] = [];
  let depth = 0;
  const walk = (path: string, rel: string, level: number): void => {
    depth = Math.max(depth, level);
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      entries.push(join(rel, name));
      if (statSync(full).isDirectory()) walk(full, join(rel, name), level + 1);
    }
  };
  walk(dir, '', 0);
  return { entries, depth };
}

for (const slotBoxes of [true, false]) {
  const { sandbox, executor, languages } = openExecutor(1, { slotBoxes });
  const limits = runLimits({ cpuMs: 5000, memoryKiB: 512 * 1024 });
  const workRoots = (): string[] => sandbox.instanceIds.map((id) => join(tmpdir(), `crucible-${id}`));

  async function attack(file: string, runLimitsOverride: Limits = limits): Promise<ExecutionResult> {
    const result = await executor.runProgram(languages.get('python'), source(file), '', runLimitsOverride);
    assert.deepEqual(runProcessesOf(sandbox), [], `${file}: a process of the run survived the verdict`);
    assert.equal(sandbox.busySlots, 0, `${file}: the slot was not released`);
    return result;
  }

  /** Nothing left under any work root of this sandbox but the empty slot directories. */
  function assertNoLeftovers(): void {
    for (const root of workRoots()) {
      for (const slot of readdirSync(root)) assert.deepEqual(readdirSync(join(root, slot)), [], `left in ${root}/${slot}`);
    }
  }

  describe(`writable space and clean-up (${slotBoxes ? 'slot boxes' : 'a bubblewrap per run'})`, () => {
    after(async () => {
      await executor.close();
      sandbox.close();
    });

    it('runs on the intended path', () => {
      assert.equal(sandbox.usesSlotBoxes, slotBoxes);
    });

    it('fill_disk.py: 3 GiB to /box ends in ENOSPC at the default quota (64 MiB), with a verdict that says so', async () => {
      const r = await attack('fill_disk.py');
      assert.equal(r.status, 'runtime_error', `${r.status}: ${r.reason}`);
      const written = Number(/^ENOSPC after (\d+) MiB$/m.exec(r.stdout)?.[1]);
      assert.ok(written >= 60 && written <= 64, `wrote ${written} MiB: ${r.stdout}`);
      assert.match(r.reason ?? '', /writable space of 65536 KiB .* was full: writes failed with ENOSPC/);
      assertNoLeftovers();
    });

    it('the quota is per request (limits.diskKiB) and covers /box, /tmp and /dev/shm together', async () => {
      const r = await executor.runProgram(languages.get('python'), `
import errno
chunk = b"x" * (1 << 20)
for path in ("/box/a", "/tmp/b", "/dev/shm/c"):
    n = 0
    try:
        with open(path, "wb") as f:
            while n < 64:
                f.write(chunk)
                f.flush()
                n += 1
    except OSError as e:
        print(path, errno.errorcode[e.errno], n)
        continue
    print(path, "wrote", n)
`, '', { ...limits, diskKiB: 100 * 1024 });
      assert.equal(r.status, 'ok', `${r.status}: ${r.reason} ${r.stderr}`);
      const lines = r.stdout.trim().split('\n');
      assert.equal(lines[0], '/box/a wrote 64');
      assert.match(lines[1]!, /^\/tmp\/b ENOSPC (3[0-6])$/);
      assert.match(lines[2]!, /^\/dev\/shm\/c ENOSPC 0$/);
    });

    it('deep_tree.py: 3000 levels of 50-character names, modes 000, odd names, a link to /: ok, slot free, nothing left', async () => {
      const r = await attack('deep_tree.py');
      assert.equal(r.status, 'ok', `${r.status}: ${r.reason} ${r.stderr}`);
      assert.equal(r.stdout, 'built\n');
      assertNoLeftovers();
      const next = await attack('kill_parent.py');
      assert.equal(next.status, 'ok', 'the slot serves the next run');
    });

    it('a kept work directory (a compilation) gets a sanitised copy that discard removes', async () => {
      const { result, workDir } = await sandbox.run({
        argv: [PYTHON, '-S', 'deep_tree.py'], files: { 'deep_tree.py': source('deep_tree.py') }, limits, keepWorkDir: true,
      });
      assert.equal(result.status, 'ok', `${result.status}: ${result.reason}`);
      assert.ok(workDir && existsSync(workDir));
      const { entries, depth } = listTree(workDir);
      // The program's source, the deep tree cut at 16 levels with its leaf unreachable, the mode-000 file and
      // directory made readable copies; the link, the newline name and the non-UTF-8 name skipped.
      assert.ok(depth <= 16, `depth ${depth}`);
      assert.ok(entries.includes('deep_tree.py'));
      assert.ok(entries.includes('unreadable') && entries.includes('-rf') && entries.includes(join('locked', 'inside')));
      assert.ok(!entries.some((e) => e.includes('\n') || e.includes('root-link') || e.endsWith('leaf')), entries.join(' | '));
      assert.equal(sandbox.discard(workDir), null);
      assert.equal(existsSync(workDir), false);
    });
  });
}

describe('writable space of the Python harness (per candidate, emptied between candidates)', () => {
  const { sandbox } = openExecutor(1);
  const pool = new PythonHarnessPool(sandbox, pythonInterpreter(), 1);
  after(() => {
    pool.close();
    sandbox.close();
  });

  it('fill_box.py: a candidate writing 3 GiB to /box meets ENOSPC at the box quota (256 MiB), and the next finds /box empty', async () => {
    const limits = { cpuMs: 10_000, wallMs: 30_000, memoryKiB: 1024 * 1024, outputBytes: 1 << 16 };
    const r = await pool.run({ mode: 'call', program: source('harness/fill_box.py'), entryPoint: 'f', inputs: [[]], ...limits });
    assert.equal(r.status, 'ok', JSON.stringify(r));
    const written = Number(/^ENOSPC after (\d+) MiB$/.exec(String(r.results?.[0]?.value))?.[1]);
    assert.ok(written >= 250 && written <= 256, `${String(r.results?.[0]?.value)}`);
    const next = await pool.run({ mode: 'call', program: 'import os\ndef f():\n    return os.listdir("/box")\n', entryPoint: 'f', inputs: [[]], ...limits });
    assert.deepEqual(next.results?.[0]?.value, { l: [] });
  });
});
