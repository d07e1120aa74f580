/**
 * Samples as they arrive, for a judge that starts on each at once (`crucible eval --endpoint`): the run's
 * outcomes become an async iterable of judgeable samples, in arrival order. A sample with text is judged; one
 * without text is decided `no_code`; one whose request failed is decided `internal_error` (the endpoint or the
 * network failed, not the model: a resumed eval asks for it again). A run that stops (`GenerationError`) ends
 * the iteration with that error.
 */
import type { Sample } from '../formats/types.js';
import { generateSamples, type GenerationReport, type GenerationTask, type GeneratorOptions, type SampleOutcome } from './generator.js';
import type { BuiltPrompt } from './prompts/index.js';
import { judgeableSample, type DecidedSample } from './samples.js';

/** A sample ready for the judge, or decided without it. */
export interface ArrivedSample {
  readonly sample: Sample;
  readonly decided?: DecidedSample;
}

/** An unbounded queue read as an async iterable (several readers may wait at once). */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private readonly readers: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void }[] = [];
  private ended = false;
  private error: unknown = undefined;

  push(item: T): void {
    const reader = this.readers.shift();
    if (reader !== undefined) reader.resolve({ value: item, done: false });
    else this.items.push(item);
  }

  /** No more items; with `error`, readers get it once the items are read. */
  end(error?: unknown): void {
    this.ended = true;
    this.error = error;
    for (const reader of this.readers.splice(0)) {
      if (error !== undefined) reader.reject(error);
      else reader.resolve({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.items.length > 0) return Promise.resolve({ value: this.items.shift()!, done: false });
        if (this.ended) return this.error !== undefined ? Promise.reject(this.error) : Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => this.readers.push({ resolve, reject }));
      },
    };
  }
}

/** The arrival of an outcome. */
export function arrivalOf(prompt: BuiltPrompt, outcome: SampleOutcome): ArrivedSample {
  if (outcome.ok) return judgeableSample(prompt, outcome.sample);
  const { failure } = outcome;
  return { sample: { taskId: outcome.taskId, index: outcome.index },
    decided: { status: 'internal_error', reason: `generation failed after ${outcome.attempts} attempt(s): ${failure.cause}: ${failure.message}` } };
}

/** Start a run; its samples arrive on `arrivals`, its report on `done` (which rejects as the run does). */
export function streamSamples(tasks: readonly GenerationTask[], options: GeneratorOptions): { arrivals: AsyncIterable<ArrivedSample>; done: Promise<GenerationReport> } {
  const prompts = new Map(tasks.map((t) => [t.prompt.taskId, t.prompt]));
  const queue = new AsyncQueue<ArrivedSample>();
  const done = generateSamples(tasks, { ...options, onOutcome: (outcome) => {
    options.onOutcome?.(outcome);
    queue.push(arrivalOf(prompts.get(outcome.ok ? outcome.sample.taskId : outcome.taskId)!, outcome));
  } });
  done.then(() => queue.end(), (error: unknown) => queue.end(error));
  return { arrivals: queue, done };
}
