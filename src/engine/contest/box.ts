/**
 * Boxed building blocks of contest judging (checkers, graders, Piston's contest packages): compile a set of
 * source files with a fixed compiler command line ONCE per distinct input (the artifact is cached and mounted
 * read-only at `/artifact` in every run), and run an artifact, or a registry language's program, in a fresh box
 * with files beside it. Everything here runs in the sandbox: solutions, checkers, graders and managers are all
 * untrusted (problem-supplied code is still code).
 */
import { createHash } from 'node:crypto';
import { expandArgv, toolchainMounts } from '../../languages/argv.js';
import { Executor, type CompileOutcome } from '../executor.js';
import type { LanguageRegistry } from '../../languages/registry.js';
import type { Language } from '../../languages/schema.js';
import type { Sandbox } from '../../sandbox/index.js';
import type { ExecutionResult, Limits } from '../../sandbox/types.js';
import { DEFAULT_COMPILE_LIMITS, forLanguage } from '../../limits.js';
import type { BoxCommand } from './package-job.js';

/** Where an artifact directory is mounted in a run (the slot boxes' one mount point). */
export const ARTIFACT_DIR = '/artifact';

/** The host's g++ (Debian `g++`). */
export const GXX = '/usr/bin/g++';

/** A compiled set of files: the kept work directory, or the compiler's verdict (`compile_error`/`internal_error`). */
export type Built =
  | { readonly ok: true; readonly artifactDir: string; readonly result: ExecutionResult }
  | { readonly ok: false; readonly result: ExecutionResult };

/** Artifacts kept at most (oldest discarded first). */
const MAX_ARTIFACTS = 256;

/**
 * Compile cache and runner of contest programs on one sandbox. `close()` discards every artifact.
 */
export class ContestBox {
  private readonly built = new Map<string, Promise<Built>>();
  private readonly order: string[] = [];
  /** Runs programs of registry languages (Python, Java, ...): the owner's executor when given, else its own. */
  readonly executor: Executor;
  private readonly ownExecutor: boolean;

  /** Counters for tests and metrics: compilations started, cache hits. */
  readonly stats = { compilations: 0, cacheHits: 0 };

  /**
   * `executor`: share an existing executor (and its compile cache) on the same sandbox, e.g. the judge's, so a
   * registry-language program is compiled once whichever path judges it; the caller closes it. Default: own one.
   */
  constructor(readonly sandbox: Sandbox, readonly languages: LanguageRegistry, executor?: Executor) {
    this.executor = executor ?? new Executor(sandbox, languages);
    this.ownExecutor = executor === undefined;
  }

  /**
   * Compile `files` (flat names, written into /box) with `argv` (run in /box), at most once per distinct
   * (argv, files): concurrent and later calls share the first compilation. A failing compiler is
   * `compile_error` with its stderr; the host's failure is `internal_error` and is not cached.
   * @param limits compile limits (default `DEFAULT_COMPILE_LIMITS`: 30 s CPU, 2 GiB).
   */
  build(argv: readonly string[], files: Readonly<Record<string, string>>, limits: Limits = DEFAULT_COMPILE_LIMITS): Promise<Built> {
    const hash = createHash('sha256').update(JSON.stringify(argv));
    for (const name of Object.keys(files).sort()) hash.update('\0').update(name).update('\0').update(files[name]!);
    const key = hash.digest('hex');
    const cached = this.built.get(key);
    if (cached) {
      this.stats.cacheHits++;
      return cached;
    }
    this.stats.compilations++;
    const pending = this.sandbox.run({ argv, files, limits, keepWorkDir: true }).then(({ result, workDir }): Built => {
      if (result.status === 'ok' && workDir) return { ok: true, artifactDir: workDir, result };
      if (workDir) this.sandbox.discard(workDir);
      if (result.status === 'internal_error') return { ok: false, result };
      const why = result.status === 'runtime_error' ? 'compilation failed' : `compiler stopped: ${result.reason ?? result.status}`;
      return { ok: false, result: { ...result, status: 'compile_error', reason: why } };
    });
    this.built.set(key, pending);
    this.order.push(key);
    while (this.order.length > MAX_ARTIFACTS) {
      const old = this.order.shift()!;
      const entry = this.built.get(old);
      this.built.delete(old);
      void entry?.then((b) => { if (b.ok) this.sandbox.discard(b.artifactDir); });
    }
    void pending.then((b) => { if (!b.ok && b.result.status === 'internal_error') this.built.delete(key); });
    return pending;
  }

  /**
   * Run `argv` (e.g. `/artifact/checker`) in a fresh box with the artifact of `built` at `/artifact` and `files`
   * in the work directory /box, feeding `stdin`. Never throws for what the program does.
   */
  async runBuilt(built: Built & { ok: true }, argv: readonly string[], options: { readonly stdin?: string;
    readonly files?: Readonly<Record<string, string>>; readonly limits: Limits; readonly signal?: AbortSignal }): Promise<ExecutionResult> {
    const { result } = await this.sandbox.run({
      argv, files: options.files ?? {}, stdin: options.stdin ?? '', limits: options.limits, signal: options.signal,
      mounts: [{ hostPath: built.artifactDir, boxPath: ARTIFACT_DIR }],
    });
    return result;
  }

  /** Run a command of the host's read-only system (e.g. Python on a checker script) in a fresh box with `files`. */
  async runPlain(argv: readonly string[], options: { readonly stdin?: string; readonly files?: Readonly<Record<string, string>>;
    readonly limits: Limits; readonly signal?: AbortSignal }): Promise<ExecutionResult> {
    const { result } = await this.sandbox.run({ argv, files: options.files ?? {}, stdin: options.stdin ?? '', limits: options.limits,
      signal: options.signal });
    return result;
  }

  /** Compile (cached) and run a program of a registry language once on `stdin`, `files` beside it. */
  async runLanguage(language: Language, source: string, stdin: string, limits: Limits,
    files: Readonly<Record<string, string>> = {}): Promise<{ readonly compile: ExecutionResult | null; readonly run: ExecutionResult | null }> {
    const compiled = await this.executor.compile(language, source);
    if (!compiled.ok) return { compile: compiled.result, run: null };
    const run = await this.executor.runCompiled(language, source, compiled, stdin, limits, files);
    return { compile: compiled.result, run };
  }

  /**
   * How a registry language's compiled (or interpreted) program starts in a box, as `Executor.runCompiled`
   * starts it: argv with the memory placeholder filled, artifact and toolchain mounts, environment, the source
   * beside it when there is no artifact, and `limits` after the language's multipliers.
   */
  languageRun(language: Language, source: string, compiled: CompileOutcome & { ok: true }, limits: Limits): BoxCommand {
    return {
      argv: expandArgv(language.run, { memoryLimitMiB: limits.memoryKiB / 1024 }),
      env: language.env,
      files: compiled.artifactDir ? {} : { [language.sourceFile]: source },
      mounts: [...compiled.artifactDir ? [{ hostPath: compiled.artifactDir, boxPath: ARTIFACT_DIR }] : [], ...toolchainMounts(language, 'run')],
      limits: forLanguage(limits, language),
    };
  }

  /** Discard every artifact of this box, and its executor's when the executor is its own. */
  async close(): Promise<void> {
    const entries = [...this.built.values()];
    this.built.clear();
    for (const b of await Promise.all(entries)) if (b.ok) this.sandbox.discard(b.artifactDir);
    if (this.ownExecutor) await this.executor.close();
  }
}
