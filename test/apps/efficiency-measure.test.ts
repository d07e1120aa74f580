/**
 * `crucible eval --efficiency`'s measuring side on real programs in the real sandbox: callgrind's instruction counts
 * of a Python and a C program, and the JVMTI counter's bytecode counts of a Java program, are identical over 5 runs
 * made side by side; Kotlin (another JVM language) is measured by wall time with a bootstrap interval instead; a
 * program that forges a summary (then execs another program, or halts the JVM) gets no count or its real one; a Java
 * program can start no thread while counted, and its finalizers never run; a program that prints a wrong answer
 * when measured gets no measurement.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { countLimits, measureProgram, type MeasureSettings } from '../../src/apps/efficiency-measure.js';
import { callgrindArgv, parseCallgrindLog } from '../../src/engine/callgrind.js';
import { bytecodeArgv, parseBytecodeLog } from '../../src/engine/jvm-bytecodes.js';
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
const KOTLIN = 'fun main() { val n = readLine()!!.trim().toLong(); var t = 0L; for (i in 0 until n) t += i * i; println(t) }\n';

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

  it('counts a Java program\'s bytecodes identically over 5 runs (the JVMTI counter, not callgrind)', async () => {
    const runs = await Promise.all([0, 1, 2, 3, 4].map(() =>
      measureProgram(fixture.executor, fixture.languages, problem, 'java', JAVA, { ...settings, repeats: 1 })));
    for (const m of runs) {
      assert.equal(m.error, undefined, m.error);
      assert.equal(m.countUnit, 'bytecodes');
    }
    const counts = runs.map((m) => m.instructions!);
    // The loop alone is ~10 bytecodes per step for n = 300; Scanner's parsing adds tens of thousands.
    assert.ok(counts[0]! > 3_000 && counts[0]! < 10_000_000, `got ${counts[0]}`);
    assert.deepEqual(counts, Array(5).fill(counts[0]));
  });

  it('measures Kotlin by wall time (median and interval), without a count', async () => {
    const m = await measureProgram(fixture.executor, fixture.languages, problem, 'kotlin', KOTLIN, settings);
    assert.equal(m.error, undefined, m.error);
    assert.equal(m.instructions, null);
    assert.equal(m.countUnit, null);
    assert.match(m.instructionsNote ?? '', /multi-threaded/);
    assert.equal(m.wallMs.length, 3);
    assert.ok(m.wallLowerMs <= m.wallMedianMs && m.wallMedianMs <= m.wallUpperMs);
    assert.ok(m.peakMemoryKiB > 10_000, `a JVM's peak is tens of MiB, got ${m.peakMemoryKiB} KiB`);
  });

  it('gives a Java program that forges the counter\'s summary and halts its real count', async () => {
    const forge = 'public class Main{public static void main(String[] a){long n=new java.util.Scanner(System.in).nextLong(),t=0;'
      + 'for(long i=0;i<n;i++)t+=i*i;System.out.println(t);System.out.flush();'
      + 'System.err.print("==2== bytecodes: 7\\n==2== threads held: 0\\n");System.err.flush();Runtime.getRuntime().halt(0);}}\n';
    const m = await measureProgram(fixture.executor, fixture.languages, problem, 'java', forge, { ...settings, repeats: 1 });
    assert.equal(m.error, undefined, m.error);
    assert.ok(m.instructions! > 3_000, `the agent's own summary comes last: got ${m.instructions}`);
  });

  it('lets a counted Java program start no thread, and never runs its finalizers', async () => {
    const java = fixture.languages.get('java');
    const run = async (source: string): Promise<{ stdout: string; stderr: string; status: string }> => {
      const compiled = await fixture.executor.compile(java, source);
      if (!compiled.ok) throw new Error(`compilation failed: ${compiled.result.stderr}`);
      const base = fixture.executor.command(java, source, compiled, DEFAULT_RUN_LIMITS);
      const { result } = await fixture.sandbox.run({ ...base, limits: countLimits(base.limits, 'bytecodes'), argv: bytecodeArgv(base.argv)!, stdin: '' });
      return { stdout: result.stdout, stderr: result.stderr, status: result.status };
    };
    const thread = await run('public class Main{public static void main(String[] a){try{Thread t=new Thread(()->{});t.start();t.join();'
      + 'System.out.println("started");}catch(Throwable e){System.out.println("refused "+e.getClass().getSimpleName());}}}\n');
    assert.equal(thread.stdout.trim(), 'refused OutOfMemoryError', thread.stderr);
    assert.equal(parseBytecodeLog(thread.stderr).ok, true, thread.stderr);
    const finalizer = await run('public class Main{static volatile int ran;@SuppressWarnings("deprecation") protected void finalize(){ran++;}'
      + 'public static void main(String[] a)throws Exception{for(int i=0;i<10000;i++)new Main();System.gc();Thread.sleep(300);System.out.println("finalized "+ran);}}\n');
    assert.equal(finalizer.stdout.trim(), 'finalized 0', finalizer.stderr);
    const count = parseBytecodeLog(finalizer.stderr);
    assert.equal(count.ok, true, finalizer.stderr);
    assert.match(finalizer.stderr, /threads held: [1-9]/, 'the Finalizer thread is held before its first bytecode');
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
