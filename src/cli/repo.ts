/**
 * `crucible repo`: repository tasks' own commands.
 * - `repo prepare --problems FILE`: prepare every instance's environment (base commit checked out, dependencies
 *   installed) and say how long each part took and what it holds on disk;
 * - `repo validate --problems FILE --runs N [--wrong FILE]`: judge each instance's gold patch, the empty patch and
 *   its known wrong patches N times on fresh judges and flag instances whose gold does not resolve, whose results
 *   flip, or whose tests do not tell a fix from none (`src/apps/repo-validate.ts`).
 * Exit status 1 when an instance is flagged or cannot be prepared.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { z } from 'zod';
import { validateRepositories, type InstanceValidation, type ValidationPatch } from '../apps/repo-validate.js';
import { createJudge } from '../engine/factory.js';
import { RepositoryEnvironments } from '../environments/repository/provider.js';
import { DatasetError } from '../formats/errors.js';
import { readJsonlAll } from '../formats/jsonl.js';
import { readSweBench } from '../formats/swe-bench.js';
import type { RepositoryProblem } from '../formats/types.js';
import { defaultSubmissionContext } from '../kinds/index.js';
import { judgementEnvironment } from '../kinds/repository/repository.js';
import { defaultCacheDir } from '../paths.js';
import { Sandbox } from '../sandbox/index.js';
import { CACHE_DIR_HELP, parseIntList, parsePositiveInt } from './options.js';
import { addRepoOptions, repoSources, type RepoFlags } from './repo-options.js';

interface RepoCommonFlags extends RepoFlags {
  readonly problems: string;
  readonly only?: string;
  readonly cacheDir?: string;
  readonly jobs?: number;
}

/** The instances to work on (`--only id,id` keeps those). @throws DatasetError */
async function instances(flags: RepoCommonFlags): Promise<RepositoryProblem[]> {
  const all = await readSweBench(flags.problems);
  if (flags.only === undefined) return all;
  const wanted = new Set(flags.only.split(',').map((s) => s.trim()).filter(Boolean));
  const unknown = [...wanted].filter((id) => !all.some((p) => p.taskId === id));
  if (unknown.length > 0) throw new DatasetError(flags.problems, undefined, undefined, `no instance ${unknown.join(', ')}`);
  return all.filter((p) => wanted.has(p.taskId));
}

const WrongPatchSchema = z.object({ instance_id: z.string().min(1), kind: z.string().min(1).default('wrong'), patch: z.string() });

