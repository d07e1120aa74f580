/**
 * How a judged sample becomes compact rows and how rows become a `verdicts.jsonl` record again (pure).
 *
 * - Passing tests are a count and a run-length list of their indices (`0-749`, `0-3,5,7-9`) unless every test
 *   is kept; a failing test (any status but `passed`) keeps status, times, reason and, when the judge gave it,
 *   what the program printed or returned and its stderr; its input and expected output go to `test_cases`.
 * - A program equal to its problem's prompt followed by the completion keeps the completion only.
 * - Export (`expandRecord`) gives back the record `crucible eval` wrote, except the per-test times of passing
 *   tests stored as counts (a passing test is then `{index, status: "passed"}`; those fields are optional in
 *   the record schema).
 */
import type { KeepTests, SampleInput, SampleProgram } from './result-store.js';
import type { FailedTestDetail, SampleRecord, SampleStatus, TestResult } from './records.js';

/** `[0,1,2,3,5,7,8,9]` → `"0-3,5,7-9"` (sorted, duplicates dropped). */
export function formatRanges(indices: readonly number[]): string {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/**
 * `"0-3,5"` → `[0,1,2,3,5]`.
 * @throws RangeError on text that `formatRanges` does not write.
 */
export function parseRanges(text: string): number[] {
  if (text === '') return [];
  const out: number[] = [];
  for (const part of text.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) throw new RangeError(`passed_ranges: bad range "${part}" in "${text}"`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from) throw new RangeError(`passed_ranges: bad range "${part}" in "${text}"`);
    for (let i = from; i <= to; i++) out.push(i);
  }
  return out;
}

/** Row of `samples` without the run and numbering columns. */
export interface CompactSample {
  readonly status: SampleStatus;
  readonly passed: number;
  readonly plusStatus: SampleStatus | null;
  readonly plusPassed: number | null;
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly memoryKiB: number | null;
  readonly reason: string | null;
  readonly stderr: string | null;
  readonly testsRun: number;
  readonly testsPassed: number;
  readonly passedRanges: string;
}

/** Row of `test_results` without the run and sample columns. */
export interface CompactTest {
  readonly index: number;
  readonly status: SampleStatus;
  readonly cpuMs: number | null;
  readonly wallMs: number | null;
  readonly reason: string | null;
  readonly actual: string | null;
  readonly stderr: string | null;
  readonly cut: string | null;
}

/** Row of `test_cases` without the run and problem columns. */
export interface CompactCase {
  readonly index: number;
  readonly input: string | null;
  readonly expected: string | null;
  readonly cut: string | null;
}

/** The rows of one sample. */
export interface CompactRows {
  readonly sample: CompactSample;
  readonly tests: readonly CompactTest[];
  readonly cases: readonly CompactCase[];
}

function cutOf(detail: FailedTestDetail | undefined, fields: readonly string[]): string | null {
  const cut = (detail?.cut ?? []).filter((f) => fields.includes(f));
  return cut.length === 0 ? null : cut.join(',');
}

/** Split a sample into compact rows (see the module comment). */
export function compactSample(input: SampleInput, keepTests: KeepTests): CompactRows {
  const { record } = input;
  const details = new Map<number, FailedTestDetail>();
  for (const d of input.failures ?? []) if (!details.has(d.index)) details.set(d.index, d);
  const passing = record.tests.filter((t) => t.status === 'passed');
  const kept = keepTests === 'all' ? record.tests : record.tests.filter((t) => t.status !== 'passed');
  const tests: CompactTest[] = kept.map((t) => {
    const d = details.get(t.index);
    return {
      index: t.index, status: t.status, cpuMs: t.cpuMs ?? null, wallMs: t.wallMs ?? null, reason: t.reason ?? null,
      actual: d?.actual ?? null, stderr: d?.stderr ?? null, cut: cutOf(d, ['actual', 'stderr']),
    };
  });
  const failing = new Set(kept.filter((t) => t.status !== 'passed').map((t) => t.index));
  const cases: CompactCase[] = [...details.values()]
    .filter((d) => failing.has(d.index) && (d.input !== undefined || d.expected !== undefined))
    .map((d) => ({ index: d.index, input: d.input ?? null, expected: d.expected ?? null, cut: cutOf(d, ['input', 'expected']) }));
  return {
    sample: {
      status: record.status,
      passed: record.passed ? 1 : 0,
      plusStatus: record.plusStatus ?? null,
      plusPassed: record.plusPassed === undefined ? null : record.plusPassed ? 1 : 0,
      cpuMs: record.cpuMs,
      wallMs: record.wallMs,
      memoryKiB: input.memoryKiB ?? null,
      reason: record.reason ?? null,
      stderr: input.stderr ?? null,
      testsRun: record.tests.length,
      testsPassed: passing.length,
      passedRanges: keepTests === 'all' ? '' : formatRanges(passing.map((t) => t.index)),
    },
    tests,
    cases,
  };
}

/** The program's columns: `source` is null when it is `prompt + completion` (rebuilt on read). */
export function compactProgram(program: SampleProgram | undefined, prompt: string | undefined):
  { language: string | null; completion: string | null; source: string | null; extraction: string | null } {
  if (program === undefined) return { language: null, completion: null, source: null, extraction: null };
  const elided = program.completion !== undefined && prompt !== undefined && program.source === prompt + program.completion;
  return {
    language: program.language ?? null,
    completion: program.completion ?? null,
    source: elided ? null : program.source,
    extraction: program.extraction === undefined ? null : JSON.stringify(program.extraction),
  };
}

/** The program judged, rebuilt from its columns; null when the store never had it. */
export function programSource(row: { completion: string | null; source: string | null }, prompt: string | null): string | null {
  if (row.source !== null) return row.source;
  if (row.completion !== null && prompt !== null) return prompt + row.completion;
  return null;
}

/** A stored sample back as the `verdicts.jsonl` record (see the module comment for what is not kept). */
export function expandRecord(
  taskId: string,
  sampleIndex: number,
  programHash: string,
  sample: CompactSample,
  tests: readonly Pick<CompactTest, 'index' | 'status' | 'cpuMs' | 'wallMs' | 'reason'>[],
): SampleRecord {
  const results: TestResult[] = tests.map((t) => ({
    index: t.index,
    status: t.status,
    ...(t.cpuMs === null ? {} : { cpuMs: t.cpuMs }),
    ...(t.wallMs === null ? {} : { wallMs: t.wallMs }),
    ...(t.reason === null ? {} : { reason: t.reason }),
  }));
  for (const index of parseRanges(sample.passedRanges)) results.push({ index, status: 'passed' });
  results.sort((a, b) => a.index - b.index);
  return {
    taskId,
    sampleIndex,
    programHash,
    status: sample.status,
    passed: sample.passed === 1,
    ...(sample.plusStatus === null ? {} : { plusStatus: sample.plusStatus, plusPassed: sample.plusPassed === 1 }),
    tests: results,
    cpuMs: sample.cpuMs,
    wallMs: sample.wallMs,
    ...(sample.reason === null ? {} : { reason: sample.reason }),
  };
}
