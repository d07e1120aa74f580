/**
 * Native API: `POST /v1/judge` (one submission, full verdict) and `POST /v1/rewards` (a batch of rollouts,
 * one reward each, per-group statistics; NDJSON streaming with `Accept: application/x-ndjson`).
 * Shapes are documented in docs/API.md; the schemas below are the source of truth.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ComparatorSchema } from '../formats/index.js';
import { LIMIT_RANGES, limitSchema } from '../limits.js';
import { groupSignals, rewardOf, rewardStatusOf, RewardSpecSchema, type RewardSpec } from '../reward/index.js';
import type { RepositoryProblem } from '../formats/types.js';
import { patchSimilarity } from '../kinds/repository/similarity.js';
import { ANALYZER_IDS, countFindings, verdictWithoutTests, type AnalysisReport, type AnalyzerId, type Verdict } from '../verdict/index.js';
import type { ServerContext } from './context.js';
import { ServiceError } from './errors.js';
import { requestScope, type RequestScope } from './scope.js';
import { TENANT_PATTERN, type AnalysisOption } from '../judge/judge.js';
import type { Extraction, Judged, Prepared, Submission } from './service.js';
import { rolloutOf, TRAINING_RUN_HEADER, TRAINING_RUN_NAME } from './training.js';
import { parseBody } from './validate.js';
import { efficiencyUnavailable, rolloutEfficiency, type RolloutEfficiency } from './efficiency-reward.js';
import { prepareSqlPresetRollout, sqlPresetReward, type SqlPresetReward, type SqlPresetRollout } from './sql-presets.js';

const TestSchema = z.object({ input: z.string(), output: z.string() }).strict();

/** Fields shared by a judge request and a rewards item. */
const submissionFields = {
  response: z.string().optional().describe('Raw model text; code is extracted from it.'),
  code: z.string().optional().describe('The program, judged as given.'),
  language: z.string().min(1).optional().describe('Language id or alias; default the problem\'s, else python.'),
  problem: z.string().min(1).optional().describe('Id of a problem loaded with --problems.'),
  tests: z.array(TestSchema).min(1).max(1000).optional().describe('Inline stdin/stdout tests.'),
  comparator: ComparatorSchema.optional().describe('How stdout is compared (inline tests); default tokens.'),
  timeLimitMs: limitSchema(LIMIT_RANGES.cpuMs, 'ms').optional().describe('CPU time per test, ms (inline tests).'),
  memoryLimitKiB: limitSchema(LIMIT_RANGES.memoryKiB, 'KiB').optional().describe('Memory limit, KiB (inline tests).'),
  pick: z.enum(['first', 'last']).optional().describe('Which fenced block to take; default last.'),
  stripThink: z.boolean().optional().describe('Remove <think> sections first; default true.'),
  formal: z.boolean().optional().describe('verilog problems: also check the design formally against the reference with yosys (verdict.formal); default false.'),
};

type SubmissionShape = { response?: string; code?: string; problem?: string; tests?: unknown };

/** Exactly one of response/code and one of problem/tests, reported on the field that is wrong. */
function exactlyOne(value: SubmissionShape, ctx: z.RefinementCtx): void {
  if ((value.response === undefined) === (value.code === undefined)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['response'], message: 'give exactly one of "response" and "code"' });
  }
  if ((value.problem === undefined) === (value.tests === undefined)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['problem'], message: 'give exactly one of "problem" and "tests"' });
  }
}

const tenantSchema = z.string().regex(TENANT_PATTERN, 'letters, digits and . : @ / - _, at most 100').optional()
  .describe('Who asks (a trainer, a team): on a queue\'s fleet one tenant\'s burst cannot starve another\'s; default the x-crucible-tenant header.');

export const JudgeBodySchema = z.object({
  ...submissionFields,
  failFast: z.boolean().optional().describe('Stop at the first failing test.'),
  detail: z.enum(['summary', 'tests']).optional()
    .describe('"summary" (default): counts and the first failing test; "tests": every test\'s result too (a HumanEval+ problem has ~1,000).'),
  analysis: z.union([z.literal(true), z.array(z.enum(ANALYZER_IDS as [AnalyzerId, ...AnalyzerId[]])).min(1)]).optional()
    .describe('Static analysis of the program: true (every analyser that reads its language) or the analysers to run.'),
  tenant: tenantSchema,
}).strict().superRefine(exactlyOne);

