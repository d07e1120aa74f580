/**
 * Piston compatibility: `POST /api/v2/execute` and `GET /api/v2/runtimes` (engineer-man/piston
 * `api/src/api/v2.js`; result fields from `api/src/job.js`, `safe_call`).
 *
 * Request: `language` (name or alias), `version` (`*` or a prefix of the runtime's version), `files`
 * (`[{name?, content, encoding?}]`; the first file is the program; Crucible runs one file, so more is a 400),
 * `stdin`, `args` (must be empty), `compile_timeout`, `run_timeout` (wall, ms), `compile_cpu_time`,
 * `run_cpu_time` (CPU, ms), `compile_memory_limit`, `run_memory_limit` (bytes, -1 = default).
 * CPU limit of the run = `run_cpu_time`, else `run_timeout`, else 3000 ms; wall = `run_timeout` when given. Every
 * limit is range-checked (`checkPistonLimits`: a 400 naming the field; the time limits at most the server's
 * maximum), the contest packages' own `TIME_LIMIT`/`time_limit` and memory limits too (`packageLimit`).
 * Contest packages (guipenedo/piston, `docs/API.md` "Piston contest packages"): the `codeforces` languages
 * (`c++17`, `cf_python3`, ...) and `cms` (`cms_ioi`) take multi-file jobs and answer as those packages' scripts
 * do (src/engine/contest/codeforces-package.ts, cms-ioi-package.ts); every program of them runs in the sandbox.
 * Response: `{language, version, run, compile?}`, each stage `{stdout, stderr, output, code, signal, message,
 * status, cpu_time, wall_time, memory}` (ms, bytes). `status` is Piston's isolate code: null (exit 0), `RE`
 * (non-zero exit), `SG` (killed by a signal; memory limit kills are SIGKILL), `TO` (time), `OL` (output cut),
 * `XX` (Crucible's own failure). Overloaded: 429 with `Retry-After` (open-r1's Piston client retries non-200).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Language } from '../languages/schema.js';
import { COMPAT_DEFAULTS, LIMIT_RANGES, limitSchema, outOfRange } from '../limits.js';
import type { ExecutionResult } from '../sandbox/types.js';
import { CMS_IOI_LANGUAGES } from '../engine/contest/cms-ioi-package.js';
import { CODEFORCES_LANGUAGES, codeforcesRegistryLanguage, type PackageLanguage } from '../engine/contest/codeforces-package.js';
import { JudgeRequestError, type PackageRequest, type PackageResult } from '../judge/judge.js';
import type { ScriptStage } from '../judge/plan.js';
import type { ServerContext } from './context.js';
import { ServiceError } from './errors.js';
import { languageOf, runPlain } from './run-plain.js';
import { callOptions } from './service.js';
import { requestScope } from './scope.js';
import { parseBody } from './validate.js';

export const ExecuteSchema = z.object({
  language: z.string().min(1),
  version: z.string().min(1),
  files: z.array(z.object({
    name: z.string().optional(),
    content: z.string(),
    encoding: z.enum(['utf8', 'base64', 'hex']).optional(),
  })).min(1),
  stdin: z.string().optional(),
  args: z.array(z.string()).optional(),
  compile_timeout: limitSchema(LIMIT_RANGES.compileCpuMs, 'ms', 'ms').optional(),
  run_timeout: limitSchema(LIMIT_RANGES.cpuMs, 'ms', 'ms').optional(),
  compile_cpu_time: limitSchema(LIMIT_RANGES.compileCpuMs, 'ms', 'ms').optional(),
  run_cpu_time: limitSchema(LIMIT_RANGES.cpuMs, 'ms', 'ms').optional(),
  compile_memory_limit: z.number().int().optional(),
  run_memory_limit: z.number().int().optional(),
});

/**
 * The time limits of a Piston request against the server's maxima: `run_timeout` (wall) and `run_cpu_time` at
 * most `maxTimeLimitMs`, the compile ones at most `COMPAT_DEFAULTS.maxCompileCpuMs` (the schema already holds
 * them to `LIMIT_RANGES`), and `compile_memory_limit` -1 or a memory limit the server allows (bytes).
 * @throws ServiceError `invalid_body` naming the field and the range.
 */
