/**
 * The problem formats Crucible reads, as one registry: per format an id, aliases, a detector and a reader.
 * `--format` accepts any id or alias; `--format auto` asks each detector in registry order about the file's
 * first record; `crucible formats` and every `--format` help text list this registry.
 *
 * Detection rules: a directory with `problem.yaml` (or of subdirectories with one) -> `kattis`; else, in registry
 * order on the first record: `base_input` -> `evalplus`; `task_id` + `test` + `declaration` without
 * `entry_point` -> `humaneval-x`; `task_id` + `test` + `entry_point` -> `humaneval`; `name` + `language` + `prompt` + `tests` -> `multipl-e` (a directory: its first JSON file); `grader_files` + `test_names` + `subtask` (or an open-r1/ioi-test-cases row) -> `ioi`; `formal_statement`, or `checker` = `"lean"` -> `lean`; a `tests` array, or a whole-file JSON document with a `problems` array -> `crucible`.
 * Adding a format: its reader module (beside this file) and one entry below.
 * Errors: `DatasetError` naming the file (and the fields seen) when no detector accepts it.
 */
import { readCrucibleProblems } from './crucible.js';
import { DatasetError } from './errors.js';
import { readEvalPlus } from './evalplus.js';
import { readHumanEval } from './humaneval.js';
import { readHumanEvalX } from './humaneval-x.js';
import { readApps } from './apps.js';
import { readCodeContests } from './codecontests.js';
import { readLiveCodeBench } from './livecodebench.js';
import { isIoiRecord, readIoi } from './ioi.js';
import { kattisPackages, readKattis } from './kattis.js';
import { readMbpp } from './mbpp.js';
import { readBird } from './bird.js';
import { readSpider } from './spider.js';
import { readSqlJsonl } from './sql-jsonl.js';
import { readCodevJsonl, readRtllm, readVerilogEval } from './verilog.js';
import { isSweBenchInstance, readSweBench } from './swe-bench.js';
import { readCoqTheorems } from './coq-theorems.js';
import { dafnyBenchDatasetDir, readDafnyBench } from './dafnybench.js';
import { readSmtLib } from './smt-lib.js';
import { readLeanStatements } from './lean.js';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { firstMultiplEFile, isMultiplERecord, readMultiplE } from './multipl-e.js';
import { readDecompressedText, readLines } from './jsonl.js';
import { JsonObject, parsePyJson } from './pyjson.js';
import type { Problem } from './types.js';

/** The first record of a problem file, as detectors see it: its field names and a way to look at a value. */
export interface FirstRecord {
  readonly keys: ReadonlySet<string>;
  /** The value of a field as parsed (arrays are arrays; objects are `JsonObject`s), or undefined. */
  get(key: string): unknown;
}

/** One problem format. */
export interface ProblemFormatEntry {
  /** Stable id used by `--format`. */
  readonly id: string;
  /** Other names `--format` accepts for it (e.g. `codet` for CodeT's HumanEval variant). */
  readonly aliases: readonly string[];
  /** One line for help texts and `crucible formats`. */
  readonly description: string;
  /** Whether a file whose first record is `first` is in this format (`--format auto`). */
  readonly detect: (first: FirstRecord) => boolean;
  /** Read every problem of the file. @throws DatasetError naming file, line and field. */
  readonly read: (path: string) => Promise<Problem[]>;
}

