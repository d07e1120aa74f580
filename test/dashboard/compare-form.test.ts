/** The run page's "Compare with" form offers runs on the same dataset first, preselected, and marks the others. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareWith } from '../../src/dashboard/pages/run.js';

test('runs on the same dataset come first and the first is preselected; others say their dataset', () => {
  const run = { id: 3, name: 'a', model: 'm', dataset: 'humaneval' };
  const html = compareWith(run, [
    { id: 1, name: 'mbpp run', model: 'm', dataset: 'mbpp' },
    run,
    { id: 2, name: 'b', model: 'm2', dataset: 'humaneval' },
  ]);
  const options = [...html.matchAll(/<option value="(\d+)">([^<]*)<\/option>/g)].map((m) => [m[1], m[2]]);
  assert.deepEqual(options.map((o) => o[0]), ['2', '1'], 'the run itself is not offered; same dataset first');
  assert.ok(!options[0]![1]!.includes('other dataset'));
  assert.match(options[1]![1]!, /other dataset: mbpp/);
  assert.equal(compareWith(run, [run]), '', 'no form without another run');
});