export function checkPistonLimits(body: z.infer<typeof ExecuteSchema>, config: { readonly maxTimeLimitMs: number; readonly maxMemoryLimitKiB: number }): void {
  const run = { min: LIMIT_RANGES.cpuMs.min, max: config.maxTimeLimitMs };
  for (const field of ['run_timeout', 'run_cpu_time'] as const) {
    const value = body[field];
    const problem = value === undefined ? null : outOfRange(value, run, 'ms', 'ms');
    if (problem !== null) throw new ServiceError('invalid_body', `${field}: ${problem}`, field);
  }
  const asked = body.compile_memory_limit;
  if (asked !== undefined && asked !== -1) {
    const problem = outOfRange(Math.ceil(asked / 1024), { min: LIMIT_RANGES.memoryKiB.min, max: config.maxMemoryLimitKiB }, 'KiB', 'MiB', `${asked} bytes`);
    if (problem !== null) throw new ServiceError('invalid_body', `compile_memory_limit: ${problem} (or -1 for the server's default)`, 'compile_memory_limit');
  }
}

/** The numeric version of a toolchain's version line ("Python 3.11.2" -> "3.11.2"), or "0.0.0". */
export function versionNumber(line: string | null): string {
  return /\d+(?:\.\d+)+/.exec(line ?? '')?.[0] ?? '0.0.0';
}

interface Stage {
  stdout: string;
  stderr: string;
  output: string;
  code: number | null;
  signal: string | null;
  message: string | null;
  status: string | null;
  cpu_time: number;
  wall_time: number;
  memory: number;
}

function stage(r: ExecutionResult): Stage {
  const base = { stdout: r.stdout, stderr: r.stderr, output: r.stdout + r.stderr, cpu_time: r.cpuMs, wall_time: r.wallMs,
    memory: r.memoryKiB * 1024 };
  switch (r.status) {
    case 'ok':
      return { ...base, code: 0, signal: null, message: null, status: null };
    case 'time_limit_exceeded':
      return { ...base, code: null, signal: 'SIGKILL', message: r.reason ?? 'time limit exceeded', status: 'TO' };
    case 'output_limit_exceeded':
      return { ...base, code: null, signal: 'SIGKILL', message: r.reason ?? 'output limit exceeded', status: 'OL' };
    case 'memory_limit_exceeded':
      return { ...base, code: null, signal: 'SIGKILL', message: r.reason ?? 'memory limit exceeded', status: 'SG' };
    case 'internal_error':
      return { ...base, code: null, signal: null, message: r.reason ?? 'internal error', status: 'XX' };
    default:
      if (r.signal !== null) return { ...base, code: null, signal: r.signal, message: r.reason ?? null, status: 'SG' };
      return { ...base, code: r.exitCode ?? 1, signal: null, message: r.reason ?? null, status: 'RE' };
  }
}

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;

/**
 * The text of a file in its declared encoding. Node's decoders skip what they cannot read, which would run
 * garbage, so the content is checked first (RFC 4648 base64 with padding, whitespace ignored; hex of even
 * length) and then decoded as strict UTF-8.
 * @throws ServiceError `invalid_body` naming `field` for content that is not in its encoding.
 */
export function decodeFile(content: string, encoding: 'utf8' | 'base64' | 'hex' | undefined, field: string): string {
  if (encoding === undefined || encoding === 'utf8') return content;
  const compact = encoding === 'base64' ? content.replace(/\s+/g, '') : content;
  if (!(encoding === 'base64' ? BASE64_RE : HEX_RE).test(compact)) {
    throw new ServiceError('invalid_body', `${field}: not valid ${encoding}`, field);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(compact, encoding));
  } catch {
    throw new ServiceError('invalid_body', `${field}: the decoded ${encoding} is not UTF-8 text`, field);
  }
}

/** Version of the contest packages Crucible reimplements (guipenedo/piston `packages/<name>/1.0.0`). */
export const CONTEST_PACKAGE_VERSION = '1.0.0';

/** A contest package language by its name or alias, with the package that runs it; null for other names. */
export function contestLanguageOf(name: string): { readonly pkg: 'codeforces' | 'cms_ioi'; readonly language: PackageLanguage } | null {
  const match = (l: PackageLanguage): boolean => l.language === name || l.aliases.includes(name);
  const cf = CODEFORCES_LANGUAGES.find(match);
  if (cf) return { pkg: 'codeforces', language: cf };
  const cms = CMS_IOI_LANGUAGES.find(match);
  return cms ? { pkg: 'cms_ioi', language: cms } : null;
}

function packageStage(s: ScriptStage): Stage {
  return { stdout: s.stdout, stderr: s.stderr, output: s.stdout + s.stderr, code: s.code, signal: s.signal, message: s.message,
    status: s.status, cpu_time: s.cpuMs, wall_time: s.wallMs, memory: s.memoryKiB * 1024 };
}

/** The Crucible toolchain a contest language needs (its C++ dialects and cms: g++). */
function backingLanguage(pkg: 'codeforces' | 'cms_ioi', language: string): string {
  return pkg === 'codeforces' ? codeforcesRegistryLanguage(language) ?? 'cpp' : 'cpp';
}

