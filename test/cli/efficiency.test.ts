/**
 * `crucible eval --efficiency` with the real CLI and sandbox (issue #28, item 7): passing samples of an io problem
 * are measured against its reference solution; a C sample that does the reference's work in fewer instructions
 * gets DPS 100 and Beyond 100, a Python sample slower than a C reference gets 0; failing samples are not measured
 * but count in Beyond's denominator; the measurement is in the JSON summary and in the text. Java programs are
 * counted in bytecodes (the JVMTI counter) and compared by count with a Java reference only: against it a Python
 * sample is compared by wall time.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { join } from 'node:path';
import { cliWorkspace } from '../support/cli.js';
import { openResultStore } from '../../src/store/open.js';
import { startDashboard } from '../../src/dashboard/server.js';

const { dir, crucible, file } = cliWorkspace('efficiency');

const C_LOOP = '#include <stdio.h>\nint main(void){long n,s=0;if(scanf("%ld",&n)!=1)return 1;for(long i=0;i<n;i++)s+=i*i;printf("%ld\\n",s);return 0;}\n';
const C_FORMULA = '#include <stdio.h>\nint main(void){long n;if(scanf("%ld",&n)!=1)return 1;printf("%ld\\n",(n-1)*n*(2*n-1)/6);return 0;}\n';
const PYTHON = 'n = int(input())\nprint(sum(i * i for i in range(n)))\n';
const JAVA_LOOP = 'public class Main{public static void main(String[] a){long n=new java.util.Scanner(System.in).nextLong(),s=0;for(long i=0;i<n;i++)s+=i*i;System.out.println(s);}}\n';
const JAVA_FORMULA = 'public class Main{public static void main(String[] a){long n=new java.util.Scanner(System.in).nextLong();System.out.println((n-1)*n*(2*n-1)/6);}}\n';

interface Summary {
  efficiency: {
    problems: { taskId: string; reference: { instructions: number; memoryKiBMs: number; memorySamples: number }; samples: { sampleIndex: number; costUnit: string; cost: number; dps: number; beyond: number; ntmu: number; measurement: { language: string; wallMs: number[] } }[] }[];
    aggregate: { measuredSamples: number; dps: number; beyond: number; nmu: number; ntmu: number };
  };
}

describe('crucible eval --efficiency', () => {
  it('measures passing samples against the reference and reports DPS and Beyond', async () => {
    const problems = file('problems.jsonl', [{ taskId: 'squares', comparator: { kind: 'tokens' },
      tests: [{ input: '10\n', output: '285\n' }, { input: '20000\n', output: '2666466670000\n' }],
      referenceSolution: { language: 'c', code: C_LOOP } }]);
    const samples = file('samples.jsonl', [
      { task_id: 'squares', language: 'c', solution: C_FORMULA },
      { task_id: 'squares', language: 'python', solution: PYTHON },
      { task_id: 'squares', language: 'c', solution: 'int main(void){return 0;}\n' },
    ]);
    const run = await crucible(['eval', '--no-progress', '--no-store', '--problems', problems, '--samples', samples, '--k', '1',
      '--efficiency', '--efficiency-repeats', '3', '--reps', '200', '--out', join(dir, 'run'), '--json']);
    assert.equal(run.code, 0, run.stderr);
    const { efficiency } = JSON.parse(run.stdout) as Summary;
    const [problem] = efficiency.problems;
    assert.ok(problem!.reference.instructions > 20000 * 3, 'the reference loops 20000 times');
    const bySample = new Map(problem!.samples.map((s) => [s.sampleIndex, s]));
    assert.deepEqual([...bySample.keys()].sort(), [0, 1], 'only passing samples are measured');
    assert.equal(bySample.get(0)!.costUnit, 'instructions');
    assert.ok(bySample.get(0)!.cost < problem!.reference.instructions);
    assert.equal(bySample.get(0)!.dps, 100);
    assert.equal(bySample.get(0)!.beyond, 1);
    assert.equal(bySample.get(1)!.dps, 0, 'python\'s start-up alone costs more than the C loop');
    assert.equal(bySample.get(1)!.beyond, 0);
    assert.equal(bySample.get(1)!.measurement.wallMs.length, 3);
    assert.equal(efficiency.aggregate.measuredSamples, 2);
    assert.equal(efficiency.aggregate.dps, 50);
    assert.ok(Math.abs(efficiency.aggregate.beyond - 100 / 3) < 1e-9, 'the failing sample counts 0 in Beyond');
    assert.ok(problem!.reference.memoryKiBMs > 0 && problem!.reference.memorySamples >= 2, 'the reference\'s memory is sampled from outside the box');
    for (const s of problem!.samples) assert.ok(s.ntmu > 0 && Number.isFinite(s.ntmu), `NTMU of sample ${s.sampleIndex}: ${s.ntmu}`);
    assert.ok(efficiency.aggregate.ntmu > 0, 'NTMU is reported');

    const report = await crucible(['report', join(dir, 'run')]);
    assert.equal(report.code, 0, report.stderr);
    assert.match(report.stdout, /## Efficiency of passing samples/);
    assert.match(report.stdout, /\| 50\.00 \| 50\.00 \| 33\.33 \|/, 'DPS, DPS_norm and Beyond of the run');
    assert.match(report.stdout, /\| squares \| 1 \| python \| \d+ \| \d+ \|/);

    const storePath = join(dir, 'store.db');
    const text = await crucible(['eval', '--no-progress', '--store', storePath, '--problems', problems, '--samples', samples, '--k', '1',
      '--efficiency', '--no-instructions', '--efficiency-repeats', '2', '--reps', '100', '--out', join(dir, 'run-text')]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /efficiency: 2 passing samples measured \(0 could not be\), 1 problems, 0 skipped/);
    assert.match(text.stdout, /DPS –  DPS_norm –  Beyond /, 'without counts there is no DPS (EvalPerf scores instruction counts)');
    const store = await openResultStore(storePath);
    try {
      const [stored] = await store.listRuns();
      const rows = await store.efficiencyOf(stored!.id);
      assert.deepEqual(rows.map((r) => [r.taskId, r.sampleIndex, r.language, r.costUnit, r.instructions, r.dps, r.error]),
        [['squares', 0, 'c', 'wallMs', null, null, null], ['squares', 1, 'python', 'wallMs', null, null, null]]);
      assert.ok(rows.every((r) => r.wallLowerMs <= r.wallMedianMs && r.wallMedianMs <= r.wallUpperMs && r.peakMemoryKiB > 0));
      assert.ok(rows.every((r) => r.memoryKiBMs! > 0 && r.ntmu! > 0), 'step 11: the memory integral and NTMU are stored per sample');
      const summary = (await store.getRun(stored!.id))!.summary as Summary;
      assert.equal(summary.efficiency.aggregate.measuredSamples, 2, 'the summary the store keeps has the efficiency too');

      // The dashboard shows the stored measurement: the run page's section and the sample page's numbers.
      const dashboard = await startDashboard({ store });
      try {
        const runPage = await (await fetch(`${dashboard.url.replace(/\/$/, "")}/runs/${stored!.id}`)).text();
        assert.match(runPage, /<h2>Efficiency<\/h2>/);
        assert.match(runPage, /<caption>Means over measured passing samples \(DPS: over problems\); 2 measured, 0 could not be/);
        const cells = [...runPage.matchAll(/<tr data-task="squares" data-sample="(\d)">[^]*?data-field="wall">([\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
        assert.deepEqual(cells, rows.map((r) => [r.sampleIndex, Number(r.wallMedianMs.toFixed(1))]), 'one row per stored sample with its median wall time');
        const ntmus = [...runPage.matchAll(/data-field="ntmu">([\d.]+)</g)].map((m) => Number(m[1]));
        assert.deepEqual(ntmus, rows.map((r) => Number(r.ntmu!.toFixed(3))), 'the run page shows each stored NTMU');
        const samplePage = await (await fetch(`${dashboard.url.replace(/\/$/, "")}/runs/${stored!.id}/sample?task=squares&index=1`)).text();
        const wall = /data-testid="efficiency-wall">([\d.]+)</.exec(samplePage);
        assert.equal(Number(wall?.[1]), Number(rows[1]!.wallMedianMs.toFixed(1)), 'the sample page shows the stored median');
        assert.match(samplePage, /data-testid="efficiency-instructions">–</, 'not counted (--no-instructions)');
        assert.match(samplePage, /data-testid="efficiency-net">\d+\.\d{3}</);
        const unmeasured = await (await fetch(`${dashboard.url.replace(/\/$/, "")}/runs/${stored!.id}/sample?task=squares&index=2`)).text();
        assert.doesNotMatch(unmeasured, /efficiency-wall/, 'a failing sample has no measurement');
      } finally {
        await dashboard.close();
      }
    } finally {
      await store.close();
    }
  });

  it('counts Java in bytecodes against a Java reference, and compares a Python sample with it by wall time', async () => {
    const problems = file('java-problems.jsonl', [{ taskId: 'squares-java', comparator: { kind: 'tokens' },
      tests: [{ input: '20000\n', output: '2666466670000\n' }], referenceSolution: { language: 'java', code: JAVA_LOOP } }]);
    const samples = file('java-samples.jsonl', [
      { task_id: 'squares-java', language: 'java', solution: JAVA_FORMULA },
      { task_id: 'squares-java', language: 'python', solution: PYTHON },
    ]);
    const storePath = join(dir, 'java-store.db');
    const run = await crucible(['eval', '--no-progress', '--store', storePath, '--problems', problems, '--samples', samples, '--k', '1',
      '--efficiency', '--efficiency-repeats', '1', '--reps', '50', '--out', join(dir, 'java-run'), '--json']);
    assert.equal(run.code, 0, run.stderr);
    const [problem] = (JSON.parse(run.stdout) as Summary).efficiency.problems;
    assert.ok(problem!.reference.instructions > 20000 * 5, `the reference's loop runs 20000 times: ${problem!.reference.instructions} bytecodes`);
    const [java, python] = problem!.samples;
    assert.deepEqual([java!.costUnit, java!.dps, java!.beyond], ['bytecodes', 100, 1]);
    assert.ok(java!.cost < problem!.reference.instructions);
    assert.equal(python!.costUnit, 'wallMs', 'instructions and bytecodes are never compared');
    const store = await openResultStore(storePath);
    try {
      const [stored] = await store.listRuns();
      const rows = await store.efficiencyOf(stored!.id);
      assert.deepEqual(rows.map((r) => [r.language, r.costUnit]), [['java', 'bytecodes'], ['python', 'wallMs']]);
      const dashboard = await startDashboard({ store });
      try {
        const samplePage = await (await fetch(`${dashboard.url.replace(/\/$/, '')}/runs/${stored!.id}/sample?task=squares-java&index=0`)).text();
        assert.match(samplePage, new RegExp(`bytecodes \\(JVMTI counter\\)[^]*?data-testid="efficiency-instructions">[^<]*${String(java!.cost).slice(-3)}<`));
      } finally {
        await dashboard.close();
      }
    } finally {
      await store.close();
    }
  });
});