/** Every problem format, in detection order. */
export const PROBLEM_FORMATS: readonly ProblemFormatEntry[] = [
  {
    id: 'evalplus', aliases: ['humanevalplus', 'mbppplus'],
    description: 'EvalPlus HumanEval+ / MBPP+ (base_input, plus_input): return values compared outside the box',
    detect: (r) => r.keys.has('base_input'),
    read: readEvalPlus,
  },
  {
    id: 'humaneval-x', aliases: ['humanevalx'],
    description: 'THUDM/CodeGeeX HumanEval-X JSONL (task_id, prompt, declaration, test): script problems in cpp, go, java, js, python',
    detect: (r) => r.keys.has('task_id') && r.keys.has('test') && r.keys.has('declaration') && !r.keys.has('entry_point'),
    read: readHumanEvalX,
  },
  {
    id: 'humaneval', aliases: ['codet'],
    description: 'openai/human-eval JSONL (task_id, prompt, entry_point, test), also CodeT\'s HumanEval variant',
    detect: (r) => r.keys.has('task_id') && r.keys.has('test') && r.keys.has('entry_point'),
    read: readHumanEval,
  },
  {
    id: 'mbpp', aliases: ['mbpp-sanitized'],
    description: 'google-research MBPP, original (text, code, test_list, test_setup_code) or sanitized (prompt, test_imports): program + asserts in one process',
    detect: (r) => r.keys.has('task_id') && r.keys.has('code') && r.keys.has('test_list'),
    read: (path) => readMbpp(path),
  },
  {
    id: 'mbpp-challenge', aliases: [],
    description: 'MBPP original with challenge_test_list judged too (never detected: ask for it by name)',
    detect: () => false,
    read: (path) => readMbpp(path, { challenge: true }),
  },
  {
    id: 'livecodebench', aliases: ['lcb'],
    description: 'LiveCodeBench code generation (question_id, public/private_test_cases, metadata.func_name): stdin or LeetCode-style call problems',
    detect: (r) => r.keys.has('question_id') && r.keys.has('question_content') && r.keys.has('public_test_cases'),
    read: readLiveCodeBench,
  },
  {
    id: 'apps', aliases: ['taco'],
    description: 'APPS / TACO (question, input_output with inputs/outputs/fn_name): stdin or call-based, APPS\'s comparison rules',
    detect: (r) => r.keys.has('question') && r.keys.has('input_output'),
    read: readApps,
  },
  {
    id: 'codecontests', aliases: ['code_contests'],
    description: 'DeepMind CodeContests (public/private/generated_tests, solutions by language): stdin tests, its OutputsMatch',
    detect: (r) => r.keys.has('public_tests') && r.keys.has('private_tests'),
    read: readCodeContests,
  },
  {
    id: 'multipl-e', aliases: ['multiple', 'multipl_e'],
    description: 'nuprl/MultiPL-E rows (name, language, prompt, tests, stop_tokens), also its completion/results files or a directory of them: script problems in 20+ languages',
    detect: (r) => isMultiplERecord(r.keys),
    read: readMultiplE,
  },
  {
    id: 'ioi', aliases: ['open-r1-ioi'],
    description: 'open-r1/ioi subtask rows (id, subtask, score, test_names, grader_files), test cases inline or as open-r1/ioi-test-cases rows: C++ with graders, CMS GroupMin',
    detect: (r) => isIoiRecord(r.keys),
    read: readIoi,
  },
  {
    id: 'spider', aliases: ['spider-dev'],
    description: 'Spider dev.json (db_id, question, query) with database/<db_id>/*.sqlite beside it or in an ancestor: SQL by execution, test-suite accuracy; a missing database is an error',
    detect: (r) => r.keys.has('db_id') && r.keys.has('query') && r.keys.has('question') && !r.keys.has('question_id'),
    read: (path) => readSpider(path),
  },
  {
    id: 'spider-available', aliases: [],
    description: 'Spider as `spider`, skipping the questions whose database is absent (the public release ships only some; never detected)',
    detect: () => false,
    read: (path) => readSpider(path, { missingDatabases: 'skip' }),
  },
  {
    id: 'sql-jsonl', aliases: ['crucible-sql'],
    description: 'Crucible\'s own SQL problems, JSONL {task_id, engine: sqlite|postgres, databases: [{sql}|{path}], gold, comparators?}: the file form of PostgreSQL problems',
    detect: (r) => r.keys.has('gold') && r.keys.has('databases') && r.keys.has('task_id'),
    read: (path) => readSqlJsonl(path),
  },
  {
    id: 'bird', aliases: ['bird-dev'],
    description: 'BIRD dev.json (question_id, db_id, question, evidence, SQL) with dev_databases/: SQL by execution (bird-ex)',
    detect: (r) => r.keys.has('question_id') && r.keys.has('db_id') && r.keys.has('SQL'),
    read: (path) => readBird(path),
  },
  {
    id: 'bird-f1', aliases: [],
    description: 'BIRD as `bird`, judged by mini-dev\'s soft F1 (`soft-f1` deciding, its score the partial credit; `bird-ex` reported beside it; never detected)',
    detect: () => false,
    read: (path) => readBird(path, { comparators: ['soft-f1', 'bird-ex'] }),
  },
  {
    id: 'verilog-eval', aliases: ['verilogeval'],
    description: 'NVlabs/verilog-eval v2 folder (ProbNNN_<name>_prompt.txt, _ref.sv, _test.sv): TopModule simulated with iverilog, pass read from the trusted report (never detected)',
    detect: () => false,
    read: readVerilogEval,
  },
  {
    id: 'rtllm', aliases: [],
    description: 'hkust-zhiyao/RTLLM folder (design_description.txt, testbench.v, verified_*.v): simulated with iverilog, RTLLM\'s Pass rule on trusted lines (never detected)',
    detect: () => false,
    read: readRtllm,
  },
  {
    id: 'codev', aliases: [],
    description: 'CodeV-R1-style JSONL (task_id, prompt, reference): a random-stimulus differential testbench against the golden module (never detected)',
    detect: () => false,
    read: readCodevJsonl,
  },
  {
    id: 'kattis', aliases: ['problemtools', 'icpc'],
    description: 'Kattis/problemtools problem packages (problem.yaml, data/, output validators, submissions/; legacy and 2023-07), or a directory of them',
    detect: () => false,
    read: readKattis,
  },
  {
    id: 'swe-bench', aliases: ['swebench'],
    description: 'SWE-bench-style repository instances (instance_id, repo, base_commit, test_patch, FAIL_TO_PASS, PASS_TO_PASS) with test_cmd and log_parser: patches judged by the repository\'s own tests',
    detect: (r) => isSweBenchInstance(r.keys),
    read: readSweBench,
  },
  {
    id: 'coq-art', aliases: ['coq'],
    description: 'Coq proof problems: a theorems.jsonl index ({file, name} per theorem) beside the .v solutions (coq-community/coq-art\'s layout in ../shared/data/coq-art), or its folder',
    detect: (r) => r.keys.has('file') && r.keys.has('name') && r.keys.has('statement') && typeof r.get('file') === 'string' && String(r.get('file')).endsWith('.v'),
    read: readCoqTheorems,
  },
  {
    id: 'dafnybench', aliases: ['dafny'],
    description: 'DafnyBench\'s folder (hints_removed/ and ground_truth/ as published): Dafny programs to complete, the audit against the ground truth\'s contracts',
    detect: () => false,
    read: readDafnyBench,
  },
  {
    id: 'smt-lib', aliases: ['smtlib', 'smt2'],
    description: 'SMT-LIB 2 scripts (a .smt2 file or a folder of them) with (set-info :status sat|unsat): the check must answer it, a sat model re-checked',
    detect: () => false,
    read: readSmtLib,
  },
  {
    id: 'lean', aliases: ['lean4', 'minif2f-lean'],
    description: 'Lean 4 theorem statements, JSONL ({task_id, statement, theorems?} or miniF2F rows {name, header, formal_statement}), checked on a kimina-lean-server endpoint (--lean-endpoint)',
    detect: (r) => r.keys.has('formal_statement') || r.get('checker') === 'lean',
    read: readLeanStatements,
  },
  {
    id: 'crucible', aliases: [],
    description: 'Crucible stdin/stdout problems in any language ({"problems": [...]} or JSONL; docs/FORMATS.md)',
    detect: (r) => (r.keys.has('tests') && Array.isArray(r.get('tests'))) || r.keys.has('problems'),
    read: readCrucibleProblems,
  },
];

