/**
 * Compile once, run many. The executor turns (language, source, input) into sandboxed executions:
 * a compiled language is compiled in its own box with its own limits, at most once per distinct
 * (language, source) — concurrent requests for the same source share one compilation — and the artifact
 * directory is mounted read-only at `/artifact` in every run.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { expandArgv, toolchainMounts } from '../languages/argv.js';
import type { Language } from '../languages/schema.js';
import type { LanguageRegistry } from '../languages/registry.js';
import type { Sandbox } from '../sandbox/index.js';
import type { ExecutionResult, Limits } from '../sandbox/types.js';
import { DEFAULT_COMPILE_LIMITS, forLanguage, scaleLimits } from '../limits.js';

/** Result of a compile step: an artifact to run, or the verdict that stops the program here. */
export type CompileOutcome =
  | { readonly ok: true; readonly artifactDir: string | null; readonly result: ExecutionResult | null }
  | { readonly ok: false; readonly result: ExecutionResult };

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

const ARTIFACT = '/artifact';

/** Bytes copied back of one collected file at most (`Executor.runProgramCollecting`). */
export const COLLECT_MAX_BYTES = 64 * 1024;

/**
 * The text of the regular file `relative` under `workDir` (a run's kept work directory; the run is over, so
 * nothing in the box changes it now), at most `COLLECT_MAX_BYTES`, or undefined when it is missing, is not a
 * regular file, or any component of its path is a symbolic link (a program must not make Crucible read a host
 * file through a link it left behind).
 */
