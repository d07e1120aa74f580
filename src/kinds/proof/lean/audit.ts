/**
 * The Lean 4 audit, for proofs checked by a kimina-lean-server-compatible `/verify` endpoint (`./client.ts`).
 *
 * What is sent: the candidate's file, then commands of ours on lines after it, one block per theorem and per
 * definition the problem names:
 *
 *   set_option pp.all true in
 *   #check @_root_.<theorem>          -- the statement as Lean prints it, every implicit and coercion explicit
 *   #print axioms _root_.<theorem>    -- what the proof rests on
 *   set_option pp.all true in
 *   #print _root_.<definition>        -- a definition the statements use, as Lean prints it
 *
 * Our commands' messages are the ones positioned on our lines; the same file of ours after the problem's
 * statement file (proofs `sorry`) gives the reference outputs. Since our commands run in the candidate's
 * environment, the candidate may not change how Lean parses or prints them: the token audit (`leanConstructs`)
 * refuses syntax extensions (`macro`, `syntax`, `notation`, `elab`, ...), metaprograms (`#eval`, `run_cmd`,
 * `initialize`, `unsafe`, `implemented_by`), `#exit` (our commands would never run), `set_option` other than
 * resource limits, linters and traces (`debug.skipKernelTC`, `pp.*`), other imports than the problem's, and axioms
 * or such constructs beyond the problem's own; `sorry`/`admit` are holes.
 * Findings (`cheat` unless said): the above; `changed_statement`/`changed_definition` when our `#check`/`#print`
 * output differs from the reference's; `axiom` for `#print axioms` entries outside the allowlist (default
 * `propext`, `Classical.choice`, `Quot.sound`); `sorryAx` is a hole (`admitted`).
 */
import type { ProofFinding } from '../findings.js';
import { lexLean, LeanLexError, type LeanToken } from './lexer.js';

/** `#print axioms` entries every Lean proof may rest on (Lean's own three). */
export const LEAN_DEFAULT_AXIOMS: readonly string[] = ['propext', 'Classical.choice', 'Quot.sound'];

/** What our commands printed, by name. */
export interface LeanOutputs {
  readonly statements: Readonly<Record<string, string>>;
  readonly definitions: Readonly<Record<string, string>>;
  readonly axioms: Readonly<Record<string, readonly string[] | null>>;
}

/** One block of ours: which command, on which name, on which lines (1-based, inclusive). */
export interface LeanCommandBlock {
  readonly kind: 'check' | 'axioms' | 'print';
  readonly name: string;
  readonly firstLine: number;
  readonly lastLine: number;
}

const NAME = /^[\p{L}_][\p{L}\p{N}_'!?]*(\.[\p{L}_][\p{L}\p{N}_'!?]*)*$/u;

/** The code sent to `/verify`: `source`, then our blocks (see the module comment). Throws on a name Lean could not read. */
export function leanCheckCode(source: string, theorems: readonly string[], definitions: readonly string[]): { code: string; blocks: LeanCommandBlock[] } {
  for (const name of [...theorems, ...definitions]) if (!NAME.test(name)) throw new Error(`not a Lean name: "${name}"`);
  const base = source.endsWith('\n') ? source : `${source}\n`;
  let line = base.split('\n').length;
  const lines: string[] = [''];
  const blocks: LeanCommandBlock[] = [];
  const add = (kind: LeanCommandBlock['kind'], name: string, text: readonly string[]): void => {
    blocks.push({ kind, name, firstLine: line + 1, lastLine: line + text.length });
    lines.push(...text);
    line += text.length;
  };
  for (const name of theorems) {
    add('check', name, ['set_option pp.all true in', `#check @_root_.${name}`]);
    add('axioms', name, [`#print axioms _root_.${name}`]);
  }
  for (const name of definitions) add('print', name, ['set_option pp.all true in', `#print _root_.${name}`]);
  return { code: `${base}${lines.join('\n')}\n`, blocks };
}

/** A message of the server's response (kimina-lean-server / Lean REPL shape). */
export interface LeanMessage {
  readonly severity: 'trace' | 'info' | 'warning' | 'error';
  readonly pos: { readonly line: number; readonly column: number };
  readonly data: string;
}

/** `#print axioms` text -> its axiom names, [] for none, null when it is not that message. */
export function parsePrintAxioms(text: string): string[] | null {
  if (/does not depend on any axioms/.test(text)) return [];
  const m = /depends on axioms: \[([^\]]*)\]/.exec(text);
  if (m === null) return null;
  return m[1]!.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/** Our commands' outputs from the messages (those on our lines; the info message of each block). */
export function leanOutputs(messages: readonly LeanMessage[], blocks: readonly LeanCommandBlock[]): LeanOutputs {
  const statements: Record<string, string> = {};
  const definitions: Record<string, string> = {};
  const axioms: Record<string, readonly string[] | null> = {};
  for (const block of blocks) {
    const texts = messages.filter((m) => m.severity === 'info' && m.pos.line >= block.firstLine && m.pos.line <= block.lastLine).map((m) => m.data.trim());
    const text = texts.join('\n');
    if (block.kind === 'check') statements[block.name] = text;
    else if (block.kind === 'print') definitions[block.name] = text;
    else axioms[block.name] = texts.length === 1 ? parsePrintAxioms(text) : null;
  }
  return { statements, definitions, axioms };
}

