/**
 * SMT-LIB 2 scripts as the `proof` kind judges them: a candidate script is read (`./sexpr.ts`), audited, and
 * run by a solver inside a script of ours; what it answered is read after a marker of ours, so nothing the
 * candidate's commands print (errors quote its symbols; `echo` prints anything) can pass for an answer.
 *
 * - `auditSmtScript`: the commands up to the script's first `check-sat` or `check-sat-assuming` are kept (the
 *   check itself is ours; what follows is dropped); a `check-sat-assuming` keeps its assumptions. Findings
 *   (`cheat`): commands that would change what our check sees or where its answer goes (`push`, `pop`, `reset`,
 *   `reset-assertions`, output-channel options) and `include` (z3 and cvc5 read another file's commands, which this
 *   audit would never see: an unsat goal proved by an included `(assert false)`); with a problem `statement`: a statement declaration or
 *   assertion missing from the top level, or other assumptions than the statement's (`changed_statement`), and,
 *   when `unsat` is expected, an assertion the statement does not have (`added_assertion`: `(assert false)`
 *   proves any unsat goal); a command of the candidate's that binds a name the statement uses
 *   (`shadowed_symbol`: `shadowFindings`).
 * - `solverScript`: `(set-option :produce-models true)`, the kept commands, `(echo marker)`, the check
 *   (`(check-sat)`, or the script's `(check-sat-assuming ...)`), and `(get-model)` when `sat` is expected.
 * - `readSolverAnswer`: the first line after the marker (`sat`, `unsat`, `unknown`, ...) and the model after it.
 * - `recheckScript`: the kept commands with each declared constant or function that the model defines replaced
 *   by the model's definition (auxiliary model symbols defined before first use), then `(check-sat)`: the second
 *   run must answer `sat`, i.e. the assertions hold under the model. Values the input language cannot state
 *   (cvc5's abstract `@U_0` elements of uninterpreted sorts) leave their symbol declared.
 */
import type { ProofFinding } from '../findings.js';
import { atomsOf, headOf, normalSExpr, parseSExprs, SExprError, type SExpr } from './sexpr.js';

/** An audited script: the commands kept (source text, in order), findings, or why it cannot be read. */
export interface SmtScript {
  readonly commands: readonly SExpr[];
  /** The script's `check-sat-assuming` command, or null for a plain `check-sat` (or none). */
  readonly assuming: SExpr | null;
  readonly source: string;
  readonly findings: readonly ProofFinding[];
  readonly unreadable: string | null;
}

const STATE_COMMANDS = new Set(['push', 'pop', 'reset', 'reset-assertions']);
const CHECKS = new Set(['check-sat', 'check-sat-assuming']);
const OUTPUT_OPTIONS = new Set([':regular-output-channel', ':diagnostic-output-channel', ':print-success']);
const DECLARATIONS = new Set(['declare-fun', 'declare-const', 'declare-sort', 'define-sort', 'declare-datatype', 'declare-datatypes',
  'define-fun', 'define-fun-rec', 'define-funs-rec', 'define-const']);

function cheat(rule: string, message: string, line?: number): ProofFinding {
  return line === undefined ? { rule, severity: 'cheat', message } : { rule, severity: 'cheat', message, line };
}

/** Audit a candidate script against the problem (see the module comment). Pure. */
export function auditSmtScript(source: string, expected: 'sat' | 'unsat', statement?: string): SmtScript {
  let all: SExpr[];
  try {
    all = parseSExprs(source);
  } catch (error) {
    if (error instanceof SExprError) return { commands: [], assuming: null, source, findings: [], unreadable: error.message };
    throw error;
  }
  const firstCheck = all.findIndex((e) => CHECKS.has(headOf(e) ?? ''));
  const commands = firstCheck < 0 ? all : all.slice(0, firstCheck);
  const check = firstCheck < 0 ? undefined : all[firstCheck]!;
  const assuming = check !== undefined && headOf(check) === 'check-sat-assuming' ? check : null;
  const findings: ProofFinding[] = [];
  for (const command of commands) {
    const head = headOf(command);
    if (head === null) {
      findings.push(cheat('not_a_command', `not a command: ${clip(normalSExpr(command))}`, command.line));
    } else if (head === 'include') {
      findings.push(cheat('include', `(include ...) reads commands from a file this audit never sees`, command.line));
    } else if (STATE_COMMANDS.has(head)) {
      findings.push(cheat('state_command', `(${head} ...) changes what the final check-sat sees`, command.line));
    } else if (head === 'set-option' && command.kind === 'list' && OUTPUT_OPTIONS.has(command.items[1]?.kind === 'atom' ? command.items[1].text : '')) {
      findings.push(cheat('output_option', `output redirected or decorated: ${clip(normalSExpr(command))}`, command.line));
    }
  }
  if (statement !== undefined) findings.push(...statementFindings(commands, assuming, statement, expected));
  return { commands, assuming, source, findings, unreadable: null };
}

