/**
 * The values a split program prints (`CRUCIBLE-VALUE <case> <json>` lines, src/judge/script-values.ts), run in the
 * real sandbox: shared by the split serializer tests.
 */
import assert from 'node:assert/strict';
import type { Judge } from '../../src/judge/judge.js';
import { parseScriptValue, valueLines, type ScriptValue } from '../../src/judge/script-values.js';

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