function readCollected(workDir: string, relative: string): string | undefined {
  const parts = relative.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) return undefined;
  let fd: number | undefined;
  try {
    for (let i = 1; i < parts.length; i++) {
      if (!lstatSync(join(workDir, ...parts.slice(0, i))).isDirectory()) return undefined;
    }
    fd = openSync(join(workDir, relative), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(COLLECT_MAX_BYTES);
    let length = 0;
    for (let n = -1; n !== 0 && length < buffer.length;) {
      n = readSync(fd, buffer, length, buffer.length - length, null);
      length += n;
    }
    return buffer.subarray(0, length).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Orchestrates compile + run on a sandbox. Owns the compile cache; `close()` discards artifacts. */
export class Executor {
  private readonly compiled = new Map<string, Promise<CompileOutcome>>();
  private readonly order: string[] = [];

  constructor(readonly sandbox: Sandbox, readonly languages: LanguageRegistry,
    private readonly maxCachedArtifacts = 512) {}

  /** Statistics for benchmarks and metrics. */
  readonly stats = { compilations: 0, compileCacheHits: 0, runs: 0 };

  /**
   * Compile `source` (no-op for interpreted languages), with `files` (a submission's extra files, name ->
   * contents) beside it in the compile box; the language's own support files and the source win over a file of the
   * same name. A failing compiler exit is `compile_error`; a
   * compiler that exceeds its own limits on this source is `compile_error` too (the program caused it);
   * `internal_error` stays `internal_error`. The language's compile multipliers apply to `compileLimits`.
   */
  compile(language: Language, source: string, compileLimits: Limits = DEFAULT_COMPILE_LIMITS,
    files: Readonly<Record<string, string | Uint8Array>> = {}): Promise<CompileOutcome> {
    if (!language.compile) return Promise.resolve({ ok: true, artifactDir: null, result: null });
    const key = Object.keys(files).length === 0 ? programHash(language.id, source) : `${programHash(language.id, source)}+${filesHash(files)}`;
    const cached = this.compiled.get(key);
    if (cached) {
      this.stats.compileCacheHits++;
      return cached;
    }
    this.stats.compilations++;
    const compile = language.compile;
    const pending = this.sandbox.run({
      argv: compile.argv,
      env: { ...language.env, ...compile.env },
      files: { ...files, ...this.languages.compileFiles(language), [language.sourceFile]: source },
      mounts: toolchainMounts(language, 'compile'),
      limits: scaleLimits(compileLimits, compile.limits),
      keepWorkDir: true,
    }).then(({ result, workDir }): CompileOutcome => {
      if (result.status === 'ok') return { ok: true, artifactDir: workDir ?? null, result };
      if (workDir) this.sandbox.discard(workDir);
      if (result.status === 'internal_error') return { ok: false, result };
      const why = result.status === 'runtime_error' ? 'compilation failed' : `compiler stopped: ${result.reason ?? result.status}`;
      return { ok: false, result: { ...result, status: 'compile_error', reason: why } };
    });
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
        if (outcome.ok && outcome.artifactDir) this.sandbox.discard(outcome.artifactDir);
      });
    }
  }

  /**
   * Run a compiled (or interpreted) program once on `stdin` with `limits` (before language multipliers);
   * `files` are written into the work directory beside it (e.g. a checker's input and answer); `args` are appended
   * to the language's run command (a checker's file names).
   * @throws the signal's reason when `signal` aborts (the run under way is killed; no verdict is made of it).
   */
  async runCompiled(language: Language, source: string, outcome: CompileOutcome & { ok: true }, stdin: string,
    limits: Limits, files: Readonly<Record<string, string | Uint8Array>> = {}, signal?: AbortSignal,
    args: readonly string[] = []): Promise<ExecutionResult> {
    this.stats.runs++;
    const { result } = await this.sandbox.run({
      argv: [...expandArgv(language.run, { memoryLimitMiB: limits.memoryKiB / 1024 }), ...args],
      env: language.env,
      files: outcome.artifactDir ? files : { ...files, [language.sourceFile]: source },
      mounts: [...outcome.artifactDir ? [{ hostPath: outcome.artifactDir, boxPath: ARTIFACT }] : [], ...toolchainMounts(language, 'run')],
      stdin,
      limits: forLanguage(limits, language),
      signal,
    });
    if (result.cancelled) signal?.throwIfAborted();
    return result;
  }

  /**
   * Compile if needed, then run on each input in order, handing every result to `onResult` (the caller's
   * judgement, possibly running more programs), which says whether that input failed. With `failFast`, stops
   * after the first failed input; results then cover only the inputs that ran. A compile failure returns
   * `{compile}` with no runs.
   * Cancellation: `signal` is checked before the compilation and before each run; once it aborts no further
   * execution starts, the run under way is killed, and the call rejects with the signal's reason.
   */
  async runMany(language: Language, source: string, inputs: readonly string[], limits: Limits,
    options: { readonly failFast?: boolean; readonly signal?: AbortSignal;
      readonly onResult?: (index: number, result: ExecutionResult) => boolean | Promise<boolean> } = {},
  ): Promise<{ readonly compile: CompileOutcome; readonly runs: readonly ExecutionResult[] }> {
    options.signal?.throwIfAborted();
    const compile = await this.compile(language, source);
    if (!compile.ok) return { compile, runs: [] };
    const runs: ExecutionResult[] = [];
    for (let i = 0; i < inputs.length; i++) {
      options.signal?.throwIfAborted();
      const result = await this.runCompiled(language, source, compile, inputs[i]!, limits, {}, options.signal);
      runs.push(result);
      const failed = options.onResult ? await options.onResult(i, result) : result.status !== 'ok';
      if (options.failFast && failed) break;
    }
    return { compile, runs };
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

  /**
   * `runProgram`, then the regular files `collect` names (paths relative to the work directory, e.g. a Kattis
   * output validator's `feedback/score.txt`) copied back as text (`readCollected`: at most `COLLECT_MAX_BYTES`
   * each; missing files and links are left out); the work directory is discarded after. A failed compilation
   * collects nothing.
   * @throws the signal's reason once `signal` aborts (checked before each step).
   */
  async runProgramCollecting(language: Language, source: string, stdin: string, limits: Limits,
    options: { readonly files?: Readonly<Record<string, string>>; readonly signal?: AbortSignal; readonly args?: readonly string[];
      readonly collect: readonly string[] }): Promise<{ readonly result: ExecutionResult; readonly collected: Readonly<Record<string, string>> }> {
    const { signal } = options;
    signal?.throwIfAborted();
    const compile = await this.compile(language, source);
    if (!compile.ok) return { result: compile.result, collected: {} };
    signal?.throwIfAborted();
    this.stats.runs++;
    const files = options.files ?? {};
    const { result, workDir } = await this.sandbox.run({
      argv: [...expandArgv(language.run, { memoryLimitMiB: limits.memoryKiB / 1024 }), ...options.args ?? []],
      env: language.env,
      files: compile.artifactDir ? files : { ...files, [language.sourceFile]: source },
      mounts: [...compile.artifactDir ? [{ hostPath: compile.artifactDir, boxPath: ARTIFACT }] : [], ...toolchainMounts(language, 'run')],
      stdin,
      limits: forLanguage(limits, language),
      signal,
      keepWorkDir: true,
    });
    const collected: Record<string, string> = {};
    if (workDir !== undefined) {
      for (const name of options.collect) {
        const text = readCollected(workDir, name);
        if (text !== undefined) collected[name] = text;
      }
      this.sandbox.discard(workDir);
    }
    if (result.cancelled) signal?.throwIfAborted();
    return { result, collected };
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
