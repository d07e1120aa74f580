/**
 * The formal check and synthesis statistics of one design, run: yosys (the `yosys` language,
 * `languages/yosys.yaml`) in the sandbox through `ExecutionTools.runProgram`, in boxes of their own, one script a
 * box (the scripts and readers: `./formal.ts`). yosys parses the candidate's text, so it is hostile input: it runs
 * only there, under `FORMAL_LIMITS` enforced from outside.
 *
 * Order: the equivalence proof; when it does not prove, the bounded check; with `synthesis`, the synthesis of
 * each design (in boxes of their own: a design yosys cannot synthesise leaves its statistics out, nothing else).
 * A design yosys cannot read, a run that ends on a limit, and a box that fails are `unknown` with the reason
 * (Crucible's own failure says so in the reason: the simulation's verdict stands either way).
 */
import { randomBytes } from 'node:crypto';
import type { ExecutionTools } from '../../judge/plan.js';
import type { JudgeLimits } from '../../limits.js';
import type { ExecutionResult } from '../../sandbox/types.js';
import type { FormalCheck, SynthesisStats } from '../../verdict/formal.js';
import { shortReason } from '../../verdict/index.js';
import {
  BMC_CYCLES, boundedCheckResult, boundedCheckScript, equivalenceProven, equivalenceScript, formalDesigns, gateTop, GATE_FILE,
  GOLD_FILE, goldTop, hasAttributes, readSynthesisStats, REFUTED_ASSUMPTION, synthesisScript, yosysError,
} from './formal.js';

/**
 * Limits of each yosys box: 20 s of CPU (a 20-cycle check of VerilogEval's largest reference takes well under
 * 1 s here), the request's memory, 1 MiB of log.
 */
export function formalLimits(limits: JudgeLimits): JudgeLimits {
  return { cpuMs: 20_000, memoryKiB: limits.memoryKiB, outputBytes: 1 << 20 };
}

/** What to check: the reference and its top, the checked (expanded) design and its top, and whether to synthesise. */
export interface FormalInput {
  readonly reference: string;
  readonly referenceTop: string;
  readonly design: string;
  readonly designTop: string;
  readonly synthesis: boolean;
  /** The request's limits (the memory limit is each yosys box's). */
  readonly limits: JudgeLimits;
}

/** Why a yosys run gave no answer, or undefined when it ran to its end. */
function failure(result: ExecutionResult): string | undefined {
  const log = `${result.stdout}\n${result.stderr}`;
  if (result.status === 'internal_error') return `crucible could not run yosys: ${result.reason ?? 'no reason'}`;
  const error = yosysError(log);
  if (error !== undefined) return `yosys: ${error}`;
  if (result.status !== 'ok') return `yosys stopped: ${result.status}${result.reason === undefined ? '' : ` (${result.reason})`}`;
  return undefined;
}

/** Run one script on the renamed designs. */
function runScript(tools: ExecutionTools, script: string, files: Readonly<Record<string, string>>, limits: JudgeLimits): Promise<ExecutionResult> {
  return tools.runProgram({ language: 'yosys', source: script }, '', formalLimits(limits), files);
}

/** Synthesis statistics of one renamed design, undefined when yosys gave none. */
async function synthesised(tools: ExecutionTools, file: string, text: string, top: string, limits: JudgeLimits): Promise<SynthesisStats | undefined> {
  const result = await runScript(tools, synthesisScript(file, top), { [file]: text }, limits);
  return failure(result) === undefined ? readSynthesisStats(result.stdout) : undefined;
}

/** The equivalence proof, then the bounded check (module comment). */
async function decide(tools: ExecutionTools, files: Readonly<Record<string, string>>, secret: string, limits: JudgeLimits): Promise<FormalCheck> {
  const order = [GOLD_FILE, GATE_FILE];
  const equivalence = await runScript(tools, equivalenceScript(order, secret), files, limits);
  if (failure(equivalence) === undefined && equivalenceProven(equivalence.stdout)) return { result: 'proven' };
  const bounded = await runScript(tools, boundedCheckScript(order, secret), files, limits);
  const why = failure(bounded);
  if (why !== undefined) return { result: 'unknown', reason: shortReason(why)! };
  if (boundedCheckResult(bounded.stdout) === 'refuted') return { result: 'refuted', cycles: BMC_CYCLES, assumption: REFUTED_ASSUMPTION };
  const equivalenceWhy = failure(equivalence);
  return { result: 'unknown', cycles: BMC_CYCLES, reason: shortReason(equivalenceWhy === undefined
    ? `not proven equivalent, and no counterexample within ${BMC_CYCLES} cycles`
    : `not proven equivalent (${equivalenceWhy}), and no counterexample within ${BMC_CYCLES} cycles`)! };
}

/** The formal check of `input` (module comment). Never throws for what the design is; `unknown` says why. */
export async function formalCheck(tools: ExecutionTools, input: FormalInput): Promise<FormalCheck> {
  const limits = input.limits;
  if (hasAttributes(input.design)) return { result: 'unknown', reason: 'not checked: the design carries attributes (* ... *), which steer yosys' };
  const secret = randomBytes(8).toString('hex');
  let designs: { gold: string; gate: string };
  try {
    designs = formalDesigns(input.reference, input.referenceTop, input.design, input.designTop, secret);
  } catch (error) {
    return { result: 'unknown', reason: shortReason(`not checked: ${error instanceof Error ? error.message : String(error)}`)! };
  }
  const files = { [GOLD_FILE]: designs.gold, [GATE_FILE]: designs.gate };
  const check = await decide(tools, files, secret, limits);
  if (!input.synthesis) return check;
  const design = await synthesised(tools, GATE_FILE, designs.gate, gateTop(secret), limits);
  const reference = await synthesised(tools, GOLD_FILE, designs.gold, goldTop(secret), limits);
  return { ...check, synthesis: { ...(design === undefined ? {} : { design }), ...(reference === undefined ? {} : { reference }) } };
}