const ItemSchema = z.object({
  id: z.union([z.string(), z.number()]).describe('Caller\'s id, echoed back.'),
  group: z.union([z.string(), z.number()]).optional().describe('GRPO group key; default the problem.'),
  ...submissionFields,
  reward: RewardSpecSchema.optional().describe('Reward spec of this item; default the batch\'s.'),
}).strict().superRefine(exactlyOne);

export function rewardsBodySchema(maxItems: number) {
  return z.object({
    reward: RewardSpecSchema.default({ kind: 'binary' }).describe('Reward spec for every item without its own.'),
    items: z.array(ItemSchema).max(maxItems).describe('The rollouts to reward.'),
    step: z.number().int().nonnegative().optional().describe('Trainer step of this batch (the dashboard\'s training page buckets by it).'),
    trainingRun: z.string().regex(TRAINING_RUN_NAME, 'letters, digits and . : @ / - _, at most 200').optional()
      .describe('Training run the rollouts go to on the dashboard (default: the X-Crucible-Training-Run header, else the server\'s --training-run).'),
    batchId: z.string().regex(/^[\x21-\x7e]{1,200}$/, '1-200 printable ASCII characters without spaces').optional()
      .describe('Idempotency key of the batch (or the Idempotency-Key header): a retried batch is recorded once.'),
    tenant: tenantSchema,
  }).strict();
}

type RewardItem = z.output<typeof ItemSchema>;

/**
 * The wire form of a verdict (`/v1/judge`): status, counts (`testsRun`, `testsPassed`), the first failing test, resource
 * use, reason, score, the formal check (`verilog` with `formal`), extraction; with `tests` every test's result as well.
 */
export function verdictJson(verdict: Verdict, extraction: Extraction, options: { readonly tests?: boolean } = { tests: true }): Record<string, unknown> {
  const firstFailed = verdict.tests.find((t) => t.status !== 'passed');
  return {
    status: verdict.status,
    passed: verdict.passed,
    ...(verdict.plusStatus === undefined ? {} : { plusStatus: verdict.plusStatus, plusPassed: verdict.plusPassed }),
    testCount: verdict.testCount,
    testsRun: verdict.tests.length,
    testsPassed: verdict.tests.reduce((n, t) => n + (t.status === 'passed' ? 1 : 0), 0),
    ...(firstFailed === undefined ? {} : { firstFailedTest: firstFailed }),
    ...(options.tests === true ? { tests: verdict.tests } : {}),
    cpuMs: verdict.cpuMs,
    wallMs: verdict.wallMs,
    ...(verdict.reason === undefined ? {} : { reason: verdict.reason }),
    ...(verdict.score === undefined ? {} : { score: verdict.score }),
    ...(verdict.formal === undefined ? {} : { formal: verdict.formal }),
    extraction,
  };
}

/**
 * `prepared` asking its judge for the program's static analysis too (`JudgeRequest.analysis`: `true` for every
 * analyser that reads its language, or a list), so that whichever judge runs the sample (this server's sandbox or
 * a queue worker's) analyses it in its sandbox; unchanged when `option` is undefined or there is no program (a
 * decided `no_code`).
 */
export function withAnalysis(prepared: Prepared, option: AnalysisOption | undefined): Prepared {
  if (option === undefined || prepared.kind !== 'judge') return prepared;
  return { ...prepared, request: { ...prepared.request, analysis: option } };
}

/** An analysis as `/v1/judge` answers it: the counts (`countFindings`), non-blank lines, and each analyser's outcome. */
function analysisJson(report: AnalysisReport): Record<string, unknown> {
  return { ...countFindings(report), lines: report.lines, outcomes: report.outcomes };
}

/**
 * The `analysis` field of a `/v1/judge` (or MCP `judge`) answer: the judged verdict's analysis (asked for with
 * `withAnalysis`), or undefined when none was asked, there is no program, or Crucible failed to judge it.
 */
export function requestedAnalysis(judged: Judged): Record<string, unknown> | undefined {
  return judged.verdict.analysis === undefined ? undefined : analysisJson(judged.verdict.analysis);
}

