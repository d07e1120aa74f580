/**
 * Compile once, run many. The executor turns (language, source, input) into sandboxed executions:
 * a compiled language is compiled in its own box with its own limits, at most once per distinct
 * (language, source) — concurrent requests for the same source share one compilation — and the artifact
 * directory is mounted read-only at `/artifact` in every run.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { messageOf } from '../errors.js';
import { expandArgv, toolchainMounts } from '../languages/argv.js';
import type { Language } from '../languages/schema.js';
import type { LanguageRegistry } from '../languages/registry.js';
import { removeTree } from '../sandbox/cleanup.js';
import type { Sandbox } from '../sandbox/index.js';
import { internalRun, type ExecutionResult, type Limits, type Mount } from '../sandbox/types.js';
import { DEFAULT_COMPILE_LIMITS, forLanguage, scaleLimits } from '../limits.js';

/** A compile box that made an artifact directory (with the compiler's result). */
export interface Built {
  readonly ok: true;
  readonly artifactDir: string;
  readonly result: ExecutionResult;
}

/** Result of a compile box (`build`): an artifact, or the verdict that stops the program here. */
export type BuildOutcome = Built | { readonly ok: false; readonly result: ExecutionResult };

/** Result of a compile step (`compile`): a build's, or nothing to build (an interpreted language). */
export type CompileOutcome = BuildOutcome | { readonly ok: true; readonly artifactDir: null; readonly result: null };

/** sha256 of (language id, source): the identity of a program for compilation and deduplication. */
export function programHash(languageId: string, source: string): string {
  return createHash('sha256').update(languageId).update('\0').update(source).digest('hex');
}

/**
 * sha256 of a submission's extra files (names and contents, in name order): part of a compilation's identity when a
 * program comes with files (a header, a helper class).
 */
