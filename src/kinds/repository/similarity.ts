/**
 * SWE-RL's execution-free reward: how similar a predicted patch is to the oracle (gold) patch.
 *
 * Source: Wei et al., "SWE-RL: Advancing LLM Reasoning via Reinforcement Learning on Open Software Evolution"
 * (arXiv:2502.18449, 2025), §2.1 and facebookresearch/swe-rl `src/swerl/core/reward.py`: for every file either
 * patch changes, the file's change in each (its unified diff without the `---`/`+++` lines) is compared with
 * Python's `difflib.SequenceMatcher(None, pred, oracle, autojunk=False).ratio()`; a file only one side changes
 * scores 0; the reward is the mean over those files, and -1 when the prediction is malformed.
 *
 * SWE-RL rebuilds each file's diff from full file contents (`difflib.unified_diff`, 3 lines of context). An
 * execution-free reward here has only the two patches, so a file's change is its hunks as the patch gives them
 * (`@@ -l,s +l,s @@` headers without the section text, then the body lines; `\ No newline` markers dropped, as
 * difflib writes none): the same text when both patches were made with 3 lines of context against the same base
 * (`git diff`'s default), which is how gold patches and most predictions are made.
 *
 * `sequenceRatio` is difflib's SequenceMatcher ratio over characters, written from CPython's `Lib/difflib.py`
 * algorithm (Ratcliff/Obershelp "gestalt pattern matching": the longest matching block, recursively on both
 * sides of it; ratio = 2·M / T) with no junk and autojunk off.
 */
import { DiffError, parseDiff, type FileDiff, type ParsedDiff } from './diff.js';

/** difflib's longest matching block of a[alo:ahi] and b[blo:bhi] (earliest in a, then in b, among the longest). */
function longestMatch(a: string, b2j: ReadonlyMap<string, readonly number[]>, alo: number, ahi: number, blo: number, bhi: number):
  { readonly i: number; readonly j: number; readonly size: number } {
  let besti = alo;
  let bestj = blo;
  let bestsize = 0;
  let j2len = new Map<number, number>();
  for (let i = alo; i < ahi; i++) {
    const next = new Map<number, number>();
    for (const j of b2j.get(a[i]!) ?? []) {
      if (j < blo) continue;
      if (j >= bhi) break;
      const k = (j2len.get(j - 1) ?? 0) + 1;
      next.set(j, k);
      if (k > bestsize) {
        besti = i - k + 1;
        bestj = j - k + 1;
        bestsize = k;
      }
    }
    j2len = next;
  }
  return { i: besti, j: bestj, size: bestsize };
}

/** Python `difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()` over the characters of `a` and `b`. */
export function sequenceRatio(a: string, b: string): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  const b2j = new Map<string, number[]>();
  for (let j = 0; j < b.length; j++) {
    const list = b2j.get(b[j]!);
    if (list === undefined) b2j.set(b[j]!, [j]);
    else list.push(j);
  }
  let matched = 0;
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (queue.length > 0) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    const m = longestMatch(a, b2j, alo, ahi, blo, bhi);
    if (m.size === 0) continue;
    matched += m.size;
    if (alo < m.i && blo < m.j) queue.push([alo, m.i, blo, m.j]);
    if (m.i + m.size < ahi && m.j + m.size < bhi) queue.push([m.i + m.size, ahi, m.j + m.size, bhi]);
  }
  return (2 * matched) / total;
}

/** A file's change as compared (see the module comment). */
function changeText(file: FileDiff): string {
  const out: string[] = [];
  for (const h of file.hunks) {
    out.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    for (const line of h.lines) if (!line.startsWith('\\')) out.push(line);
  }
  return out.join('\n');
}

/** Each changed file's change text, by path (the new path; the old one for a deletion). */
function changes(diff: ParsedDiff): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of diff.files) {
    const path = f.newPath ?? f.oldPath!;
    const text = changeText(f);
    if (text !== '') out.set(path, out.has(path) ? `${out.get(path)!}\n${text}` : text);
  }
  return out;
}

/** Per-file similarity and the reward (see the module comment). */
export interface PatchSimilarity {
  readonly reward: number;
  readonly files: readonly { readonly path: string; readonly similarity: number }[];
  readonly error?: string;
}

/**
 * SWE-RL's reward of `predicted` against `oracle`: the mean per-file similarity in [0, 1], or -1 when `predicted`
 * is not a readable unified diff (`error` says why). An empty prediction scores 0.
 * @throws DiffError when `oracle` itself cannot be read (the dataset's fault, not the prediction's).
 */
export function patchSimilarity(predicted: string, oracle: string): PatchSimilarity {
  const gold = changes(parseDiff(oracle));
  let pred: Map<string, string>;
  try {
    pred = changes(parseDiff(predicted));
  } catch (error) {
    if (!(error instanceof DiffError)) throw error;
    return { reward: -1, files: [], error: `the predicted patch is malformed: ${error.message}` };
  }
  const paths = [...new Set([...gold.keys(), ...pred.keys()])].sort();
  if (paths.length === 0) return { reward: 0, files: [] };
  const files = paths.map((path) => {
    const p = pred.get(path) ?? '';
    const o = gold.get(path) ?? '';
    return { path, similarity: p === '' || o === '' ? 0 : sequenceRatio(p, o) };
  });
  return { reward: files.reduce((sum, f) => sum + f.similarity, 0) / files.length, files };
}
