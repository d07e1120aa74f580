/**
 * How the Verilog presets take a design from a response, pure.
 *
 * CodeV-R1's reward (`verl/verl/utils/reward_score/codev.py` `compute_score` at 277ac46): the response is cut from
 * its first `<|im_start|>assistant` when it has one; the format is right when `<think>`, `</think>`, `<answer>`,
 * `</answer>` each occur exactly once, in that order; the design is the last ```` ```verilog ```` block of the (cut)
 * response, stripped. Reward 1 when the format is right, a block was found and the design matches the golden one
 * (`./codev.ts`), else 0.
 *
 * VerilogEval's code-completion task (`sv-generate`): a completion continues the problem's interface (`_ifc.txt`),
 * which is put before it unless the completion has a line starting with `module TopModule` (then it is whole).
 */

/** CodeV-R1's format check and extraction (module comment): the design, or undefined when the reward is 0 for format. */
export function codevExtract(response: string): { readonly formatOk: boolean; readonly design: string | undefined } {
  const at = response.indexOf('<|im_start|>assistant');
  const text = at >= 0 ? response.slice(at) : response;
  const tags = ['<think>', '</think>', '<answer>', '</answer>'];
  const counts = tags.map((t) => text.split(t).length - 1);
  const positions = tags.map((t) => text.indexOf(t));
  const formatOk = counts.every((c) => c === 1) && positions[0]! < positions[1]! && positions[1]! < positions[2]! && positions[2]! < positions[3]!;
  let design: string | undefined;
  for (const m of text.matchAll(/```verilog\s*([\s\S]*?)\s*```/g)) design = m[1];
  return { formatOk, design };
}

/** VerilogEval's code-completion assembly (module comment). */
export function completeWithInterface(interfaceText: string | undefined, completion: string): string {
  if (interfaceText === undefined || completion.split(/\r?\n/).some((l) => l.startsWith('module TopModule'))) return completion;
  return `${interfaceText}\n${completion}`;
}
