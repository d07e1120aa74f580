/**
 * The problems a server loaded (`--problems A B ...`), by the id a request names them with.
 *
 * Every problem answers to `<file>:<taskId>`, where `<file>` is its file's name without `.gz`, `.jsonl` and `.json`
 * (`HumanEvalPlus:HumanEval/0`). A bare `taskId` answers too when exactly one file has it. Benchmarks that share
 * task ids (HumanEval and HumanEval+ both have `HumanEval/0`) load side by side: a bare id that more than one file
 * has is refused, naming the ids to use instead, rather than answered from whichever file came first.
 */
import { basename } from 'node:path';
import type { Problem } from '../formats/types.js';
import type { ProblemRef } from '../judge/judge.js';
import { ServiceError } from './errors.js';

/** A problem loaded with `--problems` and how the judge's catalog names it. */
export interface LoadedProblem {
  readonly problem: Problem;
  readonly ref: ProblemRef;
}

/** Two problem files with one name, or a file with a task id twice: the server cannot say which a request means. */
export class ProblemLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProblemLoadError';
  }
}

/** The name a problem file's problems are namespaced with: its file name without `.gz`, `.jsonl`, `.json`. */
export function datasetName(path: string): string {
  return basename(path).replace(/\.gz$/, '').replace(/\.(jsonl|json)$/, '');
}

/** Loaded problems by id (see the module comment); `size` counts problems, not the ids they answer to. */
export class ProblemIndex extends Map<string, LoadedProblem> {
  private readonly files = new Map<string, string>();
  private readonly owners = new Map<string, string[]>();
  private readonly order: { qualifiedId: string; dataset: string; loaded: LoadedProblem }[] = [];

  /**
   * Add one file's problems under `name`.
   * @throws ProblemLoadError when another file has that name, or the file has a task id twice.
   */
  addFile(name: string, where: string, datasetHash: string, problems: readonly Problem[]): void {
    const other = this.files.get(name);
    if (other !== undefined) throw new ProblemLoadError(`${where} and ${other} are both named "${name}": their problems would have the same ids; rename one`);
    this.files.set(name, where);
    for (const problem of problems) {
      const id = `${name}:${problem.taskId}`;
      if (super.has(id)) throw new ProblemLoadError(`${where}: task id "${problem.taskId}" appears twice`);
      const loaded = { problem, ref: { datasetHash, taskId: problem.taskId } };
      super.set(id, loaded);
      const owners = this.owners.get(problem.taskId) ?? [];
      owners.push(name);
      this.owners.set(problem.taskId, owners);
      if (owners.length === 1) super.set(problem.taskId, loaded);
      else super.delete(problem.taskId);
      this.order.push({ qualifiedId: id, dataset: name, loaded });
    }
  }

  /**
   * Each loaded problem once, in file order: the id a request names it by (the bare task id when only one file has
   * it, else `<file>:<taskId>`), its always-valid `<file>:<taskId>`, and its file's name.
   */
  listed(): { id: string; qualifiedId: string; dataset: string; loaded: LoadedProblem }[] {
    return this.order.map(({ qualifiedId, dataset, loaded }) => ({
      id: this.owners.get(loaded.problem.taskId)?.length === 1 ? loaded.problem.taskId : qualifiedId, qualifiedId, dataset, loaded,
    }));
  }

  override get size(): number {
    return this.order.length;
  }

  /** @throws ServiceError `unknown_problem` for a bare id that more than one file has, naming the ids to use. */
  override get(id: string): LoadedProblem | undefined {
    const owners = this.owners.get(id);
    if (owners !== undefined && owners.length > 1 && !super.has(id)) {
      throw new ServiceError('unknown_problem', `problem "${id}" is in ${owners.length} loaded files: `
        + `name it as ${owners.map((o) => `"${o}:${id}"`).join(' or ')}`, 'problem');
    }
    return super.get(id);
  }
}
