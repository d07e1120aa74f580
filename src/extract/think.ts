/**
 * Remove reasoning sections from a model response before looking for code.
 *
 * - every `<think>...</think>` section (DeepSeek-R1, Qwen3, QwQ style), case-insensitive;
 * - an unterminated `<think>` that opens the response (after whitespace): the model ran out of tokens while
 *   thinking, so everything after it is thought and is removed;
 * - a `</think>` with no opening tag: chat templates that put `<think>` into the prompt (DeepSeek-R1's, Qwen3's
 *   with thinking on) leave the response starting inside the thought, so everything up to the first
 *   `</think>` is removed.
 * An unterminated `<think>` later in the text is left alone (it is more likely prose about the tag).
 */
export interface ThinkStripResult {
  readonly text: string;
  /** Number of sections removed (an unterminated or unopened one counts as one). */
  readonly removed: number;
}

const OPEN_RE = /<think>/i;
const CLOSE_RE = /<\/think>/i;

export function stripThink(text: string): ThinkStripResult {
  let rest = text;
  let removed = 0;
  const firstOpen = rest.search(OPEN_RE);
  const firstClose = rest.search(CLOSE_RE);
  if (firstClose !== -1 && (firstOpen === -1 || firstClose < firstOpen)) {
    rest = rest.slice(firstClose + '</think>'.length);
    removed++;
  }
  let out = '';
  for (;;) {
    const open = rest.search(OPEN_RE);
    if (open === -1) {
      out += rest;
      break;
    }
    const afterOpen = rest.slice(open + '<think>'.length);
    const close = afterOpen.search(CLOSE_RE);
    if (close === -1) {
      if ((out + rest.slice(0, open)).trim() === '') {
        removed++; // unterminated, opening the response: all thought
        break;
      }
      out += rest;
      break;
    }
    out += rest.slice(0, open);
    rest = afterOpen.slice(close + '</think>'.length);
    removed++;
  }
  return { text: out, removed };
}
