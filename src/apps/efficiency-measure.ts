/**
 * The measuring side of `crucible eval --efficiency` (issue #28, item 7): one program of an `io` problem, on the
 * problem's measured test inputs, in the sandbox, measured three ways.
 * - **Instructions**: one run per measured test under callgrind (`src/engine/callgrind.ts`), the counts summed.
 *   Deterministic for single-threaded programs with hash seeds fixed: the language's environment already fixes
 *   PYTHONHASHSEED=0, and the runs here set it for every language. Such a run gets `COUNT_PROCESSES` processes
 *   (the program alone: the sandbox's process count does not include box-init), so the program cannot fork a helper
 *   that would outlive its summary.
 * - **Bytecodes**, for Java (`countUnitOf`): callgrind's count of a JVM varies between runs (its helper threads
 *   and the layout they leave: by 0.03–0.6%, and still by ~0.001% when only `main`'s thread was collected:
 *   docs/METRICS.md, "Efficiency measured"), so a Java program's count is the number of bytecodes its main thread
 *   executes, from a JVMTI agent under `-Xint` (`src/engine/jvm-bytecodes.ts`), with `JVM_COUNT_TASKS` tasks (the
 *   JVM's own threads and no more: no new thread or process). A count is comparable only with a count of the same
 *   unit (`countUnit`). The other JVM and .NET languages (`UNCOUNTED_LANGUAGES`) get no count; they are compared
 *   by the noise-aware wall time below, which is documented as their measure (docs/METRICS.md).
 * - **Wall time**: `repeats` plain runs of every measured test; a repeat's time is the sum over tests. The median
 *   and its seeded bootstrap interval come from `metrics/efficiency.ts` (`medianInterval`).
 * - **Peak memory**: the sandbox's cgroup peak (`ExecutionResult.memoryKiB`, cgroup `memory.max_usage_in_bytes`),
 *   the largest over tests, the median over repeats.
 * - **Memory integral** (EffiBench's total memory usage): each plain run's box memory sampled from outside the box
 *   every `MEMORY_SAMPLE_MS` (`src/sandbox/memory-sampler.ts`, trapezoid rule, KiB·ms), summed over tests, the
 *   median over repeats; null without cgroups (`--unsafe-no-sandbox`, the RLIMIT_AS fallback).
 * Every run's stdout is compared with the test's expected output by the problem's comparator on the trusted side:
 * a program that behaves differently when measured (e.g. skips the work) gets no measurement, never a good one.
 * The box sees only the test's input, never the expected output.
 */
import { callgrindArgv, parseCallgrindLog } from '../engine/callgrind.js';
import { countUnitOf, type CountUnit } from '../engine/count-unit.js';
import { bytecodeArgv, JVM_COUNT_TASKS, parseBytecodeLog } from '../engine/jvm-bytecodes.js';
import type { Executor } from '../engine/executor.js';
import type { IoProblem } from '../formats/types.js';
import { compareOutput } from '../kinds/io/comparators.js';
import type { LanguageRegistry } from '../languages/registry.js';
import type { BootstrapOptions } from '../metrics/bootstrap.js';
import { median, medianInterval } from '../metrics/efficiency.js';
import type { Limits } from '../sandbox/types.js';

/** Processes + threads of a counted run: box-init and the program (callgrind is the program's own process). */
export const COUNT_PROCESSES = 1;

/** callgrind's slowdown allowance: a counted run gets this many times the CPU and wall limits. */
export const CALLGRIND_TIME_FACTOR = 100;

/** Period (ms) of the memory samples of a plain run (Node's timers: ~1 ms at best, later under load). */
export const MEMORY_SAMPLE_MS = 2;

/** How to measure. */
export interface MeasureSettings {
  /** Plain runs per test for wall time (k, at least 1). */
  readonly repeats: number;
  /** How many of a problem's tests are measured: those with the longest inputs (ties: file order). */
  readonly tests: number;
  /** Count instructions through callgrind (default true). */
  readonly instructions: boolean;
  /** Limits of a plain run (before the language's multipliers). */
  readonly limits: Limits;
  readonly bootstrap: BootstrapOptions;
}

