/**
 * A generation run as the commands use it: prompts for every task, the samples that came back in order, the
 * run's provenance, and the output files. Provenance (written beside the samples as `<out>.provenance.json`)
 * holds only what the samples determine (endpoint, model, prompt styles, the sampling fields requests carried,
 * counts of samples, truncations, missing texts, failures), never times or this process's request counts, so
 * that a resumed run writes the same bytes as an uninterrupted one; those go to the command's summary.
 */
import { normalEndpoint } from './address.js';
import type { GenerationReport, GenerationTask, GeneratedSample } from './generator.js';
import { samplingFields, type SamplingParams } from './params.js';
import { buildPrompt, PromptError, type PromptApi, type PromptSource } from './prompts/index.js';
import { bigcodeGenerationsJson, crucibleSamplesJsonl, evalPlusJsonl, liveCodeBenchJson, writeWhole, type WriterEntry } from './writers.js';

/**
 * One task per source, `n` samples each, prompted through `api` (default: each source's `defaultApi`).
 * @throws PromptError naming the first task that cannot be prompted, and how many cannot.
 */
export function buildTasks(sources: readonly PromptSource[], n: number, api?: PromptApi): GenerationTask[] {
  const tasks: GenerationTask[] = [];
  const errors: PromptError[] = [];
  for (const source of sources) {
    try {
      tasks.push({ prompt: buildPrompt(source, api), n });
    } catch (error) {
      if (!(error instanceof PromptError)) throw error;
      errors.push(error);
    }
  }
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new PromptError(first.taskId, `${first.message.replace(/^task [^:]*: /, '')}${errors.length > 1 ? ` (and ${errors.length - 1} more tasks)` : ''}`);
  }
  return tasks;
}

/** The returned samples of every task, in task order and index order. */
export function writerEntries(tasks: readonly GenerationTask[], report: GenerationReport): WriterEntry[] {
  return tasks.map(({ prompt }) => ({
    prompt,
    samples: (report.outcomes.get(prompt.taskId) ?? []).flatMap((o): GeneratedSample[] => (o?.ok ? [o.sample] : [])),
  }));
}

/** Where a run's files go: the Crucible samples file, and optionally the harness formats. */
export interface OutputPaths {
  readonly crucible: string;
  readonly evalplus?: string;
  readonly bigcode?: string;
  readonly livecodebench?: string;
}

/** What the provenance names besides the samples. */
export interface ProvenanceInput {
  readonly endpoint: string;
  readonly model: string;
  readonly params: SamplingParams;
  readonly n: number;
  readonly problemsFile: string;
  readonly problemsHash: string;
  readonly crucibleVersion: string;
}

function tally(values: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of [...values].sort()) out[v] = (out[v] ?? 0) + 1;
  return out;
}

/** The deterministic provenance of a run's samples (see the module comment). */
export function provenanceOf(input: ProvenanceInput, tasks: readonly GenerationTask[], report: GenerationReport): Record<string, unknown> {
  const entries = writerEntries(tasks, report);
  const samples = entries.flatMap((e) => e.samples);
  const failures = [...report.outcomes.values()].flat().filter((o) => o !== undefined && !o.ok);
  const stops = Object.fromEntries([...new Map(tasks.map((t) => [t.prompt.style, t.prompt.stop])).entries()].sort(([a], [b]) => a.localeCompare(b)));
  return {
    crucibleVersion: input.crucibleVersion,
    endpoint: normalEndpoint(input.endpoint),
    model: input.model,
    problemsFile: input.problemsFile,
    problemsHash: input.problemsHash,
    tasks: tasks.length,
    samplesPerTask: input.n,
    promptStyles: tally(tasks.map((t) => `${t.prompt.style} (${t.prompt.input.api})`)),
    stopSequences: stops,
    sampling: { ...samplingFields(input.params), seed: input.params.seed,
      seedRule: input.params.seed === null ? 'none sent' : 'a request for samples i..i+n-1 carries seed + i' },
    requests: {
      samplesPerRequest: tally(samples.map((s) => String(s.request['n']))),
      stopSent: tally(samples.map((s) => ('stop' in s.request ? 'yes' : 'no'))),
    },
    samples: {
      asked: tasks.reduce((sum, t) => sum + t.n, 0),
      returned: samples.length,
      failed: failures.length,
      truncated: samples.filter((s) => s.finishReason === 'length').length,
      withoutText: samples.filter((s) => s.content === null).length,
      withReasoning: samples.filter((s) => s.reasoning !== null).length,
      finishReasons: tally(samples.map((s) => String(s.finishReason))),
    },
  };
}

/** Write the run's files (each whole, renamed into place); returns the paths written. */
export function writeOutputs(paths: OutputPaths, entries: readonly WriterEntry[], provenance: Record<string, unknown>): string[] {
  const written: string[] = [];
  const write = (path: string | undefined, text: () => string): void => {
    if (path === undefined) return;
    writeWhole(path, text());
    written.push(path);
  };
  write(paths.crucible, () => crucibleSamplesJsonl(entries));
  write(`${paths.crucible}.provenance.json`, () => JSON.stringify(provenance, null, 2) + '\n');
  write(paths.evalplus, () => evalPlusJsonl(entries));
  write(paths.bigcode, () => bigcodeGenerationsJson(entries));
  write(paths.livecodebench, () => liveCodeBenchJson(entries));
  return written;
}
