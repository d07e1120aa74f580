/**
 * The LiveCodeBench reader on rows in the exact published shape (test/formats/data/livecodebench, made by its
 * make_fixtures.py with Python's own pickle: real public problems, private tests pickled as LiveCodeBench
 * publishes them), the pickled-str decoder's refusals, release windows, and LiveCodeBench / bigcode sample files.
 * Judging these problems in the sandbox: test/acceptance/livecodebench.test.ts.
 */
import assert from 'node:assert/strict';
import { constants as zlibConstants, createDeflate, deflateSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { DatasetError, detectProblemFormat, readProblems, readSamples } from '../../src/formats/index.js';
import { withinReleaseWindow } from '../../src/formats/livecodebench.js';
import { decodeCompressedPickledStr, MAX_INFLATED_BYTES, PickledStrError, unpickleStr } from '../../src/formats/pickled-str.js';
import type { ExpectedCallProblem, IoProblem } from '../../src/formats/types.js';
import { LCB_FIXTURE, tempFile } from './helpers.js';

describe('LiveCodeBench problems', () => {
  it('are detected; functional rows become expected_call, stdin rows io with LiveCodeBench\'s comparator', async () => {
    assert.equal(await detectProblemFormat(LCB_FIXTURE), 'livecodebench');
    const [achievable, distinct, scheme] = await readProblems(LCB_FIXTURE) as [ExpectedCallProblem, ExpectedCallProblem, IoProblem];
    assert.equal(achievable.kind, 'expected_call');
    assert.equal(achievable.entryPoint, 'theMaximumAchievableX');
    assert.equal(achievable.rule, 'livecodebench');
    assert.match(achievable.prompt, /^class Solution:/);
    assert.equal(achievable.tests.length, 5, 'public then private (pickled, protocol 4)');
    assert.deepEqual(achievable.tests[0], { args: [{ i: '4' }, { i: '1' }], expected: { i: '6' } });
    assert.deepEqual(distinct.tests[2], { args: [{ l: [{ i: '1' }] }], expected: { l: [{ i: '1' }] } }, 'protocol 5 private tests');
    assert.equal(scheme.kind, 'io');
    assert.deepEqual(scheme.comparator, { kind: 'livecodebench' });
    assert.equal(scheme.tests.length, 5);
    assert.equal(scheme.timeLimitMs, 6000);
    assert.equal(scheme.releaseDate, '2023-07-01T00:00:00');
  });

  it('release windows select by contest date, inclusive, as --start_date/--end_date', async () => {
    const problems = await readProblems(LCB_FIXTURE) as (IoProblem | ExpectedCallProblem)[];
    const ids = (since?: string, until?: string) => problems.filter((p) => withinReleaseWindow(p, { since, until })).map((p) => p.taskId);
    assert.deepEqual(ids(), ['2812', '2777', 'abc308_a']);
    assert.deepEqual(ids('2023-07-01'), ['2812', 'abc308_a']);
    assert.deepEqual(ids(undefined, '2023-07-01'), ['2777', 'abc308_a']);
    assert.deepEqual(ids('2023-07-02', '2023-07-09'), ['2812']);
    assert.throws(() => withinReleaseWindow(problems[0]!, { since: 'July' }), RangeError);
  });

  it('the pickled-str decoder takes only PROTO 4/5 + one str + STOP, and names what it refuses', () => {
    const str = (s: string, protocol: number) => Buffer.concat([Buffer.from([0x80, protocol, 0x8c, s.length]), Buffer.from(s), Buffer.from([0x94, 0x2e])]);
    assert.equal(unpickleStr(str('[]', 4)), '[]');
    assert.throws(() => unpickleStr(str('[]', 3)), /protocol 3 is not accepted/);
    // A list (EMPTY_LIST), a global (the usual code-execution gadget), trailing bytes, a lying frame.
    assert.throws(() => unpickleStr(Buffer.from([0x80, 4, 0x5d, 0x94, 0x2e])), /found 0x5d: only a pickled str/);
    assert.throws(() => unpickleStr(Buffer.concat([Buffer.from([0x80, 4, 0x8c, 2]), Buffer.from('os'), Buffer.from([0x8c, 6]), Buffer.from('system'), Buffer.from([0x93, 0x2e])])),
      /expected STOP \(0x2e\) at byte 6, found 0x8c/);
    assert.throws(() => unpickleStr(Buffer.concat([str('x', 4), Buffer.from([0x2e])])), /1 bytes after STOP/);
    const frame = Buffer.alloc(8);
    frame.writeBigUInt64LE(99n);
    assert.throws(() => unpickleStr(Buffer.concat([Buffer.from([0x80, 4, 0x95]), frame, str('x', 4).subarray(2)])), /frame ends/);
    assert.throws(() => decodeCompressedPickledStr('%%%'), PickledStrError);
    assert.throws(() => decodeCompressedPickledStr(Buffer.from('not zlib').toString('base64')), /not zlib data/);
    assert.equal(decodeCompressedPickledStr(deflateSync(str('ok', 5)).toString('base64')), 'ok');
  });

  it('bad rows are named by line and field', async () => {
    const [good] = (await import('node:fs')).readFileSync(LCB_FIXTURE, 'utf8').split('\n');
    const row = JSON.parse(good!) as Record<string, string>;
    const bad = [
      { ...row, question_id: 'a', private_test_cases: Buffer.from('nope').toString('base64') },
      { ...row, question_id: 'b', public_test_cases: JSON.stringify([{ input: '1', output: '2', testtype: 'carrier-pigeon' }]) },
      { ...row, question_id: 'c', public_test_cases: JSON.stringify([{ input: '[1,', output: '2', testtype: 'functional' }]) },
      { ...row, question_id: 'd', difficulty: 'trivial' },
    ];
    const expected = [/:2: field "private_test_cases": neither JSON nor/, /:2: field "public_test_cases\[0\]\.testtype"/,
      /:2: field "public_test_cases\[0\]\.input \(line 1\)": expected a JSON value/, /:2: field "difficulty"/];
    for (const [k, r] of bad.entries()) {
      const path = tempFile('lcb.jsonl', `${good}\n${JSON.stringify(r)}\n`);
      await assert.rejects(readProblems(path, 'livecodebench'), (e: Error) => e instanceof DatasetError && expected[k]!.test(e.message));
    }
  });

  it('a zlib bomb in private_test_cases is refused while it inflates, naming the file, line and field (issue #23)', async () => {
    // A well-formed pickled str of 1 GiB (the bomb), deflated in chunks (never whole in memory): ~1 MB.
    const size = 1 << 30;
    const header = Buffer.alloc(11);
    header.set([0x80, 4, 0x8d]);
    header.writeBigUInt64LE(BigInt(size), 3);
    const deflate = createDeflate({ level: zlibConstants.Z_BEST_COMPRESSION });
    const parts: Buffer[] = [];
    deflate.on('data', (chunk: Buffer) => parts.push(chunk));
    const done = new Promise((resolve) => deflate.on('end', resolve));
    const chunk = Buffer.alloc(4 << 20, 0x61);
    deflate.write(header);
    for (let left = size; left > 0; left -= chunk.length) {
      if (!deflate.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) await new Promise((resolve) => deflate.once('drain', resolve));
    }
    deflate.end(Buffer.from([0x2e]));
    await done;
    const bomb = Buffer.concat(parts).toString('base64');
    assert.ok(bomb.length < 4 << 20, `the bomb is small (${bomb.length} base64 characters)`);
    assert.throws(() => decodeCompressedPickledStr(bomb), (e: Error) => e instanceof PickledStrError && /inflates to more than 268435456 bytes/.test(e.message));
    const [good] = (await import('node:fs')).readFileSync(LCB_FIXTURE, 'utf8').split('\n');
    const row = { ...JSON.parse(good!) as Record<string, string>, question_id: 'bomb', private_test_cases: bomb };
    const path = tempFile('lcb-bomb.jsonl', `${good}\n${JSON.stringify(row)}\n`);
    const before = process.memoryUsage().rss;
    await assert.rejects(readProblems(path, 'livecodebench'), (e: Error) => e instanceof DatasetError
      && e.message.includes(path) && /:2: field "private_test_cases": .*inflates to more than 268435456 bytes/.test(e.message));
    // Refused at the limit, not after inflating all of it (the RSS may not shrink at once, but it never held the whole bomb).
    assert.ok(process.memoryUsage().rss - before < size / 2, 'the whole bomb was never inflated');
  });
});

describe('whole-file sample formats', () => {
  it('LiveCodeBench outputs: each output_list entry is a raw response of its question_id', async () => {
    const path = tempFile('Scenario.codegeneration_2_0.2.json', JSON.stringify([
      { question_id: '2812', question_title: 't', output_list: ['```python\nx\n```', 'y'], code_list: ['x', ''] },
    ], null, 2));
    const samples = await readSamples(path);
    assert.deepEqual(samples.map((s) => [s.taskId, s.index, s.response]), [['2812', 0, '```python\nx\n```'], ['2812', 1, 'y']]);
  });

  it('bigcode generations: list i belongs to problem i of the file from --limit_start, each string a whole program; '
    + 'a shorter file without its start, or more lists than problems, is refused', async () => {
    const problems = await readProblems(LCB_FIXTURE);
    const path = tempFile('generations.json', JSON.stringify([['a', 'b'], ['c']]));
    // Two lists for three problems: which two depends on the harness's --limit_start, which the file does not say.
    await assert.rejects(readSamples(path, { problems }), /2 lists for the 3 problems .*--bigcode-start N/);
    const samples = await readSamples(path, { problems, bigcodeStart: 0 });
    assert.deepEqual(samples.map((s) => [s.taskId, s.index, s.solution]), [['2812', 0, 'a'], ['2812', 1, 'b'], ['2777', 0, 'c']]);
    const fromOne = await readSamples(path, { problems, bigcodeStart: 1 });
    assert.deepEqual(fromOne.map((s) => s.taskId), ['2777', '2777', problems[2]!.taskId]);
    await assert.rejects(readSamples(path, { problems, bigcodeStart: 2 }), /2 lists from position 2 run past the 3 problems/);
    await assert.rejects(readSamples(path), /problems are needed/);
    const tooMany = tempFile('g.json', JSON.stringify([[], [], [], []]));
    await assert.rejects(readSamples(tooMany, { problems }), /4 lists, but the problems file has 3 problems/);
    const bad = tempFile('g2.json', JSON.stringify([['a', 3]]));
    await assert.rejects(readSamples(bad, { problems }), (e: Error) => e instanceof DatasetError && e.field === '[0][1]');
  });
});
