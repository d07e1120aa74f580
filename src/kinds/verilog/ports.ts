/**
 * The modules of a Verilog/SystemVerilog text and their ports, from its tokens (`./sv-lexer.ts`): each
 * `module NAME [#(...)] [(ports)]; ... endmodule` with its parameters' default values and, per port, its
 * direction, signedness and packed dimensions (ANSI headers, and non-ANSI ones whose directions are declared in
 * the body, IEEE 1800-2017 §23.2). Widths are evaluated when the dimensions are constant expressions of numbers
 * and parameters (`+ - * / % ** << >>`, parentheses, `$clog2`); otherwise `width` is undefined.
 */
import { tokenize, type SvToken } from './sv-lexer.js';

/** A port's direction. */
export type PortDirection = 'input' | 'output' | 'inout';

/** One port. `dims` are the packed dimensions as written (`[7:0]`), outermost first. */
export interface Port {
  readonly name: string;
  readonly direction: PortDirection;
  readonly signed: boolean;
  readonly dims: readonly string[];
  /** Total bits when the dimensions evaluate; 1 without dimensions. */
  readonly width: number | undefined;
}

/** One module: its name, parameters (name -> default text), ports in header order, token range. */
export interface ModuleInfo {
  readonly name: string;
  readonly line: number;
  readonly parameterHeader: string | undefined;
  readonly parameters: ReadonlyMap<string, string>;
  readonly ports: readonly Port[];
  /** Index of the `module` token and of its `endmodule` in the token list. */
  readonly start: number;
  readonly end: number;
}

/** The index of the token closing the bracket opened at `i` (`(`, `[`, `{`, `'{`), or tokens.length. */
export function matching(tokens: readonly SvToken[], i: number): number {
  let depth = 0;
  for (let k = i; k < tokens.length; k++) {
    const t = tokens[k]!.text;
    if (tokens[k]!.kind !== 'operator') continue;
    if (t === '(' || t === '[' || t === '{' || t === "'{") depth++;
    else if (t === ')' || t === ']' || t === '}') {
      depth--;
      if (depth === 0) return k;
    }
  }
  return tokens.length;
}

const text = (ts: readonly SvToken[]): string => ts.map((t) => t.text).join(' ');

/**
 * Evaluate a constant expression's tokens with `params` (integers; `+ - * / % ** << >>`, unary minus, parentheses,
 * `$clog2(x)`); undefined when it is not one this knows.
 */
