/**
 * Real-test verdicts taken from an earlier run of the same samples on the same problems (`crucible rerank
 * --verdicts-from RUN`), so a rerank does not judge again what `crucible eval` already judged: step 1 of
 * `executeRerank` (every distinct solution on the problem's real tests) is then a lookup for every solution the run
 * holds, and only the solutions it lacks are judged.
 *
 * What makes a verdict reusable: the run names the problems it judged by their dataset hash (`summary.json`'s
 * `datasetHash`, the sha256 of the problems file that `crucible eval` and `crucible rerank` both compute), and it
 * must equal the rerank's; a sample's record is keyed by task id and `programHash` (sha256 of the prepared program,
 * `preparedHash`), the same key the rerank groups identical programs by. Records of one key that disagree on
 * `passed` (a flaky program judged twice) are not taken: that solution is judged again.
 */
import type { CalibratedTimeLimit } from '../limits.js';
import type { SampleRecord } from '../store/records.js';
import type { Verdict } from '../verdict/index.js';

/** An earlier run whose verdicts cannot be reused here (the user's input error, with the reason). */
export class PriorVerdictsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PriorVerdictsError';
  }
}

/** Verdicts of an earlier run, keyed by `taskId + "\0" + programHash`. */
export interface PriorVerdicts {
  /** Where they come from (a run directory or `store:<id> (<name>)`), for messages and provenance. */
  readonly source: string;
  readonly byProgram: ReadonlyMap<string, Verdict>;
  /** Keys whose records disagreed on `passed` and are judged again. */
  readonly conflicting: number;
}

/** The key of one distinct program of one problem. */
export function priorKey(taskId: string, programHash: string): string {
  return `${taskId}\u0000${programHash}`;
}

/** A stored record read back as the verdict it was made from (per-test results kept when the run has them). */
function verdictOfRecord(record: SampleRecord): Verdict {
  return {
    status: record.status, passed: record.passed, tests: record.tests, testCount: record.tests.length, cpuMs: record.cpuMs, wallMs: record.wallMs,
    ...(record.plusStatus === undefined ? {} : { plusStatus: record.plusStatus, plusPassed: record.plusPassed === true }),
    ...(record.reason === undefined ? {} : { reason: record.reason }),
    ...(record.score === undefined ? {} : { score: record.score }),
  };
}

/**
 * The dataset hash, CPU limit and time-limit rule a run's `summary.json` (`crucible eval`'s) names, each when
 * present; a summary without a rule was written when every limit was fixed ('fixed').
 */
function summaryFacts(summary: unknown): { datasetHash?: string; cpuMs?: number; rule: string } {
  if (typeof summary !== 'object' || summary === null) return { rule: 'fixed' };
  const { datasetHash, limits } = summary as Record<string, unknown>;
  const fields = typeof limits === 'object' && limits !== null ? limits as Record<string, unknown> : {};
  const cpuMs = fields['cpuMsPerProgramOrTest'];
  const rule = fields['timeLimitRule'] === undefined ? 'fixed' : JSON.stringify(fields['timeLimitRule']);
  return { ...typeof datasetHash === 'string' ? { datasetHash } : {}, ...typeof cpuMs === 'number' ? { cpuMs } : {}, rule };
}

/** A time-limit rule as `summaryFacts` names it. */
function ruleName(rule: CalibratedTimeLimit | null): string {
  return rule === null ? 'fixed' : JSON.stringify({ factor: rule.factor, floorMs: rule.floorMs });
}

/**
 * Index an earlier run's records for reuse by a rerank of the problems whose dataset hash is `datasetHash`, judged
 * under a CPU limit of `cpuMs` per program and time-limit rule `rule` (`src/limits.ts`; null: fixed). Records whose status is `internal_error` are left out (Crucible's failure
 * is never reused as a verdict).
 * @param run the run's records and its parsed `summary.json` (as `loadRunOrStored` gives them) and where it is.
 * @returns the verdicts by `priorKey`.
 * @throws PriorVerdictsError when the run's summary does not name its dataset and CPU limit (a
 *   `crucible eval` run's does), or names another dataset, limit or time-limit rule.
 */
export function priorVerdictsOf(run: { readonly dir: string; readonly records: readonly SampleRecord[]; readonly summary: unknown },
  datasetHash: string, cpuMs: number, rule: CalibratedTimeLimit | null): PriorVerdicts {
  const facts = summaryFacts(run.summary);
  if (facts.datasetHash === undefined || facts.cpuMs === undefined) {
    throw new PriorVerdictsError(`${run.dir}: its summary does not name the problems it judged and its CPU limit (datasetHash, limits.cpuMsPerProgramOrTest, ` +
      'as a crucible eval run\'s does): its verdicts cannot be matched');
  }
  if (facts.datasetHash !== datasetHash) {
    throw new PriorVerdictsError(`${run.dir} judged other problems (dataset ${facts.datasetHash.slice(0, 12)}…, these are ${datasetHash.slice(0, 12)}…)`);
  }
  if (facts.cpuMs !== cpuMs) throw new PriorVerdictsError(`${run.dir} judged under a CPU limit of ${facts.cpuMs} ms, this rerank uses ${cpuMs} ms: pass the same --time-limit`);
  if (facts.rule !== ruleName(rule)) {
    throw new PriorVerdictsError(`${run.dir} judged under the time-limit rule ${facts.rule}, this rerank uses ${ruleName(rule)}: its verdicts can differ`);
  }
  const byProgram = new Map<string, Verdict>();
  const disagreed = new Set<string>();
  for (const record of run.records) {
    if (record.status === 'internal_error') continue;
    const key = priorKey(record.taskId, record.programHash);
    if (disagreed.has(key)) continue;
    const seen = byProgram.get(key);
    if (seen === undefined) byProgram.set(key, verdictOfRecord(record));
    else if (seen.passed !== record.passed) {
      byProgram.delete(key);
      disagreed.add(key);
    }
  }
  return { source: run.dir, byProgram, conflicting: disagreed.size };
}
