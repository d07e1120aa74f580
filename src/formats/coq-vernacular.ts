/**
 * Coq vernacular split into sentences, after Coq's lexer (the reference manual's "Lexical conventions"):
 * comments `(* ... *)` nest and the strings inside them are strings (a `*)` in a string in a comment does not
 * close it); strings are `"..."` with `""` for a quote; a sentence ends at a `.` followed by a blank or the end
 * of the file (`Nat.add` and `..` do not end one); bullets (`-`, `+`, `*`) and braces `{`, `}` before a
 * sentence are focusing marks, dropped from its text.
 *
 * Used on trusted text (the problem's statement file: its definitions and proofs; dataset readers) and, for
 * classification only, on the candidate's (which names were `Admitted`, which commands appear): what decides a
 * verdict comes from Coq itself in the trusted check (`src/kinds/proof/coq/check-file.ts`).
 */

/**
 * One sentence: its text without comments, blanks collapsed, without the final `.`; its 1-based first line;
 * `start`/`end` the offsets in the source of its first character (a bullet included) and after its `.`.
 */
export interface CoqSentence {
  readonly text: string;
  readonly line: number;
  readonly start: number;
  readonly end: number;
}

/** The source ends inside a comment or string; `line` is where it opened. */
export class CoqLexError extends Error {
  constructor(message: string, readonly line: number) {
    super(`line ${line}: ${message}`);
    this.name = 'CoqLexError';
  }
}

/** Split Coq source into sentences (see the module comment). Throws `CoqLexError`. */
export function coqSentences(source: string): CoqSentence[] {
  const sentences: CoqSentence[] = [];
  let text = '';
  let startLine = 1;
  let startOffset = -1;
  let line = 1;
  let i = 0;
  const flush = (end: number): void => {
    const cleaned = text.replace(/\s+/g, ' ').trim().replace(/^([-+*{}]+\s*)+/, '').trim();
    if (cleaned !== '') sentences.push({ text: cleaned, line: startLine, start: startOffset, end });
    text = '';
    startOffset = -1;
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === '(' && source[i + 1] === '*') {
      const end = skipComment(source, i, line);
      line += countLines(source, i, end);
      text += ' ';
      i = end;
      continue;
    }
    if (startOffset < 0 && !/\s/.test(c)) {
      startOffset = i;
      startLine = line;
    }
    if (c === '"') {
      const end = skipString(source, i, line);
      text += source.slice(i, end);
      line += countLines(source, i, end);
      i = end;
      continue;
    }
    if (c === '.' && (i + 1 >= source.length || /\s/.test(source[i + 1]!)) && source[i - 1] !== '.') {
      flush(i + 1);
      i++;
      continue;
    }
    if ((c === '{' || c === '}') && /^[-+*{}\s]*$/.test(text)) {
      // A focusing brace is a sentence of its own: what follows starts a new one.
      text += c;
      flush(i + 1);
      i++;
      continue;
    }
    if (c === '\n') line++;
    text += c;
    i++;
  }
  flush(source.length);
  return sentences;
}

function countLines(source: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (source[i] === '\n') n++;
  return n;
}

/** The index after the comment opening at `i` (nested; strings inside are skipped whole). */
function skipComment(source: string, i: number, line: number): number {
  let depth = 0;
  let k = i;
  while (k < source.length) {
    if (source[k] === '(' && source[k + 1] === '*') {
      depth++;
      k += 2;
    } else if (source[k] === '*' && source[k + 1] === ')') {
      depth--;
      k += 2;
      if (depth === 0) return k;
    } else if (source[k] === '"') {
      k = skipString(source, k, line);
    } else {
      k++;
    }
  }
  throw new CoqLexError('unterminated comment', line);
}

/** The index after the string opening at `i` (`""` is a quote inside). */
function skipString(source: string, i: number, line: number): number {
  let k = i + 1;
  while (k < source.length) {
    if (source[k] === '"') {
      if (source[k + 1] === '"') {
        k += 2;
        continue;
      }
      return k + 1;
    }
    k++;
  }
  throw new CoqLexError('unterminated string', line);
}

/** Keywords that open a statement to prove (its name follows). */
export const STATEMENT_KEYWORDS: ReadonlySet<string> = new Set([
  'Theorem', 'Lemma', 'Fact', 'Remark', 'Corollary', 'Proposition', 'Property', 'Example',
]);

/** Keywords that open a definition whose printed form a problem may fix. */
export const DEFINITION_KEYWORDS: ReadonlySet<string> = new Set([
  'Definition', 'Fixpoint', 'CoFixpoint', 'Inductive', 'CoInductive', 'Variant', 'Record', 'Structure', 'Class',
  'Function',
]);

/**
 * A sentence's command: its attributes (`#[...]` contents), its keyword after `Local`/`Global`/`Polymorphic`/
 * `Program`/... prefixes, and the name it declares (the word after the keyword; for `Set`/`Unset` the option):
 * `#[local] Lemma foo : ...` -> `{attributes: ['local'], keyword: 'Lemma', name: 'foo', prefixes: []}`.
 */
export function commandOf(sentence: string): { attributes: string[]; prefixes: string[]; keyword: string; name?: string } {
  const attributes: string[] = [];
  let rest = sentence.replace(/^(#\[([^\]]*)\]\s*)+/, (all) => {
    for (const m of all.matchAll(/#\[([^\]]*)\]/g)) attributes.push(m[1]!.trim());
    return '';
  });
  const prefixes: string[] = [];
  for (;;) {
    const m = /^(Local|Global|Polymorphic|Monomorphic|Program|Private|Cumulative|NonCumulative)\s+/.exec(rest);
    if (m === null) break;
    prefixes.push(m[1]!);
    rest = rest.slice(m[0].length);
  }
  const words = rest.split(/\s+/);
  const keyword = words[0] ?? '';
  if (keyword === 'Set' || keyword === 'Unset') return { attributes, prefixes, keyword, name: words.slice(1).join(' ') };
  const name = /^[A-Za-z_][A-Za-z0-9_']*/.exec(words[1] ?? '')?.[0];
  return name === undefined ? { attributes, prefixes, keyword } : { attributes, prefixes, keyword, name };
}

/*
 * Statement files from Coq solutions, and the names a statement file declares: what a Coq proof problem is
 * made of when a dataset gives solutions (coq-art: the exercise files and `theorems.jsonl`).
 * - `statementFromSolution`: the solution with the proof of each listed theorem (from the sentence after its
 *   statement to its `Qed`/`Defined`/`Admitted`/`Save`) replaced by `Admitted.`; everything else as written.
 * - `declaredNames`: the statements and definitions the file declares, qualified by the modules they are in
 *   (`Module M. ... End M.`; sections do not qualify: their contents are discharged to the enclosing scope). A
 *   statement given by a term (`Example t3 : triangle nat := ...`) counts as a definition too: its value is data
 *   other statements may rest on.
 */
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
      // `Example t : tree := ...`: a statement given by its term is data the other statements may use.
      if (/:=/.test(sentence.text)) definitions.push(qualify(command.name));
    } else if ((DEFINITION_KEYWORDS.has(command.keyword) || command.keyword === 'Instance') && command.name !== undefined) {
      definitions.push(qualify(command.name));
    }
  }
  return { statements, definitions };
}
