/**
 * What a generation run reads: problems through the problem readers (`src/formats/registry.ts`), or repository
 * tasks, which no reader judges: JSONL rows with a `problem_statement` (SWE-bench's shape: `instance_id`,
 * `repo`, `problem_statement`; `task_id` or `id` also name a task). `--format repository` asks for them;
 * `--format auto` takes a file whose first row has `problem_statement` as repository tasks.
 * Errors: `DatasetError` naming file, line and field; `UnknownFormatError` for an unknown format name.
 */
import { z } from 'zod';
import { DatasetError, readJsonl, readLines } from '../formats/index.js';
import { readProblems } from '../formats/registry.js';
import type { PromptSource, RepositoryTask } from './prompts/index.js';

/** The `--format` name of repository tasks. */
export const REPOSITORY_FORMAT = 'repository';

const RepositoryRowSchema = z.object({
  instance_id: z.string().min(1).optional(),
  task_id: z.union([z.string().min(1), z.number().int().transform(String)]).optional(),
  id: z.union([z.string().min(1), z.number().int().transform(String)]).optional(),
  repo: z.string().optional(),
  problem_statement: z.string().min(1),
}).passthrough().refine((r) => (r.instance_id ?? r.task_id ?? r.id) !== undefined,
  { message: 'expected a task name in "instance_id", "task_id" or "id"', path: ['instance_id'] });

/** Read repository tasks. @throws DatasetError (file, line, field), also for a duplicate task name. */
export async function readRepositoryTasks(path: string): Promise<RepositoryTask[]> {
  const out: RepositoryTask[] = [];
  const seen = new Set<string>();
  for await (const { line, value } of readJsonl(path, RepositoryRowSchema)) {
    const taskId = (value.instance_id ?? value.task_id ?? value.id)!;
    if (seen.has(taskId)) throw new DatasetError(path, line, 'instance_id', `duplicate task "${taskId}"`);
    seen.add(taskId);
    out.push({ kind: 'repository', taskId, problemStatement: value.problem_statement, ...(value.repo === undefined ? {} : { repo: value.repo }) });
  }
  return out;
}

/** Whether a file's first row has a `problem_statement` field. */
async function looksLikeRepositoryTasks(path: string): Promise<boolean> {
  for await (const { text } of readLines(path)) {
    try {
      const first: unknown = JSON.parse(text);
      return typeof first === 'object' && first !== null && !Array.isArray(first) && 'problem_statement' in first;
    } catch {
      return false;
    }
  }
  return false;
}

/** The tasks of a file in `format` (a problem format's name, `repository`, or `auto`). */
export async function readPromptSources(path: string, format = 'auto'): Promise<PromptSource[]> {
  if (format === REPOSITORY_FORMAT || (format === 'auto' && await looksLikeRepositoryTasks(path))) return readRepositoryTasks(path);
  return readProblems(path, format);
}
