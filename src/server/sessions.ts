/**
 * Sessions API (multi-turn environments, `src/sessions/`): `POST /v1/sessions`, `POST /v1/sessions/:id/step`,
 * `POST /v1/sessions/:id/reset`, `DELETE /v1/sessions/:id`. Shapes are documented in docs/API.md ("Sessions");
 * the schemas below are the source of truth. A `program` step (a submit judged through the server's `Judge`,
 * the same judge as `/v1/judge`, detail included for feedback; a `run`, a plain one-shot run) is one item of
 * the judging admission control (429 when the queue is full). Steps of the box environments (python, bash,
 * sqlite) run in the session's own box, not on a judging slot, so they take no judging place: a session step
 * that sleeps to its 5-minute wall limit never holds back `/v1/judge` (issue #23); sessions are bounded by their
 * count and by the host memory their limits may pin (`SessionManager`, 429 past either).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ComparatorSchema } from '../formats/index.js';
import { LIMIT_RANGES, limitSchema } from '../limits.js';
import { SessionManager } from '../sessions/manager.js';
import type { ProgramBackend, ProgramTask } from '../sessions/environments/program.js';
import { repositoryBackend } from './repositories.js';
import { sessionFormal, sessionKindView } from './session-kinds.js';
import { ENVIRONMENT_KINDS, SESSION_LIMIT_RANGES, SessionError, type SessionLimits } from '../sessions/types.js';
import { verdictWithoutTests, type DetailedVerdict } from '../verdict/index.js';
import type { ServerContext } from './context.js';
import { ServiceError } from './errors.js';
import { Sampled, type Registry } from './metrics.js';
import { requestScope } from './scope.js';
import type { Submission } from './service.js';
import { parseBody } from './validate.js';

const limitField = (key: keyof SessionLimits) => limitSchema(SESSION_LIMIT_RANGES[key], SESSION_LIMIT_RANGES[key].unit).optional();

const LimitsSchema = z.object({
  cpuMs: limitField('cpuMs').describe('CPU time per step, ms.'),
  wallMs: limitField('wallMs').describe('Wall time per step, ms.'),
  memoryKiB: limitField('memoryKiB').describe('Memory of the session\'s processes, KiB.'),
  processes: limitField('processes').describe('Processes + threads at once.'),
  outputBytes: limitField('outputBytes').describe('stdout and stderr kept per step, bytes each.'),
  diskKiB: limitField('diskKiB').describe('Writable space (/box, /tmp, /dev/shm each), KiB.'),
  maxSteps: limitField('maxSteps').describe('Steps the session may take.'),
  maxSubmits: limitField('maxSubmits').describe('Submits a program session may take over its life (resets included).'),
  feedbackChars: limitField('feedbackChars').describe('Budget of a program submit\'s feedback, characters.'),
}).strict();

export const CreateSessionSchema = z.object({
  environment: z.enum(ENVIRONMENT_KINDS).describe('python | bash | sqlite | program | repository'),
  task: z.unknown().optional().describe('sqlite: {sql, gold?, comparators?} (gold: InterCode-SQL submits); program: {problem} or {tests, comparator?, timeLimitMs?, memoryLimitKiB?}, language? (default the problem kind\'s), formal? (verilog); repository: {problem, reward?}'),
  limits: LimitsSchema.optional(),
  ttlSeconds: limitSchema(LIMIT_RANGES.ttlSeconds, 's').optional().describe('Idle seconds before the session is evicted.'),
}).strict();

export const StepSchema = z.object({
  action: z.union([z.string(), z.record(z.unknown())]).describe('A string (python, bash, sqlite), {kind: "run"|"submit", ...} (program) or {kind: "shell"|"view"|"create"|"str_replace"|"insert"|"run_tests"|"submit", ...} (repository).'),
}).strict();

const TestSchema = z.object({ input: z.string(), output: z.string() }).strict();
const ProgramTaskSchema = z.object({
  problem: z.string().min(1).optional(),
  tests: z.array(TestSchema).min(1).max(1000).optional(),
  comparator: ComparatorSchema.optional(),
  timeLimitMs: limitSchema(LIMIT_RANGES.cpuMs, 'ms').optional(),
  memoryLimitKiB: limitSchema(LIMIT_RANGES.memoryKiB, 'KiB').optional(),
  language: z.string().min(1).optional(),
  formal: z.boolean().optional().describe('verilog problems: also check each submitted design formally against the reference (verdict.formal).'),
  visibleTests: z.union([z.enum(['all', 'none']), z.array(z.number().int().nonnegative()).max(1000)]).optional()
    .describe('Tests feedback may show (input, expected output, what the program did): "all", "none" (the default) or their indices.'),
}).strict().superRefine((v, ctx) => {
  if ((v.problem === undefined) === (v.tests === undefined)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['problem'], message: 'give exactly one of "problem" and "tests"' });
  }
});

/**
 * Which tests a program task's feedback may show: `visibleTests` as the task gives it ("all", "none" or indices;
 * default "none"). @throws SessionError naming `task.visibleTests[i]` for an index past the problem's tests.
 */
