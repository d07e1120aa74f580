/**
 * How a judged sample becomes compact rows and how rows become a `verdicts.jsonl` record again (pure).
 *
 * - Passing tests are a count and a run-length list of their indices (`0-749`, `0-3,5,7-9`) unless every test
 *   is kept; failing tests (any status but `passed`) keep index, status, times and reason as columns
 *   (`TestColumns`, compressed by `blob.ts`); what they printed or returned and their stderr are columns of
 *   the program (`DetailColumns`); inputs and expected outputs go to `test_cases` (per dataset and problem).
 * - A program equal to its problem's prompt followed by the completion keeps the completion only.
 * - Partial credit: the sample's `score` is a column; a kept test keeps its own `score`. A passing test stored
 *   as a count comes back with `score: 1` when the sample is graded (it has a score, or a kept test has one):
 *   the modes that grade (`checker`, `ioi`) give every passing test score 1, and the others give none.
 * - The sample's model text (`completion`, or `completionSha256` under `eval --keep-code hash`) is kept once per
 *   distinct program: a sample whose text equals its program's `completion` column stores only that fact
 *   (`completion_kind` 1); a sample with other text keeps its own (2); a hash is kept as such (3); none is NULL.
 * - Export (`expandRecord`) gives back the record `crucible eval` wrote, except the per-test times of passing
 *   tests stored as counts (a passing test is then `{index, status: "passed"}`, plus `score: 1` in a graded
 *   sample; those fields are optional in the record schema). Samples stored before step 8 come back without text.
 */
import type { KeepTests, SampleProgram } from './result-store.js';
import { formalCheckSchema, type FormalCheck, type SampleStatus, type TestResult } from '../verdict/index.js';
import type { FailedTestDetail, SampleRecord } from './records.js';

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

/** Row of `samples` without the run, numbering and blob columns. */
export interface CompactSample {
  readonly status: SampleStatus;
  readonly passed: number;
  readonly plusStatus: SampleStatus | null;
  readonly plusPassed: number | null;
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly reason: string | null;
  readonly testsRun: number;
  readonly testsPassed: number;
  readonly passedRanges: string;
  /** Partial credit in [0, 1] (`SampleRecord.score`), null for kinds that do not grade. */
  readonly score: number | null;
  /** `samples.formal_json` (step 10): the formal check (`SampleRecord.formal`) as JSON, null when there was none. */
  readonly formal: string | null;
}

/** `samples.completion_kind` (step 8): how a sample's model text is kept (see the module comment). */
export const COMPLETION_KIND = { sameAsProgram: 1, own: 2, sha256: 3 } as const;

/** A sample's text columns: `kind` as `COMPLETION_KIND` (null: the record had none), `text` its own text or hash. */
export interface CompletionColumns {
  readonly kind: number | null;
  readonly text: string | null;
}

/**
 * The text columns of `record`, whose program's `completion` column holds `programCompletion` (null: none).
 * A record with both a text and a hash (not made by Crucible) keeps the text.
 */
export function compactCompletion(record: Pick<SampleRecord, 'completion' | 'completionSha256'>, programCompletion: string | null): CompletionColumns {
  if (record.completion !== undefined) {
    return record.completion === programCompletion ? { kind: COMPLETION_KIND.sameAsProgram, text: null } : { kind: COMPLETION_KIND.own, text: record.completion };
  }
  if (record.completionSha256 !== undefined) return { kind: COMPLETION_KIND.sha256, text: record.completionSha256 };
  return { kind: null, text: null };
}

/** The record's `completion` / `completionSha256` back from the columns (`compactCompletion`'s inverse). */
export function expandCompletion(columns: CompletionColumns, programCompletion: string | null): Pick<SampleRecord, 'completion' | 'completionSha256'> {
  switch (columns.kind) {
    case COMPLETION_KIND.sameAsProgram: return programCompletion === null ? {} : { completion: programCompletion };
    case COMPLETION_KIND.own: return columns.text === null ? {} : { completion: columns.text };
    case COMPLETION_KIND.sha256: return columns.text === null ? {} : { completionSha256: columns.text };
    default: return {};
  }
}

/** Per-test columns of a sample's kept tests. */
export interface TestColumns {
  readonly index: readonly number[];
  readonly status: readonly SampleStatus[];
  readonly cpuMs: readonly (number | null)[];
  readonly wallMs: readonly (number | null)[];
  readonly reason: readonly (string | null)[];
  /** Partial credit of each test (`TestResult.score`), null where the test has none. */
  readonly score: readonly (number | null)[];
}

/**
 * `TestColumns` as stored (`samples.tests`, before compression): `index` as ranges when ascending (else the
 * list), `status` run-length (`[status, count, …]`), `wallMs` and `score` left out when every value is null (stores
 * written before scores were kept have none).
 */
export type StoredTestColumns = Record<string, (string | number | null)[]>;

/** `TestColumns` → the stored form. */
export function packTestColumns(c: TestColumns): StoredTestColumns {
  const ascending = c.index.every((x, i) => i === 0 || x > c.index[i - 1]!);
  const status: (string | number)[] = [];
  for (const s of c.status) {
    if (status.length > 0 && status[status.length - 2] === s) status[status.length - 1] = (status[status.length - 1] as number) + 1;
    else status.push(s, 1);
  }
  return {
    ...(ascending ? { ranges: [formatRanges(c.index)] } : { index: [...c.index] }),
    status,
    cpuMs: [...c.cpuMs],
    ...(c.wallMs.every((w) => w === null) ? {} : { wallMs: [...c.wallMs] }),
    reason: [...c.reason],
    ...(c.score.every((x) => x === null) ? {} : { score: [...c.score] }),
  };
}

