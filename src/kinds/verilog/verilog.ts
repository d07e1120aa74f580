/**
 * The `verilog` kind (issue #26) on the plan: a design (the sample) simulated with the problem's trusted files.
 *
 * - The design check (`./design-check.ts`) runs first, on the trusted side: a refused design (printing, ending
 *   the simulation, plusargs, files, hierarchical names, the reference's names, ...) is `invalid_submission` with
 *   the check's reason, and nothing of it is compiled (its plan is a fixed empty program, compiled once and cached).
 * - The program (`./verilog-eval.ts`, `./programs.ts`): the checked design as the candidate's source (`main.sv`)
 *   and the preset's trusted files (`PlannedProgram.files`) compiled together by iverilog with the preset's
 *   arguments and a secret per judgement; the run box keeps only the simulation (`keep`), so the trusted texts
 *   cannot be read back; data files (RTLLM) are the run's `files`.
 * - The verdict reads only lines carrying the secret marker, which only trusted `$display`s print:
 *   VerilogEval: `Mismatches: 0 in N samples` with N the count the reference design printed when run as the
 *   sample (the kind's reference, computed once per problem in boxes of its own); RTLLM: a marked line with
 *   `Pass`/`pass`; CodeV-R1: no mismatch, no errors, and exactly the checks the generated testbench makes.
 *   A compilation that reports a coerced input port (the design drives its own input) is `invalid_submission`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { VerilogProblem } from '../../formats/types.js';
import type { JudgeLimits } from '../../limits.js';
import { defineMode, defineReference, GroundTruthError, type JudgingMode } from '../../judge/mode.js';
import type { ExecutionTools, ProgramRunsPlan, ProgramRunsOutcome } from '../../judge/plan.js';
import type { ExecutionResult } from '../../sandbox/types.js';
import { aggregateTests, runStatus, shortReason, type TestResult, type Verdict } from '../../verdict/index.js';
import { CODEV_DEFAULTS, readCodevReport, type CodevOptions } from './codev.js';
import { checkDesign, type DesignCheck } from './design-check.js';
import { formalCheck, type FormalInput } from './formal-run.js';
import { modulesOf } from './ports.js';
import { autoTop, codevChecks, codevProgram, codevTrustedNames, rtllmPassed, rtllmProgram, rtllmTrustedNames } from './programs.js';
import { completeWithInterface } from './reward-presets.js';
import { coercedInputs, type SimulationProgram } from './simulation.js';
import { trustedLines } from './trusted-text.js';
import { checkVerilogEvalDesign, readVerilogEvalReport, referenceAsSample, verilogEvalOutcome, verilogEvalProgram } from './verilog-eval.js';

/** The name the candidate's design is compiled under (the `verilog` language's `sourceFile`). */
const DESIGN_FILE = 'main.sv';
/** The simulation file iverilog writes and the `verilog` language runs (`vvp -n /artifact/test.vvp`). */
const SIM_FILE = 'test.vvp';

/** What a run's judgement needs: the marker of trusted lines, or the design check's refusal. */
type VerilogCheck =
  | { readonly refused: false; readonly marker: string; readonly referenceSamples: number | undefined; readonly formal?: FormalInput }
  | { readonly refused: true; readonly reason: string };

function codevOptions(problem: VerilogProblem): CodevOptions {
  return problem.codev ?? CODEV_DEFAULTS;
}

/** The design check of the problem's preset; a design the lexer or the directive expansion refuses is refused too. */
function checkFor(problem: VerilogProblem, design: string): DesignCheck {
  try {
    if (problem.preset === 'verilog-eval') return checkVerilogEvalDesign(problem, design);
    if (problem.preset === 'rtllm') return checkDesign(design, { requiredModules: [problem.topModule], trusted: rtllmTrustedNames(problem) });
    return checkDesign(design, { requiredModules: [], trusted: codevTrustedNames(problem) });
  } catch (error) {
    if (error instanceof Error && /Lex|Directive/.test(error.name)) return { ok: false, reason: error.message };
    throw error;
  }
}

