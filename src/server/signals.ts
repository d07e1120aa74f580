/**
 * Training signals a trainer can ask for (issue #28): a problem's difficulty in a training run
 * (`GET /v1/problems/{id}/stats`) and curriculum sampling from a pool by those difficulties
 * (`POST /v1/curriculum/sample`). Both read the server's result store (the per-problem, per-step counts every
 * rewarded rollout adds, `problem_steps`); without one they answer 409 `no_store`. Shapes: docs/API.md
 * ("Training signals"); formulas: docs/METRICS.md ("Difficulty and curricula").
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { difficultyByProblem, difficultyOf, DEFAULT_DIFFICULTY_ALPHA, type DifficultyStats } from '../metrics/difficulty.js';
import { sampleCurriculum } from '../metrics/curriculum.js';
import type { ResultStore, TrainingRunRow } from '../store/result-store.js';
import type { ServerContext } from './context.js';
import { ServiceError } from './errors.js';
import { fieldPath, parseBody } from './validate.js';

const alphaSchema = z.number().gt(0).max(1).describe('α of the pass-rate EMA, in (0, 1]; default 0.3.');
const runSchema = z.string().min(1).max(1000).describe('Training run name or id; default the server\'s own (--training-run).');

const StatsQuerySchema = z.object({
  run: runSchema.optional(),
  alpha: z.string().transform(Number).pipe(alphaSchema).optional(),
}).strict();

const StrategySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('uniform') }).strict(),
  z.object({ kind: z.literal('band'), lo: z.number().min(0).max(1), hi: z.number().min(0).max(1) }).strict(),
  z.object({ kind: z.literal('drop-solved'), solvedAt: z.number().min(0).max(1).optional() }).strict(),
  z.object({ kind: z.literal('drop-unsolved'), unsolvedAt: z.number().min(0).max(1).optional() }).strict(),
]);

export const CurriculumBodySchema = z.object({
  pool: z.array(z.string().min(1).max(1000)).min(1).max(100_000).describe('Problem ids (loaded ids or inline content ids) to draw from.'),
  batchSize: z.number().int().min(1).max(100_000),
  strategy: z.union([z.enum(['uniform', 'drop-solved', 'drop-unsolved']).transform((kind) => ({ kind })), StrategySchema])
    .describe('A strategy object, or the name of one whose bounds have defaults (uniform, drop-solved, drop-unsolved).'),
  seed: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  run: runSchema.optional(),
  alpha: alphaSchema.optional(),
  unseen: z.enum(['include', 'exclude']).optional().describe('Problems without an estimate yet: eligible or not (default include).'),
  replacement: z.boolean().optional().describe('Draw with replacement (default false).'),
}).strict();

/** The store and training run a request reads, after writing the buffered events. @throws ServiceError. */
async function trainingRunOf(ctx: ServerContext, requested: string | undefined): Promise<{ store: ResultStore; run: TrainingRunRow | null }> {
  const feed = ctx.training;
  if (feed === null) throw new ServiceError('no_store', 'this server keeps no result store (--no-store), so it has no training statistics');
  await feed.flush();
  const name = requested ?? feed.run;
  const run = await feed.store.getTrainingRun(name) ?? null;
  // The server's own run exists once a rollout was rewarded; before that it is empty, not unknown.
  if (run === null && requested !== undefined && requested !== feed.run) {
    throw new ServiceError('unknown_training_run', `run: no training run "${requested}" in the result store`, 'run');
  }
  return { store: feed.store, run };
}

/** The task id training events carry for a problem id as a client names it (`<file>:<id>` or a bare id). */
function taskIdOf(ctx: ServerContext, id: string): string {
  return ctx.service.problems.get(id)?.problem.taskId ?? id;
}

/** The JSON of a problem's difficulty. */
function statsJson(id: string, run: TrainingRunRow | null, runName: string, stats: DifficultyStats): Record<string, unknown> {
  return { problem: id, run: run?.name ?? runName, ...stats };
}

function parseQuery(request: FastifyRequest): z.output<typeof StatsQuerySchema> {
  const parsed = StatsQuerySchema.safeParse(request.query);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = fieldPath(issue.path);
  throw new ServiceError('invalid_body', `${field}: ${issue.message}`, field);
}

export function registerSignals(app: FastifyInstance, ctx: ServerContext): void {
  app.get<{ Params: { id: string } }>('/v1/problems/:id/stats', async (request) => {
    const query = parseQuery(request);
    const { store, run } = await trainingRunOf(ctx, query.run);
    const id = request.params.id;
    const taskId = taskIdOf(ctx, id);
    const rows = run === null ? [] : await store.problemSteps(run.id, [taskId]);
    return statsJson(id, run, query.run ?? ctx.training!.run, difficultyOf(taskId, rows, query.alpha ?? DEFAULT_DIFFICULTY_ALPHA));
  });

  app.post('/v1/curriculum/sample', async (request) => {
    const body = parseBody(CurriculumBodySchema, request.body);
    if (body.strategy.kind === 'band' && body.strategy.lo > body.strategy.hi) {
      throw new ServiceError('invalid_body', `strategy.lo: ${body.strategy.lo} exceeds strategy.hi ${body.strategy.hi}`, 'strategy.lo');
    }
    const { store, run } = await trainingRunOf(ctx, body.run);
    const taskIds = body.pool.map((id) => taskIdOf(ctx, id));
    const alpha = body.alpha ?? DEFAULT_DIFFICULTY_ALPHA;
    const stats = run === null ? new Map<string, DifficultyStats>() : difficultyByProblem(await store.problemSteps(run.id, taskIds), alpha);
    const estimates = new Map(body.pool.map((id, i) => [id, stats.get(taskIds[i]!)?.ema ?? null]));
    const sample = sampleCurriculum({ pool: body.pool, batchSize: body.batchSize, strategy: body.strategy, seed: body.seed,
      ...(body.unseen === undefined ? {} : { unseen: body.unseen }), ...(body.replacement === undefined ? {} : { replacement: body.replacement }) },
    estimates);
    return {
      ...sample,
      run: run?.name ?? body.run ?? ctx.training!.run,
      strategy: body.strategy,
      seed: body.seed,
      alpha,
      batchSize: body.batchSize,
      estimates: Object.fromEntries([...new Set(sample.problems)].map((id) => [id, estimates.get(id) ?? null])),
    };
  });
}
