/**
 * The protocol of the Python judge harness, as the host speaks it: one job (NDJSON line) in, one response out.
 * Plain serialisable data, so a job can be planned by a judging mode (`src/kinds/`), run by the local
 * harness pool (`pool.ts` beside this file) or shipped to another machine. The in-box half is `harness/python/`:
 * the common fields are checked in `crucible_harness/zygote.py` (`validate`), each mode's own in
 * `crucible_harness/modes/<mode>.py` (`validate`), the module that also judges that mode's jobs.
 * Times are ms (CPU time unless named wall), memory KiB, output bytes per stream.
 */
import { z } from 'zod';

/**
 * One job for the harness: `unit_test` (HumanEval: `prelude` + `test` judge `program` by `check(entryPoint)`),
 * `script` (MBPP: `program` — the program, then the setup — judged by the assert lines `asserts`, each evaluated
 * by the tester, the program's process evaluating only the calls into it: `crucible_harness/split_asserts.py`),
 * `call` (EvalPlus: call `entryPoint` on each argument list of `inputs`, PyValue answers back; with `failFast` false,
 * `stopAfterTimeouts` k stops after the k-th input that hit the time limit, the rest not run), `assertions`
 * (CodeT: each assertion judged on its own under its own limits).
 */
export type HarnessJob =
  | { readonly mode: 'unit_test'; readonly program: string; readonly prelude: string; readonly test: string;
      readonly entryPoint: string; readonly cpuMs: number; readonly wallMs: number; readonly memoryKiB: number;
      readonly outputBytes: number }
  | { readonly mode: 'script'; readonly program: string; readonly asserts: readonly string[]; readonly cpuMs: number;
      readonly wallMs: number; readonly memoryKiB: number; readonly outputBytes: number }
  | { readonly mode: 'call'; readonly program: string; readonly entryPoint: string; readonly inputs: readonly unknown[];
      readonly cpuMs: number; readonly wallMs: number; readonly memoryKiB: number; readonly outputBytes: number;
      readonly failFast?: boolean; readonly stopAfterTimeouts?: number }
  | { readonly mode: 'assertions'; readonly program: string; readonly prelude: string; readonly entryPoint: string;
      readonly assertions: readonly string[]; readonly cpuMs: number; readonly wallMs: number; readonly memoryKiB: number;
      readonly outputBytes: number };

/** Statuses the harness answers with (`ok` for a job or call that completed). */
const statusSchema = z.enum(['passed', 'wrong_answer', 'no_tests', 'runtime_error', 'time_limit_exceeded',
  'memory_limit_exceeded', 'output_limit_exceeded', 'internal_error', 'ok']);

/** The harness's answer, validated (the zygote relays values produced by untrusted code). */
export const harnessResponseSchema = z.object({
  id: z.string(),
  status: statusSchema,
  assertions: z.number().optional(),
  calls: z.number().optional(),
  /** unit_test and script modes: the job's index in its warm tester process (1 = a freshly forked tester). */
  testerJob: z.number().optional(),
  cpuMs: z.number().default(0),
  wallMs: z.number().default(0),
  memoryKiB: z.number().default(0),
  reason: z.string().optional(),
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  /** call mode: set (to the job's `stopAfterTimeouts`) when the job stopped after that many time-outs; later inputs did not run. */
  stoppedAfterTimeouts: z.number().int().positive().optional(),
  /** Set (true) only when the caller cancelled the job: the status is then `internal_error`. */
  cancelled: z.literal(true).optional(),
  results: z.array(z.object({
    status: statusSchema,
    value: z.unknown().optional(),
    reason: z.string().optional(),
    cpuMs: z.number().optional(),
    signature: z.string().optional(),
  }).passthrough()).optional(),
}).passthrough();

/** A validated harness response. */
export type HarnessResponse = z.infer<typeof harnessResponseSchema>;

/**
 * The responses of a staged harness plan's stages (in order, at least one) as one response: `results` in order,
 * `cpuMs` and `wallMs` summed, `memoryKiB` the peak, `assertions` and `calls` summed when any stage has them; the
 * id, status, reason and output of the last stage run (the earlier ones ended well, or the plan would have stopped).
 * @throws Error for an empty list.
 */
export function mergeHarnessStages(responses: readonly HarnessResponse[]): HarnessResponse {
  const last = responses[responses.length - 1];
  if (last === undefined) throw new Error('mergeHarnessStages: no stage ran');
  if (responses.length === 1) return last;
  const sum = (field: 'cpuMs' | 'wallMs'): number => responses.reduce((t, r) => t + r[field], 0);
  const optionalSum = (field: 'assertions' | 'calls'): { [f in typeof field]?: number } =>
    responses.some((r) => r[field] !== undefined) ? { [field]: responses.reduce((t, r) => t + (r[field] ?? 0), 0) } : {};
  return {
    ...last,
    cpuMs: sum('cpuMs'), wallMs: sum('wallMs'), memoryKiB: Math.max(...responses.map((r) => r.memoryKiB)),
    ...optionalSum('assertions'), ...optionalSum('calls'),
    results: responses.flatMap((r) => r.results ?? []),
  };
}