/**
 * Judge one rollout of `/v1/rewards`; a spec with an `analysis` term has the program analysed too by the judge that
 * runs it (its `tools`, else every analyser of the language), the report on the verdict for `rewardOf`.
 */
async function judgeRollout(ctx: ServerContext, prepared: Prepared, spec: RewardSpec, scope: RequestScope): Promise<Judged> {
  // A SQL preset's reward asks for no analysis (main's rule); otherwise the spec's analysis rides on the request.
  const analysis = spec.kind === 'sql_preset' || spec.analysis === undefined ? undefined : spec.analysis.tools ?? true;
  return ctx.service.judgeReserved(withAnalysis(prepared, analysis), scope);
}

/**
 * A judged rollout with what its spec needs besides the verdict: a patch similarity, a SQL preset's reward, the
 * measured efficiency of a passing rollout whose spec has an `efficiency` term (`efficiency-reward.ts`).
 */
type RolloutJudged = Judged & { similarity?: number; preset?: SqlPresetReward & { readonly name: string }; efficiency?: RolloutEfficiency };

/**
 * Judge one prepared rollout the way its spec asks (similarity: not run; SQL preset: judged, then scored by the
 * preset; an `efficiency` term: a passing rollout and its problem's reference measured, see `rolloutEfficiency`).
 */
export async function judgeItem(ctx: ServerContext, p: Prepared, spec: RewardSpec, scope: RequestScope, preset: SqlPresetRollout | undefined): Promise<RolloutJudged> {
  if (spec.kind === 'patch_similarity') return similarityJudged(ctx, p);
  const judged = await judgeRollout(ctx, p, spec, scope);
  if (spec.kind !== 'sql_preset' && spec.efficiency !== undefined && rewardStatusOf(judged.verdict) === 'passed') {
    return { ...judged, efficiency: await rolloutEfficiency(ctx, p) };
  }
  if (preset === undefined) return judged;
  return { ...judged, preset: { name: preset.preset, ...sqlPresetReward(preset, judged.verdict) } };
}

/**
 * Prepare one rollout of a reward route: by its SQL preset's own extraction for a `sql_preset` spec (the rollout
 * then also comes back), else as any submission. `field` prefixes error field names.
 */
export function prepareRollout(ctx: ServerContext, sub: Submission, spec: RewardSpec, field: string): { prepared: Prepared; preset?: SqlPresetRollout } {
  if (spec.kind === 'sql_preset') {
    const preset = prepareSqlPresetRollout(ctx.service, sub, spec.preset, field);
    return { prepared: preset.prepared, preset };
  }
  return { prepared: ctx.service.prepare(sub, field) };
}

function toSubmission(body: z.output<typeof JudgeBodySchema> | RewardItem, failFast: boolean, synthesis = false): Submission {
  return { ...body, failFast, ...(synthesis ? { synthesis: true } : {}) } as Submission;
}

/**
 * One answered rollout. `status` is the one the reward counts (`rewardStatusOf`: base and plus for an EvalPlus
 * problem, whose base-only status is then `details.baseStatus`); `passed` counts passing tests; `total` is the
 * problem's test count.
 */
interface ItemResult {
  readonly id: string | number;
  readonly group: string;
  readonly reward: number | null;
  readonly status: string;
  readonly passed: number;
  readonly total: number;
  readonly details: Record<string, unknown>;
}

/**
 * A `patch_similarity` item, not run (SWE-RL's reward is execution-free): a verdict-shaped answer whose `score` is
 * the similarity of the item's patch to the problem's gold patch (-1 for a patch that cannot be read; no code found
 * in a response is `no_code`, rewarded with its penalty).
 */
function similarityJudged(ctx: ServerContext, p: Prepared): Judged & { similarity?: number } {
  if (p.kind === 'decided') return { verdict: p.verdict, extraction: p.extraction };
  const problem = ctx.service.problems.get(p.problemId)!.problem as RepositoryProblem;
  const similarity = patchSimilarity(p.request.program.source, problem.goldPatch);
  return {
    verdict: { ...verdictWithoutTests('wrong_answer', p.testCount, similarity.error ?? 'not run: rewarded by its similarity to the gold patch (SWE-RL)'),
      score: Math.max(0, similarity.reward) },
    extraction: p.extraction, similarity: similarity.reward,
  };
}

