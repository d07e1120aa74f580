/**
 * bigcode-evaluation-harness generations (`--save_generations`: `generations.json`, written by its `main.py` as
 * `json.dump(generations, f)`) -> `Sample[]`, matched to the problems the harness generated them for.
 *
 * The file is a JSON list with one list of strings per problem and nothing else: no task ids. The harness writes
 * the lists in the order of the task's dataset split, from `--limit_start` (default 0) for `--limit` problems
 * (bigcode_eval/evaluator.py). Each string is the whole program the harness judges (its `postprocess_generation`
 * returns prompt + generation: `tasks/humaneval.py`, `tasks/mbpp.py`), so it is read as a `solution`.
 *
 * Which problems the lists are (`alignBigcode`), first rule that applies:
 * 1. By prompt: when the first generation of every list starts with the prompt the harness gave one problem (and
 *    only one), that is its problem; nothing about order or `--limit_start` is assumed. The prompts are the
 *    harness's own: MBPP `'"""\n' + text + '\n' + test_list[0] + '\n"""\n'` (tasks/mbpp.py `get_prompt`; MBPP+ uses
 *    EvalPlus' `prompt` the same way, tasks/mbppplus.py), HumanEval(+) the problem's `prompt` stripped
 *    (tasks/humaneval.py `get_prompt`, `strip_prompt` on by default).
 * 2. By position in the harness's split: the `mbpp` task generates for MBPP's `test` split, task ids 11–510 in
 *    order (tasks/mbpp.py `get_dataset` takes `dataset["test"]` of the Hub's `mbpp` and asserts its 500 rows), so a
 *    problems file that holds all of them (the original 974-task `mbpp.jsonl`) is matched through that split, not
 *    line by line; any other problems file is its own split, in file order (HumanEval, HumanEval+, MBPP+ as
 *    published). A file with one list per problem of the split starts at 0; a shorter one (`--limit`) needs the
 *    `--limit_start` it was made with (`start`), since nothing in the file says where it began.
 * Anything else (more lists than the split has, a shorter file without `start`, lists past the split's end) is
 * refused with one line that says what to give: a file that cannot be matched unambiguously is never guessed at.
 * Errors: `DatasetError` naming the file (and the element path for a malformed document).
 */
import { z } from 'zod';
import { DatasetError, datasetErrorFromZod } from './errors.js';
import type { Problem, Sample } from './types.js';

const BigcodeSchema = z.array(z.array(z.string(), { invalid_type_error: 'expected a list of generations (strings)' }),
  { invalid_type_error: 'expected a list of lists of strings' });

/** First and last task id of MBPP's `test` split, the one bigcode-evaluation-harness's `mbpp` task generates for. */
export const MBPP_TEST_SPLIT = { first: 11, last: 510 } as const;

/** The problems a bigcode file's lists follow, in the harness's order, and what that split is called. */
export interface BigcodeSplit {
  /** e.g. `MBPP test split (task ids 11-510, ...)`, or `the problems file` (in file order). */
  readonly name: string;
  /** Task ids of the split, in the harness's order. */
  readonly taskIds: readonly string[];
  /** True when the split is a part of the problems file chosen by the harness (MBPP's test split). */
  readonly subsetOfFile: boolean;
}

/** How the lists of a bigcode file were matched to problems. */
export interface BigcodeAlignment {
  readonly samples: Sample[];
  readonly split: BigcodeSplit;
  /** `prompts`: by the prompt each generation starts with; `order`: by position from `start`. */
  readonly matchedBy: 'prompts' | 'order';
  /** Position in the split of the first list (`--limit_start`); undefined when matched by prompts. */
  readonly start?: number;
}

/** Options: the harness's `--limit_start` the file was made with, when it is shorter than its split. */
export interface BigcodeOptions {
  readonly start?: number;
}

