/**
 * Mutants of a reference solution (issue #28, item 4): first-order mutants, one operator applied at one place of the
 * code (never inside a string literal or a comment), in the classic operator families of mutation testing (DeMillo,
 * Lipton and Sayward 1978; the operator names are Offutt et al.'s, "An Experimental Determination of Sufficient
 * Mutant Operators", TOSEM 1996). A test suite's mutation score is the share of mutants some test kills; each
 * mutant is judged in the sandbox like any candidate (`index.ts`). Pure text transformation.
 *
 * Operators, Python and C++:
 * - AOR (arithmetic): `+`↔`-`, `*`→`/` (Python `//`), `/`→`*`, `//`→`*`, `%`→`/` (Python `//`), `+=`↔`-=`, `**`→`*`,
 *   C++ `++`↔`--`;
 * - ROR (relational): `<`→`<=`, `<=`→`<`, `>`→`>=`, `>=`→`>`, `==`↔`!=`;
 * - LCR (logical connector): Python `and`↔`or`, C++ `&&`↔`||`;
 * - CRP (constant): an integer literal n → n + 1, except 1 → 0 (the boundary case); Python `True`↔`False`, C++
 *   `true`↔`false`.
 * A mutant that does not compile or parse is *stillborn* and left out of the score (the judging says so: a
 * `compile_error`, or in Python a `SyntaxError` on every test). Equivalent mutants (same behaviour as the
 * reference) cannot be told apart automatically and count as survivors: the score is a lower bound.
 * When a solution has more places than `max`, `max` of them are taken evenly spread (place i·total/max), so the
 * choice is deterministic.
 */

/** The languages with mutation operators. */
export type MutantLanguage = 'python' | 'cpp';

/** One mutant: which operator changed what where, and the whole mutated source. */
export interface Mutant {
  readonly id: number;
  readonly operator: 'AOR' | 'ROR' | 'LCR' | 'CRP';
  /** 1-based line of the change. */
  readonly line: number;
  readonly from: string;
  readonly to: string;
  readonly source: string;
}

/** The mutation language of a Crucible language id (`python`, `python3`, `cpp`, `c++`, …), or undefined. */
export function mutantLanguageOf(language: string): MutantLanguage | undefined {
  const id = language.toLowerCase();
  if (id === 'python' || id === 'python3' || id === 'py' || id === 'python-sci') return 'python';
  if (id === 'cpp' || id === 'c++' || id === 'cxx' || id.startsWith('cpp')) return 'cpp';
  return undefined;
}

/** Operator tokens, longest first, with their replacement per language. */
const SYMBOLS: Record<MutantLanguage, readonly (readonly [string, string, Mutant['operator']])[]> = {
  python: [['**', '*', 'AOR'], ['//', '*', 'AOR'], ['+=', '-=', 'AOR'], ['-=', '+=', 'AOR'], ['<=', '<', 'ROR'], ['>=', '>', 'ROR'],
    ['==', '!=', 'ROR'], ['!=', '==', 'ROR'], ['->', '->', 'AOR'], ['<<', '<<', 'AOR'], ['>>', '>>', 'AOR'],
    ['+', '-', 'AOR'], ['-', '+', 'AOR'], ['*', '//', 'AOR'], ['/', '*', 'AOR'], ['%', '//', 'AOR'], ['<', '<=', 'ROR'], ['>', '>=', 'ROR']],
  cpp: [['++', '--', 'AOR'], ['--', '++', 'AOR'], ['+=', '-=', 'AOR'], ['-=', '+=', 'AOR'], ['<=', '<', 'ROR'], ['>=', '>', 'ROR'],
    ['==', '!=', 'ROR'], ['!=', '==', 'ROR'], ['&&', '||', 'LCR'], ['||', '&&', 'LCR'], ['->', '->', 'AOR'], ['<<', '<<', 'AOR'],
    ['>>', '>>', 'AOR'], ['::', '::', 'AOR'], ['+', '-', 'AOR'], ['-', '+', 'AOR'], ['*', '/', 'AOR'], ['/', '*', 'AOR'], ['%', '/', 'AOR'],
    ['<', '<=', 'ROR'], ['>', '>=', 'ROR']],
};

