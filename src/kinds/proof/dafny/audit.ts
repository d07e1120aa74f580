/**
 * The Dafny audit: does a candidate program promise exactly what its problem promises, and prove it without
 * assuming anything the problem did not? Decided on the parsed program text alone, so it needs no Dafny binary
 * and a Dafny that prints "0 errors" after a time-out or a skipped member cannot overrule it.
 *
 * A candidate is `cheated` when (each a `ProofFinding` with severity `cheat`):
 * - a declaration of the problem is missing (`missing_declaration`), or its header changed (`changed_signature`:
 *   kind, modifiers, name, type parameters, parameters, results);
 * - a method's, lemma's, function's or iterator's `requires`, `ensures`, `reads`, `modifies` (and iterators'
 *   `yield requires`/`yield ensures`) differ from the problem's as multisets of clauses in normal text
 *   (`changed_contract`; clause order is free, since a conjunction does not depend on it); `decreases` must
 *   equal the problem's where the problem gives one, and may be added where it gives none (a termination
 *   measure is checked, and DafnyBench removes them as hints);
 * - a function's or predicate's body (part of the specification) differs, or one without a body got one
 *   (`changed_definition`); any other declaration (datatype, type, const, field, import) differs
 *   (`changed_declaration`);
 * - it has a forbidden construct (`./constructs.ts`: `assume`, `expect`, `{:axiom}`, `{:verify false}`,
 *   `{:extern}`, `{:only}`, attributes outside the safe list, `decreases *`, loops and `forall` statements without
 *   a body, members without a body, `include`) that the problem does not have in the same declaration with the
 *   same text. A problem's own axioms and assumptions stay allowed, once each.
 * Declarations the candidate adds (helper lemmas, functions) are free, but fall under the construct rules.
 * A candidate the parser cannot read gets no findings but `unreadable` (its verdict is `failed`: the audit
 * cannot vouch for it).
 */
import type { ProofFinding } from '../findings.js';
import { forbiddenConstructs, type DafnyConstruct } from './constructs.js';
import { DafnyParseError, parseDafny, type DafnyClauseKind, type DafnyDecl, type DafnyProgram } from './parse.js';

/** The audit's answer: findings (cheats), or why the candidate could not be read. */
export interface DafnyAudit {
  readonly findings: readonly ProofFinding[];
  readonly unreadable: string | null;
}

/**
 * A problem ready to audit candidates against: its declarations by path (what it promises), and the forbidden
 * constructs it has itself (which candidates may keep).
 */
export interface DafnyProblemSpec {
  readonly byPath: ReadonlyMap<string, readonly DafnyDecl[]>;
  readonly constructs: readonly DafnyConstruct[];
}

/**
 * Parse a problem once. `program` is the program the candidate starts from; `reference`, when given, a verified
 * solution of it whose declarations and contracts are the same by construction (DafnyBench's `ground_truth`
 * beside `hints_removed`). The promises are read from the reference when there is one (DafnyBench's hint removal
 * leaves some `hints_removed` files unbalanced or with fragments of removed assertions), the allowed constructs
 * from `program` (from the reference only when `program` cannot be read). Throws `DafnyParseError` when neither
 * can be read.
 */
export function dafnyProblemSpec(program: string, reference?: string): DafnyProblemSpec {
  let posed: DafnyProgram | null = null;
  let posedError: DafnyParseError | null = null;
  try {
    posed = parseDafny(program);
  } catch (error) {
    if (!(error instanceof DafnyParseError) || reference === undefined) throw error;
    posedError = error;
  }
  const solved = reference === undefined ? posed! : parseDafny(reference);
  const allowedFrom = posed ?? solved;
  void posedError;
  return { byPath: groupByPath(solved.decls), constructs: forbiddenConstructs(allowedFrom) };
}

/** Audit `candidate` against `problem` (see the module comment). Pure. */
export function auditDafny(problem: DafnyProblemSpec, candidate: string): DafnyAudit {
  let program: DafnyProgram;
  try {
    program = parseDafny(candidate);
  } catch (error) {
    if (error instanceof DafnyParseError) return { findings: [], unreadable: error.message };
    throw error;
  }
  const findings: ProofFinding[] = [];
  const candidateByPath = groupByPath(program.decls);
  for (const [path, decls] of problem.byPath) {
    const theirs = candidateByPath.get(path) ?? [];
    decls.forEach((decl, i) => compareDecl(decl, theirs[i], findings));
  }
  findings.push(...constructFindings(problem.constructs, forbiddenConstructs(program)));
  return { findings, unreadable: null };
}

function groupByPath(decls: readonly DafnyDecl[]): Map<string, DafnyDecl[]> {
  const map = new Map<string, DafnyDecl[]>();
  for (const decl of decls) {
    const list = map.get(decl.path);
    if (list === undefined) map.set(decl.path, [decl]);
    else list.push(decl);
  }
  return map;
}

function cheat(rule: string, message: string, member: string, line?: number): ProofFinding {
  return line === undefined ? { rule, severity: 'cheat', message, member } : { rule, severity: 'cheat', message, member, line };
}

