/**
 * The design check: what a submitted design (the untrusted file of a Verilog program) may contain, decided from
 * its tokens after its directives are interpreted (`./preprocess.ts`, `./sv-lexer.ts`), never by searching text
 * (comments and strings are whole tokens; `\RefModule` is `RefModule`; a macro is checked as expanded).
 *
 * Why: the design is compiled into one simulation with the trusted testbench and reference, and VerilogEval's own
 * rule accepts any `Mismatches: 0 in N samples` line. Measured on Debian's iverilog 11: 12 of 15 forged designs
 * pass it by ending the simulation at time 0, printing the line, forcing the testbench's counters through
 * hierarchical names, reading the reference's output or instantiating `RefModule`. A design here may:
 * - consist only of `module ... endmodule` declarations (no nesting; none named like a trusted module, nor
 *   `crucible_...`), and must declare the modules the problem requires (`TopModule`);
 * - call only the side-effect-free system functions of `ALLOWED_SYSTEM_FUNCTIONS` (no `$display`, `$fdisplay`,
 *   `$write`, `$finish`, `$stop`, `$fatal`, `$error`, `$value$plusargs`, `$test$plusargs`, `$fopen`, `$readmemh`,
 *   `$system`, `$random`, `$dumpvars`, `$root`, ...); a lone `$` is refused with them;
 * - not use `final`, `force`, `release`, `bind`, `alias`, DPI `import`/`export`, classes, programs, interfaces,
 *   packages, assertions, `specify`, bidirectional switches (`tran`...), `randcase`, or `::` scopes
 *   (`FORBIDDEN_KEYWORDS`);
 * - not reach outside itself: the head of a hierarchical name (`x.y`, `x[0].y`), the target of `disable` or of
 *   an event trigger (`->`) may not be a name that occurs in the trusted files, and no name may be one of their
 *   tasks or functions. Upward name resolution (IEEE 1800-2017 §23.8) can only find names declared by the
 *   trusted side (the wrapper, the testbench) or top-level module names, so a design that uses none of them as
 *   such cannot read or write the testbench; the trusted modules are moreover renamed with a per-judgement secret
 *   (`./verilog-eval.ts`), so they cannot be named from outside even by a path.
 */
import { DirectiveError, preprocessDesign } from './preprocess.js';
import { readModules, type ModuleInfo } from './ports.js';
import { SvLexError, tokenize, type SvToken } from './sv-lexer.js';

/** System functions a design may call: pure functions of their arguments (and `$time`). */
export const ALLOWED_SYSTEM_FUNCTIONS: ReadonlySet<string> = new Set(['$signed', '$unsigned', '$clog2', '$bits', '$size',
  '$left', '$right', '$low', '$high', '$increment', '$dimensions', '$unpacked_dimensions', '$countones', '$countbits',
  '$onehot', '$onehot0', '$isunknown', '$ln', '$log10', '$exp', '$sqrt', '$pow', '$floor', '$ceil', '$sin', '$cos',
  '$tan', '$asin', '$acos', '$atan', '$atan2', '$hypot', '$sinh', '$cosh', '$tanh', '$asinh', '$acosh', '$atanh',
  '$itor', '$rtoi', '$bitstoreal', '$realtobits', '$shortrealtobits', '$bitstoshortreal', '$time', '$stime', '$realtime']);

/** Keywords a design may not use (module comment), with what they would let it do. */
export const FORBIDDEN_KEYWORDS: ReadonlyMap<string, string> = new Map([
  ['final', 'runs code when the simulation ends (it could print the verdict line)'],
  ['force', 'overrides another signal'], ['release', 'overrides another signal'],
  ['bind', 'attaches code to other modules'], ['alias', 'joins nets together'],
  ['import', 'imports packages or DPI functions'], ['export', 'exports DPI functions'], ['extern', 'declares outside code'],
  ['program', 'is a testbench construct'], ['class', 'is a testbench construct'], ['interface', 'is not a design construct here'],
  ['package', 'is not a design construct here'], ['primitive', 'is not accepted'], ['config', 'configures the elaboration'],
  ['checker', 'is a verification construct'], ['covergroup', 'is a verification construct'],
  ['property', 'is a verification construct'], ['sequence', 'is a verification construct'],
  ['assert', 'prints on failure'], ['assume', 'prints on failure'], ['cover', 'prints'], ['restrict', 'is a verification construct'],
  ['expect', 'prints on failure'], ['specify', 'is not accepted'], ['randcase', 'draws from the testbench\'s random stream'],
  ['randsequence', 'draws from the testbench\'s random stream'], ['virtual', 'is a testbench construct'],
  ['new', 'is a testbench construct'], ['this', 'is a testbench construct'], ['super', 'is a testbench construct'],
  ['clocking', 'is a testbench construct'],
  ['tran', 'connects nets both ways'], ['tranif0', 'connects nets both ways'], ['tranif1', 'connects nets both ways'],
  ['rtran', 'connects nets both ways'], ['rtranif0', 'connects nets both ways'], ['rtranif1', 'connects nets both ways'],
]);

