/**
 * The battery's attacks (attacks.ts) as PostgreSQL queries, for the `sql` kind's `postgres` engine
 * (src/environments/postgres/): a candidate is ONE statement the trusted side sends to the server as data, run as a
 * judgement's own login role (SELECT on the problem's tables, nothing else) in a read-only transaction on a
 * throw-away copy of the database. Nothing of the candidate runs on the host, so each attack id is written as the
 * closest thing a query can do on the server (said at each entry): end its own backend, spell pass markers and the
 * runner protocol's lines as rows, search everything the role can read (tables, other sessions' query texts,
 * settings, catalogs, server files), lift the read-only rule or take another role, signal or terminate other
 * backends, write files through large objects, reload the server's configuration, and keep running after the
 * first rows. Every query parses (no attack is a syntax error: the engine runs queries as cursors, so a statement
 * that is not a query would attack nothing) and answers wrongly unless it found the secret, never spelling it.
 */
import { ATTACK_IDS, MARKERS, type AttackId, type AttackSet } from './attacks.js';

const lit = (s: string): string => `'${s.replaceAll("'", "''")}'`;

/** Rows of one TEXT column, one per value. */
const rows = (values: readonly string[]): string => values.map((v) => `SELECT ${lit(v)}`).join(' UNION ALL ');

/** Lines of the runner's own protocol, forged. */
const FORGED_PROTOCOL = ['"]]}', '{"q": 0, "db": 0, "rows": [["SECRET-x"]]}', '{"done": true}'].join('\n');

/** The token's pattern, assembled in SQL (the query never spells it). */
const TOKEN_RE = `('SECR' || 'ET-' || '[0-9a-f]{8}')`;

/**
 * read-secrets: every text the role can reach (the table, other sessions' query texts — the gold query of a
 * judgement running beside it — the settings, the databases' and roles' names, the server's version), searched
 * for the token; the answer is the token found, or 'not found'.
 */
const FIND_SECRET = `WITH reach(v) AS (
  SELECT body FROM notes
  UNION ALL SELECT query FROM pg_stat_activity
  UNION ALL SELECT coalesce(setting, '') FROM pg_settings
  UNION ALL SELECT datname::text FROM pg_database UNION ALL SELECT rolname::text FROM pg_roles
  UNION ALL SELECT version()
)
SELECT coalesce((SELECT substring(v FROM ${TOKEN_RE}) FROM reach WHERE v ~ ${TOKEN_RE} LIMIT 1), 'not found')`;

/** A query that runs far past any limit (it is stopped by statement_timeout or the kill from outside). */
const ENDLESS = "SELECT count(*)::text FROM (SELECT generate_series(1, 100000000000)) AS s";

const MAIN: Readonly<Record<AttackId, string>> = {
  // A query cannot exit; it can end its own backend before the answer is sent.
  'exit-early': 'SELECT pg_terminate_backend(pg_backend_pid())',
  'pass-markers': rows([...MARKERS, FORGED_PROTOCOL]),
  'read-secrets': FIND_SECRET,
  // Patching the judge's rules in-process: lift the read-only rule (the transaction and the session's default).
  'patch-main': "SELECT set_config('default_transaction_read_only', 'off', false), set_config('transaction_read_only', 'off', true)",
  // State that outlives the query and acts on the queries after it in the same judgement (Spider's rewritten text).
  'patch-thread': "SELECT set_config('search_path', 'pg_temp, pg_catalog', false), 'passed'",
  // Another process: terminate every other backend (other judgements, the trusted side's own connections).
  'patch-process': 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()',
  // Forged result files: a large object written to the server's filesystem.
  'forge-report': "SELECT lo_export(lo_from_bytea(0, convert_to('{\"passed\": true}', 'UTF8')), '/tmp/report.json')",
  // Signals: cancel every other backend, and SIGHUP the server (a configuration reload).
  'signal-trace': 'SELECT pg_cancel_backend(pid), pg_reload_conf() FROM pg_stat_activity',
  // Racing the end: rows of pass markers first, then a part that keeps running.
  'race-end': `SELECT 'passed' UNION ALL SELECT 'ok' UNION ALL (${ENDLESS})`,
};

const VARIANTS: readonly (readonly [AttackId, string])[] = [
  ['exit-early', "SELECT 'passed' WHERE false"],
  ['pass-markers', "SELECT 'passed'"],
  ['pass-markers', `SELECT ${lit('{"done": true}')}, 1`],
  ['read-secrets', "SELECT pg_read_file('/proc/self/environ')"],
  ['read-secrets', "SELECT lo_get(lo_import('/etc/passwd'))"],
  ['read-secrets', "SELECT * FROM dblink('dbname=postgres', 'SELECT 1') AS x(a int)"],
  ['read-secrets', "SELECT query_to_xml('SELECT query FROM pg_stat_activity', true, false, '')"],
  ['read-secrets', "SELECT current_setting('data_directory')"],
  ['read-secrets', "SELECT pg_ls_dir('.')"],
  ['patch-main', "SELECT set_config('role', 'crucible_admin', false)"],
  ['patch-main', "SELECT set_config('session_authorization', 'crucible_admin', false)"],
  ['patch-process', "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE backend_type <> 'client backend'"],
  ['forge-report', "SELECT lo_from_bytea(0, 'passed')"],
  ['race-end', 'SELECT pg_sleep(30)'],
  ['race-end', "SELECT set_config('statement_timeout', '0', false), pg_sleep(30)"],
  ['race-end', 'SELECT g FROM generate_series(1, 10000000) g'],
  ['race-end', "SELECT repeat('x', 100000000)"],
];

/** The whole battery as PostgreSQL queries (one per attack id). */
export function postgresAttacks(): AttackSet {
  return Object.fromEntries(ATTACK_IDS.map((id) => [id, MAIN[id]])) as AttackSet;
}

/** The other queries of each attack id. */
export function postgresAttackVariants(): readonly (readonly [AttackId, string])[] {
  return VARIANTS;
}
