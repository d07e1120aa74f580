/**
 * The trusted Coq check: a file of our own that a separate `coqc` compiles after loading the candidate's compiled
 * library (`Candidate.vo`, logical path `Crucible.Candidate`), so what counts is what Coq prints for our commands,
 * never text the candidate printed:
 *
 *   Require Crucible.Candidate.                       (Require, not Import: the candidate's notations stay off)
 *   Set Printing All. Set Printing Width 1000000.     (after the Require: our settings win; no notation prints)
 *   <marker 0>  Print Assumptions Crucible.Candidate.<theorem>.
 *   <marker 1>  Check @Crucible.Candidate.<theorem>.      (`@`: no implicit argument is inserted)
 *   ...         Print Crucible.Candidate.<definition>.
 *   <marker n>
 *
 * A marker is `Definition crucible_<nonce>_<i> := 0. Print crucible_<nonce>_<i>.`, which prints
 * `crucible_<nonce>_<i> = O` then `: nat`; the nonce is drawn per check, so nothing the candidate's library
 * could print when loaded can pass for a section boundary, and a section is whatever Coq printed between two
 * markers. A missing marker means `coqc` stopped there (a theorem or definition the candidate does not have).
 */

/** The logical library path the candidate's file is compiled under (`coqc -Q . Crucible Candidate.v`). */
export const COQ_LIBRARY = 'Crucible';
/** The candidate's file name without `.v`: its module is `Crucible.Candidate`, printed as `Candidate.<name>`. */
export const COQ_CANDIDATE_MODULE = 'Candidate';
/** The trusted check's file name without `.v`. */
export const COQ_CHECK_MODULE = 'CrucibleCheck';

/** What one section of the check prints. */
export type CoqSectionKind = 'assumptions' | 'type' | 'definition';

/** One section: which command, on which name (as the problem names it, module path included: `M.foo`). */
export interface CoqSection {
  readonly kind: CoqSectionKind;
  readonly name: string;
}

/** The check file's text and its sections in order. */
export interface CoqCheckFile {
  readonly text: string;
  readonly sections: readonly CoqSection[];
}

/** Names Coq accepts in a qualified reference (`foo`, `M.foo'`, `_x1`). Anything else is refused. */
const QUALID = /^[A-Za-z_][A-Za-z0-9_']*(\.[A-Za-z_][A-Za-z0-9_']*)*$/;

/** The marker identifier of section `i` (and of the end, `i` = number of sections). */
export function markerName(nonce: string, i: number): string {
  return `crucible_${nonce}_${i}`;
}

/**
 * The check file for `theorems` (assumptions and type of each) and `definitions` (printed form of each), or,
 * with `assumptions: false`, types and definitions only (the reference run of a statement file, whose proofs may
 * be admitted). `nonce`: letters and digits, drawn per check. Throws on a name Coq could not read.
 */
export function coqCheckFile(theorems: readonly string[], definitions: readonly string[], nonce: string,
  options: { assumptions?: boolean } = {}): CoqCheckFile {
  if (!/^[a-z0-9]{8,64}$/.test(nonce)) throw new Error(`nonce must be 8-64 lowercase letters or digits, got "${nonce}"`);
  for (const name of [...theorems, ...definitions]) {
    if (!QUALID.test(name)) throw new Error(`not a Coq name: "${name}"`);
  }
  const sections: CoqSection[] = [];
  for (const name of theorems) {
    if (options.assumptions !== false) sections.push({ kind: 'assumptions', name });
    sections.push({ kind: 'type', name });
  }
  for (const name of definitions) sections.push({ kind: 'definition', name });
  const lines = [
    `Require ${COQ_LIBRARY}.${COQ_CANDIDATE_MODULE}.`,
    'Set Printing All.',
    'Set Printing Width 1000000.',
  ];
  const marker = (i: number): string => `Definition ${markerName(nonce, i)} := 0. Print ${markerName(nonce, i)}.`;
  sections.forEach((section, i) => {
    const ref = `${COQ_LIBRARY}.${COQ_CANDIDATE_MODULE}.${section.name}`;
    const command = section.kind === 'assumptions' ? `Print Assumptions ${ref}.` : section.kind === 'type' ? `Check @${ref}.` : `Print ${ref}.`;
    lines.push(marker(i), command);
  });
  lines.push(marker(sections.length));
  return { text: `${lines.join('\n')}\n`, sections };
}