/** The preset's simulation program for a checked design. @throws VerilogProblemError, CodevPortError (the problem's fault). */
function simulationOf(problem: VerilogProblem, expanded: string, secret: string): SimulationProgram {
  if (problem.preset === 'verilog-eval') return verilogEvalProgram(problem, expanded, secret);
  if (problem.preset === 'rtllm') return rtllmProgram(problem, expanded, secret);
  return codevProgram(problem, expanded, secret, codevOptions(problem));
}

/** The simulation as a `program_runs` plan with one run (module comment). */
function simulationPlan(sim: SimulationProgram, limits: JudgeLimits, check: VerilogCheck, failFast: boolean): ProgramRunsPlan<VerilogCheck> {
  const design = sim.files.find((f) => !f.trusted);
  if (design === undefined) throw new Error('a simulation program without the design');
  const files = Object.fromEntries(sim.files.filter((f) => f.trusted).map((f) => [f.name, f.content]));
  const compileArgs = sim.compileArgs.map((a, i) => (a === design.name ? DESIGN_FILE : sim.compileArgs[i - 1] === '-o' ? SIM_FILE : a));
  const runFiles = Object.fromEntries(sim.dataFiles.map((f) => [f.name, f.content]));
  return {
    kind: 'program_runs',
    program: { language: 'verilog', source: design.content, files, compileArgv: ['/usr/bin/iverilog', ...compileArgs], keep: [SIM_FILE] },
    runs: [{ stdin: '', check, files: runFiles, ...(sim.runArgs.length === 0 ? {} : { args: sim.runArgs }) }],
    limits, failFast,
  };
}

/** The plan of a design that was refused: a fixed empty program whose one run carries the refusal. */
function refusedPlan(limits: JudgeLimits, reason: string, failFast: boolean): ProgramRunsPlan<VerilogCheck> {
  return { kind: 'program_runs', program: { language: 'verilog', source: 'module tb; endmodule\n' },
    runs: [{ stdin: '', check: { refused: true, reason } }], limits, failFast };
}

/**
 * Least CPU ms of a simulation when the problem sets no limit: VerilogEval's limit is its testbench's own TIMEOUT
 * (simulated time), and its heaviest reference (Prob144_conwaylife) needs 3.1 s of CPU under iverilog 11 here,
 * so the request's per-test default (1 s) would fail right designs. The box's limit stays the hard stop.
 */
export const VERILOG_MIN_CPU_MS = 10_000;

/** The simulation limits of a problem: its own time limit when it has one, else at least `VERILOG_MIN_CPU_MS`. */
function simLimits(problem: VerilogProblem, limits: JudgeLimits): JudgeLimits {
  return { ...limits, cpuMs: problem.timeLimitMs ?? Math.max(limits.cpuMs, VERILOG_MIN_CPU_MS) };
}

/**
 * What the formal check of a checked design compares (`./formal-run.ts`), when the problem asks for it: VerilogEval's
 * `RefModule` against `TopModule`; RTLLM's reference against the design, both `topModule`; CodeV-R1's golden top
 * (`topModule`, else its `autoTop`) against the design's `autoTop`. The design's top undeclared: the check says so.
 */
function formalInputOf(problem: VerilogProblem, expanded: string, limits: JudgeLimits): FormalInput | undefined {
  if (problem.formal !== true && problem.synthesis !== true) return undefined;
  const base = { synthesis: problem.synthesis === true, limits };
  if (problem.preset === 'verilog-eval') return { reference: problem.reference, referenceTop: 'RefModule', design: expanded, designTop: 'TopModule', ...base };
  if (problem.preset === 'rtllm') return { reference: problem.reference, referenceTop: problem.topModule, design: expanded, designTop: problem.topModule, ...base };
  const golden = modulesOf(problem.reference);
  const referenceTop = golden.some((m) => m.name === problem.topModule) ? problem.topModule : autoTop(golden, problem.reference) ?? problem.topModule;
  return { reference: problem.reference, referenceTop, design: expanded, designTop: autoTop(modulesOf(expanded), expanded) ?? problem.topModule, ...base };
}

