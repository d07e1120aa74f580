/**
 * What travels through Redis between a `QueueJudge` (front ends) and `crucible worker`s, and its zod schemas.
 * Both sides validate everything they read back from Redis: a job's payload (worker side), a job's result and
 * a shipped dataset (front end and worker side). Redis itself is inside the trust boundary (docs/SCALING.md):
 * validation guards against version skew and corruption, not against an attacker who can write to Redis.
 *
 * Keys (all under the queue's prefix, default `crucible`, and queue name, default `judge`):
 * - BullMQ's own keys for the queue (`<prefix>:<queue>:*`, BullMQ's layout);
 * - `<prefix>:<queue>:dataset:<datasetHash>`: a dataset's problems as JSON (`ShippedDataset`), written once by
 *   the first front end that uses it (content-addressed: the hash is the sha256 of the problems file), read
 *   once per worker; it expires a day (`QueueJudgeOptions.datasetTtlS`) after the last front end using it stopped;
 * - `<prefix>:<queue>:worker:<name>`: a worker's advertisement (`WorkerAdvert`), refreshed while it runs,
 *   with a time to live so a dead worker drops out of the fleet.
 */
import { z } from 'zod';
import { ComparatorSchema } from '../formats/crucible.js';
import { LIMIT_RANGES, outOfRange, type LimitRange, type LimitUnit } from '../limits.js';
import { LOG_PARSERS, SQL_COMPARATOR_NAMES, type Problem } from '../formats/types.js';
import type { JudgeRequest, JudgeRequestField, ProblemSpec } from '../judge/judge.js';
import type { PackageOutcome } from '../judge/plan.js';
import { pyValueSchema } from '../verdict/pyvalue.js';
import { sampleStatusSchema } from '../verdict/status.js';
import { testResultSchema } from '../verdict/verdict.js';
import { formalCheckSchema } from '../verdict/formal.js';
import { ANALYZER_IDS, type AnalyzerId, type DetailedVerdict, type FailedTestDetail, type JudgedBy } from '../verdict/index.js';
import { harnessResponseSchema, type HarnessJob, type HarnessResponse } from '../judge/harness/protocol.js';
import { EXECUTION_STATUSES, type ExecutionResult, type ExecutionStatus } from '../sandbox/types.js';

/** Version of the payloads below; a worker refuses (fails) a job of another version. */
export const WIRE_VERSION = 2;

/** Default key prefix and queue name. */
export const DEFAULT_PREFIX = 'crucible';
export const DEFAULT_QUEUE_NAME = 'judge';

/** Redis key of a shipped dataset. */
export function datasetKey(prefix: string, queueName: string, datasetHash: string): string {
  return `${prefix}:${queueName}:dataset:${datasetHash}`;
}

/**
 * Redis key of the fleet's counters (a hash written by workers with HINCRBY): `retries` (attempts that failed
 * and were retried), `stalled` (jobs taken back from a worker that stopped renewing its lock), `deadLetters`
 * (jobs that failed for good: BullMQ's failed set, reported as `internal_error`).
 */
export function statsKey(prefix: string, queueName: string): string {
  return `${prefix}:${queueName}:fleet-stats`;
}

/** Redis key of a worker's advertisement, and the pattern that matches every worker's. */
export function workerKey(prefix: string, queueName: string, name: string): string {
  return `${prefix}:${queueName}:worker:${name}`;
}

const text = z.string();
const positiveInt = z.number().int().positive();
const nonNegative = z.number().finite().nonnegative();

const unitTestSchema = z.object({
  kind: z.literal('unit_test'), taskId: text.min(1), language: z.literal('python'), prompt: text, entryPoint: text, test: text,
  canonicalSolution: text.optional(),
});
const callSchema = z.object({
  kind: z.literal('call'), taskId: text.min(1), language: z.literal('python'), prompt: text, entryPoint: text,
  canonicalSolution: text, baseInputs: z.array(z.array(pyValueSchema)), plusInputs: z.array(z.array(pyValueSchema)),
  atol: nonNegative, evalplusDataset: z.enum(['humaneval', 'mbpp']), test: text.optional(),
});
const ioSchema = z.object({
  kind: z.literal('io'), taskId: text.min(1), language: text.min(1).optional(), statement: text.optional(),
  tests: z.array(z.object({ input: text, output: text })), comparator: ComparatorSchema,
  timeLimitMs: positiveInt.optional(), memoryLimitKiB: positiveInt.optional(),
  referenceSolution: z.object({ language: text.min(1), code: text }).optional(), releaseDate: text.optional(),
  difficulty: text.optional(), platform: text.optional(), title: text.optional(),
});
const assertionsSchema = z.object({
  kind: z.literal('assertions'), taskId: text.min(1), language: z.literal('python'), prompt: text, entryPoint: text,
  assertions: z.array(text),
});

