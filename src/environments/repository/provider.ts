/**
 * The `repository` environment provider (`EnvironmentProvider`, `src/judge/environment.ts`): a repository at a base
 * commit with its dependencies installed, as two layers under `<cacheDir>/repository/`:
 *
 *   trees/<repo>-<base commit>/tree    the base tree and its one-commit repository (`checkout.ts`), per base commit
 *   deps/<key>/upper                   node_modules from the install command (`install.ts`), per (repository,
 *                                      lockfile, install command, lifecycle scripts on/off, Node major version)
 *   warm/<key>/upper                   what the instance's tests leave in `$TMPDIR` at the base commit (`warm.ts`),
 *                                      per (tree, dependencies, test patch, test command), when the spec asks
 *
 * Each is made once in `tmp/` and renamed into place (so a reader never sees half of one; two processes that race
 * make it twice and the second discards its copy), owned by Crucible's user (root), and never written again: every
 * box mounts them read-only under a copy-on-write layer of its own. Concurrent callers in one process share one
 * preparation; a failed preparation is remembered for the process (the same failure is reported at once, not
 * re-run for every sample).
 *
 * Where the code comes from: the repository's entry in `sources` (`--repo-source owner/name=PATH`), else the
 * instance's own `source` when `instanceSources` allows it (a local dataset file: yes; an HTTP request: no, it would
 * let a client mount any host directory into a box).
 */
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RepositorySource } from '../../formats/types.js';
import { EnvironmentError, type EnvironmentProvider, type PreparedEnvironment } from '../../judge/environment.js';
import { RepositoryEnvironmentSpecSchema, REPOSITORY_ENVIRONMENT, type RepositoryEnvironmentSpec } from '../../kinds/repository/environment-spec.js';
import { LOCKFILES } from '../../kinds/repository/policy.js';
import type { Sandbox } from '../../sandbox/index.js';
import { checkoutTree } from './checkout.js';
import { installDependencies } from './install.js';
import { warmUp } from './warm.js';

/** Version of the tree layer's layout (its git exclusions): part of its directory name. */
const TREE_LAYOUT = 'v1';

/** The npm registry the install box may reach unless told another. */
export const DEFAULT_REGISTRY = 'https://registry.npmjs.org/';

/** How the provider is made. */
export interface RepositoryEnvironmentOptions {
  readonly sandbox: Sandbox;
  /** Crucible's cache directory (`--cache-dir`); the layers live under `<cacheDir>/repository/`. */
  readonly cacheDir: string;
  /** Where each repository's code is (`owner/name` -> source); wins over an instance's own `source`. */
  readonly sources?: ReadonlyMap<string, RepositorySource>;
  /** Whether an instance's own `source` may be used (default false). */
  readonly instanceSources?: boolean;
  /** The registry installs may reach (default npm's). */
  readonly registry?: string;
  /** Progress lines ("preparing iamkun/dayjs@ae3a550: installing"), for CLIs. */
  readonly log?: (line: string) => void;
}

/** What a prepared environment is made of, with how long its parts took when this call made them (ms; 0 = cached). */
export interface RepositoryPrepared extends PreparedEnvironment {
  readonly tree: string;
  readonly deps: string;
  readonly warm?: string;
  readonly checkoutMs: number;
  readonly installMs: number;
  readonly warmMs: number;
}

function sha(...parts: readonly (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const p of parts) hash.update(p).update('\0');
  return hash.digest('hex');
}

/** See the module comment. */
export class RepositoryEnvironments implements EnvironmentProvider {
  readonly name = REPOSITORY_ENVIRONMENT;
  private readonly root: string;
  private readonly pending = new Map<string, Promise<{ readonly path: string; readonly ms: number }>>();

  constructor(private readonly options: RepositoryEnvironmentOptions) {
    this.root = join(options.cacheDir, 'repository');
  }

