/**
 * Pull the program out of a raw model response.
 *
 * Steps: (1) remove `<think>` sections (`think.ts`) and the chat template's end tokens that end the response
 * (`<|im_end|>`, `</s>`, `<|endoftext|>`, `<|eot_id|>`, ...: `end-tokens.ts`); (2) find fenced blocks (`fences.ts`) and choose one;
 * (3) with no fenced block, take the whole remaining text when it looks like code (`looks_like_code.ts`);
 * (4) otherwise report `no_code`.
 *
 * Choosing a block: blocks with only whitespace are ignored. When `fenceTags` are given (the tags that name the
 * wanted language: its id, aliases and fence tags from its `languages/*.yaml`, `LanguageRegistry.fenceTags`), the
 * candidates are, in order of preference, blocks whose tag is one of them (case-insensitive), then untagged
 * blocks, then blocks with another code tag, then blocks
 * tagged as non-code (`text`, `output`, `console`, `markdown`, ...). Without `language`, every block is a
 * candidate, non-code tags last. Within the preferred group, `pick` chooses the first or the last block
 * (default `last`: a model that revises its answer ends with the final version).
 */
import { stripEndTokens } from './end-tokens.js';
import { findFencedBlocks, type FencedBlock } from './fences.js';
import { looksLikeCode } from './looks_like_code.js';
import { stripThink } from './think.js';

export interface ExtractOptions {
  /** The fence tags naming the language wanted, lower-cased (`LanguageRegistry.fenceTags`); blocks tagged with one are preferred. */
  readonly fenceTags?: ReadonlySet<string>;
  /** Which block of the preferred group: `last` (default) or `first`. */
  readonly pick?: 'first' | 'last';
  /** Remove `<think>` sections first; default true. */
  readonly stripThink?: boolean;
}

export type ExtractResult =
  | {
      readonly kind: 'fenced';
      readonly code: string;
      /** Tag as written, `''` when the block had none. */
      readonly tag: string;
      /** Position of the chosen block among all fenced blocks (0-based), and how many there were. */
      readonly blockIndex: number;
      readonly blockCount: number;
      /** False when the block was still open at the end of the response (truncated output). */
      readonly terminated: boolean;
      readonly thinkSectionsRemoved: number;
    }
  | { readonly kind: 'unfenced'; readonly code: string; readonly thinkSectionsRemoved: number }
  | {
      readonly kind: 'no_code';
      /** `empty`: nothing left (after removing thinking); `prose`: text that does not look like code. */
      readonly reason: 'empty' | 'prose';
      readonly thinkSectionsRemoved: number;
    };

const NON_CODE_TAGS = new Set(['text', 'txt', 'plaintext', 'plain', 'output', 'console', 'markdown', 'md', 'log', 'csv']);

function groups(blocks: readonly FencedBlock[], fenceTags: ReadonlySet<string> | undefined): number[][] {
  const byRank: number[][] = [[], [], [], []];
  blocks.forEach((b, k) => {
    if (b.code.trim() === '') return;
    const tag = b.tag.toLowerCase();
    let rank: number;
    if (NON_CODE_TAGS.has(tag)) rank = 3;
    else if (fenceTags === undefined) rank = 0;
    else if (fenceTags.has(tag)) rank = 0;
    else if (tag === '') rank = 1;
    else rank = 2;
    byRank[rank]!.push(k);
  });
  return byRank;
}

/** Extract the program from `response`. Pure; never throws. */
export function extractCode(response: string, options: ExtractOptions = {}): ExtractResult {
  const pick = options.pick ?? 'last';
  const thought = options.stripThink === false ? { text: response, removed: 0 } : stripThink(response);
  const removed = thought.removed;
  const text = stripEndTokens(thought.text).text;
  const blocks = findFencedBlocks(text);
  for (const group of groups(blocks, options.fenceTags)) {
    if (group.length === 0) continue;
    const k = pick === 'first' ? group[0]! : group[group.length - 1]!;
    const b = blocks[k]!;
    return {
      kind: 'fenced',
      code: b.code,
      tag: b.tag,
      blockIndex: k,
      blockCount: blocks.length,
      terminated: b.terminated,
      thinkSectionsRemoved: removed,
    };
  }
  if (text.trim() === '') return { kind: 'no_code', reason: 'empty', thinkSectionsRemoved: removed };
  if (looksLikeCode(text)) return { kind: 'unfenced', code: text, thinkSectionsRemoved: removed };
  return { kind: 'no_code', reason: 'prose', thinkSectionsRemoved: removed };
}