/** One program's measurement (see the module comment), or why it failed (`error`). */
export interface ProgramMeasurement {
  readonly language: string;
  /**
   * The count summed over the measured tests, in `countUnit` (callgrind's instructions, or a JVM's bytecodes); null
   * when not counted (`instructionsNote` says why).
   */
  readonly instructions: number | null;
  /** Unit of `instructions`; null when not counted. Counts of different units are never compared. */
  readonly countUnit: CountUnit | null;
  readonly instructionsNote?: string;
  /** Wall time of each repeat (ms, summed over tests), its median and 95% (by default) bootstrap interval. */
  readonly wallMs: readonly number[];
  readonly wallMedianMs: number;
  readonly wallLowerMs: number;
  readonly wallUpperMs: number;
  /** Median over repeats of the CPU time (ms, summed over tests). */
  readonly cpuMedianMs: number;
  /** Median over repeats of the peak memory (KiB, largest over tests). */
  readonly peakMemoryKiB: number;
  /** Median over repeats of the memory integral (KiB·ms, summed over tests); null when the box was not sampled. */
  readonly memoryKiBMs: number | null;
  /** Fewest memory samples any measured run got (0 when not sampled): how much `memoryKiBMs` rests on. */
  readonly memorySamples: number;
  /** Set when the program could not be measured (a run failed or printed a wrong answer); other fields are 0. */
  readonly error?: string;
}

/** Indices of the `count` tests with the longest inputs, in file order. */
export function measuredTests(problem: IoProblem, count: number): number[] {
  const order = problem.tests.map((test, index) => ({ index, length: test.input.length }));
  order.sort((a, b) => b.length - a.length || a.index - b.index);
  return order.slice(0, Math.max(1, count)).map((t) => t.index).sort((a, b) => a - b);
}

/**
 * Limits of a counted run from a plain run's (after language multipliers): one process (no fork), CPU and wall
 * time × `CALLGRIND_TIME_FACTOR`, 256 MiB more memory for valgrind's own. `unit` 'bytecodes' (a JVM under the
 * bytecode counter): `JVM_COUNT_TASKS` tasks instead of one, and the memory limit unchanged (no valgrind).
 */
export function countLimits(limits: Limits, unit: CountUnit = 'instructions'): Limits {
  const slower = { ...limits, cpuMs: limits.cpuMs * CALLGRIND_TIME_FACTOR, wallMs: limits.wallMs * CALLGRIND_TIME_FACTOR };
  return unit === 'bytecodes' ? { ...slower, processes: JVM_COUNT_TASKS }
    : { ...slower, processes: COUNT_PROCESSES, memoryKiB: limits.memoryKiB + 256 * 1024 };
}

/** One counted run's count (`instructions` or `bytecodes` by `unit`), or why it could not be trusted. */
function readCount(unit: CountUnit, stderr: string, truncated: boolean): { ok: true; count: number } | { ok: false; reason: string } {
  if (unit === 'bytecodes') {
    const parsed = parseBytecodeLog(stderr, truncated);
    return parsed.ok ? { ok: true, count: parsed.bytecodes } : parsed;
  }
  const parsed = parseCallgrindLog(stderr, truncated);
  return parsed.ok ? { ok: true, count: parsed.instructions } : parsed;
}

function failed(language: string, error: string): ProgramMeasurement {
  return { language, instructions: null, countUnit: null, wallMs: [], wallMedianMs: 0, wallLowerMs: 0, wallUpperMs: 0, cpuMedianMs: 0, peakMemoryKiB: 0,
    memoryKiBMs: null, memorySamples: 0, error };
}

/**
 * Measure one program (`language` id, `source`) on `problem`. Never throws for what the program does; a failure
 * of the sandbox is an `error` too (the sample keeps its verdict, only its measurement is missing).
 */
