/**
 * Validation of the run-directory contract (`records.ts`): the one schema of a `verdicts.jsonl` line, shared
 * by the writer/resumer (`run-store.ts`) and every reader (`crucible report`, `crucible compare`).
 */
import { z } from 'zod';
import { EXECUTION_STATUSES } from '../sandbox/types.js';
import type { SampleRecord, SampleStatus } from './records.js';

/** Every `SampleStatus`, in a stable order for counts and reports. */
export const SAMPLE_STATUSES: readonly SampleStatus[] = [
  'passed',
  'wrong_answer',
  'no_tests',
  'no_code',
  ...EXECUTION_STATUSES.filter((s): s is Exclude<typeof s, 'ok'> => s !== 'ok'),
];

const statusSet = new Set<string>(SAMPLE_STATUSES);
const statusSchema = z.custom<SampleStatus>((v) => typeof v === 'string' && statusSet.has(v), {
  message: `status must be one of ${SAMPLE_STATUSES.join(', ')}`,
});
const nonNegative = z.number().finite().nonnegative();

const testResultSchema = z.object({
  index: z.number().int().nonnegative(),
  status: statusSchema,
  cpuMs: nonNegative.optional(),
  wallMs: nonNegative.optional(),
  reason: z.string().optional(),
});

/** Schema of one `verdicts.jsonl` line (unknown extra keys are dropped). */
export const sampleRecordSchema: z.ZodType<SampleRecord, z.ZodTypeDef, unknown> = z.object({
  taskId: z.string().min(1),
  sampleIndex: z.number().int().nonnegative(),
  programHash: z.string(),
  status: statusSchema,
  passed: z.boolean(),
  plusStatus: statusSchema.optional(),
  plusPassed: z.boolean().optional(),
  tests: z.array(testResultSchema),
  cpuMs: nonNegative,
  wallMs: nonNegative,
  reason: z.string().optional(),
});

