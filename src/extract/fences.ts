/**
 * Fenced code blocks in Markdown-ish model output, following CommonMark's fence rules (spec 0.31, §4.5):
 * an opening line of at least three backticks or tildes, indented by at most 3 spaces (more is tolerated:
 * models indent fences inside lists), optionally followed by an info string whose first word is the
 * language tag; the block ends at a line that starts with a fence of the same character at least as long.
 * Unlike CommonMark, the closing fence may be followed by other text on its line: a chat model's end token
 * (OpenRLHF sends the decoded response with it: ```` ```<|im_end|> ````, `</s>`, `<|endoftext|>`,
 * `<|eot_id|>`, `<|end|>`) or prose (```` ``` Hope this helps ````). A fence directly followed by a word
 * character (```` ```python ````) does not close a block: that is an info string, content of the open block.
 * A block left open at the end of the text (a truncated response) is returned with `terminated: false`.
 * Not recognised: fences that do not start a line (`Here: ```python`), which CommonMark does not allow either.
 */
export interface FencedBlock {
  /** The tag as written (first word of the info string), `''` when absent. */
  readonly tag: string;
  /** Block content, lines joined with `\n`, without the fences. */
  readonly code: string;
  readonly terminated: boolean;
}

const OPEN_RE = /^\s*(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;
/** A closing fence: the fence run, then the end of the line, or anything that does not start with a word character. */
const CLOSE_RE = /^\s*(`{3,}|~{3,})(?![\w`~])/;

/** All fenced blocks of `text`, in order. */
export function findFencedBlocks(text: string): FencedBlock[] {
  const lines = text.split(/\r?\n/);
  const blocks: FencedBlock[] = [];
  let open: { fence: string; tag: string; body: string[] } | undefined;
  for (const line of lines) {
    if (open === undefined) {
      const m = OPEN_RE.exec(line);
      if (m !== null) open = { fence: m[1]!, tag: m[2]!.replace(/^\{?\.?/, '').replace(/\}$/, ''), body: [] };
      continue;
    }
    const c = CLOSE_RE.exec(line);
    if (c !== null && c[1]![0] === open.fence[0] && c[1]!.length >= open.fence.length) {
      blocks.push(toBlock(open.tag, open.body, true));
      open = undefined;
      continue;
    }
    open.body.push(line);
  }
  if (open !== undefined) blocks.push(toBlock(open.tag, open.body, false));
  return blocks;
}

function toBlock(tag: string, body: readonly string[], terminated: boolean): FencedBlock {
  return { tag, code: body.join('\n'), terminated };
}