function itemResult(item: RewardItem, group: string, spec: RewardSpec, judged: RolloutJudged): ItemResult {
  const v = judged.verdict;
  const reward = judged.preset !== undefined ? judged.preset.reward
    : spec.kind === 'patch_similarity' && judged.similarity !== undefined ? judged.similarity
      : rewardOf(spec, v, judged.efficiency?.ok === true ? { cost: judged.efficiency.cost, referenceCost: judged.efficiency.referenceCost } : undefined);
  return {
    id: item.id,
    group,
    reward,
    status: rewardStatusOf(v),
    passed: v.tests.reduce((k, t) => k + (t.status === 'passed' ? 1 : 0), 0),
    total: v.testCount,
    details: {
      ...(v.reason === undefined ? {} : { reason: v.reason }),
      ...(v.plusStatus === undefined ? {} : { baseStatus: v.status, plusStatus: v.plusStatus }),
      tests: v.tests,
      cpuMs: v.cpuMs,
      wallMs: v.wallMs,
      extraction: judged.extraction,
      ...(judged.preset === undefined ? {} : { preset: { name: judged.preset.name, formatOk: judged.preset.formatOk,
        ...(judged.preset.execution === undefined ? {} : { execution: judged.preset.execution }) } }),
      ...(v.analysis === undefined ? {} : { analysis: analysisJson(v.analysis) }),
      ...(judged.efficiency === undefined ? {} : { efficiency: judged.efficiency }),
      ...(v.formal === undefined ? {} : { formal: v.formal }),
    },
  };
}

/** Where a batch's rollouts go on the dashboard: the training run, the step, the batch key, and when the request began (`startedMs`, on `performance.now()`'s monotonic clock, so a sub-millisecond call still has a positive latency). */
export interface FeedContext {
  readonly run?: string;
  readonly step: number | undefined;
  readonly batchKey?: string;
  readonly startedMs: number;
}

/**
 * The feed context of a request: the run from the body's `trainingRun`, else the `X-Crucible-Training-Run` header;
 * the key from `batchId`, else the `Idempotency-Key` header.
 * @throws ServiceError `invalid_body` for a header that is not a run name or a key.
 */
export function feedContext(request: FastifyRequest, body: { trainingRun?: string | undefined; batchId?: string | undefined; step?: number | undefined },
  startedMs: number): FeedContext {
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const run = body.trainingRun ?? header(TRAINING_RUN_HEADER);
  if (run !== undefined && !TRAINING_RUN_NAME.test(run)) throw new ServiceError('invalid_body', `${TRAINING_RUN_HEADER}: letters, digits and . : @ / - _, at most 200`, TRAINING_RUN_HEADER);
  const batchKey = body.batchId ?? header('idempotency-key');
  if (batchKey !== undefined && !/^[\x21-\x7e]{1,200}$/.test(batchKey)) throw new ServiceError('invalid_body', 'Idempotency-Key: 1-200 printable ASCII characters without spaces', 'Idempotency-Key');
  return { ...(run === undefined ? {} : { run }), step: body.step, ...(batchKey === undefined ? {} : { batchKey }), startedMs };
}

/** Report an answered rollout (item `index` of its batch) to the server's training feed, when it has one and a reward. */
function feed(ctx: ServerContext, result: ItemResult, problemId: string, judged: Judged, where: FeedContext, index: number): void {
  if (ctx.training === null || result.reward === null) return;
  ctx.training.record(rolloutOf(problemId, result.reward, judged.verdict, { groupId: result.group, step: where.step, latencyMs: performance.now() - where.startedMs,
    ...(where.batchKey === undefined ? {} : { eventKey: `${where.batchKey}#${index}` }) }), where.run);
}

/**
 * Statistics and dynamic-sampling signals of one group over the rollouts that have a reward (`groupSignals`):
 * `n` of them, reward `mean`, `std` (n − 1) and `populationStd`, `allEqual`; acc (passed) `passed`, `passRate`,
 * `allPass`, `allFail`; `keep` (verl DAPO `filter_groups` on acc) and `keepByReward` (on the reward). `complete`
 * is false when some item has no reward (Crucible's failure); the signals then cover the others.
 */