const pythonScriptSchema = z.object({
  kind: z.literal('python_script'), taskId: text.min(1), language: z.literal('python'), statement: text, setup: text,
  tests: z.array(text), canonicalSolution: text.optional(), timeLimitMs: positiveInt.optional(),
});
const expectedCallSchema = z.object({
  kind: z.literal('expected_call'), taskId: text.min(1), language: z.literal('python'), prompt: text, entryPoint: text,
  tests: z.array(z.object({ args: z.array(pyValueSchema), expected: pyValueSchema })), rule: z.enum(['livecodebench', 'apps']),
  statement: text.optional(), timeLimitMs: positiveInt.optional(), releaseDate: text.optional(),
  difficulty: text.optional(), platform: text.optional(), title: text.optional(),
});
const repositorySchema = z.object({
  kind: z.literal('repository'), taskId: text.min(1), repo: text.regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/),
  baseCommit: text.regex(/^[0-9a-f]{40}$/), goldPatch: text, testPatch: text, failToPass: z.array(text.min(1)).min(1),
  passToPass: z.array(text.min(1)), statement: text, installCmd: text.min(1), testCmd: text.min(1), testFiles: z.array(text.min(1)).min(1),
  logParser: z.enum(LOG_PARSERS), installScripts: z.boolean(), protectedFiles: z.array(text.min(1)), canary: z.boolean(),
  source: z.object({ kind: z.enum(['git', 'bundle', 'dir']), path: text.min(1) }).optional(),
  timeLimitMs: positiveInt.optional(), memoryLimitKiB: positiveInt.optional(), hints: text.optional(), version: text.optional(),
  createdAt: text.optional(), nodeVersion: text.optional(), environmentSetupCommit: text.optional(),
});
/** `ProofProblem` (`src/formats/types.ts`), by checker: the statement, reference and allowlists travel whole. */
const proofBase = { kind: z.literal('proof'), taskId: text.min(1), prompt: text.optional() };
const proofSchema = z.discriminatedUnion('checker', [
  z.object({ ...proofBase, checker: z.literal('coq'), statement: text, reference: text.optional(), theorems: z.array(text.min(1)),
    definitions: z.array(text.min(1)).optional(), allowedAxioms: z.array(text.min(1)).optional() }),
  z.object({ ...proofBase, checker: z.literal('dafny'), statement: text, reference: text.optional() }),
  z.object({ ...proofBase, checker: z.literal('smt'), expected: z.enum(['sat', 'unsat']), solver: z.enum(['z3', 'cvc5']), statement: text.optional() }),
  z.object({ ...proofBase, checker: z.literal('lean'), statement: text, theorems: z.array(text.min(1)), allowedAxioms: z.array(text.min(1)).optional() }),
]);
/** The kinds whose shape the wire checks field by field. */
const CHECKED_KINDS = new Set(['unit_test', 'call', 'io', 'assertions', 'python_script', 'expected_call', 'checker', 'ioi', 'sql', 'verilog',
  'repository', 'proof']);

const namedFile = z.object({ name: text.min(1), content: text });
const checkerSchema = z.object({
  kind: z.literal('checker'), taskId: text.min(1), language: text.min(1).optional(),
  tests: z.array(z.object({ input: text, output: text })),
  checker: z.object({ kind: z.enum(['testlib', 'python', 'cms']), source: text, testlibHeader: text.optional() }),
  subtasks: z.array(z.object({ name: text.optional(), points: nonNegative, tests: z.array(z.number().int().nonnegative()) })).optional(),
  timeLimitMs: positiveInt.optional(), memoryLimitKiB: positiveInt.optional(),
});
const ioiSchema = z.object({
  kind: z.literal('ioi'), taskId: text.min(1), problemId: text.min(1), language: z.literal('cpp'), name: text.optional(),
  statement: text.optional(), starterCode: text.optional(), graderFiles: z.array(namedFile),
  tests: z.array(z.object({ name: text.min(1), input: text, output: text })),
  subtasks: z.array(z.object({ name: text, points: nonNegative, tests: z.array(z.number().int().nonnegative()) })),
  scorePrecision: z.number().int().min(0).max(10), timeLimitMs: positiveInt, memoryLimitKiB: positiveInt,
});
/**
 * `SqlProblem` (`src/formats/types.ts`). An instance given by `path` names a file on the WORKER's machine (Spider's
 * and BIRD's databases are read where the worker finds them, never shipped); one given as `sql` travels as text.
 */