export function evaluateConstant(tokens: readonly SvToken[], params: ReadonlyMap<string, string>, depth = 0): number | undefined {
  if (depth > 16) return undefined;
  let k = 0;
  const peek = (): string | undefined => tokens[k]?.text;
  const fail = (): never => { throw new RangeError('not a constant'); };
  const binary = (ops: readonly string[], next: () => number, apply: (op: string, a: number, b: number) => number) => (): number => {
    let v = next();
    while (ops.includes(peek() ?? '')) {
      const op = tokens[k++]!.text;
      v = apply(op, v, next());
    }
    return v;
  };
  const primary = (): number => {
    const t = tokens[k++] ?? fail();
    if (t.text === '(') {
      const v = shift();
      if (tokens[k++]?.text !== ')') fail();
      return v;
    }
    if (t.text === '-') return -primary();
    if (t.text === '+') return primary();
    if (t.kind === 'number') return numberValue(t.text) ?? fail();
    if (t.kind === 'system' && t.text === '$clog2') {
      if (tokens[k++]?.text !== '(') fail();
      const x = shift();
      if (tokens[k++]?.text !== ')') fail();
      return x <= 1 ? 0 : Math.ceil(Math.log2(x));
    }
    if (t.kind === 'identifier') {
      const v = params.get(t.name) ?? fail();
      return evaluateConstant(tokenize(v), params, depth + 1) ?? fail();
    }
    return fail();
  };
  const power = (): number => {
    const base = primary();
    if (peek() !== '**') return base;
    k++;
    return base ** power();
  };
  const product = binary(['*', '/', '%'], power, (op, a, b) => {
    if ((op === '/' || op === '%') && b === 0) fail();
    return op === '*' ? a * b : op === '/' ? Math.trunc(a / b) : a % b;
  });
  const sum = binary(['+', '-'], product, (op, a, b) => (op === '+' ? a + b : a - b));
  const shift = binary(['<<', '>>'], sum, (op, a, b) => (op === '<<' ? a * 2 ** b : Math.floor(a / 2 ** b)));
  try {
    const v = shift();
    return k === tokens.length && Number.isSafeInteger(v) ? v : undefined;
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/** The value of a Verilog number literal (sized or not, bases b/o/d/h), undefined with x/z digits. */
export function numberValue(literal: string): number | undefined {
  const clean = literal.replace(/[_\s]/g, '');
  const based = /^(\d*)'[sS]?([bBoOdDhH])([0-9a-fA-F]+)$/.exec(clean);
  if (based !== null) {
    const radix = { b: 2, o: 8, d: 10, h: 16 }[based[2]!.toLowerCase() as 'b' | 'o' | 'd' | 'h'];
    const v = parseInt(based[3]!, radix);
    return Number.isNaN(v) ? undefined : v;
  }
  if (/^\d+$/.test(clean)) return Number(clean);
  return undefined;
}

/** Parse `name = value, name = value` parameter lists into the map (values as text). */
function readParameters(tokens: readonly SvToken[], into: Map<string, string>): void {
  let k = 0;
  while (k < tokens.length) {
    const t = tokens[k]!;
    if (t.kind === 'identifier' && tokens[k + 1]?.text === '=') {
      let e = k + 2;
      while (e < tokens.length && tokens[e]!.text !== ',') {
        if (['(', '[', '{'].includes(tokens[e]!.text)) e = matching(tokens, e);
        e++;
      }
      into.set(t.name, text(tokens.slice(k + 2, e)));
      k = e + 1;
      continue;
    }
    k++;
  }
}

const DIRECTIONS = new Set(['input', 'output', 'inout']);

interface PortDraft {
  name: string;
  direction?: PortDirection;
  signed: boolean;
  dims: string[];
  dimTokens: SvToken[][];
}

/** Read one ANSI port list or body declaration run: `[dir] [type] [signed] [dims] name [, name]`. */
function readDeclarations(tokens: readonly SvToken[], drafts: Map<string, PortDraft>, order: string[], ansi: boolean): void {
  let direction: PortDirection | undefined;
  let signed = false;
  let dims: SvToken[][] = [];
  let k = 0;
  while (k < tokens.length) {
    const t = tokens[k]!;
    if (t.kind === 'keyword' && DIRECTIONS.has(t.text)) {
      direction = t.text as PortDirection;
      signed = false;
      dims = [];
    } else if (t.kind === 'keyword' && t.text === 'signed') {
      signed = true;
    } else if (t.text === '[') {
      const e = matching(tokens, k);
      dims.push(tokens.slice(k, e + 1) as SvToken[]);
      k = e + 1;
      continue;
    } else if (t.kind === 'identifier') {
      const next = tokens[k + 1];
      if (next === undefined || next.text === ',' || next.text === '=' || next.text === '[' || next.text === ')') {
        const existing = drafts.get(t.name);
        const draft: PortDraft = existing ?? { name: t.name, signed: false, dims: [], dimTokens: [] };
        if (direction !== undefined) draft.direction = direction;
        draft.signed = draft.signed || signed;
        if (dims.length > 0) {
          draft.dims = dims.map((d) => text(d).replace(/\s+/g, ''));
          draft.dimTokens = dims;
        }
        if (existing === undefined && ansi) {
          drafts.set(t.name, draft);
          order.push(t.name);
        }
        // Skip an unpacked dimension or a default value up to the next comma.
        let e = k + 1;
        while (e < tokens.length && tokens[e]!.text !== ',') {
          if (['(', '[', '{'].includes(tokens[e]!.text)) e = matching(tokens, e);
          e++;
        }
        k = e + 1;
        continue;
      }
    }
    k++;
  }
}

function widthOf(draft: PortDraft, params: ReadonlyMap<string, string>): number | undefined {
  let width = 1;
  for (const d of draft.dimTokens) {
    const inner = d.slice(1, -1);
    const colon = inner.findIndex((t) => t.text === ':');
    if (colon < 0) return undefined;
    const hi = evaluateConstant(inner.slice(0, colon), params);
    const lo = evaluateConstant(inner.slice(colon + 1), params);
    if (hi === undefined || lo === undefined) return undefined;
    width *= Math.abs(hi - lo) + 1;
  }
  return width;
}

/** One module from its `module` token at `start` (module comment). */
function readModule(tokens: readonly SvToken[], start: number, end: number): ModuleInfo {
  let k = start + 1;
  while (tokens[k]?.kind === 'keyword' && (tokens[k]!.text === 'automatic' || tokens[k]!.text === 'static')) k++;
  const nameToken = tokens[k]!;
  k++;
  const params = new Map<string, string>();
  let parameterHeader: string | undefined;
  if (tokens[k]?.text === '#' && tokens[k + 1]?.text === '(') {
    const e = matching(tokens, k + 1);
    parameterHeader = text(tokens.slice(k, e + 1));
    readParameters(tokens.slice(k + 2, e), params);
    k = e + 1;
  }
  const drafts = new Map<string, PortDraft>();
  const order: string[] = [];
  if (tokens[k]?.text === '(') {
    const e = matching(tokens, k);
    const inside = tokens.slice(k + 1, e);
    if (inside.some((t) => t.kind === 'keyword' && DIRECTIONS.has(t.text))) readDeclarations(inside, drafts, order, true);
    else for (const t of inside) if (t.kind === 'identifier') { drafts.set(t.name, { name: t.name, signed: false, dims: [], dimTokens: [] }); order.push(t.name); }
    k = e + 1;
  }
  // Body: parameters, and the direction declarations of a non-ANSI header.
  for (let b = k; b < end; b++) {
    const t = tokens[b]!;
    if (t.kind !== 'keyword') continue;
    if (t.text === 'parameter' || t.text === 'localparam' || DIRECTIONS.has(t.text)) {
      let e = b;
      while (e < end && tokens[e]!.text !== ';') e++;
      if (t.text === 'parameter' || t.text === 'localparam') readParameters(tokens.slice(b + 1, e), params);
      else readDeclarations(tokens.slice(b, e), drafts, order, false);
      b = e;
    } else if (t.text === 'function' || t.text === 'task') {
      // Arguments of functions and tasks are not ports.
      const close = tokens.findIndex((x, i) => i > b && x.kind === 'keyword' && x.text === (t.text === 'function' ? 'endfunction' : 'endtask'));
      if (close > 0) b = close;
    }
  }
  const ports = order.map((name): Port => {
    const d = drafts.get(name)!;
    return { name, direction: d.direction ?? 'inout', signed: d.signed, dims: d.dims, width: widthOf(d, params) };
  });
  return { name: nameToken.name, line: nameToken.line, parameterHeader, parameters: params, ports, start, end };
}

/** Every top-level module of `tokens` (comments dropped), in order. */
export function readModules(tokens: readonly SvToken[]): ModuleInfo[] {
  const out: ModuleInfo[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind !== 'keyword' || (t.text !== 'module' && t.text !== 'macromodule')) continue;
    let e = k + 1;
    while (e < tokens.length && !(tokens[e]!.kind === 'keyword' && tokens[e]!.text === 'endmodule')) e++;
    out.push(readModule(tokens, k, e));
    k = e;
  }
  return out;
}

/** The modules of a source text (tokenized here; directives are skipped as tokens). */
export function modulesOf(source: string): ModuleInfo[] {
  return readModules(tokenize(source).filter((t) => t.kind !== 'directive'));
}
