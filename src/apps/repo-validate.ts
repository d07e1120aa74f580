/**
 * `crucible repo validate` as a library: SWE-bench's validation of instances (princeton-nlp/SWE-bench
 * `harness/run_validation`: the gold patch must resolve and the tests must fail without it) with repetitions.
 * Every instance is judged `runs` times with its gold patch, the empty patch and each of its known wrong patches,
 * each repetition on a fresh judge (no verdict remembered between repetitions), and flagged:
 * - `gold_not_resolved`: a gold run was not resolved (with its status: a broken instance or environment);
 * - `flaky`: a patch's status or any test's state differs between repetitions;
 * - `empty_resolved` / `wrong_resolved`: the tests do not tell the fix from no fix, or from a known wrong patch;
 * - `fail_to_pass_passes_at_base`: a FAIL_TO_PASS test passes without the fix (mislabelled);
 * - `pass_to_pass_fails_at_base`: a PASS_TO_PASS test does not pass without the fix.
 */
import type { RepositoryProblem } from '../formats/types.js';
import type { Judge } from '../judge/judge.js';
import { prepareSubmission, type SubmissionContext } from '../judge/submission.js';
import type { SampleStatus, Verdict } from '../verdict/index.js';
import { inPool } from './in-pool.js';

/** A patch judged for validation: `gold`, `empty`, or a wrong patch of the given kind. */
export interface ValidationPatch {
  readonly label: string;
  readonly patch: string;
}

/** The repetitions of one patch: each run's status and test states (`passed`, `failed`, `skipped`, `missing`). */
export interface PatchRuns {
  readonly label: string;
  readonly statuses: readonly SampleStatus[];
  readonly states: readonly (readonly string[])[];
  readonly reasons: readonly (string | undefined)[];
  readonly wallMs: readonly number[];
}

/** One instance's validation: every patch's runs and the flags raised. */
export interface InstanceValidation {
  readonly taskId: string;
  readonly patches: readonly PatchRuns[];
  readonly flags: readonly string[];
}

/** What a validation needs. */
export interface ValidateOptions {
  readonly problems: readonly RepositoryProblem[];
  readonly datasetHash: string;
  /** Known wrong patches by instance id (each judged like gold and empty). */
  readonly wrongPatches?: ReadonlyMap<string, readonly ValidationPatch[]>;
  readonly runs: number;
  /** A fresh judge for one repetition (sharing the sandbox and prepared environments); closed after it. */
  readonly makeJudge: () => Judge;
  readonly submission: SubmissionContext;
  readonly concurrency: number;
  readonly onJudged?: (done: number, total: number) => void;
}

function testStates(v: Verdict): string[] {
  const out = new Array<string>(v.testCount).fill('missing');
  for (const t of v.tests) out[t.index] = t.status === 'passed' ? 'passed' : /\b(failed|skipped|missing)$/.exec(t.reason ?? '')?.[1] ?? 'failed';
  return out;
}

/** The flags of one instance from its patches' runs (see the module comment). */
export function validationFlags(problem: RepositoryProblem, patches: readonly PatchRuns[]): string[] {
  const flags: string[] = [];
  const f2p = problem.failToPass.length;
  for (const p of patches) {
    const same = p.statuses.every((s) => s === p.statuses[0]) && p.states.every((s) => s.join() === p.states[0]!.join());
    if (!same) flags.push(`flaky:${p.label}`);
    if (p.label === 'gold' && p.statuses.some((s) => s !== 'passed')) flags.push(`gold_not_resolved:${[...new Set(p.statuses)].join('/')}`);
    if (p.label === 'empty') {
      if (p.statuses.includes('passed')) flags.push('empty_resolved');
      if (p.states.some((s) => s.slice(0, f2p).includes('passed'))) flags.push('fail_to_pass_passes_at_base');
      if (p.statuses.every((s) => s === 'passed' || s === 'wrong_answer') && p.states.some((s) => s.slice(f2p).some((x) => x !== 'passed'))) {
        flags.push('pass_to_pass_fails_at_base');
      }
    }
    if (p.label !== 'gold' && p.label !== 'empty' && p.statuses.includes('passed')) flags.push(`wrong_resolved:${p.label}`);
  }
  return flags;
}

/** Validate every instance (see the module comment). Rejects only for a request the judge refuses. */
export async function validateRepositories(o: ValidateOptions): Promise<InstanceValidation[]> {
  const jobs = o.problems.flatMap((problem) => [
    { problem, patch: { label: 'gold', patch: problem.goldPatch } },
    { problem, patch: { label: 'empty', patch: '' } },
    ...(o.wrongPatches?.get(problem.taskId) ?? []).map((patch) => ({ problem, patch })),
  ]);
  const results = new Map<string, { statuses: SampleStatus[]; states: string[][]; reasons: (string | undefined)[]; wallMs: number[] }>();
  const keyOf = (taskId: string, label: string): string => `${taskId}\0${label}`;
  let done = 0;
  for (let run = 0; run < o.runs; run++) {
    const judge = o.makeJudge();
    try {
      await inPool(jobs, o.concurrency, async ({ problem, patch }) => {
        const prepared = prepareSubmission(problem, { solution: patch.patch }, o.submission);
        if (prepared.kind !== 'program') throw new Error(`${problem.taskId}: ${patch.label} patch: not a program`);
        const verdict = await judge.judge({ problem: { datasetHash: o.datasetHash, taskId: problem.taskId }, program: prepared.program });
        const key = keyOf(problem.taskId, patch.label);
        const entry = results.get(key) ?? { statuses: [], states: [], reasons: [], wallMs: [] };
        entry.statuses[run] = verdict.status;
        entry.states[run] = testStates(verdict);
        entry.reasons[run] = verdict.reason;
        entry.wallMs[run] = verdict.wallMs;
        results.set(key, entry);
        o.onJudged?.(++done, jobs.length * o.runs);
      });
    } finally {
      await judge.close();
    }
  }
  return o.problems.map((problem) => {
    const patches = jobs.filter((j) => j.problem === problem).map(({ patch }): PatchRuns => {
      const r = results.get(keyOf(problem.taskId, patch.label))!;
      return { label: patch.label, statuses: r.statuses, states: r.states, reasons: r.reasons, wallMs: r.wallMs };
    });
    return { taskId: problem.taskId, patches, flags: validationFlags(problem, patches) };
  });
}