export function groupLine(group: string, results: readonly ItemResult[]): Record<string, unknown> {
  const rewarded = results.filter((r): r is ItemResult & { reward: number } => r.reward !== null);
  const complete = rewarded.length === results.length;
  if (rewarded.length === 0) {
    return { group, size: results.length, rewarded: 0, complete, n: 0, mean: null, std: null, populationStd: null, allEqual: null,
      passed: null, passRate: null, allPass: null, allFail: null, keep: null, keepByReward: null };
  }
  const s = groupSignals(rewarded.map((r) => r.reward), rewarded.map((r) => r.status === 'passed'));
  return { group, size: results.length, rewarded: rewarded.length, complete, n: s.size, mean: s.mean, std: s.sampleStd,
    populationStd: s.populationStd, allEqual: s.allEqual, passed: s.passed, passRate: s.passRate, allPass: s.allPass,
    allFail: s.allFail, keep: s.keep, keepByReward: s.keepByReward };
}

function wantsNdjson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.split(',').some((part) => part.trim().split(';')[0] === 'application/x-ndjson');
}

const problemsQuerySchema = z.object({
  offset: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  kind: z.string().max(40).optional(),
}).strict();

/**
 * `GET /v1/problems`: the problems loaded with `--problems`, each once, in file order, `limit` at a time from `offset`:
 * id (what a request's `problem` names: the bare task id when one file has it, else `<file>:<taskId>`), qualifiedId
 * (`<file>:<taskId>`, always accepted), dataset (the file's name), kind, test count, default language; `total` and `next` (the next offset, or null).
 */
function registerProblems(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/v1/problems', async (request) => {
    const q = parseBody(problemsQuerySchema, request.query);
    const all = ctx.service.problems.listed().filter((p) => q.kind === undefined || p.loaded.problem.kind === q.kind);
    const page = all.slice(q.offset, q.offset + q.limit).map(({ id, qualifiedId, dataset, loaded: { problem } }) => {
      const mode = ctx.service.submission.modes.of(problem);
      return { id, qualifiedId, dataset, kind: problem.kind, testCount: mode.testCount(problem), language: mode.language(problem, undefined) };
    });
    return { problems: page, total: all.length, offset: q.offset, next: q.offset + q.limit < all.length ? q.offset + q.limit : null };
  });
}

