/**
 * The token boundaries and the first statement of a SQL string exactly as `sqlparse` 0.4.2 (Debian bookworm's
 * `python3-sqlparse`) finds them, because Spider's test-suite evaluator decides with them what it executes:
 * `parse.remove_distinct(s)` keeps the tokens of `sqlparse.parse(s)[0]` (the FIRST statement only) whose value,
 * lower-cased, is not `distinct`. A faithful lexer is needed for that rule to agree with the reference on every
 * query: `DISTINCT` inside a string, a quoted name or a comment stays; `distinct` after a dot goes; a second
 * statement after `;` is dropped.
 *
 * Source of the rules: `sqlparse/keywords.py` (`SQL_REGEX`: ordered patterns, tried at each position; the first
 * that matches makes the token; none matching makes a one-character error token), `sqlparse/lexer.py`, and
 * `sqlparse/engine/statement_splitter.py` (statements end at a `;` at split level <= 0; parentheses raise and
 * lower the level, `END` lowers it, `CREATE ... BEGIN/DECLARE/IF/FOR/WHILE/CASE` raise it; whitespace and
 * single-line comments after the `;` stay with the statement, a newline starts the next). Python's `\w`, `\s`,
 * `\d` and `\b` are Unicode-aware, so the patterns below spell them out (`W`, `S`, `D`, `B`); the letter class
 * `[A-ZÀ-Ü]` under IGNORECASE is the explicit set Python matches (`L`). Tested against sqlparse itself
 * (test/kinds/sql/sqlparse-lexer.test.ts, fixtures made by running sqlparse).
 */

/** A token as the statement splitter classifies it (only the distinctions the splitter and `remove_distinct` use). */
export type SqlTokenType = 'comment_single' | 'comment_multi' | 'newline' | 'whitespace' | 'punctuation' | 'keyword'
  | 'ddl' | 'other';

/** One token: its type and its exact text. */
export interface SqlToken {
  readonly type: SqlTokenType;
  readonly value: string;
}

