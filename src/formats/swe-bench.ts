/**
 * SWE-bench-style repository instances -> `RepositoryProblem` (`src/kinds/repository/`).
 *
 * Files: JSONL (one instance a line) or a whole JSON list, optionally gzipped. Fields are SWE-bench's
 * (princeton-nlp/SWE-bench `swebench/harness/constants`: `instance_id`, `repo`, `base_commit`, `patch`,
 * `test_patch`, `problem_statement`, `hints_text`, `FAIL_TO_PASS`, `PASS_TO_PASS`, `created_at`, `version`,
 * `environment_setup_commit`; the two test lists as JSON arrays or, as the Hugging Face dataset stores them, JSON
 * text of an array) plus what a Docker-free runner needs:
 * - `test_cmd` (required): bash command run in the repository root; `{report}` and `{test_files}` are substituted;
 * - `log_parser` (required): `jest-json`, `vitest-json`, `mocha-json`, `tap` or `node-test`;
 * - `test_files`: the test files `{test_files}` names (default: every file `test_patch` touches);
 * - `install_cmd` (default `npm ci --ignore-scripts --no-audit --no-fund`), `install_scripts` (default false);
 * - `source`: `{"git": path}` (a git directory), `{"bundle": path}` or `{"dir": path}`, relative to the file's
 *   directory; absent, the runner is told where the repository is (`--repo-source`);
 * - `protected_files` (globs), `canary` (default true), `time_limit_ms`, `memory_limit_kib`, `node_version`.
 * Other fields (`gold_commit`, `lockfile_blob`, ...) are ignored: a gold commit is never kept where a model could
 * see it. An instance without FAIL_TO_PASS tests is refused (a grader would reward an empty list with 1).
 * Errors: `DatasetError` naming file, line (JSONL) and field.
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { DatasetError, datasetErrorFromZod } from './errors.js';
import { readDecompressedText, readLines } from './jsonl.js';
import { LOG_PARSERS, type RepositoryProblem, type RepositorySource } from './types.js';

/** Default install command: npm's clean install from the lockfile, lifecycle scripts off. */
export const DEFAULT_INSTALL_CMD = 'npm ci --ignore-scripts --no-audit --no-fund';

/** A list of test ids: a JSON array, or JSON text of one (the Hugging Face SWE-bench dataset's encoding). */
const TestIdsSchema = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}, z.array(z.string().min(1)));

const SourceSchema = z.union([
  z.object({ git: z.string().min(1) }).strict(),
  z.object({ bundle: z.string().min(1) }).strict(),
  z.object({ dir: z.string().min(1) }).strict(),
]);

/** One instance as a file holds it (unknown fields are ignored: datasets carry more than a runner needs). */
export const SweBenchInstanceSchema = z.object({
  instance_id: z.string().min(1).regex(/^[A-Za-z0-9_.@+-]+$/, 'letters, digits and _ . @ + - only'),
  repo: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'owner/name'),
  base_commit: z.string().regex(/^[0-9a-f]{40}$/, 'a full 40-hex-digit commit id'),
  patch: z.string().default(''),
  test_patch: z.string().min(1),
  problem_statement: z.string().default(''),
  hints_text: z.string().optional(),
  FAIL_TO_PASS: TestIdsSchema.refine((ids) => ids.length > 0, 'must name at least one test (an empty list would reward any patch)'),
  PASS_TO_PASS: TestIdsSchema,
  install_cmd: z.string().min(1).default(DEFAULT_INSTALL_CMD),
  install_scripts: z.boolean().default(false),
  test_cmd: z.string().min(1).refine((cmd) => cmd.includes('{report}'), 'must contain {report}: the reporter\'s file is how results are read'),
  test_files: z.array(z.string().min(1)).min(1).optional(),
  log_parser: z.enum(LOG_PARSERS),
  source: SourceSchema.optional(),
  protected_files: z.array(z.string().min(1)).default([]),
  canary: z.boolean().default(true),
  time_limit_ms: z.number().int().positive().max(3_600_000).optional(),
  memory_limit_kib: z.number().int().positive().max(64 * 1024 * 1024).optional(),
  version: z.union([z.string(), z.number()]).transform(String).optional(),
  created_at: z.string().optional(),
  node_version: z.union([z.string(), z.number()]).transform(String).optional(),
  environment_setup_commit: z.string().optional(),
});

export type SweBenchInstance = z.output<typeof SweBenchInstanceSchema>;

