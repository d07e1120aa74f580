/**
 * The input and expected output of one test of a problem, as text for people (the dashboard's sample page
 * shows them beside what a failing program printed or returned). io: stdin and expected stdout; call: the call
 * in Python syntax and the canonical solution's return value (`Pipeline.expectedOutputs`, memoised, run in the
 * box); unit_test: the test code and what it requires. Cut as `failedTestDetail` cuts (4,000 characters).
 */
import { show } from '../judge/compare-pyvalue.js';
import type { Problem } from '../formats/types.js';
import { failedTestDetail, TEST_DETAIL_CHARS, type FailedTestDetail } from '../store/records.js';
import type { Pipeline } from './pipeline.js';

/** Test `index` of `problem` as text; fields that cannot be known (an index out of range, no reference) are left out. */
export async function describeTestCase(pipeline: Pipeline, problem: Problem, index: number): Promise<FailedTestDetail> {
  switch (problem.kind) {
    case 'io': {
      const test = problem.tests[index];
      return failedTestDetail(index, { input: test?.input, expected: test?.output });
    }
    case 'unit_test':
      return failedTestDetail(index, {
        input: `${problem.test}\ncheck(${problem.entryPoint})`,
        expected: `check(${problem.entryPoint}) returns without raising`,
      });
    case 'call': {
      const args = [...problem.baseInputs, ...problem.plusInputs][index];
      const expected = await pipeline.expectedOutputs(problem).then((e) => e[index]?.value, () => undefined);
      return failedTestDetail(index, {
        input: args === undefined ? undefined : `${problem.entryPoint}(${args.map((a) => show(a, TEST_DETAIL_CHARS + 1)).join(', ')})`,
        expected: expected === undefined ? undefined : show(expected, TEST_DETAIL_CHARS + 1),
      });
    }
  }
}
