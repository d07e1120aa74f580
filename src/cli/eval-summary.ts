/**
 * `crucible eval`'s summary: the object written to `summary.json` (and kept by the store run), and the text printed
 * for a human. The summary is stamped with what the numbers mean: which problems pass@k is over (`scope`: the
 * harness's split, a deliberate `--limit`/`--tasks` subset), which problems were left out because their reference
 * failed, the detected problem and sample formats, limits, toolchain versions and package sets.
 */
import type { EvaluationResult } from '../apps/evaluate.js';
import type { ToolchainPackages } from '../apps/provenance.js';
import { scopeLine, type RunScope } from '../apps/selection.js';
import type { BigcodeAlignment, SampleFormat } from '../formats/index.js';
import type { Problem, ScriptProblem } from '../formats/types.js';
import { scriptJudgingOf } from '../kinds/script/script.js';
import { INTERNAL_ERROR_RETRIES } from '../engine/local-judge.js';
import type { JudgeLimits } from '../limits.js';
import { SAMPLE_STATUSES } from '../verdict/index.js';
import { CRUCIBLE_VERSION } from './version.js';

/** At most this many one-program task ids are named in a summary. */
const ONE_PROGRAM_NAMED = 20;
/** At most this many problems whose reference failed are listed in a summary. */
const REFERENCE_FAILURES_NAMED = 20;

/**
 * How the run's script problems (HumanEval-X, MultiPL-E) are judged (`scriptJudgingOf`): counts, and the ids of
 * those judged as one program (the fallback whose end-of-tests marker a program written against Crucible can
 * forge; at most `ONE_PROGRAM_NAMED`), or undefined when the run has none.
 */
function scriptJudgingSummary(problems: readonly Problem[]):
  { split: number; replay: number; oneProgram: number; oneProgramTasks: string[] } | undefined {
  const scripts = problems.filter((p): p is ScriptProblem => p.kind === 'script');
  if (scripts.length === 0) return undefined;
  const how = scripts.map((p) => [p.taskId, scriptJudgingOf(p)] as const);
  const oneProgram = how.filter(([, h]) => h === 'one-program').map(([id]) => id);
  return { split: how.filter(([, h]) => h === 'split').length, replay: how.filter(([, h]) => h === 'replay').length,
    oneProgram: oneProgram.length, oneProgramTasks: oneProgram.slice(0, ONE_PROGRAM_NAMED) };
}

/** Everything the summary is made of. */
export interface SummaryInput {
  readonly problemsPath: string;
  readonly samplesPath: string;
  /** The problem format read (detected when `--format auto`), and the one asked for. */
  readonly format: string;
  readonly formatGiven: string;
  readonly sampleFormat: SampleFormat;
  readonly bigcode?: Omit<BigcodeAlignment, 'samples'>;
  readonly problemsHash: string;
  readonly samplesHash: string;
  readonly releaseWindow?: { readonly since: string | null; readonly until: string | null };
  readonly scope: RunScope;
  readonly problems: readonly Problem[];
  readonly sampleCount: number;
  readonly out: string;
  readonly limits: JudgeLimits;
  readonly toolchains: Record<string, string | null>;
  readonly toolchainPackages: Record<string, ToolchainPackages>;
  readonly includeReferenceFailures: boolean;
  readonly result: EvaluationResult;
  readonly groundTruth: { readonly runs: number; readonly cacheHits: number; readonly cacheDir: string };
  readonly internalErrorRetries: number;
  /** With `--endpoint`: what the generation did (requests, failures, finish reasons; `eval-endpoint.ts`). */
  readonly generation?: Record<string, unknown>;
}

/** The summary object (`summary.json`). */
export function buildSummary(input: SummaryInput) {
  const { result } = input;
  const scriptJudging = scriptJudgingSummary(input.problems);
  const ci = (summary: EvaluationResult['passAtKSummary']) => Object.fromEntries(Object.keys(result.passAtK).map((k) => {
    const point = summary.points.find((p) => p.k === Number(k))!;
    return [k, [point.lower, point.upper] as const];
  }));
  return {
    crucibleVersion: CRUCIBLE_VERSION,
    problemsFile: input.problemsPath,
    samplesFile: input.samplesPath,
    format: input.format,
    ...(input.formatGiven === input.format ? {} : { formatGiven: input.formatGiven }),
    sampleFormat: input.sampleFormat,
    ...(input.bigcode === undefined ? {} : { bigcode: { split: input.bigcode.split.name, matchedBy: input.bigcode.matchedBy,
      ...(input.bigcode.start === undefined ? {} : { start: input.bigcode.start }) } }),
    datasetHash: input.problemsHash,
    samplesHash: input.samplesHash,
    ...(input.releaseWindow === undefined ? {} : { releaseWindow: input.releaseWindow }),
    scope: input.scope,
    problems: input.problems.length,
    problemsCounted: result.problemsCounted,
    samples: input.sampleCount,
    distinctPrograms: result.distinctPrograms,
    judged: result.judged,
    resumed: result.resumed,
    wallMs: result.wallMs,
    samplesPerSecond: result.judged > 0 ? result.judged / Math.max(result.wallMs / 1000, 1e-3) : 0,
    limits: { cpuMsPerProgramOrTest: input.limits.cpuMs, memoryKiB: input.limits.memoryKiB,
      outputBytes: input.limits.outputBytes, timeMeasure: 'CPU time (user+system) of the whole process tree' },
    groundTruth: input.groundTruth,
    internalErrorRetries: input.internalErrorRetries,
    toolchains: input.toolchains,
    toolchainPackages: input.toolchainPackages,
    ...(scriptJudging === undefined ? {} : { scriptJudging }),
    referenceFailures: { problems: result.referenceFailures.length, countedAsFailed: input.includeReferenceFailures,
      tasks: result.referenceFailures.slice(0, REFERENCE_FAILURES_NAMED) },
    countsByStatus: result.countsByStatus,
    passAtK: result.passAtK,
    passAtKCI: ci(result.passAtKSummary),
    ...(result.plusPassAtK && result.plusPassAtKSummary
      ? { plusPassAtK: result.plusPassAtK, plusPassAtKCI: ci(result.plusPassAtKSummary) } : {}),
    passAtKCurve: result.passAtKSummary.points,
    bootstrap: result.passAtKSummary.bootstrap,
    unsupportedKs: result.unsupportedKs,
    ...(input.generation === undefined ? {} : { generation: input.generation }),
    out: input.out,
  };
}

