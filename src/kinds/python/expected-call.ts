/**
 * `expected_call` problems (LiveCodeBench functional / LeetCode-style, APPS and TACO call-based): the harness's
 * `call` job calls the program's function on each test's arguments and returns the values as PyValues; each is
 * compared outside the box with the dataset's expected value, by the dataset's own rule. No reference solution
 * runs: the expected values are the dataset's.
 *
 * As the published harnesses do (facts followed, no code taken):
 * - LiveCodeBench (`lcb_runner/evaluation/testing_util.py`, `grade_call_based`): the program is preceded by
 *   LiveCodeBench's `import_string` (the standard-library star imports listed in `LCB_IMPORTS`, and
 *   `sys.setrecursionlimit(50000)`); when its text contains `class Solution`, the function is the method of ONE
 *   `Solution()` made at load, else the module-level function; a tuple result becomes a list; pass = Python `==`.
 * - APPS (hendrycks/apps `eval/testing_util.py`, call-based branch; TACO copies it): the program is preceded by
 *   APPS's import header (`APPS_IMPORTS`, without `import numpy as np`: numpy is not in Crucible's Python box);
 *   same `Solution()` rule; a tuple result becomes a list; pass when `result == expected`, or, when the expected
 *   value is a non-empty list, `result == expected[0]` (APPS wraps outputs in a list), or, when the result's first
 *   element is a tuple, `[list(x) for x in result] == expected[0]`.
 * The function is reached through a trusted name bound after the program (`EXPECTED_CALL_ENTRY`).
 * Time limit: per call, the problem's (LiveCodeBench 6 s, APPS 4 s: their defaults), else the request's.
 */
import type { ExpectedCallProblem } from '../../formats/types.js';
import { wallMsFor } from '../../limits.js';
import {
  aggregateTests, failedTestDetail, pyValueSchema, shortReason, TEST_DETAIL_CHARS, type PyValue, type TestResult, type Verdict,
} from '../../verdict/index.js';
import { pyEquals, show } from './compare-pyvalue.js';
import type { HarnessResponse } from '../../judge/harness/protocol.js';
import { harnessDetail, harnessStatus, PYTHON_ONLY, pythonEntryPoint } from './python.js';
import { defineMode, type JudgingMode } from '../../judge/mode.js';

/** The trusted name the harness calls. */
export const EXPECTED_CALL_ENTRY = '__crucible_expected_call__';

/** LiveCodeBench's `import_string`: these modules star-imported, then imported by name. */
const LCB_MODULES = ['string', 're', 'datetime', 'collections', 'heapq', 'bisect', 'copy', 'math', 'random', 'statistics',
  'itertools', 'functools', 'operator', 'io', 'sys', 'json'];
export const LCB_IMPORTS = [
  ...LCB_MODULES.map((m) => `from ${m} import *`), 'from builtins import *', 'from typing import *',
  ...LCB_MODULES.map((m) => `import ${m}`), 'sys.setrecursionlimit(50000)',
].join('\n');

/** APPS's import header (`eval/testing_util.py`), numpy left out. */
export const APPS_IMPORTS = [
  'import sys', 'import time', 'import itertools', 'from itertools import accumulate, product, permutations, combinations',
  'import collections', 'from collections import Counter, OrderedDict, deque, defaultdict, ChainMap',
  'from functools import lru_cache', 'import math', 'from math import sqrt, sin, cos, tan, ceil, fabs, floor, gcd, exp, log, log2',
  'import fractions', 'from typing import List, Tuple', 'import random', 'import heapq', 'from heapq import *',
].join('\n');

/** The program the candidate loads: the rule's imports, the program, the trusted entry binding. */
export function assembleExpectedCall(problem: ExpectedCallProblem, source: string): string {
  const imports = problem.rule === 'livecodebench' ? LCB_IMPORTS : APPS_IMPORTS;
  const target = source.includes('class Solution') ? `Solution().${problem.entryPoint}` : problem.entryPoint;
  return `${imports}\n\n${source.replace(/\n*$/, '\n')}\n${EXPECTED_CALL_ENTRY} = ${target}\n`;
}

function tupleAsList(v: PyValue): PyValue {
  return v !== null && typeof v === 'object' && 't' in v ? { l: v.t } : v;
}

function elementsOf(v: PyValue): readonly PyValue[] | undefined {
  return v !== null && typeof v === 'object' && 'l' in v ? v.l : undefined;
}

