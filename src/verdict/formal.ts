/**
 * A formal check of a design against its reference (`crucible eval --formal` on `verilog` problems, issue #26),
 * reported beside the simulation's verdict and never replacing it (`src/kinds/verilog/formal.ts` runs yosys):
 * - `result`: `proven` (yosys' `equiv_*` passes proved the designs equivalent), `refuted` (a bounded model check
 *   found an input sequence of at most `cycles` cycles on which the outputs differ, under `assumption`), `unknown`
 *   (neither; `reason` says why: no proof and no counterexample, a design yosys cannot read, a limit);
 * - `synthesis`: the candidate's and the reference's synthesis statistics (yosys `synth` + `stat -tech cmos`):
 *   cell count and CMOS transistor estimate, when yosys gave them.
 */
import { z } from 'zod';

/** Synthesis statistics of one design: cells after `synth`, and `stat -tech cmos`' transistor estimate. */
export interface SynthesisStats {
  readonly cells: number;
  readonly transistors?: number;
}

/** What the formal check of one design established (module comment). */
export interface FormalCheck {
  readonly result: 'proven' | 'refuted' | 'unknown';
  readonly reason?: string;
  /** What a `refuted` assumed of the designs (registers start at zero); absent otherwise. */
  readonly assumption?: string;
  /** Cycles of the bounded check. */
  readonly cycles?: number;
  readonly synthesis?: { readonly design?: SynthesisStats; readonly reference?: SynthesisStats };
}

const count = z.number().int().nonnegative();
const statsSchema = z.object({ cells: count, transistors: count.optional() });

/** zod schema of a `FormalCheck` (records, the queue wire). */
export const formalCheckSchema = z.object({
  result: z.enum(['proven', 'refuted', 'unknown']),
  reason: z.string().max(2000).optional(),
  assumption: z.string().max(2000).optional(),
  cycles: count.optional(),
  synthesis: z.object({ design: statsSchema.optional(), reference: statsSchema.optional() }).optional(),
});