const W = '[\\p{L}\\p{N}_]';
const S = '[\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const NS = '[^\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const D = '\\p{Nd}';
const L = '[A-Za-z\\u00c0-\\u00dc\\u00e0-\\u00f6\\u00f8-\\u00fc\\u0130\\u0131\\u017f\\u212a\\u212b]';
/** Python's `\b` after a word character. */
const B = `(?!${W})`;
/** Python's `.` (anything but `\n`). */
const DOT = '[^\\n]';

/** Keyword words the statement splitter reacts to (sqlparse's `is_keyword` makes each a Keyword). */
const SPLITTER_KEYWORDS = new Set(['BEGIN', 'DECLARE', 'IF', 'FOR', 'WHILE']);

type Rule = readonly [RegExp, SqlTokenType | 'word'];

function rule(source: string, type: SqlTokenType | 'word'): Rule {
  return [new RegExp(source, 'iuy'), type];
}

/** `SQL_REGEX['root']` of sqlparse 0.4.2, in order. */
const RULES: readonly Rule[] = [
  rule(`(?:--|# )\\+${DOT}*?(?:\\r\\n|\\r|\\n|$)`, 'comment_single'),
  rule('/\\*\\+[\\s\\S]*?\\*/', 'comment_multi'),
  rule(`(?:--|# )${DOT}*?(?:\\r\\n|\\r|\\n|$)`, 'comment_single'),
  rule('/\\*[\\s\\S]*?\\*/', 'comment_multi'),
  rule('(?:\\r\\n|\\r|\\n)', 'newline'),
  rule(S, 'whitespace'),
  rule(':=', 'other'),
  rule('::', 'punctuation'),
  rule('\\*', 'other'),
  rule('`(?:``|[^`])*`', 'other'),
  rule('´(?:´´|[^´])*´', 'other'),
  rule(`((?<!${NS})\\$(?:[_A-Za-z\\u00c0-\\u00dc\\u00e0-\\u00f6\\u00f8-\\u00fc\\u0130\\u0131\\u017f\\u212a\\u212b]${W}*)?\\$)[\\s\\S]*?\\1`, 'other'),
  rule('\\?', 'other'),
  rule(`%(?:\\(${W}+\\))?s`, 'other'),
  rule(`(?<!${W})[$:?]${W}+`, 'other'),
  rule(`\\\\${W}+`, 'other'),
  rule(`(?:NOT${S}+)?IN${B}`, 'other'),
  rule(`(?:CASE|IN|VALUES|USING|FROM|AS)${B}`, 'keyword'),
  rule(`(?:@|##|#)${L}${W}+`, 'other'),
  rule(`${L}${W}*(?=${S}*\\.)`, 'other'),
  rule(`(?<=\\.)${L}${W}*`, 'other'),
  rule(`${L}${W}*(?=\\()`, 'other'),
  rule(`-?0x[${D}A-F]+`, 'other'),
  rule(`-?${D}+(?:\\.${D}+)?E-?${D}+`, 'other'),
  rule(`(?![_A-Za-z\\u00c0-\\u00dc\\u00e0-\\u00f6\\u00f8-\\u00fc\\u0130\\u0131\\u017f\\u212a\\u212b])-?(?:${D}+(?:\\.${D}*)|\\.${D}+)(?![_A-Za-z\\u00c0-\\u00dc\\u00e0-\\u00f6\\u00f8-\\u00fc\\u0130\\u0131\\u017f\\u212a\\u212b])`, 'other'),
  rule(`(?![_A-Za-z\\u00c0-\\u00dc\\u00e0-\\u00f6\\u00f8-\\u00fc\\u0130\\u0131\\u017f\\u212a\\u212b])-?${D}+(?![_A-Za-z\\u00c0-\\u00dc\\u00e0-\\u00f6\\u00f8-\\u00fc\\u0130\\u0131\\u017f\\u212a\\u212b])`, 'other'),
  rule("'(?:''|\\\\'|[^'])*'", 'other'),
  rule('"(?:""|\\\\"|[^"])*"', 'other'),
  rule(`(?:""|"${DOT}*?[^\\\\]")`, 'other'),
  rule('(?<![\\p{L}\\p{N}_\\])])(?:\\[[^\\]\\[]+\\])', 'other'),
  rule(`(?:(?:LEFT${S}+|RIGHT${S}+|FULL${S}+)?(?:INNER${S}+|OUTER${S}+|STRAIGHT${S}+)?|(?:CROSS${S}+|NATURAL${S}+)?)?JOIN${B}`, 'keyword'),
  rule(`END(?:${S}+IF|${S}+LOOP|${S}+WHILE)?${B}`, 'keyword'),
  rule(`NOT${S}+NULL${B}`, 'keyword'),
  rule(`NULLS${S}+(?:FIRST|LAST)${B}`, 'keyword'),
  rule(`UNION${S}+ALL${B}`, 'keyword'),
  rule(`CREATE(?:${S}+OR${S}+REPLACE)?${B}`, 'ddl'),
  rule(`DOUBLE${S}+PRECISION${B}`, 'other'),
  rule(`GROUP${S}+BY${B}`, 'keyword'),
  rule(`ORDER${S}+BY${B}`, 'keyword'),
  rule(`HANDLER${S}+FOR${B}`, 'keyword'),
  rule(`(?:LATERAL${S}+VIEW${S}+)(?:EXPLODE|INLINE|PARSE_URL_TUPLE|POSEXPLODE|STACK)${B}`, 'keyword'),
  rule(`(?:AT|WITH')${S}+TIME${S}+ZONE${S}+'[^']+'`, 'keyword'),
  rule(`(?:NOT${S}+)?(?:LIKE|ILIKE|RLIKE)${B}`, 'other'),
  rule(`[${D}_A-Za-z\\u00c0-\\u00dc\\u00e0-\\u00f6\\u00f8-\\u00fc\\u0130\\u0131\\u017f\\u212a\\u212b][_$#\\p{L}\\p{N}]*`, 'word'),
  rule('[;:()\\[\\],.]', 'punctuation'),
  rule('[<>=~!]+', 'other'),
  rule('[+/@#%^&|^-]+', 'other'),
];

/** The tokens of `sql` as sqlparse's lexer makes them (their values concatenate back to `sql`). */
export function sqlparseTokens(sql: string): SqlToken[] {
  const out: SqlToken[] = [];
  let pos = 0;
  while (pos < sql.length) {
    let matched = false;
    for (const [re, type] of RULES) {
      re.lastIndex = pos;
      const m = re.exec(sql);
      if (m === null || m[0].length === 0) continue;
      const value = m[0];
      const t: SqlTokenType = type === 'word' ? (SPLITTER_KEYWORDS.has(value.toUpperCase()) ? 'keyword' : 'other') : type;
      out.push({ type: t, value });
      pos += value.length;
      matched = true;
      break;
    }
    if (!matched) {
      const cp = sql.codePointAt(pos)!;
      const ch = String.fromCodePoint(cp);
      out.push({ type: 'other', value: ch });
      pos += ch.length;
    }
  }
  return out;
}

/** The statement splitter's state (`statement_splitter.py`). */
class Splitter {
  level = 0;
  private inDeclare = false;
  private isCreate = false;
  private beginDepth = 0;

  change(token: SqlToken): number {
    const { type, value } = token;
    if (type === 'punctuation' && value === '(') return 1;
    if (type === 'punctuation' && value === ')') return -1;
    if (type !== 'keyword' && type !== 'ddl') return 0;
    const unified = value.toUpperCase();
    if (type === 'ddl' && unified.startsWith('CREATE')) {
      this.isCreate = true;
      return 0;
    }
    if (unified === 'DECLARE' && this.isCreate && this.beginDepth === 0) {
      this.inDeclare = true;
      return 1;
    }
    if (unified === 'BEGIN') {
      this.beginDepth += 1;
      return this.isCreate ? 1 : 0;
    }
    if (unified === 'END') {
      this.beginDepth = Math.max(0, this.beginDepth - 1);
      return -1;
    }
    if (['IF', 'FOR', 'WHILE', 'CASE'].includes(unified) && this.isCreate && this.beginDepth > 0) return 1;
    if (['END IF', 'END FOR', 'END WHILE'].includes(unified)) return -1;
    return 0;
  }
}

/**
 * The tokens of `sqlparse.parse(sql)[0]`: the first statement, with the whitespace and single-line comments that
 * follow its `;` on the same line. Undefined when sqlparse finds no statement (empty or all-whitespace text:
 * there `parse(s)[0]` raises IndexError).
 */
export function firstStatementTokens(sql: string): SqlToken[] | undefined {
  const splitter = new Splitter();
  const tokens: SqlToken[] = [];
  let consumeWs = false;
  for (const token of sqlparseTokens(sql)) {
    if (consumeWs && token.type !== 'whitespace' && token.type !== 'comment_single') break;
    splitter.level += splitter.change(token);
    tokens.push(token);
    if (splitter.level <= 0 && token.type === 'punctuation' && token.value === ';') consumeWs = true;
  }
  if (tokens.every((t) => t.type === 'whitespace' || t.type === 'newline')) return undefined;
  return tokens;
}
