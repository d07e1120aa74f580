/** The problem-format registry: names and aliases resolve, auto-detection picks by fields, the CLI lists it. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import {
  detectProblemFormat, findProblemFormat, PROBLEM_FORMATS, problemFormatNames, readProblems, UnknownFormatError,
} from '../../src/formats/index.js';
import { PROJECT_ROOT } from '../../src/paths.js';
import { COQ_ART, DAFNYBENCH, HUMANEVAL, HUMANEVAL_PLUS, SMT_LIB } from '../support/data.js';

describe('problem format registry', () => {
  it('has one entry per format, each id and alias unique, auto first among the names', () => {
    const names = problemFormatNames();
    assert.equal(names[0], 'auto');
    assert.equal(new Set(names).size, names.length);
    assert.deepEqual(PROBLEM_FORMATS.map((f) => f.id), ['evalplus', 'humaneval-x', 'humaneval', 'mbpp', 'mbpp-challenge', 'livecodebench', 'apps', 'codecontests', 'multipl-e', 'ioi', 'spider', 'spider-available', 'sql-jsonl', 'bird', 'bird-f1', 'verilog-eval', 'rtllm', 'codev', 'kattis', 'swe-bench', 'coq-art', 'dafnybench', 'smt-lib', 'lean', 'crucible']);
  });

  it('detects Spider\'s dev.json and finds its databases in an ancestor folder', async () => {
    const dev = join(PROJECT_ROOT, '..', 'shared', 'data', 'spider', 'spider', 'evaluation_examples', 'examples', 'dev.json');
    assert.equal(await detectProblemFormat(dev), 'spider');
    await assert.rejects(readProblems(dev), /no database for 19 db_id\(s\)/);
    const available = await readProblems(dev, 'spider-available');
    assert.equal(available.length, 78);
    assert.equal(available[0]!.kind, 'sql');
  });

  it('resolves aliases: codet reads as humaneval', async () => {
    assert.equal(findProblemFormat('codet')?.id, 'humaneval');
    assert.equal(findProblemFormat('HumanEval')?.id, 'humaneval');
    const problems = await readProblems(HUMANEVAL, 'codet');
    assert.equal(problems.length, 164);
    assert.equal(problems[0]!.kind, 'unit_test');
  });

  it('detects by the first record and refuses an unknown name, listing the known ones', async () => {
    assert.equal(await detectProblemFormat(HUMANEVAL_PLUS), 'evalplus');
    assert.equal(await detectProblemFormat(join(PROJECT_ROOT, 'test', 'fixtures', 'contest', 'open-r1-ioi.jsonl')), 'ioi');
    // Proof folders by their layout, coq-art's index by its rows.
    assert.equal(await detectProblemFormat(DAFNYBENCH), 'dafnybench');
    assert.equal(await detectProblemFormat(COQ_ART), 'coq-art');
    assert.equal(await detectProblemFormat(join(COQ_ART, 'theorems.jsonl')), 'coq-art');
    assert.equal(await detectProblemFormat(SMT_LIB), 'smt-lib');
    await assert.rejects(readProblems(HUMANEVAL, 'no-such-bench'), (e: Error) =>
      e instanceof UnknownFormatError && /unknown problem format "no-such-bench"; formats: auto, evalplus/.test(e.message));
  });

  it('crucible formats lists the registry', async () => {
    const { stdout } = await promisify(execFile)(join(PROJECT_ROOT, 'bin', 'crucible'), ['formats', '--json']);
    const listed = (JSON.parse(stdout) as { problemFormats: { id: string; aliases: string[] }[] }).problemFormats;
    assert.deepEqual(listed.map((f) => f.id), PROBLEM_FORMATS.map((f) => f.id));
    assert.deepEqual(listed.find((f) => f.id === 'humaneval')?.aliases, ['codet']);
  });
});
