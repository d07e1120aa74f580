/**
 * A trusted PostgreSQL server Crucible starts itself, for the `sql` kind's `postgres` engine (`./engine.ts`):
 * Debian's server binaries (`/usr/lib/postgresql/<version>/bin`, `scripts/setup` installs them), `initdb` into a
 * fresh directory under the system temp folder, run as an unprivileged account (PostgreSQL refuses root: as root,
 * the `postgres` system user, else `nobody`), listening on 127.0.0.1 on a free port (never a fixed one) with its
 * unix socket in its own 0700 directory. Every role logs in with a random password (SCRAM), so other local users
 * of the loopback port get nothing. Roles made here: `crucible_admin` (the superuser, trusted side only: makes and
 * drops databases and roles, cancels queries), `crucible_loader` (no superuser: owns the problems' template
 * databases and runs the problems' SQL texts that build them) and `crucible_readers` (no login: the group whose
 * members may read the templates' tables; each judgement logs in as a fresh member, `./engine.ts`).
 *
 * Server-wide resource limits (the candidate cannot raise them: each is superuser-only or fixed at start):
 * `temp_file_limit` (KiB of temporary files per session), `work_mem` (the default each sort or hash may use
 * before spilling), `max_connections`; and the address space of every server process (`prlimit --as`), so one
 * query cannot take the host's memory.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** Resource limits of a server (see the module comment). */
export interface PostgresServerOptions {
  /** Temporary file space per session (KiB); default 64 MiB. */
  readonly tempFileLimitKiB?: number;
  /** `work_mem` (KiB); default 4 MiB. */
  readonly workMemKiB?: number;
  /** Address space of each server process (bytes); default 2 GiB. */
  readonly addressSpaceBytes?: number;
  /** `max_connections`; default 100. */
  readonly maxConnections?: number;
}

/** A role's login on the server. */
export interface PostgresLogin {
  readonly user: string;
  readonly password: string;
}

/** A running server (see the module comment). */
export interface PostgresServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** The superuser's login (trusted side only). */
  readonly admin: PostgresLogin;
  /** The template owner's login (loads the problems' SQL texts). */
  readonly loader: PostgresLogin;
  /** The server's version string (`SHOW server_version`). */
  readonly version: string;
  /** Connection settings of `login` on `database` for node-postgres. */
  connection(login: PostgresLogin, database: string): pg.ClientConfig;
  /** Stop the server (immediately) and delete its directory. Idempotent. */
  stop(): void;
}

/** The newest server version's binaries. @throws Error when none is installed. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql: run ./scripts/setup (Debian package postgresql)');
  return join(root, versions[0]!, 'bin');
}

/** The account the server runs as: undefined (ourselves) unless we are root. @throws Error when root has none. */
function serverAccount(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n');
  for (const name of ['postgres', 'nobody']) {
    const line = passwd.find((l) => l.startsWith(`${name}:`));
    if (line !== undefined) {
      const [, , uid, gid] = line.split(':');
      return { uid: Number(uid), gid: Number(gid) };
    }
  }
  throw new Error('no unprivileged account (postgres, nobody) to run PostgreSQL as');
}

/** A port that was free a moment ago on 127.0.0.1 (the start retries when another process takes it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const secret = (): string => randomBytes(18).toString('hex');

/**
 * Start a server (a few seconds: initdb, then the server). @throws Error with the server's log when it does not
 * start, or when the binaries are missing (`postgresBinDir`).
 */
export async function startPostgresServer(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const user = serverAccount();
  const dir = mkdtempSync(join(tmpdir(), 'crucible-pgsql-'));
  const socketDir = join(dir, 'socket');
  mkdirSync(socketDir, { mode: 0o700 });
  const admin: PostgresLogin = { user: 'crucible_admin', password: secret() };
  writeFileSync(join(dir, 'pwfile'), `${admin.password}\n`, { mode: 0o600 });
  if (user !== undefined) for (const p of [dir, socketDir, join(dir, 'pwfile')]) chownSync(p, user.uid, user.gid);
  chmodSync(dir, 0o700);
  const data = join(dir, 'data');
  const run = (argv: readonly string[]): void => {
    const result = spawnSync(argv[0]!, argv.slice(1), { ...(user ?? {}), encoding: 'utf8', cwd: dir, timeout: 120_000 });
    if (result.status !== 0) {
      const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8').slice(-2000) : '';
      throw new Error(`${argv[0]} failed (${result.status ?? result.signal}): ${result.stderr}${result.stdout}\n${log}`);
    }
  };
  // A process that ends without stopping its server (an error in a caller's clean-up) still stops it on exit:
  // pg_ctl daemonises the server, so nothing else would.
  const onExit = (): void => stop();
  process.once('exit', onExit);
  const stop = (): void => {
    process.off('exit', onExit);
    if (existsSync(join(data, 'postmaster.pid'))) {
      spawnSync(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], { ...(user ?? {}), cwd: dir, timeout: 60_000 });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run([join(bin, 'initdb'), '-D', data, '-U', admin.user, '--auth=scram-sha-256', `--pwfile=${join(dir, 'pwfile')}`, '-E', 'UTF8',
      '--locale=C', '--no-sync']);
    rmSync(join(dir, 'pwfile'));
    const settings = [`-c listen_addresses=127.0.0.1`, `-k ${socketDir}`, '-c fsync=off', '-c synchronous_commit=off',
      '-c full_page_writes=off', `-c temp_file_limit=${options.tempFileLimitKiB ?? 65536}kB`, `-c work_mem=${options.workMemKiB ?? 4096}kB`,
      `-c max_connections=${options.maxConnections ?? 100}`, '-c log_min_messages=fatal', '-c lo_compat_privileges=off'];
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        run(['prlimit', `--as=${options.addressSpaceBytes ?? 2 ** 31}`, '--', join(bin, 'pg_ctl'), '-D', data, '-l', join(dir, 'log'), '-w',
          '-t', '60', '-o', `-p ${port} ${settings.join(' ')}`, 'start']);
        break;
      } catch (error) {
        if (attempt >= 3) throw error;   // another process may have taken the port between the probe and the start
      }
    }
    const connection = (login: PostgresLogin, database: string): pg.ClientConfig =>
      ({ host: '127.0.0.1', port, user: login.user, password: login.password, database });
    const loader: PostgresLogin = { user: 'crucible_loader', password: secret() };
    const client = new pg.Client(connection(admin, 'postgres'));
    await client.connect();
    let version: string;
    try {
      await client.query(`CREATE ROLE crucible_loader LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '${loader.password}'`);
      await client.query('CREATE ROLE crucible_readers NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE');
      // The maintenance databases are the admin's alone.
      for (const db of ['postgres', 'template1']) await client.query(`REVOKE ALL ON DATABASE ${db} FROM PUBLIC`);
      version = String((await client.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version);
    } finally {
      await client.end();
    }
    return { host: '127.0.0.1', port, admin, loader, version, connection, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
