/**
 * RTL benchmarks as published -> `VerilogProblem` (judged by the `verilog` kind, `src/kinds/verilog/`).
 *
 * VerilogEval v2 (`readVerilogEval`, NVlabs/verilog-eval `dataset_spec-to-rtl/` or
 * `dataset_code-complete-iccad2023/`): a folder of `ProbNNN_<name>_prompt.txt`, `_ref.sv`, `_test.sv` (and, for
 * code completion, `_ifc.txt`); one problem per prefix that has all three, task id `ProbNNN_<name>`, in name
 * order. The folder is read as it is, not through its `problems.txt` (which may list problems that are absent).
 *
 * RTLLM (`readRtllm`, hkust-zhiyao/RTLLM v1.1 and v2.0): every folder under the root holding
 * `design_description.txt` and `testbench.v`; the design's module name is the makefile's `TEST_DESIGN` (else the
 * folder's name); the reference is the `verified_*.v` file; every other file except the makefile
 * (`reference.dat`, `test_data.dat`, ...) is a data file the testbench may read. Task id: the folder's path
 * relative to the root.
 *
 * CodeV-R1-style problems (`readCodevJsonl`): JSONL rows `{task_id, prompt, reference, top_module?, sequences?,
 * steps?, seed?}` (the golden design and the random testbench's settings; CodeV-R1's own data is a parquet file of
 * pickled objects, which Crucible does not read).
 * Errors: `DatasetError` naming the file (and line and field for JSONL).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { DatasetError } from './errors.js';
import { readJsonl } from './jsonl.js';
import type { VerilogDataFile, VerilogProblem } from './types.js';

const PROBLEM_FILE = /^(Prob\d{3}_.+)_(prompt\.txt|ref\.sv|test\.sv|ifc\.txt)$/;

/** Read a VerilogEval v2 dataset folder (module comment). */
export async function readVerilogEval(folder: string): Promise<VerilogProblem[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    throw new DatasetError(folder, undefined, undefined, `not a readable folder: ${(error as Error).message}`);
  }
  const parts = new Map<string, Map<string, string>>();
  for (const name of names) {
    const m = PROBLEM_FILE.exec(name);
    if (m === null) continue;
    const entry = parts.get(m[1]!) ?? new Map<string, string>();
    entry.set(m[2]!, name);
    parts.set(m[1]!, entry);
  }
  const out: VerilogProblem[] = [];
  for (const id of [...parts.keys()].sort()) {
    const files = parts.get(id)!;
    if (!files.has('prompt.txt') || !files.has('ref.sv') || !files.has('test.sv')) continue;
    const read = (kind: string): Promise<string> => readFile(join(folder, files.get(kind)!), 'utf8');
    out.push({
      kind: 'verilog', taskId: id, preset: 'verilog-eval', topModule: 'TopModule',
      prompt: await read('prompt.txt'), reference: await read('ref.sv'), testbench: await read('test.sv'),
      ...(files.has('ifc.txt') ? { interface: await read('ifc.txt') } : {}),
    });
  }
  if (out.length === 0) throw new DatasetError(folder, undefined, undefined, 'no ProbNNN_<name>_{prompt.txt,ref.sv,test.sv} problems');
  return out;
}

/** Folders under `root` (itself included) that hold `design_description.txt` and `testbench.v`. */
async function rtllmFolders(root: string, depth = 0): Promise<string[]> {
  if (depth > 6) return [];
  const entries = await readdir(root, { withFileTypes: true });
  const names = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
  const here = names.has('design_description.txt') && names.has('testbench.v') ? [root] : [];
  const below: string[] = [];
  for (const e of entries.filter((x) => x.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    below.push(...await rtllmFolders(join(root, e.name), depth + 1));
  }
  return [...here, ...below];
}

/** Read an RTLLM checkout (module comment). */
export async function readRtllm(root: string): Promise<VerilogProblem[]> {
  const s = await stat(root).catch(() => undefined);
  if (s?.isDirectory() !== true) throw new DatasetError(root, undefined, undefined, 'not a folder');
  const out: VerilogProblem[] = [];
  for (const folder of await rtllmFolders(root)) {
    const names = (await readdir(folder)).sort();
    const makefile = names.find((n) => n.toLowerCase() === 'makefile');
    const design = makefile === undefined ? undefined
      : /^\s*TEST_DESIGN\s*=\s*(\S+)/m.exec(await readFile(join(folder, makefile), 'utf8'))?.[1];
    const topModule = design ?? folder.split('/').pop()!;
    const verified = names.find((n) => n.startsWith('verified_') && n.endsWith('.v'));
    const files: VerilogDataFile[] = [];
    for (const n of names) {
      if (n === makefile || n === 'testbench.v' || n === 'design_description.txt' || n === verified) continue;
      if (n.endsWith('.v') || n.endsWith('.sv')) continue;
      files.push({ name: n, content: await readFile(join(folder, n), 'utf8') });
    }
    out.push({
      kind: 'verilog', taskId: relative(root, folder) || topModule, preset: 'rtllm', topModule,
      prompt: await readFile(join(folder, 'design_description.txt'), 'utf8'),
      reference: verified === undefined ? '' : await readFile(join(folder, verified), 'utf8'),
      testbench: await readFile(join(folder, 'testbench.v'), 'utf8'),
      ...(files.length > 0 ? { files } : {}),
    });
  }
  if (out.length === 0) throw new DatasetError(root, undefined, undefined, 'no folder with design_description.txt and testbench.v');
  return out;
}

const CodevRowSchema = z.object({
  task_id: z.string().min(1),
  prompt: z.string(),
  reference: z.string().min(1),
  top_module: z.string().min(1).optional(),
  sequences: z.number().int().positive().max(10_000).default(100),
  steps: z.number().int().positive().max(100_000).default(1000),
  seed: z.number().int().default(0),
}).strict();

/** Read CodeV-R1-style JSONL problems (module comment). */
export async function readCodevJsonl(path: string): Promise<VerilogProblem[]> {
  const out: VerilogProblem[] = [];
  for await (const { value } of readJsonl(path, CodevRowSchema)) {
    out.push({
      kind: 'verilog', taskId: value.task_id, preset: 'codev', prompt: value.prompt, reference: value.reference,
      topModule: value.top_module ?? '', codev: { sequences: value.sequences, steps: value.steps, seed: value.seed },
    });
  }
  return out;
}
