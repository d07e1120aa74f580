/**
 * Statement files from Coq solutions, and the names a statement file declares: what a Coq proof problem is
 * made of when a dataset gives solutions (coq-art: the exercise files and `theorems.jsonl`).
 *
 * - `statementFromSolution`: the solution with the proof of each listed theorem (from the sentence after its
 *   statement to its `Qed`/`Defined`/`Admitted`/`Save`) replaced by `Admitted.`; everything else as written.
 * - `declaredNames`: the statements and definitions the file declares, qualified by the modules they are in
 *   (`Module M. ... End M.`; sections do not qualify: their contents are discharged to the enclosing scope).
 */
import { coqSentences, commandOf, DEFINITION_KEYWORDS, STATEMENT_KEYWORDS, type CoqSentence } from './sentences.js';

const CLOSERS = new Set(['Qed', 'Defined', 'Admitted', 'Save', 'Abort']);

/** The solution with each listed theorem's proof replaced by `Admitted.` (see the module comment). Throws `CoqLexError`. */
export function statementFromSolution(solution: string, theorems: readonly string[]): string {
  const wanted = new Set(theorems);
  const sentences = coqSentences(solution);
  const cuts: { start: number; end: number }[] = [];
  for (let i = 0; i < sentences.length; i++) {
    const command = commandOf(sentences[i]!.text);
    if (!STATEMENT_KEYWORDS.has(command.keyword) || command.name === undefined || !wanted.has(command.name)) continue;
    const close = closerAfter(sentences, i);
    if (close === null || close === i + 1 && commandOf(sentences[close]!.text).keyword === 'Admitted') continue;
    cuts.push({ start: sentences[i + 1]!.start, end: sentences[close]!.end });
    i = close;
  }
  let out = '';
  let at = 0;
  for (const cut of cuts) {
    out += `${solution.slice(at, cut.start)}Admitted.`;
    at = cut.end;
  }
  return out + solution.slice(at);
}

/** The index of the sentence that closes the proof opened at `i`, or null when another statement comes first. */
function closerAfter(sentences: readonly CoqSentence[], i: number): number | null {
  for (let j = i + 1; j < sentences.length; j++) {
    const keyword = commandOf(sentences[j]!.text).keyword;
    if (CLOSERS.has(keyword)) return j;
    if (STATEMENT_KEYWORDS.has(keyword) || DEFINITION_KEYWORDS.has(keyword)) return null;
  }
  return null;
}

/** The statements and definitions a file declares, module-qualified, in order. Throws `CoqLexError`. */
export function declaredNames(source: string): { statements: string[]; definitions: string[] } {
  const statements: string[] = [];
  const definitions: string[] = [];
  const scopes: { kind: 'module' | 'section'; name: string }[] = [];
  for (const sentence of coqSentences(source)) {
    const command = commandOf(sentence.text);
    const qualify = (name: string): string => [...scopes.filter((s) => s.kind === 'module').map((s) => s.name), name].join('.');
    if (command.keyword === 'Module' && command.name !== undefined && !/^Module\s+(Type\s|Import\s|Export\s)/.test(sentence.text) && !/:=/.test(sentence.text)) {
      scopes.push({ kind: 'module', name: command.name });
    } else if (command.keyword === 'Section' && command.name !== undefined) {
      scopes.push({ kind: 'section', name: command.name });
    } else if (command.keyword === 'End' && command.name !== undefined) {
      const at = scopes.map((s) => s.name).lastIndexOf(command.name);
      if (at >= 0) scopes.splice(at);
    } else if (STATEMENT_KEYWORDS.has(command.keyword) && command.name !== undefined) {
      statements.push(qualify(command.name));
    } else if ((DEFINITION_KEYWORDS.has(command.keyword) || command.keyword === 'Instance') && command.name !== undefined) {
      definitions.push(qualify(command.name));
    }
  }
  return { statements, definitions };
}