const WORDS: Record<MutantLanguage, Readonly<Record<string, readonly [string, Mutant['operator']]>>> = {
  python: { and: ['or', 'LCR'], or: ['and', 'LCR'], True: ['False', 'CRP'], False: ['True', 'CRP'] },
  cpp: { true: ['false', 'CRP'], false: ['true', 'CRP'] },
};

interface Place { readonly start: number; readonly end: number; readonly from: string; readonly to: string; readonly operator: Mutant['operator'] }

/** Length of the string literal or comment at `i`, or 0 when code starts there. */
function skipLength(source: string, i: number, language: MutantLanguage): number {
  const c = source[i]!;
  if (language === 'python') {
    if (c === '#') { const nl = source.indexOf('\n', i); return (nl === -1 ? source.length : nl) - i; }
    const m = /^[rRbBuUfF]{0,2}('''|"""|'|")/.exec(source.slice(i, i + 5));
    if (m !== null && (i === 0 || !/[A-Za-z0-9_]/.test(source[i - 1]!))) {
      const quote = m[1]!;
      let j = i + m[0].length;
      while (j < source.length && !source.startsWith(quote, j)) {
        if (source[j] === '\\') j++;
        else if (quote.length === 1 && source[j] === '\n') break;
        j++;
      }
      return Math.min(source.length, j + quote.length) - i;
    }
    return 0;
  }
  if (source.startsWith('//', i)) { const nl = source.indexOf('\n', i); return (nl === -1 ? source.length : nl) - i; }
  if (source.startsWith('/*', i)) { const end = source.indexOf('*/', i + 2); return (end === -1 ? source.length : end + 2) - i; }
  if (c === '"' || c === '\'') {
    let j = i + 1;
    while (j < source.length && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
    return Math.min(source.length, j + 1) - i;
  }
  if (c === '#') { const nl = source.indexOf('\n', i); return (nl === -1 ? source.length : nl) - i; } // preprocessor lines
  return 0;
}

/** Every place an operator applies, in source order. */
export function mutationPlaces(source: string, language: MutantLanguage): Place[] {
  const places: Place[] = [];
  const symbols = SYMBOLS[language];
  const words = WORDS[language];
  let i = 0;
  while (i < source.length) {
    const skip = skipLength(source, i, language);
    if (skip > 0) { i += skip; continue; }
    const c = source[i]!;
    if (/[A-Za-z_]/.test(c)) {
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i))![0];
      const w = Object.hasOwn(words, word) ? words[word] : undefined;
      if (w !== undefined) places.push({ start: i, end: i + word.length, from: word, to: w[0], operator: w[1] });
      i += word.length;
      continue;
    }
    if (/[0-9]/.test(c)) {
      const number = /^[0-9][0-9A-Za-z_.]*/.exec(source.slice(i))![0];
      if (/^[0-9]+$/.test(number)) {
        const n = BigInt(number);
        places.push({ start: i, end: i + number.length, from: number, to: String(n === 1n ? 0n : n + 1n), operator: 'CRP' });
      }
      i += number.length;
      continue;
    }
    const symbol = symbols.find(([s]) => source.startsWith(s, i));
    if (symbol !== undefined) {
      if (symbol[0] !== symbol[1]) places.push({ start: i, end: i + symbol[0].length, from: symbol[0], to: symbol[1], operator: symbol[2] });
      i += symbol[0].length;
      continue;
    }
    i++;
  }
  return places;
}

/** Up to `max` first-order mutants of `source` (see the module comment). */
export function mutantsOf(source: string, language: MutantLanguage, max = 20): Mutant[] {
  const places = mutationPlaces(source, language);
  const chosen = places.length <= max ? places : Array.from({ length: max }, (_, k) => places[Math.floor((k * places.length) / max)]!);
  return chosen.map((p, id) => ({
    id,
    operator: p.operator,
    line: source.slice(0, p.start).split('\n').length,
    from: p.from,
    to: p.to,
    source: source.slice(0, p.start) + p.to + source.slice(p.end),
  }));
}