/** Known wrong patches (`{instance_id, kind, patch}` JSONL), labelled `<kind>#<n>` per instance. @throws DatasetError */
async function wrongPatches(path: string): Promise<Map<string, ValidationPatch[]>> {
  const out = new Map<string, ValidationPatch[]>();
  for (const { value } of await readJsonlAll(path, WrongPatchSchema)) {
    const list = out.get(value.instance_id) ?? [];
    list.push({ label: `${value.kind}#${list.length}`, patch: value.patch });
    out.set(value.instance_id, list);
  }
  return out;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

async function prepareCommand(flags: RepoCommonFlags): Promise<void> {
  const problems = await instances(flags);
  const cacheDir = flags.cacheDir ?? defaultCacheDir();
  const sandbox = Sandbox.create({ slots: flags.jobs ?? availableParallelism() });
  const provider = new RepositoryEnvironments({ sandbox, cacheDir, sources: repoSources(flags), instanceSources: true,
    ...(flags.registry === undefined ? {} : { registry: flags.registry }), log: (line) => process.stderr.write(`crucible: ${line}\n`) });
  let failed = 0;
  try {
    for (const problem of problems) {
      try {
        const p = await provider.prepare(judgementEnvironment(problem));
        const part = (ms: number): string => (ms === 0 ? 'cached' : `${(ms / 1000).toFixed(1)} s`);
        process.stdout.write(`${problem.taskId}: checkout ${part(p.checkoutMs)}, install ${part(p.installMs)}, warm-up ${part(p.warmMs)}; `
          + `tree ${mib(RepositoryEnvironments.diskBytes(p.tree))}, dependencies ${mib(RepositoryEnvironments.diskBytes(p.deps))}`
          + `${p.warm === undefined ? '' : `, warm ${mib(RepositoryEnvironments.diskBytes(p.warm))}`}\n`);
      } catch (error) {
        failed++;
        process.stdout.write(`${problem.taskId}: cannot be prepared: ${(error as Error).message}\n`);
      }
    }
  } finally {
    sandbox.close();
  }
  if (failed > 0) process.exitCode = 1;
}

interface ValidateFlags extends RepoCommonFlags {
  readonly runs: number;
  readonly wrong?: string;
  readonly json?: boolean;
  readonly out?: string;
}

function humanValidation(rows: readonly InstanceValidation[], runs: number): string {
  const lines = rows.map((row) => {
    const cells = row.patches.map((p) => `${p.label} ${[...new Set(p.statuses)].join('/')}`).join(', ');
    return `${row.taskId}: ${cells}${row.flags.length === 0 ? '' : `  FLAGGED: ${row.flags.join(', ')}`}`;
  });
  const flagged = rows.filter((r) => r.flags.length > 0).length;
  lines.push(`${rows.length} instances, ${runs} run(s) each: ${rows.length - flagged} valid, ${flagged} flagged`);
  return `${lines.join('\n')}\n`;
}

async function validateCommand(flags: ValidateFlags): Promise<void> {
  const problems = await instances(flags);
  const wrong = flags.wrong === undefined ? undefined : await wrongPatches(flags.wrong);
  const cacheDir = flags.cacheDir ?? defaultCacheDir();
  const slots = flags.jobs ?? availableParallelism();
  const sandbox = Sandbox.create({ slots });
  const provider = new RepositoryEnvironments({ sandbox, cacheDir, sources: repoSources(flags), instanceSources: true,
    ...(flags.registry === undefined ? {} : { registry: flags.registry }), log: (line) => process.stderr.write(`crucible: ${line}\n`) });
  const context = defaultSubmissionContext();
  const datasetHash = createHash('sha256').update(readFileSync(flags.problems)).digest('hex');
  let rows: InstanceValidation[];
  try {
    for (const problem of problems) await provider.prepare(judgementEnvironment(problem));
    rows = await validateRepositories({
      problems, datasetHash, runs: flags.runs, submission: context, concurrency: slots,
      ...(wrong === undefined ? {} : { wrongPatches: wrong }),
      makeJudge: () => {
        const judge = createJudge({ sandbox, languages: context.languages, modes: context.modes, cacheDir: null, environments: () => [provider] });
        judge.catalog.add(datasetHash, problems);
        return judge;
      },
      onJudged: (done, total) => {
        if (process.stderr.isTTY) process.stderr.write(`\rcrucible: validate ${done}/${total}`);
      },
    });
  } finally {
    if (process.stderr.isTTY) process.stderr.write('\n');
    sandbox.close();
  }
  if (flags.out !== undefined) writeFileSync(flags.out, `${JSON.stringify({ runs: flags.runs, instances: rows }, null, 1)}\n`);
  process.stdout.write(flags.json ? `${JSON.stringify({ runs: flags.runs, instances: rows })}\n` : humanValidation(rows, flags.runs));
  if (rows.some((r) => r.flags.length > 0)) process.exitCode = 1;
}

/** Add `repo` to the program. */
export function register(program: Command): void {
  const repo = program.command('repo').description('repository tasks (SWE-bench style): prepare environments, validate instances');
  const common = (command: Command): Command => addRepoOptions(command
    .requiredOption('--problems <file>', 'SWE-bench-style instances (JSONL or a JSON list)')
    .option('--only <ids>', 'only these instance ids (comma-separated)')
    .option('--cache-dir <dir>', CACHE_DIR_HELP)
    .option('--jobs <n>', 'sandbox slots (default: number of cores)', parsePositiveInt));
  common(repo.command('prepare').description('check out each instance\'s base commit and install its dependencies, once'))
    .action(async (flags: RepoCommonFlags) => prepareCommand(flags));
  common(repo.command('validate').description('judge gold, empty and known wrong patches N times; flag unresolved gold, flaky results, tests that do not tell a fix from none'))
    .option('--runs <n>', 'repetitions of every patch', parsePositiveInt, 3)
    .option('--wrong <file>', 'known wrong patches ({instance_id, kind, patch} JSONL): each must not resolve')
    .option('--out <file>', 'write the validation as JSON to this file')
    .option('--json', 'print the validation as one JSON object')
    .action(async (flags: ValidateFlags) => validateCommand(flags));
}
