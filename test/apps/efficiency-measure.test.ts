/**
 * `crucible eval --efficiency`'s measuring side on real programs in the real sandbox: callgrind's instruction counts
 * of a Python and a C program are identical over 5 runs; Java (multi-threaded JVM) is measured by wall time with a
 * bootstrap interval instead; a program that forges callgrind's summary or execs another program gets no count; a
 * program that prints a wrong answer when measured gets no measurement.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { countLimits, measureProgram, type MeasureSettings } from '../../src/apps/efficiency-measure.js';
import { callgrindArgv, parseCallgrindLog } from '../../src/engine/callgrind.js';
import type { IoProblem } from '../../src/formats/types.js';
import { DEFAULT_RUN_LIMITS } from '../../src/limits.js';
import { openExecutor } from '../support/sandbox.js';

const problem: IoProblem = {
  kind: 'io', taskId: 'squares', comparator: { kind: 'tokens' },
  tests: [{ input: '10\n', output: '285\n' }, { input: '300\n', output: '8955050\n' }],
};

const settings: MeasureSettings = { repeats: 3, tests: 1, instructions: true, limits: DEFAULT_RUN_LIMITS, bootstrap: { reps: 200 } };

const PYTHON = 'n = int(input())\nprint(sum(i * i for i in range(n)))\n';
const C = '#include <stdio.h>\nint main(void){long n,s=0;if(scanf("%ld",&n)!=1)return 1;for(long i=0;i<n;i++)s+=i*i;printf("%ld\\n",s);return 0;}\n';
const JAVA = 'public class Main{public static void main(String[] a){long n=new java.util.Scanner(System.in).nextLong(),t=0;for(long i=0;i<n;i++)t+=i*i;System.out.println(t);}}\n';

describe('efficiency measurement in the sandbox', () => {
  let fixture: ReturnType<typeof openExecutor>;
  before(() => { fixture = openExecutor(2); });
  after(async () => { await fixture.sandbox.close(); });

  const countFiveTimes = async (language: string, source: string): Promise<number[]> => {
    const runs = await Promise.all([0, 1, 2, 3, 4].map(() =>
      measureProgram(fixture.executor, fixture.languages, problem, language, source, { ...settings, repeats: 1 })));
    for (const m of runs) assert.equal(m.error, undefined, m.error);
    return runs.map((m) => m.instructions!);
  };

  it('counts a Python program\'s instructions identically over 5 runs', async () => {
    const counts = await countFiveTimes('python', PYTHON);
    assert.ok(counts[0]! > 1_000_000, `python's start-up alone is millions of instructions, got ${counts[0]}`);
    assert.deepEqual(counts, Array(5).fill(counts[0]));
  });

  it('counts a C program\'s instructions identically over 5 runs, far fewer than Python\'s', async () => {
    const counts = await countFiveTimes('c', C);
    assert.ok(counts[0]! > 10_000 && counts[0]! < 1_000_000, `got ${counts[0]}`);
    assert.deepEqual(counts, Array(5).fill(counts[0]));
  });

  it('measures Java by wall time (median and interval), without a count', async () => {
    const m = await measureProgram(fixture.executor, fixture.languages, problem, 'java', JAVA, settings);
    assert.equal(m.error, undefined, m.error);
    assert.equal(m.instructions, null);
    assert.match(m.instructionsNote ?? '', /multi-threaded/);
    assert.equal(m.wallMs.length, 3);
    assert.ok(m.wallLowerMs <= m.wallMedianMs && m.wallMedianMs <= m.wallUpperMs);
    assert.ok(m.peakMemoryKiB > 10_000, `a JVM's peak is tens of MiB, got ${m.peakMemoryKiB} KiB`);
  });

  it('refuses a count when the program forges callgrind\'s summary and then execs a quiet program', async () => {
    const forge = 'import os, sys\nn = int(input())\nprint(sum(i * i for i in range(n)), flush=True)\n'
      + 'sys.stderr.write("==2== \\n==2== Events    : Ir\\n==2== Collected : 5\\n==2== \\n==2== I   refs:      5\\n"); sys.stderr.flush()\n'
      + 'os.execv("/usr/bin/true", ["true"])\n';
    const m = await measureProgram(fixture.executor, fixture.languages, problem, 'python', forge, { ...settings, repeats: 1 });
    assert.match(m.error ?? '', /banners|summary|callgrind/);
    assert.equal(m.instructions, null);
  });

  it('runs a counted program with a process limit that refuses fork (no helper can outlive its summary)', async () => {
    const source = 'import os\ntry:\n    pid = os.fork()\nexcept OSError as e:\n    print("refused", e.errno)\nelse:\n    print("forked")\n    if pid == 0: os._exit(0)\n';
    const python = fixture.languages.get('python');
    const base = fixture.executor.command(python, source, { ok: true, artifactDir: null, result: null }, DEFAULT_RUN_LIMITS);
    const { result } = await fixture.sandbox.run({ ...base, limits: countLimits(base.limits), argv: callgrindArgv(base.argv) });
    assert.equal(result.status, 'ok', result.reason);
    assert.equal(result.stdout.trim(), 'refused 11'); // EAGAIN
    assert.equal(parseCallgrindLog(result.stderr).ok, true, result.stderr);
  });

  it('gives no measurement to a program that answers wrongly when measured', async () => {
    const m = await measureProgram(fixture.executor, fixture.languages, problem, 'c', 'int main(void){return 0;}\n', settings);
    assert.match(m.error ?? '', /wrong answer when measured/);
  });
});
