/**
 * Kattis problem packages -> `KattisProblem` (judged by `src/kinds/kattis/`), and their example submissions.
 *
 * Sources: the Kattis problem package format (github.com/Kattis/problem-package-format, `spec/legacy.md`,
 * `spec/legacy-icpc.md`, `spec/2023-07-draft` as `spec/2025-09.md` completed it) and problemtools, its reference
 * tool (Kattis/problemtools `problemtools/metadata.py`, `verifyproblem.py`, `formatversion.py`): read for their
 * rules, no code taken. Read as problemtools reads them:
 *
 * - `problem.yaml`: `problem_format_version` absent or `legacy` (the layout ICPC, BAPC and NWERC publish), or
 *   `2023-07-draft`/`2023-07`; `2025-09` packages are read the same way when pass-fail. Legacy: `name`, `type`
 *   (`pass-fail`, `scoring`), `validation` (`default`, or `custom` with `score`), `validator_flags`, `grading`
 *   (`accept_score`, `reject_score`, `range`, `on_reject`), `limits` (`time_multiplier` 5, `time_safety_margin`
 *   2, `memory` MiB, `output` MiB). 2023-07: `name` (string or by language), `type` (one or a list),
 *   `limits.time_multipliers` (`ac_to_time_limit` 2, `time_limit_to_tle` 1.5), `limits.time_limit`,
 *   `limits.time_resolution` (1 s). Defaults as problemtools' configuration: memory 1024 MiB, output 8 MiB.
 *   Other keys are not read.
 * - Test data: `src/formats/kattis-data.ts`. Output validator: legacy `output_validators/`, 2023-07
 *   `output_validator/` (either is looked for when the version's own is absent), one program
 *   (`src/formats/kattis-programs.ts`): C, C++ or Python 3. A legacy package's validator is used only with
 *   `validation: custom`; a 2023-07 package's whenever it has one.
 * - Time limit: a 2023-07 `limits.time_limit`, else a `.timelimit` file (seconds; what DOMjudge and BAPCtools
 *   packages carry), else none (the run's; `crucible validate-package` derives one from the accepted submissions
 *   as problemtools does).
 * - Interactive, multi-pass and submit-answer problems, and custom graders, are refused: Crucible does not judge
 *   them (an interactive validator would talk to the submission over pipes).
 * - The task id is the package directory's name; a directory of packages (each with `problem.yaml`) reads as all
 *   of them, in name order.
 * Errors: `DatasetError` naming the file, line and field.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { z } from 'zod';
import { DatasetError } from './errors.js';
import { readKattisData, type LegacyGrading } from './kattis-data.js';
import { readPackageProgram, type PackageProgram } from './kattis-programs.js';
import type { KattisProblem } from './types.js';
import { readYamlFile } from './yaml-file.js';

const positive = z.number().positive();
const ProblemYamlSchema = z.object({
  problem_format_version: z.union([z.string(), z.number()]).transform(String).optional(),
  name: z.union([z.string(), z.record(z.string())]).optional(),
  type: z.union([z.string(), z.array(z.string())]).optional(),
  validation: z.string().optional(),
  validator_flags: z.string().optional(),
  grading: z.object({
    accept_score: z.number().optional(), reject_score: z.number().optional(), range: z.string().optional(),
    on_reject: z.enum(['first_error', 'worst_error', 'grade']).optional(), objective: z.enum(['min', 'max']).optional(),
  }).passthrough().optional(),
  limits: z.object({
    time_multiplier: positive.optional(), time_safety_margin: positive.optional(),
    time_multipliers: z.object({ ac_to_time_limit: positive.optional(), time_limit_to_tle: positive.optional() }).passthrough().optional(),
    time_limit: positive.optional(), time_resolution: positive.optional(),
    memory: z.number().int().positive().optional(), output: z.number().int().positive().optional(),
  }).passthrough().optional(),
}).passthrough();
type ProblemYaml = z.infer<typeof ProblemYamlSchema>;

/** problemtools' system defaults (`problemtools/config/problem.yaml`): memory and output limits, MiB. */
const DEFAULT_MEMORY_MIB = 1024;
const DEFAULT_OUTPUT_MIB = 8;

/** Whether `dir` is a problem package (it has `problem.yaml`). */
export function isKattisPackage(dir: string): boolean {
  return existsSync(join(dir, 'problem.yaml'));
}

