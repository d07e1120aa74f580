/**
 * The constructs that let a Dafny program verify without proving what it states, found in the token stream
 * (so in bodies, specifications and expressions alike, never in comments or strings):
 * - `assume` (a statement, an expression prefix, `:| assume`, `:- assume`) and `expect` (the verifier assumes
 *   an `expect`ed condition after it: reference manual, "Expect Statement");
 * - attributes other than the proof-effort ones in `SAFE_ATTRIBUTES`: `{:axiom}`, `{:verify false}` (any
 *   spacing, any argument but `true`), `{:extern}`, `{:only}`, Boogie pass-throughs, Dafny 4's `@Axiom`, ...;
 * - `decreases *` (the method may diverge: only partial correctness is proved);
 * - a `while`/`for` loop without a body and a `forall` statement with `ensures` but no body (Dafny assumes what
 *   they promise);
 * - a method, lemma, function or predicate without a body (an axiom), and `include` (code from elsewhere).
 * Each occurrence is named by the declaration it is in, so the audit can let a candidate keep exactly the
 * occurrences its problem has (a problem's own `{:axiom}` or `assume` is part of what was posed).
 */
import type { DafnyToken } from './lexer.js';
import type { DafnyDecl, DafnyProgram } from './parse.js';
import { ExpressionState, isOpener, LOOP_SPEC_WORDS, normalText, STATEMENT_WORDS } from './tokens.js';

/** What makes an occurrence a cheat. */
export type DafnyConstructRule =
  | 'assume' | 'expect' | 'axiom' | 'verify_false' | 'extern' | 'only' | 'attribute' | 'decreases_star'
  | 'bodiless_loop' | 'bodiless_forall' | 'bodiless_member' | 'include';

/** One forbidden construct: its rule, the declaration it is in (`''` at top level), its normal text, where. */
export interface DafnyConstruct {
  readonly rule: DafnyConstructRule;
  readonly member: string;
  readonly text: string;
  readonly line: number;
  readonly column: number;
}

/**
 * Attributes that only change how hard the verifier works or what is compiled, never what counts as proved:
 * triggers, fuel, induction, opacity, splitting and resource limits, messages, compilation. Source: the
 * reference manual's attribute list ("Attributes" chapter). `verify` is allowed only as `{:verify true}`.
 */
export const SAFE_ATTRIBUTES: ReadonlySet<string> = new Set([
  'induction', 'inductionTrigger', 'trigger', 'fuel', 'opaque', 'transparent', 'vcs_max_cost', 'vcs_max_splits',
  'vcs_max_keep_going_splits', 'vcs_split_on_every_assert', 'split_here', 'focus', 'isolate_assertions',
  'isolate', 'timeLimit', 'timeLimitMultiplier', 'resource_limit', 'rlimit', 'nowarn', 'error', 'tailrecursion',
  'autotriggers', 'compile', 'print', 'test', 'disable_nonlinear_arithmetic', 'nativeType', 'priority',
  'warnShadowing', 'heapQuantifier', 'selective_checking_off',
]);

/** Every forbidden construct of `program` (see the module comment), in source order. */
export function forbiddenConstructs(program: DafnyProgram): DafnyConstruct[] {
  const scan = new ConstructScan(program);
  return scan.run();
}

class ConstructScan {
  private readonly tokens: readonly DafnyToken[];
  private readonly match: Int32Array;
  private readonly owner: Int32Array;
  private readonly found: DafnyConstruct[] = [];

  constructor(private readonly program: DafnyProgram) {
    this.tokens = program.tokens;
    this.match = program.match;
    this.owner = ownerIndex(program);
  }