/** MBPP's test split when `problems` is MBPP as published (holds every task id 11-510 as MBPP problems), else undefined. */
function mbppTestSplit(problems: readonly Problem[]): Problem[] | undefined {
  const byId = new Map(problems.map((p) => [p.taskId, p]));
  const split: Problem[] = [];
  for (let id = MBPP_TEST_SPLIT.first; id <= MBPP_TEST_SPLIT.last; id++) {
    const p = byId.get(String(id));
    if (p === undefined || p.kind !== 'python_script') return undefined;
    split.push(p);
  }
  return split;
}

/** The prompt bigcode-evaluation-harness gives a problem (see the module comment), or undefined when it has none we know. */
export function bigcodePrompt(problem: Problem): string | undefined {
  if (problem.kind === 'python_script') {
    const first = problem.tests[0];
    return first === undefined ? undefined : `"""\n${problem.statement}\n${first}\n"""\n`;
  }
  if ('prompt' in problem && typeof problem.prompt === 'string' && problem.prompt.trim() !== '') return problem.prompt.trim();
  return undefined;
}

/** Each list's problem by the prompt its first generation starts with, or undefined when that does not match every list once. */
function byPrompts(lists: readonly (readonly string[])[], split: readonly Problem[]): Problem[] | undefined {
  const prompted = split.flatMap((p) => {
    const prompt = bigcodePrompt(p);
    return prompt === undefined ? [] : [{ problem: p, prompt }];
  });
  if (prompted.length === 0) return undefined;
  const used = new Set<string>();
  const matched: Problem[] = [];
  for (const list of lists) {
    const first = list[0];
    if (first === undefined) return undefined;
    const hits = prompted.filter((x) => first.startsWith(x.prompt));
    if (hits.length !== 1 || used.has(hits[0]!.problem.taskId)) return undefined;
    used.add(hits[0]!.problem.taskId);
    matched.push(hits[0]!.problem);
  }
  return matched;
}

function samplesOf(lists: readonly (readonly string[])[], problems: readonly Problem[]): Sample[] {
  return lists.flatMap((generations, i) => generations.map((solution, index) => ({ taskId: problems[i]!.taskId, index, solution })));
}

/**
 * Match a parsed bigcode generations document to `problems` (see the module comment for the rules).
 * @throws DatasetError when the document is not a list of lists of strings, or cannot be matched unambiguously.
 */
export function alignBigcode(path: string, doc: unknown, problems: readonly Problem[], options: BigcodeOptions = {}): BigcodeAlignment {
  const parsed = BigcodeSchema.safeParse(doc);
  if (!parsed.success) throw datasetErrorFromZod(path, undefined, parsed.error);
  const lists = parsed.data;
  const mbpp = mbppTestSplit(problems);
  const order = mbpp ?? problems;
  const split: BigcodeSplit = mbpp === undefined
    ? { name: 'the problems file', taskIds: problems.map((p) => p.taskId), subsetOfFile: false }
    : { name: `MBPP test split (task ids ${MBPP_TEST_SPLIT.first}-${MBPP_TEST_SPLIT.last}, bigcode-evaluation-harness tasks/mbpp.py)`,
      taskIds: mbpp.map((p) => p.taskId), subsetOfFile: mbpp.length < problems.length };
  const prompted = byPrompts(lists, order);
  if (prompted !== undefined) return { samples: samplesOf(lists, prompted), split, matchedBy: 'prompts' };
  const n = lists.length;
  const refuse = (why: string): never => {
    throw new DatasetError(path, undefined, undefined, `bigcode generations: ${why}`);
  };
  if (n > order.length) refuse(`${n} lists, but ${split.name} has ${order.length} problems`);
  const start = options.start ?? (n === order.length ? 0 : undefined);
  if (start === undefined) {
    refuse(`${n} lists for the ${order.length} problems of ${split.name}, and the generations do not start with the problems' `
      + 'prompts: which problems they are depends on the --limit_start the harness was run with; give it with --bigcode-start N '
      + '(0 when it was not set)');
  }
  if (start! + n > order.length) refuse(`${n} lists from position ${start} run past the ${order.length} problems of ${split.name}`);
  return { samples: samplesOf(lists, order.slice(start, start! + n)), split, matchedBy: 'order', start };
}