/** The sample count VerilogEval's testbench prints for the problem's own reference design. */
const referenceSamples = defineReference<VerilogProblem, number, 'program_runs'>({
  version: 1,
  applies: (problem) => problem.preset === 'verilog-eval',
  fingerprint: (problem) => createHash('sha256').update(JSON.stringify([problem.reference, problem.testbench ?? ''])).digest('hex'),
  plan: (problem, limits) => {
    const secret = randomBytes(8).toString('hex');
    const check = checkVerilogEvalDesign(problem, referenceAsSample(problem));
    if (!check.ok) throw new GroundTruthError(`${problem.taskId}: the reference fails the design check: ${check.reason}`);
    const sim = verilogEvalProgram(problem, check.expanded, secret);
    return simulationPlan(sim, simLimits(problem, limits), { refused: false, marker: sim.marker, referenceSamples: undefined }, false);
  },
  parse: (problem, outcome) => {
    const run = outcome.runs[0];
    if (!outcome.compiled || run === undefined || run.status !== 'ok') {
      const why = outcome.compiled ? run?.reason ?? 'no run' : shortReason(outcome.compile?.stderr ?? '');
      throw new GroundTruthError(`${problem.taskId}: the reference design did not simulate: ${why ?? ''}`, run?.status === 'internal_error');
    }
    const markers = [...run.stdout.matchAll(/^(CRUCIBLE-[0-9a-f]+:)/gm)].map((m) => m[1]!);
    const report = markers[0] === undefined ? undefined : readVerilogEvalReport(run.stdout, markers[0]);
    if (report?.kind !== 'report' || report.mismatches !== 0) {
      throw new GroundTruthError(`${problem.taskId}: the reference design does not pass its own testbench (${JSON.stringify(report)})`);
    }
    return report.samples;
  },
  schema: z.number().int().nonnegative(),
});

/** The test result of a simulation run (module comment). */
function judgeSimulation(problem: VerilogProblem, check: VerilogCheck, result: ExecutionResult): Pick<TestResult, 'status' | 'reason'> {
  if (check.refused) return { status: 'invalid_submission', reason: shortReason(`the design is refused: ${check.reason}`)! };
  if (result.status !== 'ok') return { status: runStatus(result), reason: shortReason(result.reason ?? result.stderr)! };
  if (problem.preset === 'verilog-eval') {
    if (check.referenceSamples === undefined) return { status: 'internal_error', reason: 'no reference sample count' };
    const outcome = verilogEvalOutcome(readVerilogEvalReport(result.stdout, check.marker), check.referenceSamples);
    if (outcome.passed) return { status: 'passed' };
    return { status: outcome.timeout === true ? 'time_limit_exceeded' : 'wrong_answer', reason: outcome.reason };
  }
  if (problem.preset === 'rtllm') {
    return rtllmPassed(result.stdout, check.marker) ? { status: 'passed' } : { status: 'wrong_answer', reason: 'the testbench printed no Pass line' };
  }
  const report = readCodevReport(trustedLines(result.stdout, check.marker));
  if (report.kind === 'mismatch') return { status: 'wrong_answer', reason: report.line };
  if (report.kind === 'no_report') return { status: 'wrong_answer', reason: 'the testbench printed no report' };
  const expected = codevChecks(problem, codevOptions(problem));
  if (report.checks !== expected) return { status: 'wrong_answer', reason: `the testbench made ${report.checks} checks of ${expected}` };
  return report.errors === 0 ? { status: 'passed' } : { status: 'wrong_answer', reason: `${report.errors} errors in ${report.checks} checks` };
}