/** The stored form → `TestColumns`. @throws RangeError on a malformed value. */
export function unpackTestColumns(stored: Readonly<Record<string, readonly (string | number | null)[]>>): TestColumns {
  const index = stored['ranges'] !== undefined ? parseRanges(String(stored['ranges'][0] ?? '')) : (stored['index'] ?? []).map(Number);
  const status: SampleStatus[] = [];
  const runs = stored['status'] ?? [];
  for (let i = 0; i + 1 < runs.length; i += 2) for (let n = 0; n < Number(runs[i + 1]); n++) status.push(runs[i] as SampleStatus);
  if (status.length !== index.length) throw new RangeError(`per-test columns: ${index.length} indices but ${status.length} statuses`);
  const column = (name: string) => (stored[name] ?? index.map(() => null)) as (number | null)[];
  return { index, status, cpuMs: column('cpuMs'), wallMs: column('wallMs'), reason: (stored['reason'] ?? index.map(() => null)) as (string | null)[],
    score: column('score') };
}

/** Per-test columns of what a program's failing tests showed (`programs.detail`); `cut` is comma-separated. */
export interface DetailColumns {
  readonly index: readonly number[];
  readonly actual: readonly (string | null)[];
  readonly stderr: readonly (string | null)[];
  readonly cut: readonly (string | null)[];
}

/**
 * A sample's row and its kept tests: failing tests, or every test with `keepTests = 'all'` (null when none);
 * passing tests otherwise become `testsPassed` and `passedRanges`.
 */
export function compactSample(record: SampleRecord, keepTests: KeepTests): { sample: CompactSample; tests: TestColumns | null } {
  const passing = record.tests.filter((t) => t.status === 'passed');
  const kept = keepTests === 'all' ? record.tests : record.tests.filter((t) => t.status !== 'passed');
  return {
    sample: {
      status: record.status,
      passed: record.passed ? 1 : 0,
      plusStatus: record.plusStatus ?? null,
      plusPassed: record.plusPassed === undefined ? null : record.plusPassed ? 1 : 0,
      cpuMs: record.cpuMs,
      wallMs: record.wallMs,
      reason: record.reason ?? null,
      testsRun: record.tests.length,
      testsPassed: passing.length,
      passedRanges: keepTests === 'all' ? '' : formatRanges(passing.map((t) => t.index)),
      score: record.score ?? null,
      formal: record.formal === undefined ? null : JSON.stringify(record.formal),
    },
    tests: kept.length === 0 ? null : {
      index: kept.map((t) => t.index),
      status: kept.map((t) => t.status),
      cpuMs: kept.map((t) => t.cpuMs ?? null),
      wallMs: kept.map((t) => t.wallMs ?? null),
      reason: kept.map((t) => t.reason ?? null),
      score: kept.map((t) => t.score ?? null),
    },
  };
}

/** A program's failing-test detail as columns (null when there is none). */
export function detailColumns(failures: readonly FailedTestDetail[] | undefined): DetailColumns | null {
  if (failures === undefined || failures.length === 0) return null;
  return {
    index: failures.map((f) => f.index),
    actual: failures.map((f) => f.actual ?? null),
    stderr: failures.map((f) => f.stderr ?? null),
    cut: failures.map((f) => {
      const cut = (f.cut ?? []).filter((c) => c === 'actual' || c === 'stderr');
      return cut.length === 0 ? null : cut.join(',');
    }),
  };
}

/**
 * The tests of a record: kept ones from their columns, passing ones from `passedRanges` (with `score: 1` in a
 * graded sample, see the module comment), by index.
 */
export function expandTests(sample: Pick<CompactSample, 'passedRanges' | 'score'>, columns: TestColumns | null): TestResult[] {
  const results: TestResult[] = (columns?.index ?? []).map((index, i) => {
    const cpuMs = columns!.cpuMs[i] ?? null;
    const wallMs = columns!.wallMs[i] ?? null;
    const reason = columns!.reason[i] ?? null;
    const score = columns!.score[i] ?? null;
    return {
      index,
      status: columns!.status[i]!,
      ...(cpuMs === null ? {} : { cpuMs }),
      ...(wallMs === null ? {} : { wallMs }),
      ...(reason === null ? {} : { reason }),
      ...(score === null ? {} : { score }),
    };
  });
  const graded = sample.score !== null || (columns?.score ?? []).some((x) => x !== null);
  for (const index of parseRanges(sample.passedRanges)) results.push(graded ? { index, status: 'passed', score: 1 } : { index, status: 'passed' });
  return results.sort((a, b) => a.index - b.index);
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
export function expandRecord(taskId: string, sampleIndex: number, programHash: string, sample: CompactSample,
  columns: TestColumns | null): SampleRecord {
  return {
    taskId,
    sampleIndex,
    programHash,
    status: sample.status,
    passed: sample.passed === 1,
    ...(sample.plusStatus === null ? {} : { plusStatus: sample.plusStatus, plusPassed: sample.plusPassed === 1 }),
    tests: expandTests(sample, columns),
    cpuMs: sample.cpuMs,
    wallMs: sample.wallMs,
    ...(sample.reason === null ? {} : { reason: sample.reason }),
    ...(sample.score === null ? {} : { score: sample.score }),
    ...(sample.formal === null || sample.formal === undefined ? {} : { formal: storedFormal(sample.formal) }),
  };
}

/**
 * A `samples.formal_json` value back as the `FormalCheck` it was written from (`src/verdict/formal.ts`).
 * @throws RangeError naming the column when it is not a formal check (as `parseRanges` does for its column).
 */
export function storedFormal(json: string): FormalCheck {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = undefined;
  }
  const parsed = formalCheckSchema.safeParse(value);
  if (!parsed.success) throw new RangeError(`samples.formal_json: not a formal check: ${json.slice(0, 200)}`);
  return parsed.data;
}
