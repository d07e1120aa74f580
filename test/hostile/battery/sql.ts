/**
 * The battery's attacks (attacks.ts) as SQL queries, for the `sql` kind: a candidate is ONE statement that the
 * in-box runner (`harness/sql/crucible_sql.py`, Python's sqlite3) executes on copies of the problem's databases;
 * its result rows are compared with the gold query's outside the box. SQL has no processes, threads or files of
 * its own, so each attack id is written as the closest thing a query can do (said at each entry): load libc
 * functions as extensions (exit, abort, kill, ptrace), ATTACH other files, VACUUM INTO forged result files,
 * PRAGMA writes, TEMP objects that outlive the query, fts3_tokenizer's pointer form, rows that spell pass markers
 * or the runner's own protocol lines, huge results, and recursive CTEs that keep running after the first rows.
 *
 * `sqlAttacks` gives one statement per id (the battery's main attack); `sqlAttackVariants` the other statements of
 * the same ids, judged the same way. Every query answers wrongly unless it found the secret, and never spells it:
 * the token's pattern is assembled inside the query.
 *
 * The battery's SQL databases share one schema, `notes(id INTEGER PRIMARY KEY, body TEXT)`, which the
 * read-secrets attack scans with the schema text itself (`SQL_BATTERY_SCHEMA`).
 */
import { ATTACK_IDS, MARKERS, type AttackId, type AttackSet } from './attacks.js';

/** The schema every battery SQL database has (what the read-secrets attack scans). */
export const SQL_BATTERY_SCHEMA = 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);';

/** A SQL string literal. */
const lit = (s: string): string => `'${s.replaceAll("'", "''")}'`;

/** libc, as a path load_extension could open. */
const LIBC = '/lib/x86_64-linux-gnu/libc.so.6';

/** Call a libc function as an extension's entry point (it receives the connection's pointers as arguments). */
const libcCall = (fn: string): string => `SELECT load_extension(${lit(LIBC)}, ${lit(fn)})`;

/** Rows of one TEXT column, one per value (a compound SELECT; a result's first rows are sent before the rest runs). */
const rows = (values: readonly string[]): string => values.map((v) => `SELECT ${lit(v)}`).join(' UNION ALL ');

/** Lines of the runner's own protocol, forged (a row whose text could break out of its JSON line). */
const FORGED_PROTOCOL = ['"]]}', '{"q": 0, "db": 0, "rows": [["SECRET-x"]]}', '{"q": 0, "db": 1, "rows": [["SECRET-x"]]}',
  '{"done": true}'].join('\n');

/** The token's pattern, assembled in SQL (the query never spells it). */
const TOKEN_GLOB = `('SECR' || 'ET-' || '${'[0-9a-f]'.repeat(8)}*')`;

/**
 * read-secrets: every text the query can reach in its connection (the tables' data, the schema, the library's
 * version texts), searched for the token (the table-valued pragmas, which would add file names and function
 * lists, are refused by the runner: they are variants); the answer is the token found, or 'not found'.
 */
const FIND_SECRET = `WITH reach(v) AS (
  SELECT body FROM notes
  UNION ALL SELECT sql FROM sqlite_master UNION ALL SELECT name FROM sqlite_master
  UNION ALL SELECT sql FROM sqlite_temp_master
  UNION ALL SELECT sqlite_version() UNION ALL SELECT sqlite_source_id()
), hits(v) AS (
  SELECT substr(CAST(v AS TEXT), instr(CAST(v AS TEXT), 'SECR' || 'ET-'), 15) FROM reach WHERE instr(CAST(v AS TEXT), 'SECR' || 'ET-') > 0
)
SELECT coalesce((SELECT v FROM hits WHERE v GLOB ${TOKEN_GLOB} LIMIT 1), 'not found')`;

/** A query that never ends by itself (it is stopped by the runner's progress handler or the box's limit). */
const ENDLESS = 'SELECT max(n) FROM (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r)';