/**
 * The simulation's test result, and beside it the formal check when the problem asks for one (`./formal-run.ts`,
 * yosys in boxes of its own, after the simulation; the simulation's status is never changed by it). A refused design
 * reaches no tool: its check is `unknown`, not checked.
 */
async function judgeWithFormal(problem: VerilogProblem, check: VerilogCheck, index: number, result: ExecutionResult,
  tools: ExecutionTools): Promise<TestResult> {
  const test: TestResult = { index, cpuMs: result.cpuMs, wallMs: result.wallMs, ...judgeSimulation(problem, check, result) };
  if (problem.formal !== true && problem.synthesis !== true) return test;
  if (check.refused) return { ...test, formal: { result: 'unknown', reason: 'not checked: the design is refused' } };
  if (check.formal === undefined) return test;
  return { ...test, formal: await formalCheck(tools, check.formal) };
}

/** The verdict from a simulation outcome (module comment). */
function simulationVerdict(outcome: ProgramRunsOutcome): Verdict {
  const testCount = 1;
  const cpuMs = (outcome.compile?.cpuMs ?? 0) + outcome.runs.reduce((s, r) => s + r.cpuMs, 0);
  const wallMs = (outcome.compile?.wallMs ?? 0) + outcome.runs.reduce((s, r) => s + r.wallMs, 0);
  const compilerSaid = `${outcome.compile?.stdout ?? ''}\n${outcome.compile?.stderr ?? ''}`;
  const coerced = coercedInputs(compilerSaid);
  if (coerced.length > 0) {
    return { status: 'invalid_submission', passed: false, tests: [], testCount, cpuMs, wallMs,
      reason: shortReason(`the design drives its input port(s) ${[...new Set(coerced)].join(', ')} (iverilog: coerced to inout)`)! };
  }
  if (!outcome.compiled) {
    const status = outcome.compile?.status === 'internal_error' ? 'internal_error' : 'compile_error';
    return { status, passed: false, tests: [], testCount, cpuMs, wallMs, reason: shortReason(outcome.compile?.stderr || outcome.compile?.reason) ?? 'did not compile' };
  }
  const { status, reason } = aggregateTests(outcome.tests, testCount);
  const formal = outcome.tests[0]?.formal;
  return { status, passed: status === 'passed', tests: outcome.tests, testCount, cpuMs, wallMs, ...(reason === undefined ? {} : { reason }),
    ...(formal === undefined ? {} : { formal }) };
}

const verilogMode: JudgingMode<VerilogProblem, 'program_runs', VerilogCheck, number | undefined> = {
  kind: 'verilog',
  description: 'RTL by simulation against trusted testbenches (VerilogEval v2, RTLLM, CodeV-R1), verdicts read only from the trusted report',
  language: () => 'verilog',
  acceptsLanguage: (_problem, languageId) => languageId === 'verilog',
  assemble: (problem, code, shape) => (problem.preset === 'verilog-eval' && shape === 'completion' ? completeWithInterface(problem.interface, code) : code),
  testCount: () => 1,
  reference: referenceSamples,
  plan: (problem, program, { limits, failFast, reference }) => {
    const check = checkFor(problem, program.source);
    if (!check.ok) return refusedPlan(limits, check.reason, failFast);
    const sim = simulationOf(problem, check.expanded, randomBytes(8).toString('hex'));
    const formal = formalInputOf(problem, check.expanded, limits);
    return simulationPlan(sim, simLimits(problem, limits),
      { refused: false, marker: sim.marker, referenceSamples: reference, ...(formal === undefined ? {} : { formal }) }, failFast);
  },
  judgeRun: (problem, run, index, result, tools) => judgeWithFormal(problem, run.check, index, result, tools),
  verdict: (_problem, outcome) => simulationVerdict(outcome),
};

/** The `verilog` kind's mode (module comment). */
export const verilogKindMode = defineMode(verilogMode);