const sqlSchema = z.object({
  kind: z.literal('sql'), taskId: text.min(1), dbId: text.min(1), question: text.optional(), evidence: text.optional(),
  difficulty: text.optional(), engine: z.enum(['sqlite', 'postgres']),
  databases: z.array(z.union([z.object({ path: text.min(1) }).strict(), z.object({ sql: text }).strict()])).min(1),
  gold: text, comparators: z.array(z.enum(SQL_COMPARATOR_NAMES)).min(1), keepDistinct: z.boolean().optional(),
  floatDecimals: z.number().int().min(0).max(15).optional(), timeLimitMs: positiveInt.optional(),
});
/** `VerilogProblem` (`src/formats/types.ts`): the trusted texts travel whole. */
const verilogSchema = z.object({
  kind: z.literal('verilog'), taskId: text.min(1), preset: z.enum(['verilog-eval', 'rtllm', 'codev']), prompt: text,
  topModule: text, reference: text, testbench: text.optional(), interface: text.optional(), files: z.array(namedFile).optional(),
  codev: z.object({ sequences: positiveInt.max(10_000), steps: positiveInt.max(100_000), seed: z.number().int() }).optional(), timeLimitMs: positiveInt.optional(),
  formal: z.boolean().optional(), synthesis: z.boolean().optional(),
});

/**
 * A problem of any kind a judging mode judges. The built-in kinds with a fixed shape (`Problem`,
 * `src/formats/types.ts`) are checked field by field; any other kind (`script`, or one a caller registers with
 * `defaultModes().with(mode)`) travels as the object it is, with its `kind` and `taskId` checked: the worker's
 * mode registry judges it, and refuses a kind it does not know (`request_error`, like an unknown language).
 */
export const problemSchema: z.ZodType<Problem, z.ZodTypeDef, unknown> = z.union([
  z.discriminatedUnion('kind', [unitTestSchema, callSchema, ioSchema, assertionsSchema, pythonScriptSchema,
    expectedCallSchema, checkerSchema, ioiSchema, sqlSchema, verilogSchema, repositorySchema]),
  proofSchema,
  // Fatal, so that a checked kind of the wrong shape is answered with its own field's issue (`zodMessage`).
  z.object({ kind: text.min(1).superRefine((k, ctx) => {
    if (CHECKED_KINDS.has(k)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'a built-in kind with the wrong shape', fatal: true });
  }), taskId: text.min(1) }).passthrough(),
]) as unknown as z.ZodType<Problem, z.ZodTypeDef, unknown>;

/** A dataset as shipped once to Redis: its problems, in file order. */
export const shippedDatasetSchema = z.object({ v: z.literal(WIRE_VERSION), problems: z.array(problemSchema) });
export type ShippedDataset = z.infer<typeof shippedDatasetSchema>;

const harnessLimits = { cpuMs: positiveInt, wallMs: positiveInt, memoryKiB: positiveInt, outputBytes: positiveInt };
/** A raw harness job (`HarnessJob`, `src/judge/harness/protocol.ts`); the harness checks its own fields again. */
const harnessJobSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('unit_test'), program: text, prelude: text, test: text, entryPoint: text, ...harnessLimits }),
  z.object({ mode: z.literal('script'), program: text, asserts: z.array(text), ...harnessLimits }),
  z.object({ mode: z.literal('call'), program: text, entryPoint: text, inputs: z.array(z.unknown()), failFast: z.boolean().optional(),
    stopAfterTimeouts: z.number().int().positive().optional(), ...harnessLimits }),
  z.object({ mode: z.literal('assertions'), program: text, prelude: text, entryPoint: text, assertions: z.array(text), ...harnessLimits }),
]);

