/** Builds tiny run directories in a temp folder for report tests. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SampleRecord } from '../../src/store/records.js';
import type { SampleStatus } from '../../src/verdict/index.js';

export function record(taskId: string, sampleIndex: number, status: SampleStatus, plusPassed?: boolean): SampleRecord {
  return {
    taskId,
    sampleIndex,
    programHash: `h-${taskId}-${sampleIndex}`,
    status,
    passed: status === 'passed',
    ...(plusPassed === undefined ? {} : { plusPassed }),
    tests: [{ index: 0, status, cpuMs: 3, wallMs: 4 }],
    cpuMs: 3,
    wallMs: 4,
  };
}

/** 3 problems × 4 samples: HumanEval/0 passes 4 of 4, HumanEval/1 passes 2, HumanEval/2 passes 0. */
export function tinyRecords(): SampleRecord[] {
  return [
    record('HumanEval/0', 0, 'passed', true),
    record('HumanEval/0', 1, 'passed', true),
    record('HumanEval/0', 2, 'passed', false),
    record('HumanEval/0', 3, 'passed', true),
    record('HumanEval/1', 0, 'passed', true),
    record('HumanEval/1', 1, 'wrong_answer', false),
    record('HumanEval/1', 2, 'time_limit_exceeded', false),
    record('HumanEval/1', 3, 'passed', false),
    record('HumanEval/2', 0, 'runtime_error', false),
    record('HumanEval/2', 1, 'wrong_answer', false),
    record('HumanEval/2', 2, 'wrong_answer', false),
    record('HumanEval/2', 3, 'no_code', false),
  ];
}

/** Writes a run directory and returns its path. `lines` are written verbatim when given. */
export async function writeRunDir(records: readonly SampleRecord[], lines?: readonly string[], summary?: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'crucible-report-'));
  const text = (lines ?? records.map((r) => JSON.stringify(r))).join('\n') + '\n';
  await writeFile(join(dir, 'verdicts.jsonl'), text, 'utf8');
  if (summary !== undefined) await writeFile(join(dir, 'summary.json'), JSON.stringify(summary), 'utf8');
  return dir;
}
