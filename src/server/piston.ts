/**
 * Piston compatibility: `POST /api/v2/execute` and `GET /api/v2/runtimes` (engineer-man/piston
 * `api/src/api/v2.js`; result fields from `api/src/job.js`, `safe_call`).
 *
 * Request: `language` (name or alias), `version` (`*` or a prefix of the runtime's version), `files`
 * (`[{name?, content, encoding?}]`; the first file is the program; Crucible runs one file, so more is a 400),
 * `stdin`, `args` (must be empty), `compile_timeout`, `run_timeout` (wall, ms), `compile_cpu_time`,
 * `run_cpu_time` (CPU, ms), `compile_memory_limit`, `run_memory_limit` (bytes, -1 = default).
 * CPU limit of the run = `run_cpu_time`, else `run_timeout`, else 3000 ms; wall = `run_timeout` when given.
 * Response: `{language, version, run, compile?}`, each stage `{stdout, stderr, output, code, signal, message,
 * status, cpu_time, wall_time, memory}` (ms, bytes). `status` is Piston's isolate code: null (exit 0), `RE`
 * (non-zero exit), `SG` (killed by a signal; memory limit kills are SIGKILL), `TO` (time), `OL` (output cut),
 * `XX` (Crucible's own failure). Overloaded: 429 with `Retry-After` (open-r1's Piston client retries non-200).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Language } from '../languages/schema.js';
import { COMPAT_DEFAULTS, LIMIT_RANGES, outOfRange } from '../limits.js';
import type { ExecutionResult } from '../sandbox/types.js';
import type { ServerContext } from './context.js';
import { ServiceError } from './errors.js';
import { languageOf, runPlain } from './run-plain.js';
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
  compile_timeout: z.number().int().positive().optional(),
  run_timeout: z.number().int().positive().optional(),
  compile_cpu_time: z.number().int().positive().optional(),
  run_cpu_time: z.number().int().positive().optional(),
  compile_memory_limit: z.number().int().optional(),
  run_memory_limit: z.number().int().optional(),
});

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

export function registerPiston(app: FastifyInstance, ctx: ServerContext): void {
  const versionOf = async (language: Language): Promise<string | null> => {
    const status = (await ctx.languages.toolchains()).find((t) => t.id === language.id);
    return status?.available ? versionNumber(status.version) : null;
  };

  app.get('/api/v2/runtimes', async () => {
    const toolchains = await ctx.languages.toolchains();
    return ctx.languages.languages.flatMap((l) => {
      const t = toolchains.find((x) => x.id === l.id);
      return t?.available ? [{ language: l.id, version: versionNumber(t.version), aliases: l.aliases }] : [];
    });
  });

  app.post('/api/v2/execute', async (request, reply) => {
    const body = parseBody(ExecuteSchema, request.body);
    const language = languageOf(ctx, body.language, 'language');
    const version = await versionOf(language);
    if (version === null || (body.version !== '*' && !version.startsWith(body.version.replace(/^v/, '')))) {
      throw new ServiceError('unknown_language', `${body.language}-${body.version} runtime is unknown`, 'version');
    }
    if (body.files.length > 1) throw new ServiceError('unsupported', 'files: Crucible runs a single source file', 'files');
    if ((body.args ?? []).length > 0) throw new ServiceError('unsupported', 'args: program arguments are not supported', 'args');
    const runCpuMs = body.run_cpu_time ?? body.run_timeout ?? COMPAT_DEFAULTS.pistonRunCpuMs;
    if (runCpuMs > ctx.config.maxTimeLimitMs) {
      throw new ServiceError('invalid_body', `run_cpu_time: at most ${ctx.config.maxTimeLimitMs} ms`, 'run_cpu_time');
    }
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
  });
}