/** The statement's declarations and assertions must all be kept; for `unsat`, no assertion may be added. */
function statementFindings(commands: readonly SExpr[], assuming: SExpr | null, statement: string, expected: 'sat' | 'unsat'): ProofFinding[] {
  const all = parseSExprs(statement);
  const posedCheck = all.find((e) => CHECKS.has(headOf(e) ?? ''));
  const posedAssuming = posedCheck !== undefined && headOf(posedCheck) === 'check-sat-assuming' ? normalSExpr(posedCheck) : null;
  const end = posedCheck === undefined ? all.length : all.indexOf(posedCheck);
  const posed = all.slice(0, end).filter((e) => headOf(e) === 'assert' || DECLARATIONS.has(headOf(e) ?? ''));
  const have = new Map<string, number>();
  for (const c of commands) have.set(normalSExpr(c), (have.get(normalSExpr(c)) ?? 0) + 1);
  const findings: ProofFinding[] = [];
  if ((assuming === null ? null : normalSExpr(assuming)) !== posedAssuming) {
    findings.push(cheat('changed_statement', `the check must be ${clip(posedAssuming ?? '(check-sat)')}`));
  }
  const posedAsserts = new Set<string>();
  for (const p of posed) {
    const text = normalSExpr(p);
    if (headOf(p) === 'assert') posedAsserts.add(text);
    const n = have.get(text) ?? 0;
    if (n === 0) findings.push(cheat('changed_statement', `the statement's ${clip(text)} is missing`));
    else have.set(text, n - 1);
  }
  findings.push(...shadowFindings(commands, all.slice(0, end)));
  if (expected === 'unsat') {
    for (const c of commands) {
      if (headOf(c) === 'assert' && !posedAsserts.has(normalSExpr(c))) {
        findings.push(cheat('added_assertion', `an assertion the statement does not make: ${clip(normalSExpr(c))}`, c.line));
      }
    }
  }
  return findings;
}

/** A symbol's name (`|p|` names `p`); null for anything else. */
function nameOf(e: SExpr | undefined): string | null {
  if (e?.kind !== 'atom') return null;
  return e.text.startsWith('|') && e.text.endsWith('|') && e.text.length >= 2 ? e.text.slice(1, -1) : e.text;
}

/** Constructor and selector names of datatype constructor declarations (`((c (s T)) (d))`, or under `par`). */
function constructorNames(decls: SExpr | undefined, into: string[]): void {
  if (decls?.kind !== 'list') return;
  const list = headOf(decls) === 'par' ? decls.items[2] : decls;
  if (list?.kind !== 'list') return;
  for (const ctor of list.items) {
    if (ctor.kind !== 'list') continue;
    const [name, ...selectors] = ctor.items;
    const n = nameOf(name);
    if (n !== null) into.push(n);
    for (const sel of selectors) if (sel.kind === 'list') { const s = nameOf(sel.items[0]); if (s !== null) into.push(s); }
  }
}

/** Every name a command binds: what it declares or defines, datatype constructors and selectors, `:named` terms. */
function boundNames(command: SExpr): string[] {
  const names: string[] = [];
  const head = headOf(command);
  if (command.kind !== 'list') return names;
  const items = command.items;
  if (head !== null && DECLARATIONS.has(head) && head !== 'define-funs-rec' && head !== 'declare-datatypes') {
    const n = nameOf(items[1]);
    if (n !== null) names.push(n);
  }
  if (head === 'define-funs-rec' && items[1]?.kind === 'list') {
    for (const decl of items[1].items) if (decl.kind === 'list') { const n = nameOf(decl.items[0]); if (n !== null) names.push(n); }
  }
  if (head === 'declare-datatype') constructorNames(items[2], names);
  if (head === 'declare-datatypes' && items[1]?.kind === 'list' && items[2]?.kind === 'list') {
    for (const sort of items[1].items) { const n = nameOf(sort.kind === 'list' ? sort.items[0] : sort); if (n !== null) names.push(n); }
    for (const decls of items[2].items) constructorNames(decls, names);
  }
  const named = (e: SExpr): void => {
    if (e.kind !== 'list') return;
    e.items.forEach((item, i) => {
      if (item.kind === 'atom' && item.text === ':named') { const n = nameOf(e.items[i + 1]); if (n !== null) names.push(n); }
      named(item);
    });
  };
  named(command);
  return names;
}

/**
 * A command the statement does not have that binds a name the statement uses (`shadowed_symbol`): declaring the
 * statement's constant with another sort first makes the solver refuse the statement's own commands (z3 reports
 * an error and goes on without them), and a user function named like a theory symbol (`(declare-fun * (Int Int)
 * Int)`, which z3 accepts) turns the statement's arithmetic into an uninterpreted function.
 */