/** The files a unified diff touches (its `+++ b/` and `--- a/` names, `/dev/null` left out), in order of first mention. */
export function touchedFiles(diff: string): string[] {
  const seen = new Set<string>();
  for (const line of diff.split('\n')) {
    const m = /^(?:\+\+\+|---) (?:[ab]\/)?(.+?)\s*$/.exec(line);
    if (m && m[1] !== '/dev/null') seen.add(m[1]!.replace(/\t.*$/, ''));
  }
  return [...seen];
}

function sourceOf(raw: z.output<typeof SourceSchema> | undefined, file: string): RepositorySource | undefined {
  if (raw === undefined) return undefined;
  const at = (path: string): string => (isAbsolute(path) ? path : resolve(dirname(file), path));
  if ('git' in raw) return { kind: 'git', path: at(raw.git) };
  if ('bundle' in raw) return { kind: 'bundle', path: at(raw.bundle) };
  return { kind: 'dir', path: at(raw.dir) };
}

/** An instance record as a `RepositoryProblem` (`file` resolves a relative `source`). */
export function toRepositoryProblem(r: SweBenchInstance, file: string): RepositoryProblem {
  const source = sourceOf(r.source, file);
  return {
    kind: 'repository',
    taskId: r.instance_id,
    repo: r.repo,
    baseCommit: r.base_commit,
    goldPatch: r.patch,
    testPatch: r.test_patch,
    failToPass: r.FAIL_TO_PASS,
    passToPass: r.PASS_TO_PASS,
    statement: r.problem_statement,
    installCmd: r.install_cmd,
    testCmd: r.test_cmd,
    testFiles: r.test_files ?? touchedFiles(r.test_patch),
    logParser: r.log_parser,
    installScripts: r.install_scripts,
    protectedFiles: r.protected_files,
    canary: r.canary,
    ...(source === undefined ? {} : { source }),
    ...(r.time_limit_ms === undefined ? {} : { timeLimitMs: r.time_limit_ms }),
    ...(r.memory_limit_kib === undefined ? {} : { memoryLimitKiB: r.memory_limit_kib }),
    ...(r.hints_text === undefined || r.hints_text === '' ? {} : { hints: r.hints_text }),
    ...(r.version === undefined ? {} : { version: r.version }),
    ...(r.created_at === undefined ? {} : { createdAt: r.created_at }),
    ...(r.node_version === undefined ? {} : { nodeVersion: r.node_version }),
    ...(r.environment_setup_commit === undefined ? {} : { environmentSetupCommit: r.environment_setup_commit }),
  };
}

/** Whether a record looks like a SWE-bench instance (for `--format auto`). */
export function isSweBenchInstance(keys: ReadonlySet<string>): boolean {
  return keys.has('instance_id') && keys.has('base_commit') && keys.has('test_patch') && keys.has('FAIL_TO_PASS');
}

/**
 * Read every instance of a SWE-bench-style JSONL (or JSON list) file.
 * @throws DatasetError naming file, line and field; for an empty file; for an instance id given twice.
 */
export async function readSweBench(path: string): Promise<RepositoryProblem[]> {
  const records: { line: number | undefined; raw: unknown }[] = [];
  let first = true;
  for await (const { line, text } of readLines(path)) {
    if (first && text.trimStart().startsWith('[')) {
      let list: unknown;
      try {
        list = JSON.parse(await readDecompressedText(path));
      } catch (error) {
        throw new DatasetError(path, undefined, undefined, `invalid JSON: ${(error as Error).message}`);
      }
      if (!Array.isArray(list)) throw new DatasetError(path, undefined, undefined, 'expected a JSON list of instances');
      list.forEach((raw) => records.push({ line: undefined, raw }));
      break;
    }
    first = false;
    try {
      records.push({ line, raw: JSON.parse(text) as unknown });
    } catch (error) {
      throw new DatasetError(path, line, undefined, `invalid JSON: ${(error as Error).message}`);
    }
  }
  if (records.length === 0) throw new DatasetError(path, undefined, undefined, 'no instances: the file is empty');
  const seen = new Set<string>();
  return records.map(({ line, raw }, index) => {
    const parsed = SweBenchInstanceSchema.safeParse(raw);
    if (!parsed.success) {
      const error = datasetErrorFromZod(path, line, parsed.error);
      throw line === undefined ? new DatasetError(path, undefined, `[${index}].${error.field ?? ''}`.replace(/\.$/, ''), error.detail) : error;
    }
    if (seen.has(parsed.data.instance_id)) {
      throw new DatasetError(path, line, 'instance_id', `"${parsed.data.instance_id}" appears twice`);
    }
    seen.add(parsed.data.instance_id);
    return toRepositoryProblem(parsed.data, path);
  });
}