/** The version of `language`'s toolchain on this host, or null when it is not installed. */
async function versionOf(ctx: ServerContext, language: Language): Promise<string | null> {
  const status = (await ctx.languages.toolchains()).find((t) => t.id === language.id);
  return status?.available ? versionNumber(status.version) : null;
}

/** `GET /api/v2/runtimes`: Crucible's installed languages, then the contest packages' whose toolchain is installed. */
async function runtimes(ctx: ServerContext): Promise<unknown[]> {
  const toolchains = await ctx.languages.toolchains();
  const available = (id: string): boolean => toolchains.some((t) => t.id === id && t.available);
  const own = ctx.languages.languages.flatMap((l) => {
    const t = toolchains.find((x) => x.id === l.id);
    return t?.available ? [{ language: l.id, version: versionNumber(t.version), aliases: l.aliases }] : [];
  });
  const contest = [...CODEFORCES_LANGUAGES.map((l) => ['codeforces', l] as const), ...CMS_IOI_LANGUAGES.map((l) => ['cms_ioi', l] as const)]
    .filter(([pkg, l]) => available(backingLanguage(pkg, l.language)))
    .map(([, l]) => ({ language: l.language, version: CONTEST_PACKAGE_VERSION, aliases: l.aliases }));
  return [...own, ...contest];
}

/** A contest package job: validated, admitted like any judged item, run in the sandbox. */
async function executeContest(ctx: ServerContext, body: z.infer<typeof ExecuteSchema>,
  contest: NonNullable<ReturnType<typeof contestLanguageOf>>, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  if (body.version !== '*' && !CONTEST_PACKAGE_VERSION.startsWith(body.version.replace(/^v/, ''))) {
    throw new ServiceError('unknown_language', `${body.language}-${body.version} runtime is unknown (the contest packages are ${CONTEST_PACKAGE_VERSION})`, 'version');
  }
  const backing = backingLanguage(contest.pkg, contest.language.language);
  const toolchain = (await ctx.languages.toolchains()).find((t) => t.id === backing);
  if (!toolchain?.available) throw new ServiceError('unknown_language', `${body.language}: its toolchain (${backing}) is not installed here`, 'language');
  if ((body.args ?? []).length > 0) throw new ServiceError('unsupported', 'args: program arguments are not supported', 'args');
  const files = body.files.map((f, i) => ({ name: f.name ?? `file${i}.code`, content: decodeFile(f.content, f.encoding, `files[${i}].content`) }));
  for (const [i, f] of files.entries()) {
    if (f.name.split('/').some((part) => part === '..' || part === '') || f.name.startsWith('/')) {
      throw new ServiceError('invalid_body', `files[${i}].name: "${f.name}" must be a relative path without ".."`, `files[${i}].name`);
    }
  }
  checkPistonLimits(body, ctx.config);
  const runCpuMs = body.run_cpu_time ?? body.run_timeout ?? Math.min(COMPAT_DEFAULTS.pistonRunCpuMs, ctx.config.maxTimeLimitMs);
  // run_memory_limit is bytes in Piston; open-r1's IOI scorer sends the problem's MB there, so a value outside the
  // server's range falls back to the server's default: the package's own configuration (grader_config) decides.
  const askedKiB = body.run_memory_limit === undefined || body.run_memory_limit < 0 ? null : Math.ceil(body.run_memory_limit / 1024);
  const memoryKiB = askedKiB !== null && outOfRange(askedKiB, { min: LIMIT_RANGES.memoryKiB.min, max: ctx.config.maxMemoryLimitKiB }, 'KiB') === null
    ? askedKiB : ctx.config.memoryLimitKiB;
  const scope = requestScope(request, reply);
  const job: PackageRequest = { package: contest.pkg, language: contest.language.language, files, runCpuMs, memoryKiB,
    maxCpuMs: ctx.config.maxTimeLimitMs, maxMemoryKiB: ctx.config.maxMemoryLimitKiB,
    ...(body.run_timeout === undefined ? {} : { runWallMs: Math.max(body.run_timeout, runCpuMs) }) };
  const result = await ctx.service.admitted(scope, (signal) => ctx.judge.runPackage(job, { ...callOptions(scope), ...signal === undefined ? {} : { signal } })
    .catch((error: unknown) => {
      if (error instanceof JudgeRequestError) throw new ServiceError('invalid_body', error.message, error.field);
      throw error;
    }), {
    status: (r) => 'error' in r ? 'internal_error' : r.outcome.run === null ? 'compile_error'
      : r.outcome.run.code === 0 && r.outcome.run.status === null ? 'ok' : 'runtime_error',
    failed: (reason): PackageResult => ({ error: reason }),
  });
  if ('error' in result) return reply.code(500).send(new ServiceError('internal_error', result.error).body());
  const outcome = result.outcome;
  return {
    language: contest.language.language,
    version: CONTEST_PACKAGE_VERSION,
    compile: packageStage(outcome.compile),
    run: outcome.run === null
      ? { stdout: '', stderr: '', output: '', code: null, signal: null, message: 'not run: compilation failed', status: null,
          cpu_time: 0, wall_time: 0, memory: 0 }
      : packageStage(outcome.run),
  };
}