/** Why a system name is refused, for the common ones (the rest: "is not a side-effect-free function"). */
const SYSTEM_REASONS: Readonly<Record<string, string>> = {
  $display: 'prints', $displayb: 'prints', $displayh: 'prints', $displayo: 'prints', $write: 'prints', $strobe: 'prints',
  $monitor: 'prints', $fdisplay: 'writes to files', $fwrite: 'writes to files', $fopen: 'opens files',
  $finish: 'ends the simulation', $stop: 'ends the simulation', $fatal: 'ends the simulation', $error: 'prints',
  $warning: 'prints', $info: 'prints', '$value$plusargs': 'reads the command line', '$test$plusargs': 'reads the command line',
  $readmemh: 'reads files', $readmemb: 'reads files', $system: 'runs programs', $random: 'draws from the testbench\'s random stream',
  $urandom: 'draws from the testbench\'s random stream', $urandom_range: 'draws from the testbench\'s random stream',
  $dumpfile: 'writes files', $dumpvars: 'writes files', $root: 'names the testbench', $unit: 'names the compilation unit',
};

/** What the trusted files of a problem name (see `trustedNamesOf`). */
export interface TrustedNames {
  /** Every identifier of the trusted files. */
  readonly identifiers: ReadonlySet<string>;
  /** Names of their tasks and functions. */
  readonly callables: ReadonlySet<string>;
  /** Names of their modules. */
  readonly modules: ReadonlySet<string>;
}

/** The names of the trusted files' texts (testbench, reference, wrapper). @throws SvLexError. */
export function trustedNamesOf(sources: readonly string[]): TrustedNames {
  const identifiers = new Set<string>();
  const callables = new Set<string>();
  const modules = new Set<string>();
  for (const source of sources) {
    const tokens = tokenize(source).filter((t) => t.kind !== 'directive');
    for (const t of tokens) if (t.kind === 'identifier') identifiers.add(t.name);
    tokens.forEach((t, i) => {
      if (t.kind !== 'keyword') return;
      if (t.text === 'task' || t.text === 'function') {
        // The name is the last identifier before the argument list or the header's `;`.
        let name: string | undefined;
        for (let k = i + 1; k < tokens.length && tokens[k]!.text !== '(' && tokens[k]!.text !== ';'; k++) {
          if (tokens[k]!.kind === 'identifier') name = tokens[k]!.name;
        }
        if (name !== undefined) callables.add(name);
      }
      if ((t.text === 'module' || t.text === 'macromodule') && tokens[i + 1]?.kind === 'identifier') modules.add(tokens[i + 1]!.name);
    });
  }
  return { identifiers, callables, modules };
}

/** What the check needs besides the design. */
export interface DesignPolicy {
  /** Modules the design must declare (`TopModule`). */
  readonly requiredModules: readonly string[];
  readonly trusted: TrustedNames;
}

/** The check's answer: the text to compile and the design's modules, or why the design is refused. */
export type DesignCheck =
  | { readonly ok: true; readonly expanded: string; readonly modules: readonly ModuleInfo[] }
  | { readonly ok: false; readonly reason: string };

/** Names reserved for Crucible's own modules and wires. */
export const RESERVED_PREFIX = 'crucible_';

const refuse = (line: number, what: string): DesignCheck => ({ ok: false, reason: `line ${line}: ${what}` });

/** Whether `tokens[i]` heads a hierarchical or member name: `x.` or `x[...]...[...].`, not itself after a `.`. */
function headsDottedName(tokens: readonly SvToken[], i: number): boolean {
  if (tokens[i - 1]?.text === '.') return false;
  let k = i + 1;
  while (tokens[k]?.text === '[') {
    let depth = 0;
    for (; k < tokens.length; k++) {
      if (tokens[k]!.text === '[') depth++;
      else if (tokens[k]!.text === ']' && --depth === 0) break;
    }
    k++;
  }
  return tokens[k]?.text === '.';
}