  run(): DafnyConstruct[] {
    const tokens = this.tokens;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (t.kind === 'ident') this.word(i, t);
      else if (t.text === '{:') this.attribute(i, t.text, tokens[i + 1]?.text ?? '', normalText(tokens, i + 2, this.match[i]!));
      else if (t.text === '@' && this.isAtAttribute(i)) this.atAttribute(i);
    }
    for (const decl of this.program.decls) this.declaration(decl);
    return this.found.sort((a, b) => a.line - b.line || a.column - b.column);
  }

  private add(rule: DafnyConstructRule, index: number, text: string): void {
    const t = this.tokens[index]!;
    const owner = this.owner[index]!;
    this.found.push({ rule, member: owner < 0 ? '' : this.program.decls[owner]!.path, text, line: t.line, column: t.column });
  }

  private word(i: number, t: DafnyToken): void {
    switch (t.text) {
      case 'assume': case 'expect':
        this.add(t.text, i, normalText(this.tokens, i, this.statementEnd(i)));
        return;
      case 'decreases':
        if (this.tokens[this.skipAttributes(i + 1)]?.text === '*') this.add('decreases_star', i, 'decreases *');
        return;
      case 'while': case 'for':
        if (!this.loopHasBody(i)) this.add('bodiless_loop', i, normalText(this.tokens, i, this.statementEnd(i)));
        return;
      case 'forall':
        if (this.isBodilessForallStatement(i)) this.add('bodiless_forall', i, normalText(this.tokens, i, this.statementEnd(i)));
        return;
      default:
    }
  }

  private skipAttributes(j: number): number {
    let k = j;
    while (this.tokens[k]?.text === '{:') k = this.match[k]! + 1;
    return k;
  }

  /** The index of the `;` that ends the statement at `i` (or of the closer of its group, or the end). */
  private statementEnd(i: number): number {
    let k = i;
    while (k < this.tokens.length) {
      const t = this.tokens[k]!;
      if (t.text === ';') return k + 1;
      if (t.text === '}' || t.text === ')' || t.text === ']') return k;
      k = isOpener(t) ? this.match[k]! + 1 : k + 1;
    }
    return k;
  }

  private attribute(index: number, opener: string, name: string, args: string): void {
    const text = opener === '{:' ? `{:${name}${args === '' ? '' : ` ${args}`}}` : `@${name}${args === '' ? '' : `(${args})`}`;
    const bare = name.replace(/^@/, '');
    if (bare === 'verify' || bare === 'Verify') {
      if (args === 'true') return;
      this.add('verify_false', index, text);
    } else if (opener === '{:' && SAFE_ATTRIBUTES.has(name)) {
      return;
    } else if (bare === 'axiom' || bare === 'Axiom') {
      this.add('axiom', index, text);
    } else if (bare === 'extern' || bare === 'Extern') {
      this.add('extern', index, text);
    } else if (bare === 'only' || bare === 'Only' || bare === 'VerifyOnly') {
      this.add('only', index, text);
    } else {
      this.add('attribute', index, text);
    }
  }

  /** `@Name` is an attribute unless it is a label reference (`old@L`, `unchanged@L`, ...). */
  private isAtAttribute(i: number): boolean {
    const next = this.tokens[i + 1];
    const prev = this.tokens[i - 1]?.text ?? '';
    return next?.kind === 'ident' && !['old', 'fresh', 'unchanged', 'allocated'].includes(prev);
  }

  private atAttribute(i: number): void {
    const name = this.tokens[i + 1]!.text;
    const args = this.tokens[i + 2]?.text === '(' ? normalText(this.tokens, i + 3, this.match[i + 2]!) : '';
    this.attribute(i, '@', name, args);
  }

  /**
   * Whether the loop at `i` has a body: a `{` after its complete guard and specification. A `;`, the end of the
   * enclosing block, or a statement keyword after a complete expression means it has none.
   */
  private loopHasBody(i: number): boolean {
    if (this.tokens[i]!.text === 'while' && this.tokens[i + 1]?.text === '{') return true;
    return this.blockFollows(i + 1, true);
  }

  /**
   * From `k`, whether a block `{` comes after a complete expression before the statement ends. `loopSpecs`:
   * `invariant`/`decreases`/`modifies` start new expressions.
   */
  private blockFollows(k: number, loopSpecs: boolean): boolean {
    const state = new ExpressionState();
    const braces = new Set<number>();
    let first = true;
    for (let j = k; j < this.tokens.length;) {
      const t = this.tokens[j]!;
      if (t.text === ';' && this.specFollows(j + 1, loopSpecs)) {
        if (this.tokens[j + 1]?.text === '{') return true;
        j++;
        continue;
      }
      if (t.text === ';' || t.text === '}' || t.text === ')' || t.text === ']') return false;
      if (t.text === '{' && state.complete && !braces.has(j)) return true;
      if (state.complete && t.kind === 'ident' && STATEMENT_WORDS.has(t.text)) return false;
      if (t.kind === 'ident' && ((loopSpecs && LOOP_SPEC_WORDS.has(t.text)) || t.text === 'ensures')) {
        state.reset();
        first = true;
        j = this.skipAttributes(j + 1);
        continue;
      }
      if (t.kind === 'ident' && t.text === 'match') this.noteMatchBrace(j, braces);
      if (isOpener(t)) {
        state.group(t);
        j = this.match[j]! + 1;
      } else {
        state.token(t, first);
        j++;
      }
      first = false;
    }
    return false;
  }

  /** After an old-style `;` ending a specification clause: another clause or the body follows. */
  private specFollows(k: number, loopSpecs: boolean): boolean {
    const t = this.tokens[k];
    if (t === undefined) return false;
    return t.text === '{' || t.text === 'ensures' || (loopSpecs && LOOP_SPEC_WORDS.has(t.text));
  }

  private noteMatchBrace(k: number, braces: Set<number>): void {
    for (let m = k + 1; m < this.tokens.length;) {
      const t = this.tokens[m]!;
      if (t.text === '{') {
        braces.add(m);
        return;
      }
      if (t.text === 'case' || t.text === ';' || t.text === '}' || t.text === ')') return;
      m = isOpener(t) ? this.match[m]! + 1 : m + 1;
    }
  }

  /**
   * A `forall` statement with `ensures` and no body. A quantifier expression has `::` (or `•`) before any
   * `ensures`; a statement has `ensures` (or its body) first.
   */
  private isBodilessForallStatement(i: number): boolean {
    const state = new ExpressionState();
    const braces = new Set<number>();
    for (let j = i + 1; j < this.tokens.length;) {
      const t = this.tokens[j]!;
      if (t.text === '::' || t.text === '\u2022' || t.text === ';' || t.text === '}' || t.text === ')' || t.text === ']') return false;
      if (t.text === '{' && state.complete && !braces.has(j)) return false;
      if (t.kind === 'ident' && t.text === 'ensures') return !this.blockFollows(j, false);
      if (t.kind === 'ident' && t.text === 'match') this.noteMatchBrace(j, braces);
      if (isOpener(t)) {
        state.group(t);
        j = this.match[j]! + 1;
      } else {
        state.token(t, false);
        j++;
      }
    }
    return false;
  }

  /** Declaration-level constructs: callables without a body, includes. */
  private declaration(decl: DafnyDecl): void {
    if (decl.category === 'callable' && decl.body === null) {
      this.add('bodiless_member', decl.range.start, decl.signature);
    }
    if (decl.keyword === 'include') this.add('include', decl.range.start, decl.signature);
  }
}

/** For each token, the index (in `program.decls`) of the innermost declaration containing it, or -1. */
function ownerIndex(program: DafnyProgram): Int32Array {
  const owner = new Int32Array(program.tokens.length).fill(-1);
  const order = program.decls.map((decl, index) => ({ decl, index }))
    .sort((a, b) => (b.decl.range.end - b.decl.range.start) - (a.decl.range.end - a.decl.range.start));
  for (const { decl, index } of order) owner.fill(index, decl.range.start, decl.range.end);
  return owner;
}