export async function measureProgram(executor: Executor, languages: LanguageRegistry, problem: IoProblem,
  language: string, source: string, settings: MeasureSettings): Promise<ProgramMeasurement> {
  const lang = languages.get(language);
  const compiled = await executor.compile(lang, source);
  if (!compiled.ok) return failed(lang.id, `compilation: ${compiled.result.reason ?? compiled.result.status}`);
  const tests = measuredTests(problem, settings.tests);
  const base = executor.command(lang, source, compiled, settings.limits);
  const env = { ...base.env, PYTHONHASHSEED: '0' };
  const check = (stdout: string, index: number): string | null => {
    const verdict = compareOutput(stdout, problem.tests[index]!.output, problem.comparator);
    return verdict.ok ? null : `test ${index}: wrong answer when measured (${verdict.reason})`;
  };
  let instructions: number | null = null;
  let instructionsNote: string | undefined;
  const unit = countUnitOf(lang.id);
  const countedArgv = unit === 'bytecodes' ? bytecodeArgv(base.argv) : callgrindArgv(base.argv);
  if (!settings.instructions) instructionsNote = 'not asked for';
  else if (unit === null) instructionsNote = `${lang.id}: multi-threaded runtime, counts are not deterministic; compare wall time`;
  else if (countedArgv === null) instructionsNote = `${lang.id}: its run command is not a /usr/bin/java launch the bytecode counter can wrap`;
  else {
    let total = 0;
    const limits = countLimits(base.limits, unit);
    const counter = unit === 'bytecodes' ? 'the bytecode counter' : 'callgrind';
    for (const index of tests) {
      const { result } = await executor.sandbox.run({ ...base, env, limits, argv: countedArgv, stdin: problem.tests[index]!.input });
      if (result.status !== 'ok' || result.exitCode !== 0) return failed(lang.id, `test ${index} under ${counter}: ${result.reason ?? result.status}`);
      const wrong = check(result.stdout, index);
      if (wrong !== null) return failed(lang.id, `${wrong} under ${counter}`);
      const count = readCount(unit, result.stderr, result.stderrTruncated);
      if (!count.ok) return failed(lang.id, `test ${index}: no trusted ${unit === 'bytecodes' ? 'bytecode' : 'instruction'} count: ${count.reason}`);
      total += count.count;
    }
    instructions = total;
  }
  const walls: number[] = [];
  const cpus: number[] = [];
  const peaks: number[] = [];
  const integrals: number[] = [];
  let fewestSamples = Infinity;
  for (let r = 0; r < Math.max(1, settings.repeats); r++) {
    let wall = 0;
    let cpu = 0;
    let peak = 0;
    let integral: number | null = 0;
    for (const index of tests) {
      const { result } = await executor.sandbox.run({ ...base, env, stdin: problem.tests[index]!.input, memorySampleMs: MEMORY_SAMPLE_MS });
      if (result.status !== 'ok') return failed(lang.id, `test ${index}: ${result.reason ?? result.status}`);
      const wrong = check(result.stdout, index);
      if (wrong !== null) return failed(lang.id, wrong);
      wall += result.wallMs;
      cpu += result.cpuMs;
      peak = Math.max(peak, result.memoryKiB);
      if (result.memoryIntegral === undefined) integral = null;
      else {
        if (integral !== null) integral += result.memoryIntegral.kiBMs;
        fewestSamples = Math.min(fewestSamples, result.memoryIntegral.samples);
      }
    }
    walls.push(wall);
    cpus.push(cpu);
    peaks.push(peak);
    if (integral !== null) integrals.push(integral);
  }
  const interval = medianInterval(walls, settings.bootstrap);
  return {
    language: lang.id, instructions, countUnit: instructions === null ? null : unit, ...(instructionsNote === undefined ? {} : { instructionsNote }),
    wallMs: walls, wallMedianMs: interval.point, wallLowerMs: interval.lower, wallUpperMs: interval.upper,
    cpuMedianMs: median(cpus), peakMemoryKiB: median(peaks),
    memoryKiBMs: integrals.length === walls.length ? median(integrals) : null, memorySamples: integrals.length === walls.length ? fewestSamples : 0,
  };
}