/** Every name `--format` accepts: `auto`, then each format's id and aliases. */
export function problemFormatNames(): string[] {
  return ['auto', ...PROBLEM_FORMATS.flatMap((f) => [f.id, ...f.aliases])];
}

/** The format named `name` (id or alias, case-insensitive), or undefined. */
export function findProblemFormat(name: string): ProblemFormatEntry | undefined {
  const wanted = name.toLowerCase();
  return PROBLEM_FORMATS.find((f) => f.id === wanted || f.aliases.includes(wanted));
}

async function firstRecord(given: string): Promise<FirstRecord> {
  const path = await firstMultiplEFile(given);
  let firstLine: string | undefined;
  for await (const { text } of readLines(path)) {
    firstLine = text;
    break;
  }
  if (firstLine === undefined) throw new DatasetError(path, undefined, undefined, 'no problems: the file is empty');
  let first: unknown;
  try {
    first = parsePyJson(firstLine);
  } catch {
    // Not one JSON value per line: maybe a pretty-printed `{"problems": [...]}` document.
    try {
      first = parsePyJson(await readDecompressedText(path));
    } catch (err) {
      throw new DatasetError(path, 1, undefined, `cannot detect format: not JSON or JSONL (${(err as Error).message})`);
    }
  }
  // A whole-file JSON array of records (MBPP sanitized as released): its first element is the first record.
  if (Array.isArray(first) && first.length > 0) first = first[0];
  if (!(first instanceof JsonObject)) {
    throw new DatasetError(path, undefined, undefined, 'cannot detect format: first record is not a JSON object');
  }
  const record = first;
  return { keys: new Set(record.entries.map((e) => e[0])), get: (key) => record.get(key) };
}