function describe(decl: DafnyDecl): string {
  return `${decl.keyword} ${decl.path === '' ? '(unnamed)' : decl.path}`;
}

function compareDecl(mine: DafnyDecl, theirs: DafnyDecl | undefined, into: ProofFinding[]): void {
  if (theirs === undefined) {
    into.push(cheat('missing_declaration', `${describe(mine)} of the problem is missing`, mine.path));
    return;
  }
  if (mine.category !== theirs.category || mine.signature !== theirs.signature) {
    const rule = mine.category === 'callable' || mine.category === 'container' ? 'changed_signature' : 'changed_declaration';
    into.push(cheat(rule, `${describe(mine)} changed: "${clip(mine.signature)}" became "${clip(theirs.signature)}"`, mine.path, theirs.line));
    return;
  }
  if (mine.category !== 'callable') return;
  compareClauses(mine, theirs, into);
  if (mine.specBody !== null && mine.specBody !== theirs.specBody) {
    into.push(cheat('changed_definition', `the body of ${describe(mine)} (part of its specification) changed`, mine.path, theirs.line));
  } else if (mine.specBody === null && isFunction(mine) && theirs.body !== null) {
    into.push(cheat('changed_definition', `${describe(mine)} has no body in the problem, so it may not get one`, mine.path, theirs.line));
  }
}

function isFunction(decl: DafnyDecl): boolean {
  return /\b(function|predicate)\b/.test(decl.keyword) && !decl.keyword.endsWith('lemma');
}

const COMPARED: readonly DafnyClauseKind[] = ['requires', 'ensures', 'reads', 'modifies', 'yield requires', 'yield ensures'];

function compareClauses(mine: DafnyDecl, theirs: DafnyDecl, into: ProofFinding[]): void {
  const kinds = mine.clauses.some((c) => c.kind === 'decreases') ? [...COMPARED, 'decreases' as const] : COMPARED;
  for (const kind of kinds) {
    const expected = mine.clauses.filter((c) => c.kind === kind).map((c) => c.text);
    const actual = theirs.clauses.filter((c) => c.kind === kind).map((c) => c.text);
    const { missing, extra } = multisetDifference(expected, actual);
    if (missing.length === 0 && extra.length === 0) continue;
    const parts = [
      ...missing.map((text) => `missing "${kind} ${clip(text)}"`),
      ...extra.map((text) => `added "${kind} ${clip(text)}"`),
    ];
    into.push(cheat('changed_contract', `${describe(mine)}: ${parts.join(', ')}`, mine.path, theirs.line));
  }
}

/** `expected` minus `actual` (missing) and `actual` minus `expected` (extra), as multisets. */
function multisetDifference(expected: readonly string[], actual: readonly string[]): { missing: string[]; extra: string[] } {
  const counts = new Map<string, number>();
  for (const text of expected) counts.set(text, (counts.get(text) ?? 0) + 1);
  const extra: string[] = [];
  for (const text of actual) {
    const n = counts.get(text) ?? 0;
    if (n > 0) counts.set(text, n - 1);
    else extra.push(text);
  }
  const missing: string[] = [];
  for (const [text, n] of counts) for (let i = 0; i < n; i++) missing.push(text);
  return { missing, extra };
}

const CONSTRUCT_MESSAGES: Readonly<Record<DafnyConstruct['rule'], string>> = {
  assume: 'assume statement',
  expect: 'expect statement (the verifier assumes what it expects)',
  axiom: '{:axiom} attribute',
  verify_false: 'verification switched off',
  extern: '{:extern} attribute',
  only: '{:only} attribute (the rest is not verified)',
  attribute: 'attribute that is not a proof-effort attribute',
  decreases_star: 'decreases * (termination not proved)',
  bodiless_loop: 'loop without a body (its invariant is assumed)',
  bodiless_forall: 'forall statement without a body (its ensures is assumed)',
  bodiless_member: 'member without a body (an axiom)',
  include: 'include of another file',
};

/** Candidate constructs the problem does not have in the same declaration with the same text (counted). */
function constructFindings(problem: readonly DafnyConstruct[], candidate: readonly DafnyConstruct[]): ProofFinding[] {
  const allowed = new Map<string, number>();
  const key = (c: DafnyConstruct): string => `${c.rule}\u0000${c.member}\u0000${c.text}`;
  for (const c of problem) allowed.set(key(c), (allowed.get(key(c)) ?? 0) + 1);
  const findings: ProofFinding[] = [];
  for (const c of candidate) {
    const n = allowed.get(key(c)) ?? 0;
    if (n > 0) {
      allowed.set(key(c), n - 1);
      continue;
    }
    const where = c.member === '' ? '' : ` in ${c.member}`;
    findings.push(cheat(c.rule, `${CONSTRUCT_MESSAGES[c.rule]}${where}: ${clip(c.text)}`, c.member, c.line));
  }
  return findings;
}

function clip(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}
