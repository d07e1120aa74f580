/**
 * Labels of a run besides its numbers: the model, tags and generation settings (`NewRun.model`, `tags`,
 * `generation`), from where they are written down:
 * - `crucible generate`'s provenance beside a samples file (`<samples>.provenance.json`: endpoint, model,
 *   sampling fields, samples per task, prompt styles; `src/generate/run.ts`);
 * - a run directory's `run.json` (`labels: {model, tags, generation}`, written by `crucible eval`, read by
 *   `crucible store import`);
 * - flags (`crucible eval --model NAME --tag T`), which win.
 * Every reader is lenient about shape (fields of the wrong type are ignored): labels describe, they never judge.
 */
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';

/** Labels of a run. */
export interface RunLabels {
  readonly model?: string;
  readonly tags?: readonly string[];
  readonly generation?: Readonly<Record<string, unknown>>;
}

const provenanceSchema = z.object({
  endpoint: z.string().optional(),
  model: z.string().min(1).optional(),
  sampling: z.record(z.unknown()).optional(),
  samplesPerTask: z.number().int().positive().optional(),
  promptStyles: z.record(z.unknown()).optional(),
  crucibleVersion: z.string().optional(),
}).passthrough();

const labelsSchema = z.object({
  model: z.string().min(1).max(300).optional(),
  tags: z.array(z.string().min(1).max(100)).max(100).optional(),
  generation: z.record(z.unknown()).optional(),
});

/**
 * The labels `crucible generate` wrote beside `samplesPath` (`<samplesPath>.provenance.json`), or `{}` when there is no
 * such file or it is not a provenance (a file that is not JSON is ignored as well: it may be another tool's).
 */
export function labelsFromGenerationProvenance(samplesPath: string): RunLabels {
  const path = `${samplesPath}.provenance.json`;
  if (!existsSync(path)) return {};
  let parsed: z.infer<typeof provenanceSchema>;
  try {
    const result = provenanceSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    if (!result.success) return {};
    parsed = result.data;
  } catch {
    return {};
  }
  const generation = Object.fromEntries(Object.entries({
    source: path, endpoint: parsed.endpoint, ...(parsed.sampling ?? {}), n: parsed.samplesPerTask, promptStyles: parsed.promptStyles,
  }).filter(([, v]) => v !== undefined));
  return { ...(parsed.model === undefined ? {} : { model: parsed.model }), generation };
}

/** The `labels` of a `run.json` value (`{}` when absent or of the wrong shape). */
export function labelsFromRunJson(runJson: unknown): RunLabels {
  if (typeof runJson !== 'object' || runJson === null) return {};
  const parsed = labelsSchema.safeParse((runJson as Record<string, unknown>)['labels']);
  if (!parsed.success) return {};
  const { model, tags, generation } = parsed.data;
  return { ...(model === undefined ? {} : { model }), ...(tags === undefined ? {} : { tags }), ...(generation === undefined ? {} : { generation }) };
}

/** Labels merged field by field, later sources winning; tags are the union, in order. */
export function mergeLabels(...sources: readonly RunLabels[]): RunLabels {
  let out: RunLabels = {};
  for (const s of sources) {
    out = {
      ...out,
      ...(s.model === undefined ? {} : { model: s.model }),
      ...(s.generation === undefined ? {} : { generation: s.generation }),
      ...(s.tags === undefined ? {} : { tags: [...new Set([...(out.tags ?? []), ...s.tags])] }),
    };
  }
  return out;
}
