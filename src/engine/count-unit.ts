/**
 * Which unit a language's programs are counted in by `crucible eval --efficiency` and the reward's efficiency term
 * (issue #28, item 7; docs/METRICS.md, "Efficiency measured"): callgrind's machine instructions (`callgrind.ts`),
 * a Java program's bytecodes (`jvm-bytecodes.ts`), or nothing. Two counts are compared only when their units match.
 */

/**
 * Languages measured by wall time only: multi-threaded runtimes whose callgrind counts vary between runs (the JVM
 * languages other than Java, whose runs the bytecode counter does not wrap, and the .NET ones on Mono).
 */
export const UNCOUNTED_LANGUAGES: ReadonlySet<string> = new Set(['kotlin', 'kotlin-script', 'scala', 'groovy', 'clojure', 'junit',
  'csharp', 'dafny']);

/** What a count counts: callgrind's machine instructions, or a JVM's bytecodes. */
export type CountUnit = 'instructions' | 'bytecodes';

/** The unit a program of language `languageId` (a registry id) is counted in, or null for `UNCOUNTED_LANGUAGES`. */
export function countUnitOf(languageId: string): CountUnit | null {
  if (languageId === 'java') return 'bytecodes';
  return UNCOUNTED_LANGUAGES.has(languageId) ? null : 'instructions';
}