function visibility(visibleTests: 'all' | 'none' | readonly number[] | undefined, testCount: number): (index: number) => boolean {
  if (visibleTests === 'all') return () => true;
  if (visibleTests === undefined || visibleTests === 'none') return () => false;
  visibleTests.forEach((index, i) => {
    if (index >= testCount) {
      throw new SessionError('invalid_task', `task.visibleTests[${i}]: test ${index} does not exist (the problem has ${testCount} tests)`, `task.visibleTests[${i}]`);
    }
  });
  const shown = new Set(visibleTests);
  return (index) => shown.has(index);
}

/** A SessionError as the catalog error the client gets. */
export function asServiceError(error: SessionError): ServiceError {
  switch (error.code) {
    case 'unknown_session': return new ServiceError('unknown_session', error.message);
    case 'session_done': return new ServiceError('session_done', error.message);
    case 'session_limit': return new ServiceError('overloaded', error.message, undefined, 5);
    case 'closed': return new ServiceError('shutting_down', error.message);
    default: return new ServiceError('invalid_body', error.message, error.field);
  }
}

/**
 * `program` tasks bound to the server's loaded problems or inline tests, judged by its judge (exported for other
 * front ends on a ServerContext, e.g. an MCP server under `crucible serve`).
 */
export function programBackend(ctx: ServerContext): ProgramBackend {
  return (task: unknown): ProgramTask => {
    const parsed = ProgramTaskSchema.safeParse(task ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = ['task', ...issue.path].join('.');
      throw new SessionError('invalid_task', `${field}: ${issue.message}`, field);
    }
    const t = parsed.data;
    const loaded = t.problem === undefined ? undefined : ctx.service.problems.get(t.problem);
    if (t.problem !== undefined && loaded === undefined) throw new SessionError('invalid_task', `task.problem: no problem "${t.problem}" is loaded`, 'task.problem');
    // The problem's own language when the task names none: the kind's choice (a proof problem's checker language,
    // `coq`, `z3`, `cvc5`, `dafny`; a verilog problem's designs; a sql problem's queries), as `/v1/judge` takes it.
    const language = t.language ?? (loaded === undefined ? 'python' : ctx.service.submission.modes.of(loaded.problem).language(loaded.problem, undefined));
    if (!ctx.languages.has(language)) throw new SessionError('invalid_task', `task.language: unknown language "${language}"`, 'task.language');
    const view = loaded === undefined ? { statement: '', summaryReason: false } : sessionKindView(loaded.problem);
    if (view.hiddenOnly !== undefined && t.visibleTests !== undefined && t.visibleTests !== 'none') {
      throw new SessionError('invalid_task', `task.visibleTests: ${view.hiddenOnly}`, 'task.visibleTests');
    }
    const submission = (code: string): Submission => ({ code, language, failFast: false, ...(t.formal === true ? { formal: true } : {}),
      ...(t.problem === undefined ? { tests: t.tests, comparator: t.comparator, timeLimitMs: t.timeLimitMs, memoryLimitKiB: t.memoryLimitKiB } : { problem: t.problem }) });
    // Resolve once now, so a task the judge cannot take is refused at create (400), not at the first submit.
    let testCount: number;
    try {
      testCount = ctx.service.prepare(submission('pass'), 'task.').testCount;
    } catch (error) {
      if (error instanceof ServiceError) throw new SessionError('invalid_task', error.message, error.field);
      throw error;
    }
    // A proof problem's one test is its checker's judgement, whose messages (after the audit) are the feedback: it
    // hides no expected value (the statement is the task), so it is visible unless the task says otherwise.
    const proof = loaded?.problem.kind === 'proof';
    const visible = visibility(t.visibleTests ?? (proof ? 'all' : undefined), testCount);
    const shownTests = t.visibleTests === 'all' || (proof && t.visibleTests === undefined) ? 'all visible' : t.visibleTests === undefined || t.visibleTests === 'none' || t.visibleTests.length === 0
      ? 'all hidden' : `${t.visibleTests.length} visible`;
    const summary = `program session: ${loaded === undefined ? 'inline tests' : `problem ${t.problem}`} (${testCount} tests, ${shownTests}), language ${language}. `
      + 'Actions: {"kind": "run", "code", "stdin"?} runs the program once; {"kind": "submit", "code"} judges it on the tests '
      + '(feedback shows visible tests only).' + view.statement;
    return {
      summary,
      visible,
      summaryReason: view.summaryReason,
      run: (code, stdin, limits, signal) => ctx.judge.runPlain({ program: { language, source: code }, stdin,
        limits: { cpuMs: limits.cpuMs, wallMs: limits.wallMs, memoryKiB: limits.memoryKiB, outputBytes: limits.outputBytes } },
        signal === undefined ? {} : { signal }),
      submit: async (code, signal) => {
        const prepared = ctx.service.prepare(submission(code), 'action.');
        if (prepared.kind === 'decided') return { verdict: prepared.verdict };
        let verdict: DetailedVerdict;
        try {
          verdict = await ctx.judge.judge(prepared.request, { detail: true, ...(signal === undefined ? {} : { signal }) });
        } catch (error) {
          if (signal?.aborted) throw error;
          verdict = verdictWithoutTests('internal_error', prepared.testCount, `crucible failed: ${(error as Error).message}`);
        }
        ctx.service.observe(verdict.status, 0, '/v1/sessions/:id/step');
        if (verdict.formal !== undefined) verdict = { ...verdict, formal: sessionFormal(verdict.formal) };
        // The tests' descriptions give what a verdict's detail lacks (a unit test's code, an io test's input and
        // expected output); the detail gives what the program did (the judge gives it to every detail request).
        const tests = !verdict.passed && verdict.status !== 'internal_error'
          ? await ctx.judge.describeTests(prepared.request.problem, signal === undefined ? {} : { signal }).catch(() => undefined)
          : undefined;
        return { verdict, ...(tests === undefined ? {} : { tests }) };
      },
    };
  };
}