function shadowFindings(commands: readonly SExpr[], posed: readonly SExpr[]): ProofFinding[] {
  const used = new Set<string>();
  const posedText = new Map<string, number>();
  for (const p of posed) {
    for (const atom of atomsOf(p)) used.add(atom.startsWith('|') && atom.endsWith('|') && atom.length >= 2 ? atom.slice(1, -1) : atom);
    posedText.set(normalSExpr(p), (posedText.get(normalSExpr(p)) ?? 0) + 1);
  }
  const findings: ProofFinding[] = [];
  for (const c of commands) {
    const text = normalSExpr(c);
    const n = posedText.get(text) ?? 0;
    if (n > 0) {
      posedText.set(text, n - 1);
      continue;
    }
    const shadowed = [...new Set(boundNames(c).filter((name) => used.has(name)))];
    if (shadowed.length > 0) {
      findings.push(cheat('shadowed_symbol', `binds ${shadowed.join(', ')}, which the statement uses: ${clip(text)}`, c.line));
    }
  }
  return findings;
}

function text(script: SmtScript, e: SExpr): string {
  return script.source.slice(e.start, e.end);
}

/** The script a solver runs (see the module comment); `marker` letters and digits only. */
export function solverScript(script: SmtScript, expected: 'sat' | 'unsat', marker: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(marker)) throw new Error(`bad marker "${marker}"`);
  const check = script.assuming === null ? '(check-sat)' : text(script, script.assuming);
  const lines = ['(set-option :produce-models true)', ...script.commands.map((c) => text(script, c)), `(echo "${marker}")`, check];
  if (expected === 'sat') lines.push('(get-model)');
  return `${lines.join('\n')}\n`;
}

/** A solver's answer after our marker: the answer line (null when the marker or answer is missing), the rest. */
export function readSolverAnswer(stdout: string, marker: string): { answer: string | null; rest: string } {
  const lines = stdout.split('\n');
  const at = lines.findIndex((line) => line.trim() === marker || line.trim() === `"${marker}"`);
  if (at < 0 || at + 1 >= lines.length) return { answer: null, rest: '' };
  const answer = lines[at + 1]!.trim();
  return { answer: answer === '' ? null : answer, rest: lines.slice(at + 2).join('\n') };
}

/** The symbol a `|quoted|` or plain symbol names. */
function symbolName(e: SExpr | undefined): string | null {
  if (e?.kind !== 'atom') return null;
  return e.text.startsWith('|') && /^\|[A-Za-z~!@$%^&*_+=<>.?/-][A-Za-z0-9~!@$%^&*_+=<>.?/-]*\|$/.test(e.text) ? e.text.slice(1, -1) : e.text;
}

/**
 * The model's definitions by symbol (`define-fun` and `declare-fun` of model-only elements), from the text after
 * the answer (`(model ...)` or `(...)`); comments and bare formulas in it are skipped. Throws `SExprError`.
 */
export function readModel(rest: string): Map<string, SExpr> {
  const top = parseSExprs(rest)[0];
  const defs = new Map<string, SExpr>();
  if (top === undefined || top.kind !== 'list') return defs;
  const items = headOf(top) === 'model' ? top.items.slice(1) : top.items;
  for (const item of items) {
    const head = headOf(item);
    if ((head === 'define-fun' || head === 'declare-fun' || head === 'define-fun-rec') && item.kind === 'list') {
      const name = symbolName(item.items[1]);
      if (name !== null) defs.set(name, item);
    }
  }
  return defs;
}

/**
 * The re-check script of a model (see the module comment). `keepDeclared`: symbols left declared whatever the model
 * says (a value the solver could not read back in a first re-check: `recheckRetry`).
 */
export function recheckScript(script: SmtScript, model: ReadonlyMap<string, SExpr>, keepDeclared: ReadonlySet<string> = new Set()): string {
  const declared = new Set<string>();
  for (const c of script.commands) {
    if (headOf(c) === 'declare-fun' || headOf(c) === 'declare-const') declared.add(symbolName(c.kind === 'list' ? c.items[1] : undefined) ?? '');
  }
  const emitted = new Set<string>();
  const out: string[] = [];
  const emit = (name: string, stack: Set<string>): void => {
    const def = model.get(name);
    if (def === undefined || emitted.has(name) || stack.has(name)) return;
    stack.add(name);
    for (const ref of atomsOf(def)) if (ref !== name && model.has(ref) && !declared.has(ref)) emit(ref, stack);
    emitted.add(name);
    out.push(normalSExpr(def));
  };
  for (const c of script.commands) {
    const head = headOf(c);
    const name = (head === 'declare-fun' || head === 'declare-const') && c.kind === 'list' ? symbolName(c.items[1]) : null;
    const def = name === null ? undefined : model.get(name);
    if (name !== null && def !== undefined && !keepDeclared.has(name) && headOf(def) !== 'declare-fun' && !/(^|[\s(])@/.test(normalSExpr(def))) {
      emit(name, new Set());
    } else {
      out.push(text(script, c));
    }
  }
  out.push(script.assuming === null ? '(check-sat)' : text(script, script.assuming));
  return `${out.join('\n')}\n`;
}

function clip(value: string, max = 120): string {
  return value.length <= max ? value : `${value.slice(0, max - 3)}...`;
}
