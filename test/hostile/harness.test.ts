/**
 * The Python judge harness (eval, serve, rerank) against candidates that hide work from it: every CPU-second
 * and byte a candidate causes, in any process, counts against it (the candidate sub-cgroup, made and limited
 * outside the box); consecutive candidates of one harness box share nothing; the end-of-job sweep waits for
 * processes that take time to die instead of failing the job. Real harness boxes through PythonHarnessPool.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PythonHarnessPool } from '../../src/engine/harness-pool.js';
import type { HarnessJob } from '../../src/judge/harness/protocol.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { openExecutor, pythonInterpreter } from '../support/sandbox.js';

const source = (file: string): string => readFileSync(join(PROJECT_ROOT, 'test', 'hostile', 'programs', 'harness', file), 'utf8');
const CHECK_ONE = 'def check(candidate):\n    assert candidate() == 1\n';

function unitTest(program: string, limits: Partial<HarnessJob> = {}): HarnessJob {
  return { mode: 'unit_test', program, prelude: '', test: CHECK_ONE, entryPoint: 'f', cpuMs: 1000, wallMs: 10_000,
    memoryKiB: 1024 * 1024, outputBytes: 1 << 16, ...limits } as HarnessJob;
}

describe('Python harness: what a candidate causes counts, and nothing of it reaches the next', () => {
  const { sandbox } = openExecutor(1, {});
  // One zygote: consecutive jobs share its box, as consecutive samples of a run do.
  const pool = new PythonHarnessPool(sandbox, pythonInterpreter(), 1);
  after(() => {
    pool.close();
    sandbox.close();
  });

  it('grandchild_cpu.py: 1.5 s of CPU burnt by an orphaned grandchild under a 1 s limit is time_limit_exceeded', async () => {
    const r = await pool.run(unitTest(source('grandchild_cpu.py')));
    assert.equal(r.status, 'time_limit_exceeded', JSON.stringify(r));
    assert.ok(r.cpuMs > 1000, `cpuMs ${r.cpuMs}`);
  });

  it('the same work done by the candidate process itself within the limit still passes', async () => {
    const r = await pool.run(unitTest('def f():\n    return 1\n'));
    assert.equal(r.status, 'passed', JSON.stringify(r));
  });

  it('a candidate holds no capability and has no_new_privs (the spawner checks its own once; each candidate inherits them)', async () => {
    // Two candidates in a row of one box: the second is forked from the same spawner after a job's sweep.
    const program = 'def f():\n    keep = ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs")\n' +
      '    return " ".join(l.split()[0] + l.split()[1] for l in open("/proc/self/status") if l.split(":")[0] in keep)\n';
    for (let i = 0; i < 2; i++) {
      const r = await pool.run({ ...unitTest(program), mode: 'call', inputs: [[]] } as HarnessJob);
      assert.equal(r.status, 'ok', JSON.stringify(r));
      assert.equal(r.results?.[0]?.value, 'CapInh:0000000000000000 CapPrm:0000000000000000 CapEff:0000000000000000 ' +
        'CapBnd:0000000000000000 CapAmb:0000000000000000 NoNewPrivs:1');
    }
  });

  it('children_memory.py: 2 children x 700 MB under a 1 GiB limit is memory_limit_exceeded', async () => {
    const r = await pool.run(unitTest(source('children_memory.py'), { cpuMs: 20_000, wallMs: 60_000 }));
    assert.equal(r.status, 'memory_limit_exceeded', JSON.stringify(r));
  });

  it('leave_traces.py then find_traces.py: files in /box, /tmp, /dev/shm, a deep tree, SysV memory, a sleeper: none reach the next candidate', async () => {
    const left = await pool.run({ ...unitTest(source('leave_traces.py')), mode: 'call', inputs: [[]] } as HarnessJob);
    assert.equal(left.status, 'ok', JSON.stringify(left));
    assert.equal(left.results?.[0]?.value, '/box/trace /tmp/trace /dev/shm/trace shm');
    const found = await pool.run({ ...unitTest(source('find_traces.py')), mode: 'call', inputs: [[]] } as HarnessJob);
    assert.equal(found.status, 'ok', JSON.stringify(found));
    assert.match(String(found.results?.[0]?.value), /^found \[\]; /);
    assert.equal(pool.stats.zygoteRestarts, 0, 'the same harness box served both candidates');
  });

  it('a generated test (assertions mode) that hides CPU in an orphaned grandchild is time_limit_exceeded', async () => {
    const assertion = 'import os, time\n' +
      'r, w = os.pipe()\n' +
      'if os.fork() == 0:\n' +
      '    if os.fork() == 0:\n' +
      '        t = time.process_time()\n' +
      '        while time.process_time() - t < 1.5: pass\n' +
      '        os.write(w, b"1")\n' +
      '        os._exit(0)\n' +
      '    os._exit(0)\n' +
      'os.wait()\n' +
      'os.read(r, 1)\n' +
      'assert f() == 1\n';
    const r = await pool.run({ mode: 'assertions', program: 'def f():\n    return 1\n', prelude: '', entryPoint: 'f',
      assertions: [assertion, 'assert f() == 1\n'], cpuMs: 1000, wallMs: 10_000, memoryKiB: 512 * 1024, outputBytes: 1 << 16 });
    assert.equal(r.status, 'ok', JSON.stringify(r));
    assert.equal(r.results?.[0]?.status, 'time_limit_exceeded', JSON.stringify(r.results));
    assert.equal(r.results?.[1]?.status, 'passed', JSON.stringify(r.results));
  });

  it('the sweep waits for processes that are slow to die (8 children holding 100 MB each) instead of failing the job', async () => {
    const program = 'import os, time\n' +
      'def f():\n' +
      '    for _ in range(8):\n' +
      '        if os.fork() == 0:\n' +
      '            b = bytearray(100 * 1024 * 1024)\n' +
      '            time.sleep(60)\n' +
      '    return 1\n';
    for (let i = 0; i < 3; i++) {
      const r = await pool.run(unitTest(program, { cpuMs: 5000, memoryKiB: 2 * 1024 * 1024 }));
      assert.equal(r.status, 'passed', JSON.stringify(r));
    }
  });
});