const limitsSchema = z.object({ cpuMs: positiveInt.optional(), memoryKiB: positiveInt.optional(), outputBytes: positiveInt.optional() });
const problemSpecSchema = z.union([
  z.object({ datasetHash: z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex'), taskId: text.min(1) }).strict(),
  z.object({ inline: problemSchema }).strict(),
]);

const analyzerIdSchema = z.enum(ANALYZER_IDS as [AnalyzerId, ...AnalyzerId[]]);
/** `JudgeRequest.analysis`: every analyser of the program's language, or the analysers named. */
const analysisOptionSchema = z.union([z.literal(true), z.array(analyzerIdSchema).min(1).max(ANALYZER_IDS.length)]);

const judgePayloadSchema = z.object({
  v: z.literal(WIRE_VERSION), kind: z.literal('judge'), detail: z.boolean(),
  request: z.object({
    problem: problemSpecSchema, program: z.object({ language: text.min(1), source: text }),
    failFast: z.boolean().optional(), stopAfterTimeouts: z.number().int().positive().optional(), limits: limitsSchema.optional(), analysis: analysisOptionSchema.optional(),
  }),
});

/** Most `judge` requests one `batch` job carries. */
export const MAX_BATCH = 64;

/**
 * The payload of one job (BullMQ job data): what to judge, and whether the caller wants the verdict's detail.
 * A `batch` carries several `judge` requests (submitted together by one front end, same priority and tenant) so
 * the queue's per-job cost is paid once for all of them; its result holds one answer per request, in order.
 */
export const jobPayloadSchema = z.discriminatedUnion('kind', [
  judgePayloadSchema,
  z.object({ v: z.literal(WIRE_VERSION), kind: z.literal('batch'), items: z.array(judgePayloadSchema).min(1).max(MAX_BATCH) }),
  z.object({ v: z.literal(WIRE_VERSION), kind: z.literal('describe'), problem: problemSpecSchema }),
  z.object({
    v: z.literal(WIRE_VERSION), kind: z.literal('plain'),
    request: z.object({
      program: z.object({ language: text.min(1), source: text }), stdin: text,
      /** The submission's extra files (relative path -> base64 bytes; the worker's sandbox checks the paths). */
      files: z.record(text, z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64')).optional(),
      limits: z.object({
        cpuMs: positiveInt, wallMs: positiveInt.optional(), memoryKiB: positiveInt, outputBytes: positiveInt.optional(),
        compileCpuMs: positiveInt.optional(),
      }),
    }),
  }),
  z.object({ v: z.literal(WIRE_VERSION), kind: z.literal('harness'), job: harnessJobSchema }),
  z.object({
    v: z.literal(WIRE_VERSION), kind: z.literal('package'),
    request: z.object({
      package: z.enum(['codeforces', 'cms_ioi']), language: text.min(1), files: z.array(z.object({ name: text, content: text })).min(1),
      runCpuMs: positiveInt, runWallMs: positiveInt.optional(), memoryKiB: positiveInt,
      maxCpuMs: positiveInt.optional(), maxMemoryKiB: positiveInt.optional(),
    }),
  }),
]);
export type JobPayload = z.infer<typeof jobPayloadSchema>;

/**
 * What a job asks of a worker, by payload kind: `judge` and `describe` name a problem, `plain`, `harness` and
 * `package` (a Piston contest-package job, `PackageRequest`) do not.
 */
export type JobKind = JobPayload['kind'];

/** A problem spec as a job carries it (a `ProblemSpec` types its inline problem loosely; workers validate it). */
export function wireProblemSpec(spec: ProblemSpec): z.infer<typeof problemSpecSchema> {
  return spec as z.infer<typeof problemSpecSchema>;
}

/** A harness job as a job carries it (the same fields; `HarnessJob` types its arrays read-only). */
export function wireHarnessJob(job: HarnessJob): Extract<JobPayload, { kind: 'harness' }>['job'] {
  return job as Extract<JobPayload, { kind: 'harness' }>['job'];
}

/** The payload of a `judge` job for a request (what `QueueJudge.judge` adds). */
export function judgePayload(request: JudgeRequest, detail: boolean): JobPayload {
  return {
    v: WIRE_VERSION, kind: 'judge', detail,
    request: {
      problem: wireProblemSpec(request.problem),
      program: { language: request.program.language, source: request.program.source },
      ...(request.failFast === undefined ? {} : { failFast: request.failFast }),
      ...(request.stopAfterTimeouts === undefined ? {} : { stopAfterTimeouts: request.stopAfterTimeouts }),
      ...(request.limits === undefined ? {} : { limits: { ...request.limits } }),
      ...(request.analysis === undefined ? {} : { analysis: request.analysis === true ? true : [...request.analysis] }),
    },
  };
}

const failedTestDetailSchema = z.object({
  index: z.number().int().nonnegative(), input: text.optional(), expected: text.optional(), actual: text.optional(),
  stderr: text.optional(), cut: z.array(z.enum(['input', 'expected', 'actual', 'stderr'])).optional(),
});

/** A static analysis as a worker returns it (`AnalysisReport`, `src/verdict/analysis.ts`), checked field by field. */
const analysisReportSchema = z.object({
  lines: z.number().int().nonnegative(),
  outcomes: z.array(z.discriminatedUnion('status', [
    z.object({ tool: analyzerIdSchema, status: z.literal('ok'), findings: z.array(z.object({
      tool: analyzerIdSchema, rule: text, severity: z.enum(['error', 'warning', 'info']), security: z.boolean(),
      line: z.number().int().nonnegative(), column: z.number().int().nonnegative().optional(), message: text,
    }).strict()) }).strict(),
    z.object({ tool: analyzerIdSchema, status: z.literal('failed'), reason: text }).strict(),
  ])),
}).strict();

/** A verdict as a worker returns it (with its detail when the job asked for it, its analysis when the request did). */
export const verdictSchema = z.object({
  status: sampleStatusSchema, passed: z.boolean(), plusStatus: sampleStatusSchema.optional(), plusPassed: z.boolean().optional(),
  tests: z.array(testResultSchema), testCount: z.number().int().nonnegative(), cpuMs: nonNegative, wallMs: nonNegative,
  reason: text.optional(), score: z.number().min(0).max(1).optional(), formal: formalCheckSchema.optional(),
  notRun: z.number().int().positive().optional(),
  detail: z.object({ failures: z.array(failedTestDetailSchema).optional(), stderr: text.optional(), memoryKiB: nonNegative.optional() }).optional(),
  analysis: analysisReportSchema.optional(),
});

/** One execution as a worker returns it (`ExecutionResult`, `src/sandbox/types.ts`). */
const executionResultSchema = z.object({
  status: z.enum(EXECUTION_STATUSES as [ExecutionStatus, ...ExecutionStatus[]]), exitCode: z.number().int().nullable(),
  signal: text.nullable(), cpuMs: nonNegative, wallMs: nonNegative, memoryKiB: nonNegative, stdout: text, stderr: text,
  stdoutTruncated: z.boolean(), stderrTruncated: z.boolean(), memoryEnforcement: z.enum(['cgroup', 'rlimit_as']),
  reason: text.optional(), cancelled: z.literal(true).optional(),
});

/** One stage of a contest package's answer (`ScriptStage`, `src/judge/plan.ts`). */
const scriptStageSchema = z.object({
  stdout: text, stderr: text, code: z.number().int().nullable(), signal: text.nullable(), status: text.nullable(),
  message: text.nullable(), cpuMs: nonNegative, wallMs: nonNegative, memoryKiB: nonNegative,
});

/** A contest package's answer (`PackageOutcome`, `src/judge/plan.ts`). */
const packageOutcomeSchema = z.object({
  compile: scriptStageSchema, run: scriptStageSchema.nullable(),
  programStatus: z.enum(EXECUTION_STATUSES as [ExecutionStatus, ...ExecutionStatus[]]).optional(),
});

/**
 * Who judged: the worker's name, its Crucible version and the version of the toolchain of the job's language
 * (null for a job of no language, or where the version command failed).
 */
export const provenanceSchema = z.object({ worker: text.min(1), crucibleVersion: text, toolchain: text.nullable() });
/** Who answered a job (`JudgedBy`, `src/verdict/detail.ts`): the toolchain is that of the job's language. */
export type WorkerProvenance = JudgedBy;

/**
 * A job's result (BullMQ return value). A request the worker's judge refused (`JudgeRequestError`: unknown
 * language, task, limits out of range) is an answer too, `request_error`, and is not retried; Crucible's own
 * failures make the job fail instead (BullMQ retries it, then the front end reports `internal_error`).
 */
const verdictResultSchema = z.object({ kind: z.literal('verdict'), verdict: verdictSchema, provenance: provenanceSchema });
const requestErrorSchema = z.object({
  kind: z.literal('request_error'), message: text, field: z.enum(['problem', 'program.language', 'limits', 'files', 'language']),
  provenance: provenanceSchema,
});

export const jobResultSchema = z.discriminatedUnion('kind', [
  verdictResultSchema,
  z.object({
    kind: z.literal('batch'), provenance: provenanceSchema,
    results: z.array(z.discriminatedUnion('kind', [verdictResultSchema, requestErrorSchema])),
  }),
  z.object({ kind: z.literal('tests'), tests: z.array(failedTestDetailSchema), provenance: provenanceSchema }),
  z.object({ kind: z.literal('plain'), compile: executionResultSchema.nullable(), run: executionResultSchema.nullable(), provenance: provenanceSchema }),
  z.object({ kind: z.literal('harness'), response: harnessResponseSchema, provenance: provenanceSchema }),
  z.object({ kind: z.literal('package'), outcome: packageOutcomeSchema, provenance: provenanceSchema }),
  requestErrorSchema,
]);
export type JobResult = z.infer<typeof jobResultSchema>;

/** A job's result as a worker writes it (the shapes `jobResultSchema` reads back). */
export type JobAnswer =
  | VerdictAnswer
  | { readonly kind: 'tests'; readonly tests: readonly FailedTestDetail[]; readonly provenance: WorkerProvenance }
  | { readonly kind: 'plain'; readonly compile: ExecutionResult | null; readonly run: ExecutionResult | null; readonly provenance: WorkerProvenance }
  | { readonly kind: 'harness'; readonly response: HarnessResponse; readonly provenance: WorkerProvenance }
  | { readonly kind: 'package'; readonly outcome: PackageOutcome; readonly provenance: WorkerProvenance }
  | RequestErrorAnswer
  | { readonly kind: 'batch'; readonly results: readonly (VerdictAnswer | RequestErrorAnswer)[]; readonly provenance: WorkerProvenance };

/** The answer to one `judge` request. */
export interface VerdictAnswer { readonly kind: 'verdict'; readonly verdict: DetailedVerdict; readonly provenance: WorkerProvenance }
/** A request the worker's judge refused. */
export interface RequestErrorAnswer {
  readonly kind: 'request_error'; readonly message: string; readonly field: JudgeRequestField; readonly provenance: WorkerProvenance;
}

/** The verdict of a result, typed as the judge returns it. */
export function resultVerdict(result: Extract<JobResult, { kind: 'verdict' }>): DetailedVerdict {
  return result.verdict as DetailedVerdict;
}

/** The test descriptions of a result, typed as the judge returns them. */
export function resultTests(result: Extract<JobResult, { kind: 'tests' }>): readonly FailedTestDetail[] {
  return result.tests as readonly FailedTestDetail[];
}

/**
 * A worker's advertisement: its name, one-shot slots and warm harness boxes, the languages it can run, when it
 * started and last refreshed (ms since the epoch), whether it is draining (takes no new jobs), the jobs it
 * holds at most (`concurrency`) and held at the last refresh (`inFlight`).
 */
export const workerAdvertSchema = z.object({
  name: text.min(1), slots: positiveInt, harnessSlots: z.number().int().nonnegative(), languages: z.array(text),
  crucibleVersion: text, startedAtMs: nonNegative, refreshedAtMs: nonNegative, draining: z.boolean(), pid: positiveInt,
  host: text, concurrency: positiveInt.optional(), inFlight: z.number().int().nonnegative().default(0),
});
export type WorkerAdvert = z.output<typeof workerAdvertSchema>;

/** The ranges a job's limits must be in (`LIMIT_RANGES`), by field name, with their units. */
const WIRE_LIMITS: Readonly<Record<string, LimitRange & { readonly unit: LimitUnit }>> = {
  cpuMs: { ...LIMIT_RANGES.cpuMs, unit: 'ms' },
  wallMs: { ...LIMIT_RANGES.wallMs, unit: 'ms' },
  compileCpuMs: { ...LIMIT_RANGES.compileCpuMs, unit: 'ms' },
  memoryKiB: { ...LIMIT_RANGES.memoryKiB, unit: 'KiB' },
  outputBytes: { ...LIMIT_RANGES.outputBytes, unit: 'bytes' },
  timeLimitMs: { ...LIMIT_RANGES.cpuMs, unit: 'ms' },
  memoryLimitKiB: { ...LIMIT_RANGES.memoryKiB, unit: 'KiB' },
};

/** The first of `limits`' fields outside its range, as `where.field: ...`, or null. */
function limitsProblem(limits: Readonly<Record<string, unknown>> | undefined, where: string): string | null {
  for (const [field, value] of Object.entries(limits ?? {})) {
    const range = WIRE_LIMITS[field];
    if (range === undefined || typeof value !== 'number') continue;
    const problem = outOfRange(value, range, range.unit, range.unit === 'ms' ? 'ms' : range.unit === 'KiB' ? 'KiB' : 'bytes');
    if (problem !== null) return `${where}.${field}: ${problem}`;
  }
  return null;
}

/**
 * Where a job (or one `judge` request of a batch) asks for limits outside `LIMIT_RANGES` (`src/limits.ts`): a
 * message naming the field and the range, with the request field it is answered on (`limits`, or `problem` for
 * an inline problem's own time or memory limit), or null. A front end checks the same ranges at its edge; a
 * worker checks again before it runs anything, so a job written by another version or by hand cannot make it run
 * a 45 s sleeper or keep 300 MiB of output.
 */
export function jobLimitsProblem(payload: JobPayload): { readonly message: string; readonly field: 'limits' | 'problem' } | null {
  const inline = (spec: z.infer<typeof problemSpecSchema>, where: string): { message: string; field: 'problem' } | null => {
    if (!('inline' in spec)) return null;
    const problem = spec.inline as unknown as Readonly<Record<string, unknown>>;
    const message = limitsProblem({ timeLimitMs: problem.timeLimitMs, memoryLimitKiB: problem.memoryLimitKiB }, `${where}.problem.inline`);
    return message === null ? null : { message, field: 'problem' };
  };
  switch (payload.kind) {
    case 'judge': {
      const message = limitsProblem(payload.request.limits, 'request.limits');
      return message !== null ? { message, field: 'limits' } : inline(payload.request.problem, 'request');
    }
    case 'batch': {
      for (const [i, item] of payload.items.entries()) {
        const found = jobLimitsProblem(item);
        if (found !== null) return { ...found, message: `items[${i}].${found.message}` };
      }
      return null;
    }
    case 'describe':
      return inline(payload.problem, 'describe');
    case 'plain': {
      const message = limitsProblem(payload.request.limits, 'request.limits');
      return message === null ? null : { message, field: 'limits' };
    }
    case 'harness': {
      const { cpuMs, wallMs, memoryKiB, outputBytes } = payload.job;
      const message = limitsProblem({ cpuMs, wallMs, memoryKiB, outputBytes }, 'job');
      return message === null ? null : { message, field: 'limits' };
    }
    case 'package': {
      const { runCpuMs, runWallMs, memoryKiB } = payload.request;
      const message = limitsProblem({ cpuMs: runCpuMs, wallMs: runWallMs, memoryKiB }, 'request');
      return message === null ? null : { message, field: 'limits' };
    }
  }
}

/** `text` of a zod error as one line: `path: message` of the first issue. */
export function zodMessage(error: z.ZodError): string {
  const issue = deepestIssue(error);
  if (issue === undefined) return 'invalid';
  return `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`;
}

/**
 * The most specific issue of an error: inside a union (a problem is one of the checked kinds or another kind), the
 * issue with the longest path among its branches', so a SQL problem with a bad comparator is answered at
 * `comparators.0`, not with the union's "Invalid input", and an SMT problem with a bad solver at `solver`.
 */
function deepestIssue(error: z.ZodError): z.ZodIssue | undefined {
  const issue = error.issues[0];
  if (issue?.code !== 'invalid_union') return issue;
  let best: z.ZodIssue = issue;
  for (const branch of issue.unionErrors) {
    const inner = deepestIssue(branch);
    // On a tie, a field's own issue beats a discriminator's (a proof problem fails the kind branch on `kind`).
    if (inner !== undefined && (inner.path.length > best.path.length
      || (inner.path.length === best.path.length && best.code === 'invalid_union_discriminator' && inner.code !== 'invalid_union_discriminator'))) best = inner;
  }
  return best;
}