/**
 * Run one session operation, its `SessionError`s as catalog errors (`ServiceError`). `judged` work (a `program`
 * step: it runs on the judge's slots) is one item of admission control (`JudgeService.admitted`: `overloaded` when
 * the queue is full, `ClientGoneError` when the client went away); other session work (creating, resetting or
 * stepping a box session) runs in the session's own box and takes no judging place. Shared by the HTTP routes and
 * the MCP session tools.
 */
export async function admittedSessionWork<T>(ctx: ServerContext, work: () => Promise<T>, signal?: AbortSignal, judged = false): Promise<T> {
  try {
    if (!judged) return await work();
    return await ctx.service.admitted(signal === undefined ? undefined : { route: 'sessions', signal }, () => work());
  } catch (error) {
    if (error instanceof SessionError) throw asServiceError(error);
    throw error;
  }
}

/**
 * The session manager of a server context (program tasks bound to its loaded problems and judged by its judge),
 * its metrics added to `registry`. `registerSessions` serves it over HTTP; `crucible mcp` over stdio uses it
 * directly (the MCP session tools). The caller closes it.
 */
export function createSessionManager(ctx: ServerContext, registry: Registry): SessionManager {
  const manager = new SessionManager({
    // On a queue's fleet the server has no judging sandbox: session boxes are still this machine's (probed here);
    // program submits are judged through the context's judge, i.e. on the fleet.
    caps: ctx.sandbox?.capabilities,
    maxSessions: ctx.config.maxSessions,
    defaultTtlSeconds: ctx.config.sessionTtlSeconds,
    maxTtlSeconds: ctx.config.maxSessionTtlSeconds,
    programBackend: programBackend(ctx),
    sqlJudge: (problem, query, signal) => ctx.judge.judge({ problem: { inline: problem }, program: { language: 'sql', source: query } },
      signal === undefined ? {} : { signal }),
    repositoryBackend: repositoryBackend(ctx),
    ...(ctx.config.sessionMemoryKiB === undefined ? {} : { memoryBudgetKiB: ctx.config.sessionMemoryKiB }),
  });
  registry.add(new Sampled('crucible_sessions_open', 'Sessions open now.', 'gauge', () => manager.stats.open));
  registry.add(new Sampled('crucible_sessions_created_total', 'Sessions created.', 'counter', () => manager.stats.created));
  registry.add(new Sampled('crucible_session_steps_total', 'Session steps taken.', 'counter', () => manager.stats.steps));
  registry.add(new Sampled('crucible_session_evictions_total', 'Sessions closed after their idle TTL.', 'counter', () => manager.stats.evicted));
  registry.add(new Sampled('crucible_session_resets_total', 'Session resets.', 'counter', () => manager.stats.resets));
  registry.add(new Sampled('crucible_session_memory_reserved_bytes', 'Host memory the open sessions may pin (their memory limits, files included).', 'gauge',
    () => manager.stats.reservedMemoryKiB * 1024));
  registry.add(new Sampled('crucible_session_memory_budget_bytes', 'Host memory the open sessions may pin at most.', 'gauge',
    () => manager.stats.memoryBudgetKiB * 1024));
  return manager;
}