/** The id of a problem file's format, from its first record. @throws DatasetError when no format fits. */
export async function detectProblemFormat(path: string): Promise<string> {
  if (kattisPackages(path).length > 0) return 'kattis';
  const folder = await folderFormat(path);
  if (folder !== null) return folder;
  const first = await firstRecord(path);
  const format = PROBLEM_FORMATS.find((f) => f.detect(first));
  if (format === undefined) {
    throw new DatasetError(path, undefined, undefined, `cannot detect format from fields: ${[...first.keys].join(', ')}`);
  }
  return format.id;
}

/**
 * The format of a folder by its layout (DafnyBench's `hints_removed/`, coq-art's `theorems.jsonl`, `.smt2`
 * files), or null: a file, or a folder of none of these (MultiPL-E's folders are read by their first file).
 */
async function folderFormat(path: string): Promise<string | null> {
  const isFolder = await stat(path).then((s) => s.isDirectory(), () => false);
  if (!isFolder) return path.endsWith('.smt2') ? 'smt-lib' : null;
  if (await dafnyBenchDatasetDir(path) !== null) return 'dafnybench';
  if (await stat(join(path, 'theorems.jsonl')).then(() => true, () => false)) return 'coq-art';
  const names = await readdir(path, { recursive: true });
  return names.some((n) => String(n).endsWith('.smt2')) ? 'smt-lib' : null;
}

/** Thrown for a `--format` name no format has; the message lists the names accepted. */
export class UnknownFormatError extends Error {
  constructor(readonly requested: string) {
    super(`unknown problem format "${requested}"; formats: ${problemFormatNames().join(', ')}`);
    this.name = 'UnknownFormatError';
  }
}

/**
 * Read problems in the named format (id or alias; `auto` detects it).
 * @throws UnknownFormatError for an unknown name, DatasetError for bad data.
 */
export async function readProblems(path: string, format = 'auto'): Promise<Problem[]> {
  const id = format === 'auto' ? await detectProblemFormat(path) : format;
  const entry = findProblemFormat(id);
  if (entry === undefined) throw new UnknownFormatError(format);
  return entry.read(path);
}
