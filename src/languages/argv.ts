/**
 * What a language file says a box needs, made concrete for one run: argv with its placeholders replaced
 * (schema.ts `ARGV_PLACEHOLDERS`) and the read-only mounts of the toolchain's host paths.
 */
import type { Mount } from '../sandbox/types.js';
import type { Language } from './schema.js';

/** Values of the argv placeholders for one run. `memoryLimitMiB`: the caller's memory limit, before multipliers. */
export interface ArgvValues {
  readonly memoryLimitMiB: number;
}

/** Replace `{memoryLimitMiB}` (whole MiB, at least 1) in every item of `argv`. */
export function expandArgv(argv: readonly string[], values: ArgvValues): string[] {
  const memory = String(Math.max(1, Math.floor(values.memoryLimitMiB)));
  return argv.map((item) => item.replaceAll('{memoryLimitMiB}', memory));
}

/**
 * Read-only binds of the host paths a box of `language` needs, at the same path inside: its `readOnlyPaths`, and
 * for the compile box also `compile.readOnlyPaths`.
 */
export function toolchainMounts(language: Language, box: 'compile' | 'run'): Mount[] {
  const paths = [...language.readOnlyPaths, ...box === 'compile' ? language.compile?.readOnlyPaths ?? [] : []];
  return paths.map((path) => ({ hostPath: path, boxPath: path }));
}