/** One token inside a module (module comment); undefined when it is fine. */
function checkToken(tokens: readonly SvToken[], i: number, policy: DesignPolicy): DesignCheck | undefined {
  const t = tokens[i]!;
  if (t.kind === 'system' && !ALLOWED_SYSTEM_FUNCTIONS.has(t.text)) {
    return refuse(t.line, `${t.text} ${SYSTEM_REASONS[t.text] ?? 'is not a side-effect-free function'}: a design may not use it`);
  }
  if (t.kind === 'operator' && t.text === '$') return refuse(t.line, 'a lone $ is not accepted in a design');
  if (t.kind === 'operator' && t.text === '::') return refuse(t.line, ':: scopes are not accepted in a design');
  if (t.kind === 'keyword') {
    const why = FORBIDDEN_KEYWORDS.get(t.text);
    if (why !== undefined) return refuse(t.line, `\`${t.text}\` ${why}: a design may not use it`);
    if ((t.text === 'disable') && tokens[i + 1]?.kind === 'identifier' && policy.trusted.identifiers.has(tokens[i + 1]!.name)) {
      return refuse(t.line, `disable ${tokens[i + 1]!.name}: the name is the testbench's`);
    }
    return undefined;
  }
  if (t.kind === 'operator' && (t.text === '->' || t.text === '->>') && tokens[i + 1]?.kind === 'identifier'
    && policy.trusted.identifiers.has(tokens[i + 1]!.name)) {
    return refuse(t.line, `${t.text} ${tokens[i + 1]!.name}: the event is the testbench's`);
  }
  if (t.kind !== 'identifier') return undefined;
  if (policy.trusted.modules.has(t.name) && !policy.requiredModules.includes(t.name)) return refuse(t.line, `\`${t.name}\` names a trusted module (the testbench or the reference)`);
  if (t.name.startsWith(RESERVED_PREFIX)) return refuse(t.line, `\`${t.name}\`: names starting with ${RESERVED_PREFIX} are Crucible's`);
  if (policy.trusted.callables.has(t.name) && tokens[i - 1]?.text !== '.') {
    return refuse(t.line, `\`${t.name}\` is a task or function of the testbench`);
  }
  if (headsDottedName(tokens, i) && policy.trusted.identifiers.has(t.name)) {
    return refuse(t.line, `\`${t.name}.…\` reaches outside the design by a hierarchical name (\`${t.name}\` is the testbench's or the reference's)`);
  }
  return undefined;
}

/** Check a design (module comment). Never throws on bad designs: they are refused with a reason and a line. */
export function checkDesign(source: string, policy: DesignPolicy): DesignCheck {
  let expanded: string;
  let tokens: SvToken[];
  try {
    expanded = preprocessDesign(source);
    tokens = tokenize(expanded);
  } catch (error) {
    if (error instanceof DirectiveError || error instanceof SvLexError) return { ok: false, reason: error.message };
    throw error;
  }
  const code = tokens.filter((t) => t.kind !== 'directive' && t.kind !== 'comment');
  const stray = tokens.find((t) => t.kind === 'directive' && !/^`(timescale|default_nettype)$/.test(t.text));
  if (stray !== undefined) return refuse(stray.line, `directive ${stray.text} is not accepted in a design`);
  const names = new Set<string>();
  let k = 0;
  while (k < code.length) {
    const t = code[k]!;
    if (t.kind === 'operator' && t.text === ';') { k++; continue; }
    if (t.kind !== 'keyword' || (t.text !== 'module' && t.text !== 'macromodule')) {
      return refuse(t.line, `\`${t.text}\` outside a module: a design holds only module declarations`);
    }
    let e = k + 1;
    for (; e < code.length; e++) {
      const x = code[e]!;
      if (x.kind === 'keyword' && x.text === 'endmodule') break;
      if (x.kind === 'keyword' && (x.text === 'module' || x.text === 'macromodule')) return refuse(x.line, 'nested module declarations are not accepted');
      const bad = checkToken(code, e, policy);
      if (bad !== undefined) return bad;
    }
    if (e >= code.length) return refuse(t.line, 'module without endmodule');
    let n = k + 1;
    while (code[n]?.kind === 'keyword' && (code[n]!.text === 'automatic' || code[n]!.text === 'static')) n++;
    const nameToken = code[n];
    if (nameToken?.kind !== 'identifier') return refuse(t.line, 'module without a name');
    if (names.has(nameToken.name)) return refuse(nameToken.line, `module ${nameToken.name} is declared twice`);
    names.add(nameToken.name);
    k = e + 1;
  }
  const missing = policy.requiredModules.filter((m) => !names.has(m));
  if (missing.length > 0) return { ok: false, reason: `the design declares no module ${missing.join(', ')}` };
  return { ok: true, expanded, modules: readModules(code) };
}