/**
 * The output of each section (its lines between two markers, trailing blank lines dropped), in order, for the
 * sections whose closing marker was printed; `complete` when every marker was. Stdout of the trusted `coqc`.
 */
export function splitCheckOutput(stdout: string, sectionCount: number, nonce: string): { outputs: string[]; complete: boolean } {
  const lines = stdout.split('\n');
  const outputs: string[] = [];
  let expected = 0;
  let current: string[] | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === `${markerName(nonce, expected)} = O` && /^\s+: nat$/.test(lines[i + 1] ?? '')) {
      if (current !== null) outputs.push(current.join('\n').replace(/\s+$/, ''));
      current = [];
      expected++;
      i++;
      if (expected > sectionCount) return { outputs, complete: true };
      continue;
    }
    if (current !== null) current.push(line);
  }
  return { outputs, complete: false };
}

/**
 * `Print Assumptions` output, read: `closed` when Coq printed exactly `Closed under the global context`;
 * `axioms` the entries of its `Axioms:` (and `Section Variables:`) part as `name : type` with blanks collapsed;
 * `flags` the lines that say a constant relies on a disabled check (`X is assumed to be guarded.`,
 * `X is assumed to be positive.`, `X relies on an unsafe hierarchy.`, definitional UIP); `unknown` any other line
 * (never allowed: an output this reader does not know is not a proof of closedness).
 */
export interface CoqAssumptions {
  readonly closed: boolean;
  readonly axioms: readonly { readonly name: string; readonly entry: string }[];
  readonly flags: readonly string[];
  readonly unknown: readonly string[];
}

const ASSUMPTION_HEADERS = new Set(['Axioms:', 'Section Variables:']);
const FLAG_LINE = /^\S+ (is assumed to be guarded|is assumed to be positive|relies on an unsafe hierarchy|relies on definitional UIP)\.$/;

/** Read one `Print Assumptions` section (see `CoqAssumptions`). */
export function parseAssumptions(output: string): CoqAssumptions {
  const text = output.trim();
  if (text === 'Closed under the global context') return { closed: true, axioms: [], flags: [], unknown: [] };
  const axioms: { name: string; entry: string }[] = [];
  const flags: string[] = [];
  const unknown: string[] = [];
  let inList = false;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (ASSUMPTION_HEADERS.has(line.trim())) {
      inList = true;
      continue;
    }
    if (FLAG_LINE.test(line)) {
      flags.push(line.trim());
      inList = false;
      continue;
    }
    const entry = /^(\S+) : (.*)$/.exec(line);
    if (inList && entry !== null) {
      axioms.push({ name: entry[1]!, entry: `${entry[1]} : ${entry[2]!.replace(/\s+/g, ' ').trim()}` });
    } else if (inList && /^\s/.test(line) && axioms.length > 0) {
      const last = axioms.pop()!;
      axioms.push({ name: last.name, entry: `${last.entry} ${line.replace(/\s+/g, ' ').trim()}` });
    } else {
      unknown.push(line);
    }
  }
  return { closed: false, axioms, flags, unknown };
}

/** `Check` output (`Candidate.foo\n     : type`) -> the type with blanks collapsed; null when it is not that shape. */
export function parseCheckedType(output: string): string | null {
  const m = /^\S+\s*\n\s+: ([\s\S]*)$/.exec(output.trim());
  return m === null ? null : m[1]!.replace(/\s+/g, ' ').trim();
}

/** `Print` output of a definition: its first paragraph (before `Arguments` and other notes), blanks collapsed. */
export function parsePrintedDefinition(output: string): string {
  const paragraph = output.trim().split(/\n\s*\n/)[0] ?? '';
  return paragraph.replace(/\s+/g, ' ').trim();
}
