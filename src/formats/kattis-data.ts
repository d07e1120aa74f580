/**
 * The test data of a Kattis problem package (`data/`), walked as problemtools walks it
 * (`problemtools/verifyproblem.py` `TestCaseGroup`): every directory is a test data group whose items are its
 * entries sorted by name (code points); a file `X.ans` with `X.in` beside it is a test case; symbolic links are
 * followed (packages reuse test cases through them). A group's configuration (`testdata.yaml`; `test_group.yaml`
 * in newer packages) inherits every key its parent set, then problem.yaml's legacy `grading` keys override
 * `accept_score`, `reject_score` and `range` (and its `on_reject`: `first_error` -> `break`, `grade` ->
 * `continue`), then problemtools' defaults fill the rest (`on_reject: break`, `grading: default`,
 * `grader_flags: ''`, `accept_score: 1`, `reject_score: 0`, `range: -inf +inf`, `output_validator_flags: ''`).
 * The validation data directories of newer packages (`invalid_input`, `invalid_output`, `valid_output`,
 * `invalid_answer`) hold no test cases for submissions and are skipped. A `grading: custom` group (a
 * package's own grader) is refused.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { DatasetError } from './errors.js';
import type { KattisGroup, KattisTestCase } from './types.js';
import { readYamlFile } from './yaml-file.js';

/** A flags value: problemtools' space-separated string, or the newer format's list of strings. */
const flagsSchema = z.union([z.string(), z.array(z.union([z.string(), z.number()]).transform(String))])
  .transform((v) => (typeof v === 'string' ? v.split(/\s+/).filter((x) => x !== '') : v));
const numberSchema = z.union([z.number(), z.string().regex(/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/).transform(Number)]);

/** The keys of a group configuration Crucible reads (others are ignored: input validator flags, ...). */
export const GroupConfigSchema = z.object({
  on_reject: z.enum(['break', 'continue']).optional(),
  grading: z.enum(['default', 'custom']).optional(),
  grader_flags: flagsSchema.optional(),
  accept_score: numberSchema.optional(),
  reject_score: numberSchema.optional(),
  range: z.string().optional(),
  output_validator_flags: flagsSchema.optional(),
  output_validator_args: flagsSchema.optional(),
}).passthrough();
type GroupConfig = z.infer<typeof GroupConfigSchema>;

/** problem.yaml's legacy `grading` keys that override every group's (module comment). */
export interface LegacyGrading {
  readonly accept_score?: number;
  readonly reject_score?: number;
  readonly range?: string;
  readonly on_reject?: 'first_error' | 'worst_error' | 'grade';
}

const SKIPPED = new Set(['invalid_input', 'invalid_output', 'valid_output', 'invalid_answer', 'invalid_answers']);

/** A `range` value as two numbers (`-inf +inf` allowed). @throws DatasetError for anything else. */
function parseRange(file: string, text: string): [number, number] {
  const parts = text.trim().split(/\s+/).map((p) => (/^[+]?inf$/i.test(p) ? Infinity : /^-inf$/i.test(p) ? -Infinity : Number(p)));
  if (parts.length !== 2 || parts.some((p) => Number.isNaN(p))) throw new DatasetError(file, undefined, 'range', `not two numbers: "${text}"`);
  return [parts[0]!, parts[1]!];
}

/** What the walk collects: the tests in order, and the problem-level settings every group sees. */
interface Walk {
  readonly tests: KattisTestCase[];
  readonly legacy: LegacyGrading;
  readonly legacyFlags: readonly string[];
  readonly dataDir: string;
}

/** The group configuration file of a directory, if any. */
function configOf(dir: string): GroupConfig {
  for (const name of ['testdata.yaml', 'test_group.yaml']) {
    const path = join(dir, name);
    if (existsSync(path)) return readYamlFile(path, GroupConfigSchema);
  }
  return {};
}

/** The resolved configuration of a group (module comment), and the validator flags of its test cases. */
function resolve(dir: string, own: GroupConfig, parent: GroupConfig | undefined, walk: Walk): GroupConfig {
  const config: GroupConfig = { ...parent, ...own };
  if (own.output_validator_args !== undefined && own.output_validator_flags === undefined) config.output_validator_flags = own.output_validator_args;
  const { legacy } = walk;
  if (legacy.accept_score !== undefined) config.accept_score = legacy.accept_score;
  if (legacy.reject_score !== undefined) config.reject_score = legacy.reject_score;
  if (legacy.range !== undefined) config.range = legacy.range;
  if (legacy.on_reject === 'first_error') config.on_reject = 'break';
  if (legacy.on_reject === 'grade') config.on_reject = 'continue';
  if (config.grading === 'custom') throw new DatasetError(join(dir, 'testdata.yaml'), undefined, 'grading', 'custom graders are not run by Crucible');
  return config;
}

/** Walk one group directory (module comment). */
function walkGroup(dir: string, name: string, parent: GroupConfig | undefined, walk: Walk): KattisGroup {
  const config = resolve(dir, configOf(dir), parent, walk);
  const items: KattisGroup['items'][number][] = [];
  const entries = readdirSync(dir).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (dir === walk.dataDir && SKIPPED.has(entry)) continue;
      items.push({ group: walkGroup(path, `${name}/${entry}`, config, walk) });
      continue;
    }
    if (!entry.endsWith('.ans')) continue;
    const base = entry.slice(0, -'.ans'.length);
    const input = join(dir, `${base}.in`);
    if (!existsSync(input) || !statSync(input).isFile()) continue;
    items.push({ test: walk.tests.length });
    walk.tests.push({
      name: `${name}/${base}`.replace(/^data\//, ''),
      input: readFileSync(input, 'utf8'),
      answer: readFileSync(path, 'utf8'),
      validatorArgs: [...walk.legacyFlags, ...config.output_validator_flags ?? []],
    });
  }
  return {
    name, items,
    onReject: config.on_reject ?? 'break',
    graderFlags: config.grader_flags ?? [],
    acceptScore: config.accept_score ?? 1,
    rejectScore: config.reject_score ?? 0,
    range: parseRange(join(dir, 'testdata.yaml'), config.range ?? '-inf +inf'),
  };
}

/**
 * Read `<packageDir>/data` (module comment): the root group and the test cases in judging order.
 * @throws DatasetError for a missing `data/`, a bad configuration, or no test case at all.
 */
export function readKattisData(packageDir: string, legacy: LegacyGrading, legacyFlags: readonly string[]): { root: KattisGroup; tests: KattisTestCase[] } {
  const dataDir = join(packageDir, 'data');
  if (!existsSync(dataDir) || !statSync(dataDir).isDirectory()) throw new DatasetError(packageDir, undefined, undefined, 'no data/ directory');
  const walk: Walk = { tests: [], legacy, legacyFlags, dataDir };
  const root = walkGroup(dataDir, 'data', undefined, walk);
  if (walk.tests.length === 0) throw new DatasetError(dataDir, undefined, undefined, 'no test case (a .in file with its .ans)');
  return { root, tests: walk.tests };
}
