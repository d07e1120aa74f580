/**
 * problemtools' default output validator, as Crucible's own code (Kattis/problemtools
 * `support/default_validator/default_validator.cc`, read for its rules; no code taken). It is the judge's trusted
 * comparison, so it runs here, not in a box.
 *
 * Rules: both texts are split into tokens at C `isspace` bytes (space, `\t`, `\n`, `\v`, `\f`, `\r`) and compared in
 * order; tokens compare case-insensitively (ASCII, `strcasecmp`) unless `case_sensitive`. With
 * `space_change_sensitive` every run of whitespace between, before and after the tokens must be byte-identical too.
 * With a float tolerance (`float_tolerance e` sets both, `float_absolute_tolerance e`, `float_relative_tolerance e`),
 * an answer token that is a finite C float (`sscanf("%lf")` consuming the whole token: decimal or hexadecimal, with
 * an exponent or not; not `inf`/`nan`, nor a value that overflows) requires an output token that is one too, within
 * the absolute OR the relative tolerance (`|a - o| <= abs` or `|a - o| <= rel * |a|`); an answer token that is not a
 * float compares as a string. Output left after the answer's last token is wrong ("Trailing output"). An unknown
 * flag, or a tolerance that is not a float, is the validator's (the problem's) error.
 * Texts are compared as bytes (each UTF-8 byte one character).
 */

/** The default validator's options, from its arguments. */
export interface DefaultValidatorFlags {
  readonly caseSensitive: boolean;
  readonly spaceChangeSensitive: boolean;
  /** -1: not set. */
  readonly absTol: number;
  /** -1: not set. */
  readonly relTol: number;
}

/** What the default validator decided: accepted, wrong (with its message), or a judge error (bad flags). */
export type DefaultValidatorResult =
  | { readonly verdict: 'AC' }
  | { readonly verdict: 'WA'; readonly message: string }
  | { readonly verdict: 'JE'; readonly message: string };

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const HEXADECIMAL = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?\d+))?$/;

/** The token's value when C's `sscanf("%lf%10s")` reads exactly one finite double from it (module comment), else undefined. */
export function cFloat(token: string): number | undefined {
  let value: number;
  if (DECIMAL.test(token)) {
    value = Number(token);
  } else {
    const hex = HEXADECIMAL.exec(token);
    if (hex === null || (hex[2] === '' && (hex[3] ?? '') === '')) return undefined;
    const digits = `${hex[2]}${hex[3] ?? ''}`;
    let mantissa = 0;
    for (const d of digits) mantissa = mantissa * 16 + parseInt(d, 16);
    value = mantissa * 2 ** (Number(hex[4] ?? '0') - 4 * (hex[3] ?? '').length) * (hex[1] === '-' ? -1 : 1);
  }
  return Number.isFinite(value) ? value : undefined;
}

/** Parse the validator's arguments (module comment). */
export function parseDefaultValidatorFlags(args: readonly string[]): DefaultValidatorFlags | { readonly error: string } {
  let caseSensitive = false;
  let spaceChangeSensitive = false;
  let absTol = -1;
  let relTol = -1;
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    if (flag === 'case_sensitive') caseSensitive = true;
    else if (flag === 'space_change_sensitive') spaceChangeSensitive = true;
    else if (flag === 'float_tolerance' || flag === 'float_absolute_tolerance' || flag === 'float_relative_tolerance') {
      const value = args[i + 1] === undefined ? undefined : cFloat(args[i + 1]!);
      if (value === undefined) return { error: `the default validator's ${flag} needs a number, got ${JSON.stringify(args[i + 1] ?? '')}` };
      i++;
      if (flag !== 'float_relative_tolerance') absTol = value;
      if (flag !== 'float_absolute_tolerance') relTol = value;
    } else {
      return { error: `the default validator has no flag ${JSON.stringify(flag)}` };
    }
  }
  return { caseSensitive, spaceChangeSensitive, absTol, relTol };
}

/** C's `isspace` in the C locale. */
function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r';
}

/** A text read token by token, counting lines as the validator's messages do. */
class Reader {
  at = 0;
  line = 1;
  constructor(readonly text: string) {}
  peekSpace(): boolean {
    return this.at < this.text.length && isSpace(this.text[this.at]!);
  }
  get(): string | undefined {
    if (this.at >= this.text.length) return undefined;
    const c = this.text[this.at++]!;
    if (c === '\n') this.line++;
    return c;
  }
  token(): string | undefined {
    while (this.peekSpace()) this.get();
    const start = this.at;
    while (this.at < this.text.length && !isSpace(this.text[this.at]!)) this.at++;
    return this.at > start ? this.text.slice(start, this.at) : undefined;
  }
}

/** `text` with A-Z lowered and nothing else changed (`strcasecmp` in the C locale). */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

/** At most 30 characters of a token for a message. */
function cut(token: string): string {
  return token.length <= 35 ? token : `${token.slice(0, 30)}...`;
}

/**
 * Judge `output` against `answer` with the default validator's rules (module comment). Texts are the bytes as
 * strings (latin1: one character per byte).
 */
export function defaultValidate(answer: string, output: string, args: readonly string[]): DefaultValidatorResult {
  const flags = parseDefaultValidatorFlags(args);
  if ('error' in flags) return { verdict: 'JE', message: flags.error };
  const judge = new Reader(answer);
  const user = new Reader(output);
  const useFloats = flags.absTol >= 0 || flags.relTol >= 0;
  const wrong = (why: string): DefaultValidatorResult => ({ verdict: 'WA',
    message: `wrong answer on line ${user.line} of output (line ${judge.line} of the answer): ${why}` });
  for (let token = 0; ; token++) {
    while (judge.peekSpace()) {
      const c = judge.get()!;
      if (flags.spaceChangeSensitive) {
        const d = user.get();
        if (c !== d) return wrong(`space change error: got ${d === undefined ? 'end of output' : JSON.stringify(d)}, expected ${JSON.stringify(c)}`);
      }
    }
    while (user.peekSpace()) {
      const d = user.get()!;
      if (flags.spaceChangeSensitive) return wrong(`space change error: judge out of space, got ${JSON.stringify(d)} from user`);
    }
    const expected = judge.token();
    if (expected === undefined) break;
    const got = user.token();
    if (got === undefined) {
      return wrong(token === 0 ? `the output is empty or only whitespace (next answer token: ${cut(expected)})`
        : `output ended while the answer had more (next answer token: ${cut(expected)})`);
    }
    const expectedValue = useFloats ? cFloat(expected) : undefined;
    if (expectedValue !== undefined) {
      const gotValue = cFloat(got);
      if (gotValue === undefined) return wrong(`expected a float, got ${cut(got)}`);
      const diff = Math.abs(expectedValue - gotValue);
      if (!(diff <= flags.absTol) && !(diff <= flags.relTol * Math.abs(expectedValue))) {
        return wrong(`too large a difference: answer ${cut(expected)}, output ${cut(got)} (absolute error ${diff})`);
      }
    } else if (flags.caseSensitive ? expected !== got : asciiLower(expected) !== asciiLower(got)) {
      return wrong(`tokens differ: answer "${cut(expected)}", output "${cut(got)}"`);
    }
  }
  const trailing = user.token();
  if (trailing !== undefined) return wrong(`trailing output: ${cut(trailing)}`);
  return { verdict: 'AC' };
}
