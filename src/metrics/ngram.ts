/**
 * Verbatim copies of a reference solution (issue #28, item 6): the share of a sample's token n-grams that occur in
 * the problem's reference solution. A model that saw the benchmark's solutions in training tends to reproduce them
 * token for token; n-gram overlap is the usual test (GPT-3, Brown et al. 2020, §C: 13-gram overlap with training
 * data; for code, n-gram matches against benchmark solutions: Riddell et al. 2024, "Quantifying Contamination in
 * Evaluating Code Generation Capabilities of Language Models", arXiv 2403.04811). Pure.
 *
 * Tokens: identifiers and keywords, numbers, and each other non-space character (`codeTokens`; string literals are
 * split like code); whitespace and layout are ignored, so re-indenting does not hide a copy.
 * Overlap of a sample: |distinct n-grams of the sample that also occur in the reference| / |distinct n-grams of the
 * sample|, with n = `COPY_NGRAM` = 10 tokens (about one line of code: long enough that two independent solutions
 * rarely share many, short enough to catch a copied function). A sample is a **verbatim copy** when its overlap is
 * ≥ `COPY_THRESHOLD` = 0.8 and it has at least `COPY_MIN_NGRAMS` = 10 distinct n-grams (19 tokens): shorter
 * programs (`return a + b`) coincide with any correct solution and say nothing about contamination.
 */

/** n of the n-grams (tokens). */
export const COPY_NGRAM = 10;
/** Overlap at or above which a sample is flagged. */
export const COPY_THRESHOLD = 0.8;
/** Fewest distinct n-grams a sample needs to be judged at all. */
export const COPY_MIN_NGRAMS = 10;

const TOKEN = /[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\S/g;

/** The code tokens of a text (see the module comment). */
export function codeTokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** Distinct n-grams of a token list, each as its tokens joined by a separator no token contains. */
export function ngrams(tokens: readonly string[], n: number): Set<string> {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`);
  const out = new Set<string>();
  for (let i = 0; i + n <= tokens.length; i++) out.add(tokens.slice(i, i + n).join('\u0000'));
  return out;
}

/** How much of a sample's text occurs in a reference. */
export interface CopyCheck {
  /** Distinct n-grams of the sample. */
  readonly ngrams: number;
  /** Those found in the reference. */
  readonly shared: number;
  /** shared / ngrams; 0 when the sample has none. */
  readonly overlap: number;
  /** Overlap ≥ threshold with at least `minNgrams` n-grams. */
  readonly copy: boolean;
}

/** Options of `copyCheck`: n, threshold, minimum n-grams (defaults: the constants above). */
export interface CopyOptions {
  readonly n?: number;
  readonly threshold?: number;
  readonly minNgrams?: number;
}

/** The n-gram overlap of `sample` with `reference` (either may be any text; tokens per `codeTokens`). */
export function copyCheck(sample: string, reference: string | Set<string>, options: CopyOptions = {}): CopyCheck {
  const n = options.n ?? COPY_NGRAM;
  const grams = ngrams(codeTokens(sample), n);
  const ref = typeof reference === 'string' ? ngrams(codeTokens(reference), n) : reference;
  let shared = 0;
  for (const g of grams) if (ref.has(g)) shared++;
  const overlap = grams.size === 0 ? 0 : shared / grams.size;
  return { ngrams: grams.size, shared, overlap,
    copy: grams.size >= (options.minNgrams ?? COPY_MIN_NGRAMS) && overlap >= (options.threshold ?? COPY_THRESHOLD) };
}
