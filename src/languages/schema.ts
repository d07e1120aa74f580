/**
 * The schema of one language file (`languages/<id>.yaml`). Languages are data: adding one needs no code.
 * Paths inside the box: the source lives in the work dir `/box` under `sourceFile`; a compile step runs in
 * its own box whose work dir is then mounted read-only at `/artifact` for every run.
 */
import { z } from 'zod';

/**
 * Placeholders an item of the run's argv may contain, replaced per run (see `expandArgv` in ./argv.ts):
 * `{memoryLimitMiB}` is the caller's memory limit of the run in MiB, before the language's memory multiplier
 * (e.g. a JVM's `-Xmx{memoryLimitMiB}m`: the heap gets what the caller asked for, the multiplier covers the
 * runtime's own footprint, as contest judges do).
 */
export const ARGV_PLACEHOLDERS = ['memoryLimitMiB'] as const;

const placeholder = /\{([A-Za-z]+)\}/g;
const argv = z.array(z.string().min(1)).min(1).describe('command and arguments, absolute paths of real binaries');
/** The run's argv: items may hold placeholders (`ARGV_PLACEHOLDERS`), and only known ones. */
const runArgv = z.array(z.string().min(1).refine((item) => [...item.matchAll(placeholder)]
  .every((m) => (ARGV_PLACEHOLDERS as readonly string[]).includes(m[1]!)),
{ message: `unknown placeholder; allowed: ${ARGV_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}` })).min(1)
  .describe('command and arguments of a run, absolute paths of real binaries, with placeholders');
const env = z.record(z.string()).default({}).describe('extra environment variables');
const absolutePath = z.string().regex(/^\/[^\0]*$/, 'an absolute path').refine((p) => !p.split('/').includes('..'),
  { message: 'no ".." components' });

/** Per-language limit multipliers (applied to the caller's limits) and a process floor. */
export const languageLimitsSchema = z.object({
  cpu: z.number().positive().default(1).describe('multiplier of the CPU and wall time limits'),
  memory: z.number().positive().default(1).describe('multiplier of the memory limit'),
  processes: z.number().int().positive().optional().describe('minimum processes+threads the runtime needs'),
}).strict();

/**
 * A warm-start file made once on the host by `crucible languages --prepare` (which `scripts/setup` runs):
 * e.g. a class-data sharing archive of a JVM language's runtime jars. `script` is trusted bash run on the host in an
 * empty temporary directory with `$OUT` set to `creates` and `$SUPPORT` to languages/support; it is re-run when `creates` is missing or older than any
 * of `from` (the toolchain files it is derived from; `$SUPPORT/<file>` names a file of languages/support). Every run reads `creates` read-only; the language is
 * unavailable until it exists.
 */
export const prepareSchema = z.object({
  creates: absolutePath.refine((p) => p.startsWith('/usr/'), { message: 'must be under /usr (the boxes see /usr only)' }),
  from: z.array(z.union([absolutePath, z.string().regex(/^\$SUPPORT\/[\w.-]+$/, 'an absolute path, or $SUPPORT/<file> for a file of languages/support')])).default([]),
  script: z.string().min(1),
}).strict();

/** One language file, validated. */
export const languageSchema = z.object({
  id: z.string().regex(/^[a-z][a-z0-9_+-]*$/).describe('stable identifier used by --lang'),
  name: z.string().min(1),
  aliases: z.array(z.string()).default([]),
  fenceTags: z.array(z.string().min(1)).default([])
    .describe('tags models write after ``` for this language besides its id and aliases (file extensions such as h or hpp, a '
      + 'dialect\'s family name such as cpp for cpp11); several languages may share a tag'),
  sourceFile: z.string().regex(/^[A-Za-z0-9_.-]+$/).describe('file name of the program inside /box'),
  compile: z.object({
    argv,
    env,
    include: z.array(z.string().regex(/^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/)).default([])
      .describe('files of languages/support/ written next to the source in the compile box (trusted helper scripts)'),
    readOnlyPaths: z.array(absolutePath).default([])
      .describe('host paths outside /usr the compiler alone reads (e.g. /etc/ldc2.conf), bound read-only in the compile box'),
    limits: languageLimitsSchema.default({}).describe('multipliers of the compile limits and a process floor'),
  }).strict().optional().describe('compile step, run once per distinct source'),
  run: runArgv,
  env,
  version: argv.describe('command printing the toolchain version (run on the host; trusted binaries)'),
  packages: z.array(z.string()).min(1).describe('Debian packages that provide the toolchain'),
  limits: languageLimitsSchema.default({}),
  readOnlyPaths: z.array(absolutePath).default([])
    .describe('host paths outside /usr the toolchain reads (e.g. /etc/R), bound read-only at the same path in its boxes'),
  prepare: z.array(prepareSchema).default([]).describe('warm-start files made once at set-up'),
}).strict();

/** A validated language definition. */
export type Language = z.infer<typeof languageSchema>;
/** A warm-start file of a language (see `prepareSchema`). */
export type PrepareStep = z.infer<typeof prepareSchema>;
