/**
 * Where the result store lives and how it is opened. One place decides, for every command:
 *   `--store SPEC` > `$CRUCIBLE_STORE` > `$XDG_DATA_HOME/crucible/crucible.db` > `~/.local/share/crucible/crucible.db`.
 * SPEC is a file path (SQLite, created with its folder), `sqlite:PATH`, or a `postgres://` / `postgresql://` URL
 * (the database must exist; tables are created on first use). The XDG data folder is the default so that every
 * eval of a user shows in one dashboard whatever the working directory (docs/STORE.md).
 */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { openPostgres } from './db/postgres-driver.js';
import { openSqlite } from './db/sqlite-driver.js';
import { openSqlStore } from './db/sql-store.js';
import { StoreError } from './errors.js';
import type { ResultStore, StoreBackend } from './result-store.js';

/** The environment variable naming the store (same syntax as `--store`). */
export const STORE_ENV = 'CRUCIBLE_STORE';

/** A resolved store location. `display` is safe to print (no password). */
export interface StoreLocation {
  readonly backend: StoreBackend;
  /** File path (SQLite) or connection URL (PostgreSQL). */
  readonly target: string;
  readonly display: string;
}

/** The default SQLite file: `$XDG_DATA_HOME/crucible/crucible.db`, else `~/.local/share/crucible/crucible.db`. */
export function defaultStorePath(env: NodeJS.ProcessEnv = process.env): string {
  const dataHome = env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== '' ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share');
  return join(dataHome, 'crucible', 'crucible.db');
}

/** A PostgreSQL URL with its password replaced by `***`. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}

/** Resolve `--store` (or the environment, or the default) to a location (see the module comment). */
export function resolveStoreLocation(spec?: string, env: NodeJS.ProcessEnv = process.env): StoreLocation {
  const chosen = spec !== undefined && spec !== '' ? spec : env[STORE_ENV] !== undefined && env[STORE_ENV] !== '' ? env[STORE_ENV]! : undefined;
  if (chosen !== undefined && /^postgres(ql)?:\/\//i.test(chosen)) return { backend: 'postgres', target: chosen, display: redactUrl(chosen) };
  const path = chosen === undefined ? defaultStorePath(env) : chosen.startsWith('sqlite:') ? chosen.slice('sqlite:'.length) : chosen;
  const absolute = path === ':memory:' ? path : resolve(path);
  return { backend: 'sqlite', target: absolute, display: absolute };
}

/**
 * Open the store at `spec` (see `resolveStoreLocation`), creating the SQLite file and its folder if needed.
 * @throws StoreError `store_unavailable` naming the location and the cause; `store_schema_newer`.
 */
export async function openResultStore(spec?: string, env: NodeJS.ProcessEnv = process.env): Promise<ResultStore> {
  const location = resolveStoreLocation(spec, env);
  let driver;
  try {
    if (location.backend === 'postgres') {
      driver = await openPostgres(location.target);
    } else {
      if (location.target !== ':memory:') mkdirSync(dirname(location.target), { recursive: true });
      driver = openSqlite(location.target);
    }
  } catch (error) {
    throw new StoreError('store_unavailable', `cannot open the store ${location.display}: ${(error as Error).message}`);
  }
  return openSqlStore(driver, location.display);
}
