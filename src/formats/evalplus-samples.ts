/**
 * EvalPlus sample directories: what `evalplus.codegen` writes and `evalplus.evaluate --samples DIR` reads
 * (evalplus/evalplus `codegen.py`: `os.path.join(workdir, task_id.replace("/", "_"), f"{n}.py")`; `data/utils.py`
 * `load_solutions`): one folder per task, named by its task id with `/` written as `_` (`HumanEval_0`, `Mbpp_2`), and
 * in it one file per sample, `<n>.py`, holding the whole program (a `solution`).
 * Errors: `DatasetError` naming the file (a name that is not `<n>.py`, a folder that names no problem).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DatasetError } from './errors.js';
import type { ProblemBase, Sample } from './types.js';

/** Whether `dir` looks like an EvalPlus sample directory: some sub-folder holds a `<n>.py` file. */
export async function isEvalPlusSampleDir(dir: string): Promise<boolean> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    if ((await readdir(join(dir, entry.name))).some((n) => /^\d+\.py$/.test(n))) return true;
  }
  return false;
}

/**
 * The samples of an EvalPlus sample directory, by task in folder-name order and by `n` within a task. A folder is
 * matched to a problem whose id, with `/` as `_`, is its name; without `problems`, its first `_` is read as `/`.
 * @throws DatasetError for a file that is not `<n>.py` or a folder that names no problem of `problems`.
 */
export async function readEvalPlusSampleDir(dir: string, problems?: readonly ProblemBase[]): Promise<Sample[]> {
  const byFolder = new Map((problems ?? []).map((p) => [p.taskId.replace(/\//g, '_'), p.taskId]));
  const out: Sample[] = [];
  const folders = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name)
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  for (const folder of folders) {
    const taskId = problems === undefined ? folder.replace('_', '/') : byFolder.get(folder);
    if (taskId === undefined) throw new DatasetError(join(dir, folder), undefined, 'task_id', `folder "${folder}" names no problem of the problems file`);
    const files = await readdir(join(dir, folder));
    const numbered: { n: number; file: string }[] = [];
    for (const file of files) {
      const m = /^(\d+)\.py$/.exec(file);
      if (m === null) {
        if ((await stat(join(dir, folder, file))).isFile()) throw new DatasetError(join(dir, folder, file), undefined, undefined, 'an EvalPlus sample file is named <n>.py');
        continue;
      }
      numbered.push({ n: Number(m[1]), file });
    }
    numbered.sort((a, b) => a.n - b.n);
    for (const { n, file } of numbered) out.push({ taskId, index: n, solution: await readFile(join(dir, folder, file), 'utf8') });
  }
  if (out.length === 0) throw new DatasetError(dir, undefined, undefined, 'no samples: no <task>/<n>.py file');
  return out;
}