export function registerNative(app: FastifyInstance, ctx: ServerContext): void {
  const rewardsSchema = rewardsBodySchema(ctx.config.maxBatchItems);
  registerProblems(app, ctx);

  app.post('/v1/judge', async (request, reply) => {
    const body = parseBody(JudgeBodySchema, request.body);
    const prepared = ctx.service.prepare(toSubmission(body, body.failFast === true));
    ctx.service.reserve([prepared]);
    const judged = await ctx.service.judgeReserved(withAnalysis(prepared, body.analysis), requestScope(request, reply, body.tenant));
    const payload = verdictJson(judged.verdict, judged.extraction, { tests: body.detail === 'tests' });
    const analysis = requestedAnalysis(judged);
    if (analysis !== undefined) payload.analysis = analysis;
    if (judged.verdict.status === 'internal_error') {
      // A status-only client must not mistake Crucible's failure for a failing program.
      const error = new ServiceError('internal_error', judged.verdict.reason ?? 'crucible failed');
      return reply.code(500).send({ ...error.body(), verdict: payload });
    }
    return payload;
  });

  app.post('/v1/rewards', async (request, reply) => {
    const startedMs = performance.now();
    const body = parseBody(rewardsSchema, request.body);
    const where = feedContext(request, body, startedMs);
    const specs: RewardSpec[] = [];
    const prepared: Prepared[] = [];
    const presets: (SqlPresetRollout | undefined)[] = [];
    const groups: string[] = [];
    body.items.forEach((item, i) => {
      const spec = item.reward ?? body.reward;
      const failFast = spec.kind === 'binary' && spec.failFast;
      // A spec with a synthesis term needs the design's synthesis statistics (verilog problems only: checked there).
      const synthesis = 'synthesis' in spec && spec.synthesis !== undefined;
      const { prepared: p, preset } = prepareRollout(ctx, toSubmission(item, failFast, synthesis), spec, `items[${i}].`);
      presets.push(preset);
      if ((spec.kind === 'fraction' || spec.kind === 'threshold') && spec.weights !== undefined && spec.weights.length !== p.testCount) {
        const field = item.reward ? `items[${i}].reward.weights` : 'reward.weights';
        throw new ServiceError('invalid_body', `${field}: ${spec.weights.length} weights for ${p.testCount} tests`, field);
      }
      if (spec.kind === 'patch_similarity' && ctx.service.problems.get(p.problemId)?.problem.kind !== 'repository') {
        const field = item.reward ? `items[${i}].reward.kind` : 'reward.kind';
        throw new ServiceError('invalid_body', `${field}: patch_similarity rewards patches to loaded repository problems`, field);
      }
      const noEfficiency = spec.kind !== 'sql_preset' && spec.efficiency !== undefined ? efficiencyUnavailable(ctx, p.problemId) : null;
      if (noEfficiency !== null) {
        const field = item.reward ? `items[${i}].reward.efficiency` : 'reward.efficiency';
        throw new ServiceError('invalid_body', `${field}: ${noEfficiency}`, field);
      }
      specs.push(spec);
      prepared.push(p);
      groups.push(item.group !== undefined ? String(item.group) : p.problemId);
    });
    ctx.service.reserve(prepared);
    const scope = requestScope(request, reply, body.tenant);
    if (wantsNdjson(request)) return streamRewards(reply, ctx, scope, { items: body.items, specs, prepared, presets, groups, where });

    const results = await Promise.all(prepared.map(async (p, i) => {
      const judged = await judgeItem(ctx, p, specs[i]!, scope, presets[i]);
      const result = itemResult(body.items[i]!, groups[i]!, specs[i]!, judged);
      feed(ctx, result, p.problemId, judged, where, i);
      return result;
    }));
    const byGroup = new Map<string, ItemResult[]>();
    for (const r of results) {
      const list = byGroup.get(r.group) ?? [];
      list.push(r);
      byGroup.set(r.group, list);
    }
    return {
      items: results,
      groups: [...byGroup].map(([g, rs]) => groupLine(g, rs)),
      summary: summaryOf(results),
    };
  });
}

function summaryOf(results: readonly ItemResult[]): Record<string, unknown> {
  const statuses: Record<string, number> = {};
  for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  return { count: results.length, internalErrors: statuses.internal_error ?? 0, statuses };
}

/**
 * NDJSON: one line per item as it finishes (`{"kind":"item",...}`), one per group once its last item is in
 * (`{"kind":"group",...}`), then `{"kind":"summary",...}`. Admission was reserved before the first byte, so an
 * overloaded server still answers 429 with no body streamed.
 */
async function streamRewards(reply: FastifyReply, ctx: ServerContext, scope: RequestScope,
  batch: { items: readonly RewardItem[]; specs: readonly RewardSpec[]; prepared: readonly Prepared[];
    presets: readonly (SqlPresetRollout | undefined)[]; groups: readonly string[]; where: FeedContext }): Promise<void> {
  const { items, specs, prepared, presets, groups, where } = batch;
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store',
    ...(ctx.draining() ? { connection: 'close' } : {}) });
  const remaining = new Map<string, number>();
  for (const g of groups) remaining.set(g, (remaining.get(g) ?? 0) + 1);
  const byGroup = new Map<string, ItemResult[]>();
  const results: ItemResult[] = [];
  await Promise.all(prepared.map(async (p, i) => {
    const judged = await judgeItem(ctx, p, specs[i]!, scope, presets[i]);
    if (scope.signal.aborted) return;
    const result = itemResult(items[i]!, groups[i]!, specs[i]!, judged);
    feed(ctx, result, p.problemId, judged, where, i);
    results.push(result);
    raw.write(JSON.stringify({ kind: 'item', ...result }) + '\n');
    const list = byGroup.get(result.group) ?? [];
    list.push(result);
    byGroup.set(result.group, list);
    const left = remaining.get(result.group)! - 1;
    remaining.set(result.group, left);
    if (left === 0) raw.write(JSON.stringify({ kind: 'group', ...groupLine(result.group, list) }) + '\n');
  }));
  if (!scope.signal.aborted) raw.end(JSON.stringify({ kind: 'summary', ...summaryOf(results) }) + '\n');
}