/** `POST /api/v2/execute` of one of Crucible's own languages: one source file, run as `runPlain` runs it. */
async function executeOwn(ctx: ServerContext, body: z.infer<typeof ExecuteSchema>, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const language = languageOf(ctx, body.language, 'language');
  const version = await versionOf(ctx, language);
  if (version === null || (body.version !== '*' && !version.startsWith(body.version.replace(/^v/, '')))) {
    throw new ServiceError('unknown_language', `${body.language}-${body.version} runtime is unknown`, 'version');
  }
  if (body.files.length > 1) {
    throw new ServiceError('unsupported', 'files: Crucible runs a single source file, except for the contest packages (codeforces: c++17, cf_python3, ...; cms_ioi)', 'files');
  }
  if ((body.args ?? []).length > 0) throw new ServiceError('unsupported', 'args: program arguments are not supported', 'args');
  checkPistonLimits(body, ctx.config);
  const runCpuMs = body.run_cpu_time ?? body.run_timeout ?? Math.min(COMPAT_DEFAULTS.pistonRunCpuMs, ctx.config.maxTimeLimitMs);
  const limitBytes = body.run_memory_limit ?? -1;
  const memoryKiB = limitBytes === -1 ? ctx.config.memoryLimitKiB : Math.ceil(limitBytes / 1024);
  const memoryProblem = outOfRange(memoryKiB, { min: LIMIT_RANGES.memoryKiB.min, max: ctx.config.maxMemoryLimitKiB }, 'KiB', 'MiB',
    `${limitBytes} bytes`);
  if (memoryProblem !== null) {
    throw new ServiceError('invalid_body', `run_memory_limit: ${memoryProblem} (or -1 for the server's default)`, 'run_memory_limit');
  }
  const file = body.files[0]!;
  const source = decodeFile(file.content, file.encoding, 'files[0].content');
  const outcome = await runPlain(ctx, {
    language, source, stdin: body.stdin ?? '', runCpuMs,
    ...(body.run_timeout === undefined ? {} : { runWallMs: body.run_timeout }),
    compileCpuMs: Math.min(body.compile_cpu_time ?? body.compile_timeout ?? COMPAT_DEFAULTS.pistonCompileCpuMs, COMPAT_DEFAULTS.maxCompileCpuMs),
    memoryKiB,
  }, requestScope(request, reply));
  const answer = {
    language: language.id,
    version,
    ...(outcome.compile === null ? {} : { compile: stage(outcome.compile) }),
    // Piston omits `run` when compilation failed; open-r1 reads `run` unconditionally, so it is always there.
    run: outcome.run === null
      ? { stdout: '', stderr: '', output: '', code: null, signal: null, message: 'not run: compilation failed', status: null,
          cpu_time: 0, wall_time: 0, memory: 0 }
      : stage(outcome.run),
  };
  // Crucible's own failure (after the judge's retries): 500, which open-r1's Piston client retries with
  // back-off; the Piston body (status XX) still comes along.
  if (outcome.compile?.status === 'internal_error' || outcome.run?.status === 'internal_error') {
    const error = new ServiceError('internal_error', outcome.run?.reason ?? outcome.compile?.reason ?? 'crucible failed');
    return reply.code(500).send({ ...error.body(), ...answer });
  }
  return answer;
}

/**
 * Piston's API (`/api/v2/runtimes`, `/api/v2/execute`; engineer-man/piston's v2 routes): Crucible's languages as
 * one-file runs, and guipenedo/piston's codeforces and cms_ioi contest packages through `Judge.runPackage`.
 */
export function registerPiston(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/api/v2/runtimes', () => runtimes(ctx));

  app.post('/api/v2/execute', async (request, reply) => {
    const body = parseBody(ExecuteSchema, request.body);
    // Names both Crucible and the codeforces package know (`c++`, `python3`, `java`, `kotlin`) are Crucible's own
    // one-file runs unless the request carries the package's files (more than one file).
    const contest = contestLanguageOf(body.language);
    if (contest !== null && (!ctx.languages.has(body.language) || body.files.length > 1)) return executeContest(ctx, body, contest, request, reply);
    return executeOwn(ctx, body, request, reply);
  });
}
