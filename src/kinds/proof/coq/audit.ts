/**
 * The Coq audit: what the trusted check (`./check-file.ts`) printed about the candidate's compiled library,
 * compared with what it printed about the problem's statement file (the reference), plus the candidate's
 * commands that tamper with the checker.
 *
 * Findings (severity `cheat` unless said):
 * - `changed_statement`: a theorem's type, as `Check` prints it under `Set Printing All`, differs from the
 *   statement file's (a statement replaced by `True`, a weaker lemma renamed to the target, a changed hypothesis);
 * - `changed_definition`: a definition the statements rest on prints differently (a redefined predicate that
 *   makes the theorem trivial);
 * - `axiom`: `Print Assumptions` lists an axiom outside the problem's allowlist (`Axiom cheat : False`,
 *   `Parameter`, `Local Axiom`, `Hypothesis` outside a section); `admitted` (severity `hole`) when the candidate's
 *   own text closes that name with `Admitted` (`Admitted`, `admit.`): the split between the two is read from the
 *   candidate's text and only labels a failure, never makes a pass;
 * - `unsafe_flag`: a constant relies on a disabled kernel check (`Unset Guard Checking`, `Unset Positivity
 *   Checking`, `Unset Universe Checking`, `#[bypass_check]`), as `Print Assumptions` reports it;
 * - `unknown_assumption`: a `Print Assumptions` line this reader does not know;
 * - `forbidden_command`: the candidate's text has a command that changes the checker rather than proving
 *   (`Unset Guard Checking` and the other typing flags, `bypass_check`, `Declare ML Module`, `Load`, `Redirect`,
 *   `Extraction` to a file, `Add LoadPath`, `Cd`).
 * A theorem whose sections are missing (the trusted check stopped: the candidate has no such theorem) is
 * `missing` (the verdict is `failed`), not a finding.
 */
import type { ProofFinding } from '../findings.js';
import { parseAssumptions, parseCheckedType, parsePrintedDefinition, splitCheckOutput, type CoqSection } from './check-file.js';
import { CoqLexError, coqSentences, commandOf, STATEMENT_KEYWORDS } from '../../../formats/coq-vernacular.js';

/** The statement file as the trusted check printed it: each theorem's type and each definition's printed form. */
export interface CoqReference {
  readonly types: Readonly<Record<string, string>>;
  readonly definitions: Readonly<Record<string, string>>;
}

/**
 * Read the reference run's output (a check file made with `assumptions: false`). Throws when a section is missing
 * or a type cannot be read: the problem's statement file does not have what the problem names.
 */
export function coqReferenceFromOutput(stdout: string, sections: readonly CoqSection[], nonce: string): CoqReference {
  const { outputs, complete } = splitCheckOutput(stdout, sections.length, nonce);
  if (!complete) {
    const missing = sections[outputs.length];
    throw new Error(`the statement file has no ${missing?.kind === 'definition' ? 'definition' : 'theorem'} "${missing?.name ?? '?'}"`);
  }
  const types: Record<string, string> = {};
  const definitions: Record<string, string> = {};
  sections.forEach((section, i) => {
    const output = outputs[i]!;
    if (section.kind === 'type') {
      const type = parseCheckedType(output);
      if (type === null) throw new Error(`cannot read the type of "${section.name}" from: ${output.slice(0, 200)}`);
      types[section.name] = type;
    } else if (section.kind === 'definition') {
      definitions[section.name] = parsePrintedDefinition(output);
    }
  });
  return { types, definitions };
}

/** What the audit needs about the problem. `allowedAxioms` as Coq prints them (`name : type`). */
export interface CoqAuditProblem {
  readonly sections: readonly CoqSection[];
  readonly reference: CoqReference;
  readonly allowedAxioms: readonly string[];
}

/** The audit's answer: findings, and the first name the trusted check stopped at (null when it ran through). */
export interface CoqAudit {
  readonly findings: readonly ProofFinding[];
  readonly missing: string | null;
}

/** Audit the trusted check's stdout for a candidate (see the module comment). Pure. */
export function auditCoq(problem: CoqAuditProblem, stdout: string, nonce: string, candidateSource: string): CoqAudit {
  const { outputs, complete } = splitCheckOutput(stdout, problem.sections.length, nonce);
  const findings: ProofFinding[] = [...forbiddenCommands(candidateSource)];
  const admitted = admittedNames(candidateSource);
  const allowed = new Set(problem.allowedAxioms.map((a) => a.replace(/\s+/g, ' ').trim()));
  problem.sections.forEach((section, i) => {
    const output = outputs[i];
    if (output === undefined) return;
    if (section.kind === 'type') {
      const expected = problem.reference.types[section.name];
      const actual = parseCheckedType(output);
      if (actual !== expected) {
        findings.push(cheat('changed_statement', `theorem ${section.name} states "${clip(actual ?? output)}", the problem "${clip(expected ?? '?')}"`, section.name));
      }
    } else if (section.kind === 'definition') {
      if (parsePrintedDefinition(output) !== problem.reference.definitions[section.name]) {
        findings.push(cheat('changed_definition', `definition ${section.name} differs from the problem's`, section.name));
      }
    } else {
      findings.push(...assumptionFindings(section.name, output, allowed, admitted));
    }
  });
  const missing = complete ? null : problem.sections[outputs.length]?.name ?? null;
  return { findings: dedupe(findings), missing };
}

