/**
 * Chat-template end tokens left at the end of a decoded response.
 *
 * Trainers decode a rollout with its special tokens (OpenRLHF's `/get_reward` client sends `query` as the
 * tokenizer decoded it, `skip_special_tokens=False`), so a response ends with the model's end-of-turn token and,
 * in a padded batch, pad tokens after it. Inside a fenced block they are harmless (`fences.ts` closes a block on a
 * fence followed by one); in an unfenced answer they would be judged as part of the program, a syntax error in
 * every language. The tokens are each template's end-of-turn / end-of-sequence / padding token as its tokenizer
 * config names it:
 * - ChatML (Qwen, Yi, many fine-tunes): `<|im_end|>`, pad `<|endoftext|>`;
 * - Llama 2, Mistral, CodeLlama (SentencePiece): `</s>`; Llama 3: `<|eot_id|>`, `<|end_of_text|>`;
 * - Phi-3: `<|end|>`, `<|endoftext|>`; Gemma: `<end_of_turn>`, `<eos>`; Cohere: `<|END_OF_TURN_TOKEN|>`;
 * - DeepSeek-Coder: `<|EOT|>`; DeepSeek-V3/R1: `<｜end▁of▁sentence｜>` (full-width bars); StarCoder2: `<|endoftext|>`;
 * - gpt-oss (harmony): `<|return|>`, `<|end|>`; GLM-4: `<|user|>` ends an assistant turn, `<|endoftext|>`.
 * Only a trailing run of them (with whitespace between) is removed: the same text inside a program (a string
 * literal `"</s>"`) is left alone.
 */

/** The end tokens removed from the end of a response (exact spelling, case-sensitive). */
export const END_TOKENS: readonly string[] = [
  '<|im_end|>', '<|endoftext|>', '</s>', '<|eot_id|>', '<|end_of_text|>', '<|end|>', '<end_of_turn>', '<eos>',
  '<|END_OF_TURN_TOKEN|>', '<|EOT|>', '<｜end▁of▁sentence｜>', '<|end▁of▁sentence|>', '<|return|>', '<|user|>',
  '<|eom_id|>', '<|pad|>', '<pad>',
];

/**
 * `text` without its trailing run of end tokens (see `END_TOKENS`) and the whitespace between and after them;
 * the text before the run is kept as it is (with its own trailing newline, if any). Pure.
 * @returns the text and the number of tokens removed.
 */
export function stripEndTokens(text: string): { readonly text: string; readonly removed: number } {
  let end = text.length;
  let removed = 0;
  for (;;) {
    let k = end;
    while (k > 0 && /\s/.test(text[k - 1]!)) k--;
    const token = END_TOKENS.find((t) => k >= t.length && text.startsWith(t, k - t.length));
    if (token === undefined) break;
    end = k - token.length;
    removed++;
  }
  return removed === 0 ? { text, removed } : { text: text.slice(0, end), removed };
}