export function filesHash(files: Readonly<Record<string, string | Uint8Array>>): string {
  const hash = createHash('sha256');
  for (const name of Object.keys(files).sort()) {
    const contents = files[name]!;
    const bytes = typeof contents === 'string' ? Buffer.from(contents) : contents;
    hash.update(`${name}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}

/** Where an artifact directory is mounted in a run (the slot boxes' one mount point). */
export const ARTIFACT_DIR = '/artifact';

/**
 * One compile box: a command run in `/box` with `files` there, whose work directory becomes the artifact every run
 * of the program mounts read-only at `/artifact`.
 * - `language`: whose toolchain the box gets (environment, read-only mounts); none for a bare command of the host's
 *   `/usr` (a contest package's `g++`).
 * - `keep`: the names under `/box` the artifact keeps (what the runs need: a binary, a `.vvp`); everything else the
 *   compiler was given or left (sources, a testbench, a golden module) is removed before any run mounts it, so a
 *   program compiled with trusted files cannot read their text back at run time. Default: everything.
 * - `limits`: after the language's compile multipliers; not part of the compilation's identity.
 */
export interface BuildSpec {
  readonly language?: Language;
  readonly argv: readonly string[];
  readonly files: Readonly<Record<string, string | Uint8Array>>;
  readonly limits: Limits;
  readonly keep?: readonly string[];
}

/** How a program starts in a run's box: argv, environment, read-only mounts, files beside it, limits after multipliers. */
export interface BoxCommand {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly mounts: readonly Mount[];
  readonly files: Readonly<Record<string, string | Uint8Array>>;
  readonly limits: Limits;
}

/**
 * A program as a compile step sees it beyond its source: `files` compiled (or, for an interpreted language,
 * loaded) together with it (names relative to `/box`; the source's own name wins); `compileArgv` instead of the
 * language's compile command; `keep` the artifact's names (see `BuildSpec.keep`).
 */
export interface CompileOptions {
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  readonly compileArgv?: readonly string[];
  readonly keep?: readonly string[];
}

/** The identity of a compile box in the cache: toolchain, command, kept names and every file. */
function buildKey(spec: BuildSpec): string {
  return createHash('sha256').update(JSON.stringify([spec.language?.id ?? null, spec.argv, spec.keep ?? null]))
    .update(filesHash(spec.files)).digest('hex');
}

/** Remove every top-level entry of `dir` not named in `keep`. @throws Error when one cannot be removed. */
function pruneArtifact(dir: string, keep: readonly string[]): void {
  for (const name of readdirSync(dir)) {
    if (keep.includes(name)) continue;
    const problem = removeTree(join(dir, name));
    if (problem !== null) throw new Error(problem);
  }
}

/** Orchestrates compile + run on a sandbox. Owns the one compile cache; `close()` discards artifacts. */
export class Executor {
  private readonly compiled = new Map<string, Promise<BuildOutcome>>();
  private readonly order: string[] = [];

  constructor(readonly sandbox: Sandbox, readonly languages: LanguageRegistry,
    private readonly maxCachedArtifacts = 512) {}

  /** Statistics for benchmarks and metrics: compile boxes started, compile cache hits, program runs (`runCompiled`). */
  readonly stats = { compilations: 0, compileCacheHits: 0, runs: 0 };

  /**
   * Compile `source` (a no-op for an interpreted language) in its language's compile box, once per distinct program: the source under the language's `sourceFile`, the language's support
   * files, and `options.files` beside it (the source and support files win over a file of the same name); the
   * language's compile command unless `options.compileArgv`. An interpreted language has no compile step (its
   * files are given to each run instead, see `command`). A failing compiler exit is `compile_error`; a compiler
   * that exceeds its own limits on this source is `compile_error` too (the program caused it); `internal_error`
   * stays `internal_error`. The language's compile multipliers apply to `compileLimits`.
   */
  compile(language: Language, source: string, compileLimits: Limits = DEFAULT_COMPILE_LIMITS,
    options: CompileOptions = {}): Promise<CompileOutcome> {
    if (!language.compile) return Promise.resolve({ ok: true, artifactDir: null, result: null });
    const compile = language.compile;
    return this.build({
      language,
      argv: options.compileArgv ?? compile.argv,
      files: { ...options.files, ...this.languages.compileFiles(language), [language.sourceFile]: source },
      limits: scaleLimits(compileLimits, compile.limits),
      ...(options.keep === undefined ? {} : { keep: options.keep }),
    });
  }

  /**
   * Run one compile box (`BuildSpec`), at most once per distinct (toolchain, command, kept names, files): concurrent
   * and later calls share the first. A failing compiler is `compile_error` with its stderr; the host's failure is
   * `internal_error` and is not cached.
   */
  build(spec: BuildSpec): Promise<BuildOutcome> {
    const key = buildKey(spec);
    const cached = this.compiled.get(key);
    if (cached) {
      this.stats.compileCacheHits++;
      return cached;
    }
    this.stats.compilations++;
    const language = spec.language;
    const pending = this.sandbox.run({
      argv: spec.argv,
      env: language === undefined ? {} : { ...language.env, ...language.compile?.env },
      files: spec.files,
      mounts: language === undefined ? [] : toolchainMounts(language, 'compile'),
      limits: spec.limits,
      keepWorkDir: true,
    }).then(({ result, workDir }): BuildOutcome => {
      if (result.status === 'ok' && workDir) {
        if (spec.keep !== undefined) pruneArtifact(workDir, spec.keep);
        return { ok: true, artifactDir: workDir, result };
      }
      if (workDir) this.sandbox.discard(workDir);
      if (result.status === 'internal_error') return { ok: false, result };
      const why = result.status === 'runtime_error' ? 'compilation failed' : `compiler stopped: ${result.reason ?? result.status}`;
      return { ok: false, result: { ...result, status: 'compile_error', reason: why } };
    }).catch((error: unknown): BuildOutcome => ({ ok: false, result: internalRun(`the compile box's artifact: ${messageOf(error)}`) }));
    this.compiled.set(key, pending);
    this.order.push(key);
    this.evict();
    // A failed compilation caused by the host must not be cached.
    void pending.then((outcome) => {
      if (!outcome.ok && outcome.result.status === 'internal_error') this.compiled.delete(key);
    });
    return pending;
  }

  private evict(): void {
    while (this.order.length > this.maxCachedArtifacts) {
      const key = this.order.shift()!;
      const entry = this.compiled.get(key);
      this.compiled.delete(key);
      void entry?.then((outcome) => {
        if (outcome.ok) this.sandbox.discard(outcome.artifactDir);
      });
    }
  }

  /**
   * How a program of `language` compiled as `outcome` starts in a box: its run command (the memory placeholder
   * filled) followed by `args`, its environment, the artifact at `/artifact` and the toolchain's mounts, `limits`
   * after the language's multipliers, and in `/box`: `files`, and for an interpreted language the program's own
   * files (`programFiles`) and its source.
   */
  command(language: Language, source: string, outcome: CompileOutcome & { ok: true }, limits: Limits,
    options: { readonly args?: readonly string[]; readonly files?: Readonly<Record<string, string | Uint8Array>>;
      readonly programFiles?: Readonly<Record<string, string | Uint8Array>> } = {}): BoxCommand {
    const files = options.files ?? {};
    return {
      argv: [...expandArgv(language.run, { memoryLimitMiB: limits.memoryKiB / 1024 }), ...options.args ?? []],
      env: language.env,
      files: outcome.artifactDir ? files : { ...files, ...options.programFiles, [language.sourceFile]: source },
      mounts: [...outcome.artifactDir ? [{ hostPath: outcome.artifactDir, boxPath: ARTIFACT_DIR }] : [], ...toolchainMounts(language, 'run')],
      limits: forLanguage(limits, language),
    };
  }

  /**
   * Run a compiled (or interpreted) program once on `stdin` with `limits` (before language multipliers);
   * `files` are written into the work directory beside it (e.g. a checker's input and answer); `args` are appended
   * to the language's run command (a checker's file names); `programFiles` are the program's own files (see
   * `CompileOptions.files`), which an interpreted language's run needs beside its source.
   * @throws the signal's reason when `signal` aborts (the run under way is killed; no verdict is made of it).
   */
  async runCompiled(language: Language, source: string, outcome: CompileOutcome & { ok: true }, stdin: string,
    limits: Limits, files: Readonly<Record<string, string | Uint8Array>> = {}, signal?: AbortSignal,
    args: readonly string[] = [], programFiles?: Readonly<Record<string, string | Uint8Array>>): Promise<ExecutionResult> {
    this.stats.runs++;
    const command = this.command(language, source, outcome, limits, { args, files, ...(programFiles === undefined ? {} : { programFiles }) });
    const { result } = await this.sandbox.run({ ...command, stdin, signal });
    if (result.cancelled) signal?.throwIfAborted();
    return result;
  }

  /**
   * Run the artifact of a `build` with a command of its own (e.g. `/artifact/checker input.txt ...`) in a fresh box,
   * `files` beside it, feeding `stdin`. Not counted in `stats.runs` (contest packages count their jobs). Never
   * throws for what the program does.
   */
  async runArtifact(built: Built, argv: readonly string[], options: { readonly stdin?: string;
    readonly files?: Readonly<Record<string, string>>; readonly limits: Limits; readonly signal?: AbortSignal | undefined }): Promise<ExecutionResult> {
    const { result } = await this.sandbox.run({
      argv, files: options.files ?? {}, stdin: options.stdin ?? '', limits: options.limits, signal: options.signal,
      mounts: [{ hostPath: built.artifactDir, boxPath: ARTIFACT_DIR }],
    });
    return result;
  }

  /**
   * Compile and run once; a failed compilation is the result. `files` go beside the program and `args` after its
   * run command (see `runCompiled`).
   * @throws the signal's reason once `signal` aborts (checked before each step).
   */
  async runProgram(language: Language, source: string, stdin: string, limits: Limits,
    options: { readonly files?: Readonly<Record<string, string>>; readonly signal?: AbortSignal; readonly args?: readonly string[] } = {}): Promise<ExecutionResult> {
    options.signal?.throwIfAborted();
    const compile = await this.compile(language, source);
    if (!compile.ok) return compile.result;
    options.signal?.throwIfAborted();
    return this.runCompiled(language, source, compile, stdin, limits, options.files, options.signal, options.args);
  }

  /** Discard every cached artifact. */
  async close(): Promise<void> {
    const entries = [...this.compiled.values()];
    this.compiled.clear();
    for (const outcome of await Promise.all(entries)) {
      if (outcome.ok && outcome.artifactDir) this.sandbox.discard(outcome.artifactDir);
    }
  }
}
