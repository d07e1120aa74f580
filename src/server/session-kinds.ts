/**
 * What a `program` session shows of a loaded problem, by the problem's kind (issue #26 item 4: `verilog` and `sql`
 * problems reachable from sessions):
 * - the statement the first observation carries: a problem's `prompt` (HumanEval-style, VerilogEval's spec), else a
 *   proof problem's statement, or a SQL problem's question, BIRD evidence and database id (never its gold query or the gold result rows);
 * - whether the verdict's reason is the trusted side's summary and may be shown even though the task's tests are
 *   hidden: the `verilog` kind's reason is read from the trusted testbench's report (VerilogEval's
 *   `Mismatches: N in M samples`, `src/kinds/verilog/verilog-eval.ts`), the `sql` kind's is the comparator's verdict
 *   (`spider-testsuite: wrong result`, `src/kinds/sql/judging.ts`) or the query's own SQLite error; neither quotes
 *   the reference's output, the testbench text or the gold rows. Other kinds' reasons often quote a hidden test's
 *   expected value and stay hidden with it (`src/sessions/environments/program.ts`);
 * - whether tests may be made visible at all: a `verilog` problem's one test is the trusted testbench, whose output
 *   (what "visible" would show) is the testbench's and not the design's, so only `visibleTests: "none"` is taken.
 */
import type { Problem } from '../formats/types.js';
import type { FormalCheck } from '../verdict/index.js';

/** A program session's view of one problem kind (module comment). */
export interface SessionKindView {
  /** Text appended to the first observation's summary ('' for none), starting with a newline when not empty. */
  readonly statement: string;
  /** Whether the verdict's reason is a trusted summary that quotes no hidden value. */
  readonly summaryReason: boolean;
  /** Why tests cannot be made visible on this problem, or undefined when they can. */
  readonly hiddenOnly?: string;
}

/** The session view of `problem` (module comment). Pure. */
export function sessionKindView(problem: Problem): SessionKindView {
  if (problem.kind === 'sql') {
    const evidence = problem.evidence === undefined || problem.evidence === '' ? '' : `\nEvidence: ${problem.evidence}`;
    return {
      statement: `\nDatabase: ${problem.dbId} (${problem.engine}).${problem.question === undefined ? '' : `\nQuestion: ${problem.question}`}${evidence}`,
      summaryReason: true,
    };
  }
  const prompt = 'prompt' in problem && typeof problem.prompt === 'string' ? `\n${problem.prompt}`
    : problem.kind === 'proof' && 'statement' in problem && typeof problem.statement === 'string' ? `\n${problem.statement}` : '';
  if (problem.kind === 'verilog') {
    return { statement: prompt, summaryReason: true,
      hiddenOnly: 'a verilog problem\'s test is the trusted testbench: feedback gives its summary (the mismatch count), never its output' };
  }
  return { statement: prompt, summaryReason: false };
}

/**
 * The formal check as a session observation shows it: the result, the bounded check's cycles and assumption, and
 * the candidate design's own synthesis statistics; not `reason` (it may quote yosys' log of the reference) nor the
 * reference's statistics. Shape as `FormalCheck` (`src/verdict/formal.ts`).
 */
export function sessionFormal(formal: FormalCheck): FormalCheck {
  const design = formal.synthesis?.design;
  return {
    result: formal.result,
    ...(formal.cycles === undefined ? {} : { cycles: formal.cycles }),
    ...(formal.assumption === undefined ? {} : { assumption: formal.assumption }),
    ...(design === undefined ? {} : { synthesis: { design } }),
  };
}