/** The packages `path` names: itself, or its subdirectories that are packages. */
export function kattisPackages(path: string): string[] {
  if (isKattisPackage(path)) return [path];
  if (!existsSync(path) || !statSync(path).isDirectory()) return [];
  return readdirSync(path).sort().map((n) => join(path, n)).filter((p) => statSync(p).isDirectory() && isKattisPackage(p));
}

/** The format version, normalised (module comment). @throws DatasetError for a version Crucible does not read. */
function versionOf(file: string, yaml: ProblemYaml): { version: KattisProblem['formatVersion']; v2025: boolean } {
  const v = yaml.problem_format_version ?? 'legacy';
  if (v === 'legacy') return { version: 'legacy', v2025: false };
  if (v === '2023-07-draft' || v === '2023-07') return { version: '2023-07', v2025: false };
  if (v === '2025-09' || v === '2025-09-draft') return { version: '2023-07', v2025: true };
  throw new DatasetError(file, undefined, 'problem_format_version', `"${v}" is not a version Crucible reads (legacy, 2023-07-draft, 2023-07, 2025-09)`);
}

/** The problem's types (2023-07 `type`, a legacy `validation: custom interactive`). */
function typesOf(yaml: ProblemYaml): string[] {
  const types = yaml.type === undefined ? ['pass-fail'] : Array.isArray(yaml.type) ? yaml.type : yaml.type.split(/\s+/);
  const validation = (yaml.validation ?? 'default').split(/\s+/);
  if (validation[0] === 'custom' && validation.includes('interactive')) types.push('interactive');
  return types;
}

/** The package's output validator program, if it has one (module comment). */
function validatorProgram(dir: string, version: KattisProblem['formatVersion']): PackageProgram | undefined {
  const names = version === 'legacy' ? ['output_validators', 'output_validator'] : ['output_validator', 'output_validators'];
  const found = names.map((n) => join(dir, n)).find((p) => existsSync(p) && statSync(p).isDirectory() && readdirSync(p).length > 0);
  if (found === undefined) return undefined;
  const entries = readdirSync(found).sort();
  const only = entries.length === 1 ? join(found, entries[0]!) : found;
  return readPackageProgram(only);
}

/** The English statement's source, if the package has one. */
function statementOf(dir: string): string | undefined {
  for (const folder of ['statement', 'problem_statement']) {
    for (const file of ['problem.en.md', 'problem.en.tex', 'problem.md', 'problem.tex']) {
      const path = join(dir, folder, file);
      if (existsSync(path)) return readFileSync(path, 'utf8');
    }
  }
  return undefined;
}

/** The fixed time limit, ms, and where it came from. */
function fixedTimeLimit(dir: string, yaml: ProblemYaml, version: KattisProblem['formatVersion']): Pick<KattisProblem, 'timeLimitMs' | 'timeLimitFrom'> {
  if (version !== 'legacy' && yaml.limits?.time_limit !== undefined) {
    return { timeLimitMs: Math.round(yaml.limits.time_limit * 1000), timeLimitFrom: 'problem.yaml' };
  }
  const file = join(dir, '.timelimit');
  if (!existsSync(file)) return {};
  const seconds = Number(readFileSync(file, 'utf8').trim());
  if (!(seconds > 0)) throw new DatasetError(file, 1, undefined, 'not a positive number of seconds');
  return { timeLimitMs: Math.round(seconds * 1000), timeLimitFrom: '.timelimit' };
}