/** Compare the candidate's outputs with the reference's and the allowlist (see the module comment). */
export function auditLeanOutputs(reference: LeanOutputs, actual: LeanOutputs, allowedAxioms: readonly string[]): ProofFinding[] {
  const findings: ProofFinding[] = [];
  for (const [name, expected] of Object.entries(reference.statements)) {
    if (actual.statements[name] !== expected) findings.push(cheat('changed_statement', `theorem ${name} is stated as "${clip(actual.statements[name] ?? '(nothing)')}", the problem "${clip(expected)}"`, name));
  }
  for (const [name, expected] of Object.entries(reference.definitions)) {
    if (actual.definitions[name] !== expected) findings.push(cheat('changed_definition', `definition ${name} differs from the problem's`, name));
  }
  const allowed = new Set(allowedAxioms);
  for (const [name, list] of Object.entries(actual.axioms)) {
    if (list === null) {
      findings.push(cheat('unknown_assumption', `#print axioms ${name} printed nothing this audit can read`, name));
      continue;
    }
    for (const axiom of list) {
      if (allowed.has(axiom)) continue;
      if (axiom === 'sorryAx') findings.push({ rule: 'admitted', severity: 'hole', message: `${name} rests on sorry`, member: name });
      else findings.push(cheat('axiom', `${name} rests on the axiom ${axiom}`, name));
    }
  }
  return findings;
}

const SYNTAX_EXTENSIONS = new Set(['macro', 'macro_rules', 'syntax', 'elab', 'elab_rules', 'notation', 'infix', 'infixl', 'infixr',
  'prefix', 'postfix', 'declare_syntax_cat', 'binder_predicate', 'initialize', 'builtin_initialize', 'unsafe', 'implemented_by',
  'extern', 'run_cmd', 'run_elab', 'run_meta', 'run_tac', 'axiom']);
const COMMANDS = new Set(['#eval', '#exit', '#run', '#reduce_proof']);
const SAFE_OPTIONS = /^(maxHeartbeats|maxRecDepth|synthInstance\.maxHeartbeats|synthInstance\.maxSize|linter\..+|trace\..+|autoImplicit|relaxedAutoImplicit)$/;

function cheat(rule: string, message: string, member?: string, line?: number): ProofFinding {
  return { rule, severity: 'cheat', message, ...(member === undefined ? {} : { member }), ...(line === undefined ? {} : { line }) };
}

/** Counts of each construct keyword, and the imports, of a token stream. */
function inventory(tokens: readonly LeanToken[]): { counts: Map<string, number>; imports: string[] } {
  const counts = new Map<string, number>();
  const imports: string[] = [];
  tokens.forEach((t, i) => {
    if ((t.kind === 'ident' && SYNTAX_EXTENSIONS.has(t.text)) || (t.kind === 'command' && COMMANDS.has(t.text))) counts.set(t.text, (counts.get(t.text) ?? 0) + 1);
    if (t.kind === 'ident' && t.text === 'import' && tokens[i + 1]?.kind === 'ident') imports.push(tokens[i + 1]!.text);
  });
  return { counts, imports: imports.sort() };
}

/**
 * The token audit of a candidate against its problem's statement file (see the module comment): cheats and holes,
 * or `unreadable` when the candidate cannot be tokenized. Throws `LeanLexError` when the problem cannot.
 */
export function leanConstructs(problem: string, candidate: string): { findings: ProofFinding[]; unreadable: string | null } {
  const posed = inventory(lexLean(problem));
  let tokens: LeanToken[];
  try {
    tokens = lexLean(candidate);
  } catch (error) {
    if (error instanceof LeanLexError) return { findings: [], unreadable: error.message };
    throw error;
  }
  const findings: ProofFinding[] = [];
  const mine = inventory(tokens);
  if (mine.imports.join(' ') !== posed.imports.join(' ')) {
    findings.push(cheat('changed_header', `imports ${mine.imports.join(', ') || '(none)'}, the problem ${posed.imports.join(', ') || '(none)'}`));
  }
  for (const [word, n] of mine.counts) {
    const extra = n - (posed.counts.get(word) ?? 0);
    if (extra > 0) {
      const first = tokens.find((t) => t.text === word)!;
      findings.push(cheat(word === 'axiom' ? 'axiom' : 'metaprogram', `${word} (${extra} more than the problem has)`, undefined, first.line));
    }
  }
  tokens.forEach((t, i) => {
    if (t.kind === 'ident' && t.text === 'set_option') {
      const option = tokens[i + 1]?.text ?? '';
      if (!SAFE_OPTIONS.test(option)) findings.push(cheat('option', `set_option ${option}`, undefined, t.line));
    } else if (t.kind === 'ident' && (t.text === 'sorry' || t.text === 'admit')) {
      findings.push({ rule: 'admitted', severity: 'hole', message: `${t.text} at line ${t.line}`, line: t.line });
    }
  });
  return { findings, unreadable: null };
}

function clip(text: string, max = 160): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}