function assumptionFindings(theorem: string, output: string, allowed: ReadonlySet<string>, admitted: ReadonlySet<string>): ProofFinding[] {
  const assumptions = parseAssumptions(output);
  const findings: ProofFinding[] = [];
  for (const axiom of assumptions.axioms) {
    if (allowed.has(axiom.entry)) continue;
    const local = axiom.name.startsWith('Candidate.') ? axiom.name.slice('Candidate.'.length) : null;
    if (local !== null && (admitted.has(local) || [...admitted].some((name) => local.startsWith(`${name}_obligation_`)))) {
      findings.push({ rule: 'admitted', severity: 'hole', message: `${theorem} rests on ${local}, which is admitted`, member: theorem });
    } else {
      findings.push(cheat('axiom', `${theorem} rests on the axiom ${clip(axiom.entry)}`, theorem));
    }
  }
  for (const flag of assumptions.flags) findings.push(cheat('unsafe_flag', `${theorem}: ${flag}`, theorem));
  for (const line of assumptions.unknown) findings.push(cheat('unknown_assumption', `${theorem}: Print Assumptions printed "${clip(line)}"`, theorem));
  return findings;
}

function cheat(rule: string, message: string, member?: string, line?: number): ProofFinding {
  const finding: ProofFinding = { rule, severity: 'cheat', message };
  return { ...finding, ...(member === undefined ? {} : { member }), ...(line === undefined ? {} : { line }) };
}

/** One finding per (rule, message): a shared admitted lemma is reported once, not once per theorem. */
function dedupe(findings: readonly ProofFinding[]): ProofFinding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.rule}\u0000${f.message.replace(/^\S+ (rests on|:)/, '')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Names whose proof the text ends with `Admitted` (after `admit.` or not): the last opened statement or
 * definition before each `Admitted`. Empty when the text cannot be split (a label, never a pass).
 */
export function admittedNames(source: string): Set<string> {
  const names = new Set<string>();
  let open: string | undefined;
  for (const sentence of safeSentences(source)) {
    const command = commandOf(sentence.text);
    if (STATEMENT_KEYWORDS.has(command.keyword) || ['Definition', 'Fixpoint', 'CoFixpoint', 'Instance', 'Let', 'Goal'].includes(command.keyword)) {
      open = command.name;
    } else if (command.keyword === 'Admitted' && open !== undefined) {
      names.add(open);
    }
  }
  return names;
}

function safeSentences(source: string): ReturnType<typeof coqSentences> {
  try {
    return coqSentences(source);
  } catch (error) {
    if (error instanceof CoqLexError) return [];
    throw error;
  }
}

const TYPING_FLAGS = /^(Guard Checking|Positivity Checking|Universe Checking)$/;
const TAMPERING = new Set(['Load', 'Redirect', 'Cd', 'Drop']);

/** Commands that change the checker rather than prove (see the module comment), as `forbidden_command` findings. */
export function forbiddenCommands(source: string): ProofFinding[] {
  const findings: ProofFinding[] = [];
  for (const sentence of safeSentences(source)) {
    const command = commandOf(sentence.text);
    const text = clip(sentence.text, 80);
    if (command.keyword === 'Unset' && TYPING_FLAGS.test(command.name ?? '')) {
      findings.push(cheat('forbidden_command', `kernel check switched off: ${text}`, undefined, sentence.line));
    } else if (command.keyword === 'Set' && /^Definitional UIP$/.test(command.name ?? '')) {
      findings.push(cheat('forbidden_command', `kernel rule added: ${text}`, undefined, sentence.line));
    } else if (command.attributes.some((a) => /\bbypass_check\b/.test(a))) {
      findings.push(cheat('forbidden_command', `kernel check bypassed: ${text}`, undefined, sentence.line));
    } else if (TAMPERING.has(command.keyword) || /^(Declare ML Module|Add (Rec )?LoadPath|Add ML Path|Extraction "|Separate Extraction|(Recursive )?Extraction Library)\b/.test(sentence.text)) {
      findings.push(cheat('forbidden_command', `command that reaches outside the proof: ${text}`, undefined, sentence.line));
    }
  }
  return findings;
}

function clip(text: string, max = 160): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}