/** Read one package directory (module comment). */
export function readKattisPackage(path: string): KattisProblem {
  const dir = resolve(path);
  const file = join(dir, 'problem.yaml');
  const yaml = readYamlFile(file, ProblemYamlSchema);
  const { version, v2025 } = versionOf(file, yaml);
  const types = typesOf(yaml);
  const unjudged = types.find((t) => t === 'interactive' || t === 'multi-pass' || t === 'submit-answer');
  if (unjudged !== undefined) throw new DatasetError(file, undefined, 'type', `${unjudged} problems are not judged by Crucible`);
  const scoring = types.includes('scoring');
  if (scoring && v2025) throw new DatasetError(file, undefined, 'type', 'scoring problems of the 2025-09 format are not read yet');
  const validation = (yaml.validation ?? 'default').split(/\s+/);
  const program = version === 'legacy' && validation[0] !== 'custom' ? undefined : validatorProgram(dir, version);
  if (version === 'legacy' && validation[0] === 'custom' && program === undefined) {
    throw new DatasetError(file, undefined, 'validation', 'custom validation, but no output_validators/ program');
  }
  if (program !== undefined && !program.ok) throw new DatasetError(join(dir, 'output_validators'), undefined, undefined, `the output validator: ${program.why}`);
  if (program !== undefined && !['c', 'cpp', 'python'].includes(program.language)) {
    throw new DatasetError(join(dir, 'output_validators'), undefined, undefined, `an output validator in ${program.language}: problemtools standardises C, C++ and Python 3`);
  }
  const legacy: LegacyGrading = version === 'legacy' ? yaml.grading ?? {} : {};
  const legacyFlags = version === 'legacy' ? (yaml.validator_flags ?? '').split(/\s+/).filter((f) => f !== '') : [];
  const { root, tests } = readKattisData(dir, legacy, legacyFlags);
  const limits = yaml.limits ?? {};
  const name = typeof yaml.name === 'string' ? yaml.name : yaml.name?.['en'] ?? Object.values(yaml.name ?? {})[0];
  const timeLimit = fixedTimeLimit(dir, yaml, version);
  const statement = statementOf(dir);
  return {
    kind: 'kattis', taskId: basename(dir), formatVersion: version, tests, root, scoring,
    ...(name === undefined ? {} : { name }),
    ...(statement === undefined ? {} : { statement }),
    validator: program === undefined || !program.ok ? { kind: 'default' }
      : { kind: 'custom', language: program.language, source: program.source, customScore: version === 'legacy' ? validation.includes('score') : scoring },
    ...timeLimit,
    timing: version === 'legacy'
      ? { acToTimeLimit: limits.time_multiplier ?? 5, timeLimitToTle: limits.time_safety_margin ?? 2, resolutionMs: 1000 }
      : { acToTimeLimit: limits.time_multipliers?.ac_to_time_limit ?? 2, timeLimitToTle: limits.time_multipliers?.time_limit_to_tle ?? 1.5,
        resolutionMs: Math.round((limits.time_resolution ?? 1) * 1000) },
    memoryLimitKiB: (limits.memory ?? DEFAULT_MEMORY_MIB) * 1024,
    outputLimitBytes: (limits.output ?? DEFAULT_OUTPUT_MIB) * 1024 * 1024,
  };
}

/** Read a package, or every package of a directory (module comment). @throws DatasetError when there is none. */
export async function readKattis(path: string): Promise<KattisProblem[]> {
  const packages = kattisPackages(path);
  if (packages.length === 0) throw new DatasetError(path, undefined, undefined, 'no problem.yaml: not a Kattis problem package nor a directory of them');
  return packages.map(readKattisPackage);
}

/** Submission directories problemtools checks (legacy), and the ones 2023-07 adds (`rejected`, `brute_force`). */
export const SUBMISSION_LABELS = ['accepted', 'partially_accepted', 'wrong_answer', 'time_limit_exceeded', 'run_time_error', 'rejected', 'brute_force'] as const;
export type SubmissionLabel = (typeof SUBMISSION_LABELS)[number];

/** One example submission of a package: its label (directory), path under `submissions/`, and the program or why not. */
export interface KattisSubmission {
  readonly label: SubmissionLabel;
  readonly path: string;
  readonly program: PackageProgram;
}

/**
 * The package's example submissions (`submissions/<label>/<file or directory>`), labels in `SUBMISSION_LABELS`
 * order, names sorted; `others` names the directories of `submissions/` that are no label (problemtools skips them).
 */
export function readKattisSubmissions(path: string): { submissions: KattisSubmission[]; others: string[] } {
  const dir = join(resolve(path), 'submissions');
  if (!existsSync(dir)) return { submissions: [], others: [] };
  const present = readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory());
  const submissions: KattisSubmission[] = [];
  for (const label of SUBMISSION_LABELS) {
    if (!present.includes(label)) continue;
    for (const name of readdirSync(join(dir, label)).sort()) {
      submissions.push({ label, path: `${label}/${name}`, program: readPackageProgram(join(dir, label, name)) });
    }
  }
  return { submissions, others: present.filter((n) => !(SUBMISSION_LABELS as readonly string[]).includes(n)).sort() };
}
