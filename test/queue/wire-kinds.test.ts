/**
 * Problems of the published formats travel through the queue's wire schema unchanged (a dataset is shipped to
 * Redis as JSON and validated by `problemSchema` on the worker): MBPP (`python_script`), LiveCodeBench
 * (`expected_call`, `io` with its comparator and release date), APPS and CodeContests, open-r1 IOI (`ioi`).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readProblems } from '../../src/formats/index.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { problemSchema } from '../../src/queue/wire.js';
import { CONTESTS_DIR, LCB_FIXTURE } from '../formats/helpers.js';
import { MBPP_PATH } from '../support/mbpp.js';

describe('wire schema: problems of the published formats', () => {
  it('round-trip through JSON and problemSchema unchanged', async () => {
    const problems = [
      ...(await readProblems(MBPP_PATH)).slice(365, 368),
      ...await readProblems(LCB_FIXTURE),
      ...await readProblems(join(CONTESTS_DIR, 'apps.jsonl')),
      ...await readProblems(join(CONTESTS_DIR, 'code_contests.jsonl')),
    ];
    assert.deepEqual(new Set(problems.map((p) => p.kind)), new Set(['python_script', 'expected_call', 'io']));
    for (const p of problems) assert.deepEqual(problemSchema.parse(JSON.parse(JSON.stringify(p))), p, p.taskId);
  });

  it('open-r1 IOI tasks (graders, subtasks, named tests) round-trip too', async () => {
    const problems = await readProblems(join(PROJECT_ROOT, 'test', 'fixtures', 'contest', 'open-r1-ioi.jsonl'));
    assert.deepEqual(problems.map((p) => p.kind), ['ioi', 'ioi']);
    for (const p of problems) assert.deepEqual(problemSchema.parse(JSON.parse(JSON.stringify(p))), p, p.taskId);
  });
});