/** Whether a `sqlite` action is a submit (judged: one item of admission control, as a `program` step). */
export function isSqlSubmit(action: unknown): boolean {
  return action === 'submit' || (typeof action === 'object' && action !== null && (action as { kind?: unknown }).kind === 'submit');
}

/** Register the routes, the metrics and the manager's shutdown. */
export function registerSessions(app: FastifyInstance, ctx: ServerContext, registry: Registry): SessionManager {
  const manager = createSessionManager(ctx, registry);
  app.addHook('onClose', async () => manager.close());

  const admitted = <T>(work: () => Promise<T>, signal?: AbortSignal, judged = false): Promise<T> => admittedSessionWork(ctx, work, signal, judged);
  const idOf = (params: unknown): string => {
    const id = (params as { id?: unknown }).id;
    if (typeof id !== 'string' || !manager.has(id)) throw new ServiceError('unknown_session', `no session "${String(id)}" (never made, deleted, or evicted after its idle TTL)`);
    return id;
  };

  app.post('/v1/sessions', async (request, reply) => {
    const body = parseBody(CreateSessionSchema, request.body);
    const created = await admitted(() => manager.create(body));
    return reply.code(201).send(created);
  });
  app.post('/v1/sessions/:id/step', async (request, reply) => {
    const id = idOf(request.params);
    const body = parseBody(StepSchema, request.body);
    const scope = requestScope(request, reply);
    const judged = manager.environmentKind(id) === 'program' || (manager.environmentKind(id) === 'sqlite' && isSqlSubmit(body.action));
    const outcome = await admitted(() => manager.step(id, body.action, scope.signal), scope.signal, judged);
    return reply.send(outcome);
  });
  app.post('/v1/sessions/:id/reset', async (request, reply) => {
    const id = idOf(request.params);
    return reply.send(await admitted(() => manager.reset(id)));
  });
  app.delete('/v1/sessions/:id', async (request, reply) => {
    const id = idOf(request.params);
    try {
      await manager.delete(id);
    } catch (error) {
      if (error instanceof SessionError) throw asServiceError(error);
      throw error;
    }
    return reply.send({ id, deleted: true });
  });
  return manager;
}
