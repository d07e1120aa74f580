/**
 * The schema of one language file (`languages/<id>.yaml`). Languages are data: adding one needs no code.
 * Paths inside the box: the source lives in the work dir `/box` under `sourceFile`; a compile step runs in
 * its own box whose work dir is then mounted read-only at `/artifact` for every run.
 */
import { z } from 'zod';

const argv = z.array(z.string().min(1)).min(1).describe('command and arguments, absolute paths of real binaries');
const env = z.record(z.string()).default({}).describe('extra environment variables');

/** Per-language limit multipliers (applied to the caller's limits) and a process floor. */
export const languageLimitsSchema = z.object({
  cpu: z.number().positive().default(1).describe('multiplier of the CPU and wall time limits'),
  memory: z.number().positive().default(1).describe('multiplier of the memory limit'),
  processes: z.number().int().positive().optional().describe('minimum processes+threads the runtime needs'),
}).strict();

/** One language file, validated. */
export const languageSchema = z.object({
  id: z.string().regex(/^[a-z][a-z0-9_+-]*$/).describe('stable identifier used by --lang'),
  name: z.string().min(1),
  aliases: z.array(z.string()).default([]),
  sourceFile: z.string().regex(/^[A-Za-z0-9_.-]+$/).describe('file name of the program inside /box'),
  compile: z.object({ argv, env }).strict().optional().describe('compile step, run once per distinct source'),
  run: argv,
  env,
  version: argv.describe('command printing the toolchain version (run on the host; trusted binaries)'),
  packages: z.array(z.string()).min(1).describe('Debian packages that provide the toolchain'),
  limits: languageLimitsSchema.default({}),
}).strict();

/** A validated language definition. */
export type Language = z.infer<typeof languageSchema>;