/** Whether `actual` passes against `expected` by the problem's rule (see the module comment). */
export function expectedCallMatches(rule: ExpectedCallProblem['rule'], actual: PyValue, expected: PyValue): boolean {
  const result = tupleAsList(actual);
  if (pyEquals(result, expected)) return true;
  if (rule === 'livecodebench') return false;
  const wrapped = elementsOf(expected);
  if (wrapped === undefined || wrapped.length === 0) return false;
  if (pyEquals(result, wrapped[0]!)) return true;
  const items = elementsOf(result);
  const first = items?.[0];
  if (items === undefined || first === null || typeof first !== 'object' || !('t' in first)) return false;
  return pyEquals({ l: items.map(tupleAsList) }, wrapped[0]!);
}

function reasonField(reason: string | undefined): { reason?: string } {
  const short = shortReason(reason);
  return short === undefined ? {} : { reason: short };
}

function callTests(problem: ExpectedCallProblem, response: HarnessResponse): TestResult[] {
  return (response.results ?? []).slice(0, problem.tests.length).map((r, index): TestResult => {
    const cpu = r.cpuMs === undefined ? {} : { cpuMs: r.cpuMs };
    if (r.status !== 'ok') return { index, status: harnessStatus(r.status), ...cpu, ...reasonField(r.reason) };
    const value = pyValueSchema.safeParse(r.value);
    if (!value.success) return { index, status: 'wrong_answer', ...cpu, reason: 'the program returned an invalid value' };
    const expected = problem.tests[index]!.expected;
    if (expectedCallMatches(problem.rule, value.data, expected)) return { index, status: 'passed', ...cpu };
    return { index, status: 'wrong_answer', ...cpu,
      ...reasonField(`returned ${show(value.data)}, expected ${show(expected)}`) };
  });
}

const expectedCall: JudgingMode<ExpectedCallProblem, 'harness'> = {
  kind: 'expected_call',
  description: 'Python function called on each test\'s arguments in the harness, compared with the dataset\'s expected value (LiveCodeBench, APPS, TACO)',
  ...PYTHON_ONLY,
  entryPoint: pythonEntryPoint,
  assemble: (problem, code, shape) => shape === 'completion' ? problem.prompt + code : code,
  testCount: (problem) => problem.tests.length,
  plan: (problem, program, { limits, failFast }) => {
    const cpuMs = problem.timeLimitMs ?? limits.cpuMs;
    return { kind: 'harness', job: { mode: 'call', program: assembleExpectedCall(problem, program.source), entryPoint: EXPECTED_CALL_ENTRY,
      inputs: problem.tests.map((t) => t.args), cpuMs, wallMs: wallMsFor(cpuMs), memoryKiB: limits.memoryKiB,
      outputBytes: limits.outputBytes, failFast } };
  },
  verdict: (problem, outcome, { failFast }): Verdict => {
    const response = outcome.response;
    const testCount = problem.tests.length;
    const tests = callTests(problem, response);
    // A job that failed as a whole (the program did not load, Crucible failed) fails with no per-call result.
    if (tests.length === 0 && response.status !== 'ok' && response.status !== 'passed') {
      return { status: harnessStatus(response.status), passed: false, tests: [], testCount, cpuMs: response.cpuMs,
        wallMs: response.wallMs, ...reasonField(response.reason) };
    }
    const aggregate = aggregateTests(tests, testCount);
    const complete = tests.length === testCount || (failFast && aggregate.status !== 'passed');
    const status = complete ? aggregate.status : response.status === 'ok' ? 'internal_error' : harnessStatus(response.status);
    const reason = shortReason(aggregate.reason ?? response.reason);
    return { status, passed: status === 'passed', tests, testCount, cpuMs: response.cpuMs, wallMs: response.wallMs,
      ...(reason === undefined ? {} : { reason }) };
  },
  detail: (_problem, outcome, verdict) => {
    const r = outcome.response;
    return harnessDetail(verdict, r, (t) => {
      const result = r.results?.[t.index];
      const value = result?.status === 'ok' ? pyValueSchema.safeParse(result.value) : undefined;
      return value?.success === true ? show(value.data, TEST_DETAIL_CHARS + 1) : result?.reason ?? t.reason ?? t.status;
    });
  },
  describeTest: (problem, index) => {
    const test = problem.tests[index];
    return failedTestDetail(index, {
      input: test === undefined ? undefined : `${problem.entryPoint}(${test.args.map((a) => show(a, TEST_DETAIL_CHARS + 1)).join(', ')})`,
      expected: test === undefined ? undefined : show(test.expected, TEST_DETAIL_CHARS + 1),
    });
  },
};

/** The `expected_call` judging mode. */
export const expectedCallMode = defineMode(expectedCall);
