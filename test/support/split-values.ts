/**
 * The values a split program prints (`CRUCIBLE-VALUE <case> <json>` lines, src/kinds/script/values.ts), run in the
 * real sandbox, and a completion's verdict: shared by the split and MultiPL-E script tests.
 */
import assert from 'node:assert/strict';
import type { ScriptProblem } from '../../src/formats/types.js';
import type { Judge } from '../../src/judge/judge.js';
import { parseScriptValue, valueLines, type ScriptValue } from '../../src/kinds/script/values.js';
import { prepareSubmission, type SubmissionContext } from '../../src/judge/submission.js';
import type { Verdict } from '../../src/verdict/index.js';

/**
 * Each case's value printed by `source` in `language` (cases 0 … count-1, one line each), failing the test (with the
 * compiler's or the run's output) when the program did not compile or run, or a case's line is missing or repeated.
 */
export async function printedValues(judge: Judge, language: string, source: string, count: number,
  limits: { readonly cpuMs: number; readonly memoryKiB: number } = { cpuMs: 20_000, memoryKiB: 1024 * 1024 }): Promise<ScriptValue[]> {
  const outcome = await judge.runPlain({ program: { language, source }, stdin: '', limits });
  assert.equal(outcome.compile?.status ?? 'ok', 'ok', `compile: ${outcome.compile?.stderr ?? ''}\n${source}`);
  assert.equal(outcome.run?.status, 'ok', `run: ${outcome.run?.reason ?? ''} ${outcome.run?.stderr ?? ''}\n${source}`);
  const lines = valueLines(outcome.run!.stdout);
  return Array.from({ length: count }, (_, i) => {
    const texts = lines.get(i);
    assert.equal(texts?.length, 1, `case ${i}: ${outcome.run!.stdout}`);
    return parseScriptValue(texts![0]!);
  });
}

/**
 * The verdict of `completion` for a script problem given inline, as `crucible eval` judges a completion (the
 * submission prepared from prompt + completion, then judged). @throws when the submission is not a program.
 */
export async function judgeCompletion(judge: Judge, context: SubmissionContext, problem: ScriptProblem, completion: string): Promise<Verdict> {
  const prepared = prepareSubmission(problem, { completion }, context);
  if (prepared.kind !== 'program') throw new Error('expected a program');
  return judge.judge({ problem: { inline: problem }, program: prepared.program });
}