/** The summary object's type. */
export type EvalSummary = ReturnType<typeof buildSummary>;

function percent(x: number): string {
  return (100 * x).toFixed(2);
}

/** The lines that say what pass@k is over: scope, and the problems left out because their reference failed. */
function coverageLines(summary: EvalSummary, result: EvaluationResult): string[] {
  const lines: string[] = [];
  const scope = scopeLine(summary.scope);
  if (scope !== undefined) lines.push(scope);
  const failures = result.referenceFailures;
  if (failures.length > 0) {
    const first = failures[0]!;
    lines.push(`REFERENCE FAILED: ${failures.length} problem${failures.length === 1 ? '\'s' : 's\''} reference solution failed under the limits, `
      + (summary.referenceFailures.countedAsFailed ? 'counted as failed in pass@k (--include-reference-failures)'
        : `so pass@k is over ${summary.problemsCounted} of ${summary.problems} problems (--include-reference-failures counts them as failed)`)
      + `; ${first.taskId}: ${first.reason}${failures.length > 1 ? ` (and ${failures.slice(1, 6).map((f) => f.taskId).join(', ')}${failures.length > 6 ? ', ...' : ''})` : ''}`);
  }
  return lines;
}

/** The summary as printed for a human. */
export function humanSummary(summary: EvalSummary, result: EvaluationResult): string {
  const lines: string[] = [];
  lines.push(`problems ${summary.problems}, samples ${summary.samples} (${summary.distinctPrograms} distinct programs), ` +
    `judged ${result.judged} now, ${result.resumed} resumed, ${(result.wallMs / 1000).toFixed(1)} s, ${summary.samplesPerSecond.toFixed(1)} samples/s`);
  lines.push(...coverageLines(summary, result));
  lines.push('');
  lines.push('  k   pass@k   95% CI');
  for (const [k, value] of Object.entries(summary.passAtK)) {
    const ci = summary.passAtKCI[k]!;
    lines.push(`${k.padStart(3)}   ${percent(value).padStart(6)}   [${percent(ci[0])}, ${percent(ci[1])}]`);
  }
  if (summary.plusPassAtK) {
    lines.push('plus (base and plus inputs pass):');
    for (const [k, value] of Object.entries(summary.plusPassAtK)) lines.push(`${k.padStart(3)}   ${percent(value).padStart(6)}`);
  }
  if (summary.unsupportedKs.length > 0) lines.push(`(k = ${summary.unsupportedKs.join(', ')} left out: some problem has fewer samples)`);
  lines.push('');
  lines.push('verdicts: ' + SAMPLE_STATUSES.filter((s) => summary.countsByStatus[s]).map((s) => `${s} ${summary.countsByStatus[s]}`).join(', '));
  if (summary.scriptJudging !== undefined) {
    const { split, replay, oneProgram, oneProgramTasks } = summary.scriptJudging;
    lines.push(`script problems: ${split} split, ${replay} replayed, ${oneProgram} as one program`
      + (oneProgram === 0 ? '' : ` (${oneProgramTasks.join(', ')}${oneProgram > oneProgramTasks.length ? ', ...' : ''}: `
        + 'their tests are not in a shape Crucible reads as cases or calls, so a program written against Crucible could forge '
        + 'their end-of-tests marker; docs/SECURITY.md "Script problems")'));
  }
  if (summary.groundTruth.runs + summary.groundTruth.cacheHits > 0) {
    lines.push(`ground truth: ${summary.groundTruth.runs} runs, ${summary.groundTruth.cacheHits} from the cache (${summary.groundTruth.cacheDir})`);
  }
  if (summary.internalErrorRetries > 0) {
    lines.push(`${summary.internalErrorRetries} attempts failed inside Crucible and were retried (a failure left after ${INTERNAL_ERROR_RETRIES} retries is internal_error)`);
  }
  lines.push(`results: ${summary.out}`);
  return lines.join('\n') + '\n';
}
