/**
 * Validation of the run-directory contract (`records.ts`): the one schema of a `verdicts.jsonl` line, shared
 * by the writer/resumer (`run-store.ts`) and every reader (`crucible report`, `crucible compare`).
 */
import { z } from 'zod';
import { formalCheckSchema, sampleStatusSchema, testResultSchema } from '../verdict/index.js';
import type { SampleRecord } from './records.js';

const nonNegative = z.number().finite().nonnegative();

/** Schema of one `verdicts.jsonl` line (unknown extra keys are dropped). */
export const sampleRecordSchema: z.ZodType<SampleRecord, z.ZodTypeDef, unknown> = z.object({
  taskId: z.string().min(1),
  sampleIndex: z.number().int().nonnegative(),
  programHash: z.string(),
  status: sampleStatusSchema,
  passed: z.boolean(),
  plusStatus: sampleStatusSchema.optional(),
  plusPassed: z.boolean().optional(),
  tests: z.array(testResultSchema),
  cpuMs: nonNegative,
  wallMs: nonNegative,
  reason: z.string().optional(),
  score: z.number().min(0).max(1).optional(),
  judgedBy: z.object({ worker: z.string().min(1), crucibleVersion: z.string(), toolchain: z.string().nullable() }).optional(),
  analysis: z.object({
    findings: z.number().int().nonnegative(), errors: z.number().int().nonnegative(), warnings: z.number().int().nonnegative(),
    infos: z.number().int().nonnegative(), security: z.number().int().nonnegative(), securityPerKloc: nonNegative,
    lines: z.number().int().nonnegative(),
    failed: z.array(z.enum(['shellcheck', 'cppcheck', 'pylint', 'pyflakes', 'bandit', 'eslint'])),
  }).optional(),
  formal: formalCheckSchema.optional(),
  completion: z.string().optional(),
  completionSha256: z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex').optional(),
});
