/**
 * A throw-away PostgreSQL cluster for tests: Debian's server binaries (`scripts/setup` installs them), a fresh
 * data directory under the system temp folder, a free loopback port (never a fixed one), trust auth for the
 * role `crucible`, no fsync. initdb refuses to run as root, so as root the cluster runs as the `postgres`
 * system user (or `nobody`). `stop()` stops it by its own pid file and deletes the folder.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';

/** A running cluster. */
export interface PostgresCluster {
  /** postgres://crucible@127.0.0.1:PORT/postgres */
  readonly url: string;
  /** A URL to a fresh empty database of this cluster (created on call). */
  database(name: string): string;
  stop(): void;
}

function serverBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql: run ./scripts/setup');
  return join(root, versions[0]!, 'bin');
}

function account(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${name}:`));
    if (line !== undefined) {
      const [, , uid, gid] = line.split(':');
      return { uid: Number(uid), gid: Number(gid) };
    }
  }
  throw new Error('no unprivileged account (postgres, nobody) to run PostgreSQL as');
}

/** Start a cluster (a few seconds). @throws Error with the server's log when it does not start. */
export async function startPostgres(): Promise<PostgresCluster> {
  const bin = serverBin();
  const user = account();
  const dir = mkdtempSync(join(tmpdir(), 'crucible-pg-'));
  if (user !== undefined) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const run = (file: string, args: readonly string[]): void => {
    const result = spawnSync(join(bin, file), args, { ...(user ?? {}), encoding: 'utf8', cwd: dir, timeout: 120_000 });
    if (result.status !== 0) {
      const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8').slice(-2000) : '';
      throw new Error(`${file} failed (${result.status}): ${result.stderr}${result.stdout}\n${log}`);
    }
  };
  try {
    run('initdb', ['-D', data, '-U', 'crucible', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', '-o',
          `-p ${port} -k ${dir} -h 127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`, 'start']);
        break;
      } catch (error) {
        // Another process may have taken the port between the probe and the start.
        if (attempt >= 3) throw error;
      }
    }
    const base = `postgres://crucible@127.0.0.1:${port}`;
    return {
      url: `${base}/postgres`,
      database(name: string): string {
        execFileSync(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'crucible', name]);
        return `${base}/${name}`;
      },
      stop(): void {
        spawnSync(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], { ...(user ?? {}), cwd: dir, timeout: 60_000 });
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