  /** The prepared environment of `spec` (see `EnvironmentProvider.prepare`). @throws EnvironmentError */
  async prepare(spec: unknown, signal?: AbortSignal): Promise<RepositoryPrepared> {
    const parsed = RepositoryEnvironmentSpecSchema.safeParse(spec);
    if (!parsed.success) throw new EnvironmentError(`not a repository environment: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    const s: RepositoryEnvironmentSpec = parsed.data;
    const tree = await this.once(`tree\0${s.repo}\0${s.baseCommit}`, () => this.makeTree(s, signal));
    const deps = await this.once(`deps\0${this.depsKey(s, tree.path)}`, () => this.makeDeps(s, tree.path, signal));
    if (s.warm === undefined) return { layers: [deps.path, tree.path], tree: tree.path, deps: deps.path, checkoutMs: tree.ms, installMs: deps.ms, warmMs: 0 };
    const warmKey = sha(tree.path, deps.path, s.warm.testPatch, s.warm.testCommand).slice(0, 32);
    const warm = await this.once(`warm\0${warmKey}`, () => this.makeWarm(warmKey, [deps.path, tree.path], s.warm!, signal));
    return { layers: [warm.path, deps.path, tree.path], tree: tree.path, deps: deps.path, warm: warm.path,
      checkoutMs: tree.ms, installMs: deps.ms, warmMs: warm.ms };
  }

  /** The source of a spec's repository. @throws EnvironmentError when none is known. */
  sourceOf(spec: RepositoryEnvironmentSpec): RepositorySource {
    const source = this.options.sources?.get(spec.repo) ?? (this.options.instanceSources === true ? spec.source : undefined);
    if (source === undefined) {
      throw new EnvironmentError(`no source for ${spec.repo}: give one with --repo-source ${spec.repo}=PATH (a git directory, bundle or tree)`);
    }
    return source;
  }

  /** One preparation per key in this process; a failure stays remembered, a cancellation does not. */
  private once(key: string, make: () => Promise<{ readonly path: string; readonly ms: number }>): Promise<{ readonly path: string; readonly ms: number }> {
    let promise = this.pending.get(key);
    if (promise === undefined) {
      promise = make();
      this.pending.set(key, promise);
      promise.catch((error: unknown) => {
        if (!(error instanceof EnvironmentError)) this.pending.delete(key);
      });
    } else {
      promise = promise.then((made) => ({ path: made.path, ms: 0 }));
    }
    return promise;
  }

  /** A fresh private directory under tmp/ for building one layer. */
  private scratch(): string {
    const dir = join(this.root, 'tmp', randomBytes(8).toString('hex'));
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /** Move a built directory into place; when another process got there first, keep theirs. */
  private settle(built: string, final: string): void {
    mkdirSync(join(final, '..'), { recursive: true, mode: 0o700 });
    try {
      renameSync(built, final);
    } catch (error) {
      if (!existsSync(final)) throw new EnvironmentError(`cannot keep ${final}: ${(error as Error).message}`);
      rmSync(built, { recursive: true, force: true });
    }
  }

  private async makeTree(s: RepositoryEnvironmentSpec, signal?: AbortSignal): Promise<{ path: string; ms: number }> {
    const final = join(this.root, 'trees', `${s.repo.replace('/', '+')}-${s.baseCommit}-${TREE_LAYOUT}`);
    if (existsSync(join(final, 'tree'))) return { path: join(final, 'tree'), ms: 0 };
    const source = this.sourceOf(s);
    const started = performance.now();
    this.options.log?.(`preparing ${s.repo}@${s.baseCommit.slice(0, 8)}: checking out the base commit`);
    const dir = this.scratch();
    try {
      mkdirSync(join(dir, 'tree'), { mode: 0o755 });
      await checkoutTree(source, s.baseCommit, join(dir, 'tree'), join(this.root, 'bundles'), signal);
      this.settle(dir, final);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    return { path: join(final, 'tree'), ms: performance.now() - started };
  }

  /** The key of a tree's dependency layer: its lockfile (or package.json when it has none), how it is installed, Node. */
  private depsKey(s: RepositoryEnvironmentSpec, tree: string): string {
    const lockfile = LOCKFILES.find((name) => existsSync(join(tree, name)));
    const identity = lockfile === undefined ? ['package.json', readFileOr(join(tree, 'package.json'))] : [lockfile, readFileOr(join(tree, lockfile))];
    return sha(s.repo, ...identity, s.installCmd, String(s.installScripts), process.versions.node.split('.')[0]!, this.registry);
  }

  private get registry(): string {
    return this.options.registry ?? DEFAULT_REGISTRY;
  }

  private async makeDeps(s: RepositoryEnvironmentSpec, tree: string, signal?: AbortSignal): Promise<{ path: string; ms: number }> {
    const final = join(this.root, 'deps', this.depsKey(s, tree).slice(0, 32));
    if (existsSync(join(final, 'upper'))) return { path: join(final, 'upper'), ms: 0 };
    const started = performance.now();
    this.options.log?.(`preparing ${s.repo}@${s.baseCommit.slice(0, 8)}: ${s.installCmd}`);
    const dir = this.scratch();
    try {
      mkdirSync(join(dir, 'upper'), { mode: 0o755 });
      mkdirSync(join(dir, 'work'), { mode: 0o700 });
      await installDependencies({
        sandbox: this.options.sandbox, tree, installCmd: s.installCmd, installScripts: s.installScripts, registry: this.registry,
        upperDir: join(dir, 'upper'), workDir: join(dir, 'work'), ...(signal === undefined ? {} : { signal }),
      });
      rmSync(join(dir, 'work'), { recursive: true, force: true });
      this.settle(dir, final);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    return { path: join(final, 'upper'), ms: performance.now() - started };
  }

  private async makeWarm(key: string, layers: readonly string[], warm: { readonly testPatch: string; readonly testCommand: string; readonly memoryKiB?: number },
    signal?: AbortSignal): Promise<{ path: string; ms: number }> {
    const final = join(this.root, 'warm', key);
    if (existsSync(join(final, 'upper'))) return { path: join(final, 'upper'), ms: 0 };
    const started = performance.now();
    this.options.log?.('warming up: the tests once at the base commit');
    const dir = this.scratch();
    try {
      mkdirSync(join(dir, 'upper'), { mode: 0o755 });
      mkdirSync(join(dir, 'work'), { mode: 0o700 });
      await warmUp({ sandbox: this.options.sandbox, layers, testPatch: warm.testPatch, testCommand: warm.testCommand,
        ...(warm.memoryKiB === undefined ? {} : { memoryKiB: warm.memoryKiB }),
        upperDir: join(dir, 'upper'), workDir: join(dir, 'work'), ...(signal === undefined ? {} : { signal }) });
      rmSync(join(dir, 'work'), { recursive: true, force: true });
      this.settle(dir, final);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    return { path: join(final, 'upper'), ms: performance.now() - started };
  }

  /** Bytes on disk of a directory tree (`du -s`: blocks, links not followed), for benchmarks. @throws Error */
  static diskBytes(path: string): number {
    return Number(execFileSync('/usr/bin/du', ['-s', '-B1', path], { encoding: 'utf8' }).split('\t')[0]);
  }
}

function readFileOr(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch {
    return Buffer.alloc(0);
  }
}