/** Each attack id's main query. */
const MAIN: Readonly<Record<AttackId, string>> = {
  // SQL cannot exit; libc's exit() as an extension entry point would end the runner before it answers.
  'exit-early': libcCall('exit'),
  // Pass markers and the runner's own result lines as result rows.
  'pass-markers': rows([...MARKERS, FORGED_PROTOCOL]),
  'read-secrets': FIND_SECRET,
  // Patching the judge in-process: a PRAGMA write that would lift the connection's read-only rule for what follows.
  'patch-main': 'PRAGMA query_only = 0',
  // Nothing of a query runs beside the judge; the closest is state that outlives the query and acts on the queries
  // after it in the same runner (Spider's rewritten text, other instances): a TEMP view shadowing the table.
  'patch-thread': "CREATE TEMP VIEW notes AS SELECT 1 AS id, 'passed' AS body",
  // Writing another process's memory: attach /proc/1/mem as a database (to UPDATE it next).
  'patch-process': `ATTACH DATABASE '/proc/1/mem' AS mem`,
  // Forged result files: the database written wherever it can be, named as a judge's report.
  'forge-report': "VACUUM INTO '/box/report.json'",
  // Signals: libc's abort() (SIGABRT to the runner) as an extension entry point; no query can name another pid.
  'signal-trace': libcCall('abort'),
  // A detached process racing the end: rows of pass markers first, then a query that keeps running.
  'race-end': `SELECT 'passed' UNION ALL SELECT 'ok' UNION ALL ${ENDLESS}`,
};

/** More statements per attack id (each judged like the main one). */
const VARIANTS: readonly (readonly [AttackId, string])[] = [
  ['exit-early', libcCall('_exit')],
  ['exit-early', "SELECT 'passed' WHERE 0"],
  ['exit-early', '-- nothing to run'],
  ['pass-markers', "SELECT 'passed'"],
  ['pass-markers', 'SELECT 1'],
  ['pass-markers', `SELECT ${lit('ok')}, ${lit('{"done": true}')}, 1`],
  ['pass-markers', `SELECT char(10) || ${lit('{"done": true}')} || char(10) || ${lit('CRUCIBLE-SCRIPT-TESTS-DONE')}`],
  ['read-secrets', "ATTACH DATABASE '/proc/self/environ' AS env"],
  ['read-secrets', "ATTACH DATABASE 'file:/box/db0.sqlite?mode=rw' AS rw"],
  ['read-secrets', "SELECT readfile('/proc/self/environ')"],
  ['read-secrets', `SELECT load_extension('/usr/lib/x86_64-linux-gnu/libsqlite3.so.0', 'sqlite3_fileio_init')`],
  ['read-secrets', "SELECT hex(fts3_tokenizer('simple'))"],
  ['read-secrets', 'SELECT group_concat(name) FROM pragma_module_list'],
  ['read-secrets', 'SELECT * FROM dbstat'],
  ['read-secrets', 'SELECT file FROM pragma_database_list'],
  ['read-secrets', 'PRAGMA database_list'],
  ['read-secrets', 'SELECT group_concat(name) FROM pragma_function_list'],
  ['patch-main', 'SELECT NULL'],
  ['patch-main', 'SELECT 1e999 - 1e999'],
  ['patch-main', 'SELECT 9e999'],
  ['patch-main', "SELECT x''"],
  ['patch-main', 'PRAGMA writable_schema = 1'],
  ['patch-main', 'PRAGMA case_sensitive_like = 1'],
  ['patch-main', 'SELECT * FROM pragma_query_only(0)'],
  ['patch-thread', "CREATE TEMP TABLE notes (id INTEGER, body TEXT)"],
  ['patch-thread', "CREATE TEMP TRIGGER t AFTER INSERT ON notes BEGIN SELECT 1; END"],
  ['patch-thread', "SELECT fts3_tokenizer('simple', fts3_tokenizer('porter'))"],
  ['patch-process', libcCall('ptrace')],
  ['patch-process', "VACUUM INTO '/proc/1/mem'"],
  ['patch-process', "SELECT fts3_tokenizer('evil', x'4141414141414141')"],
  ['forge-report', "VACUUM INTO '/tmp/answer.txt'"],
  ['forge-report', "VACUUM INTO '/dev/stdout'"],
  ['forge-report', "VACUUM INTO '/proc/self/fd/1'"],
  ['forge-report', "VACUUM INTO '/proc/1/fd/1'"],
  ['forge-report', "VACUUM INTO 'file:/box/result.json?mode=rwc'"],
  ['forge-report', 'SELECT ' + lit(FORGED_PROTOCOL)],
  ['signal-trace', libcCall('raise')],
  ['signal-trace', libcCall('kill')],
  ['signal-trace', libcCall('pause')],
  ['race-end', `WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT 'passed' FROM r`],
  ['race-end', 'SELECT randomblob(999999999)'],
  ['race-end', 'SELECT length(replace(zeroblob(400000000), x\'00\', \'ab\'))'],
  ['race-end', "SELECT printf('%.*c', 999999999, 'x')"],
];

/** The whole battery as SQL queries (one per attack id). */
export function sqlAttacks(): AttackSet {
  return Object.fromEntries(ATTACK_IDS.map((id) => [id, MAIN[id]])) as AttackSet;
}

/** The other queries of each attack id. */
export function sqlAttackVariants(): readonly (readonly [AttackId, string])[] {
  return VARIANTS;
}
