/**
 * Which problems an evaluation covers, and the refusal of samples that leave some of them out.
 *
 * A pass@k over the problems a samples file happens to cover is not the benchmark's score: openai/human-eval's
 * `evaluate_functional_correctness` asserts that every problem was attempted (`human_eval/evaluation.py`:
 * "Some problems are not attempted."), and so does Crucible by default. A deliberate subset is asked for, and
 * then stamped on everything the run writes (`RunScope`):
 * - the harness's split the samples were made for (bigcode-evaluation-harness MBPP: the test split, task ids
 *   11-510, of a 974-task file; `src/formats/bigcode.ts`): the benchmark as that harness scores it, not a subset;
 * - `tasks`: these task ids (`--tasks`);
 * - `limit`: the first N problems, in the split's order or the file's (`--limit`, as bigcode's `--limit`).
 * Then every selected problem must have at least one sample, or `IncompleteSamplesError` names what is missing.
 * Samples of problems outside the selection are set aside; samples naming no problem of the file are kept, for
 * `evaluate` to report at their line.
 */
import type { Problem, Sample } from '../formats/types.js';

/** A subset of the problems file an evaluation is asked to cover (see the module comment). */
export interface ProblemSelection {
  /** The harness's split the samples follow, when it is a part of the file: its name and task ids, in order. */
  readonly split?: { readonly name: string; readonly taskIds: readonly string[] };
  /** Only these task ids. */
  readonly tasks?: readonly string[];
  /** Only the first `limit` problems (after `split` and `tasks`). */
  readonly limit?: number;
}

/** What a run's pass@k covers: stamped on summary.json, the store run's provenance and the report. */
export interface RunScope {
  /** Problems in the problems file (after a release window, which is stamped on its own). */
  readonly problemsInFile: number;
  /** Problems judged: those pass@k is over. */
  readonly problems: number;
  /** The harness's split, when the samples follow one that is a part of the file: its name and size. */
  readonly split?: { readonly name: string; readonly problems: number };
  /** `--tasks` as given. */
  readonly tasks?: readonly string[];
  /** `--limit` as given. */
  readonly limit?: number;
  /** True when `tasks` or `limit` left out problems of the split (or file): the score is not the benchmark's. */
  readonly subset: boolean;
}

/** Samples that do not attempt every selected problem; its message is one line naming what is missing and what to do. */
export class IncompleteSamplesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IncompleteSamplesError';
  }
}

/** A `--tasks`/`--limit` that selects nothing sensible (a task id not in the file, a limit below 1). */
export class SelectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectionError';
  }
}

/** At most this many missing task ids are named in an `IncompleteSamplesError`. */
const NAMED_MISSING = 5;

/** The problems of `problems` with `ids`, in the order of `ids`. @throws SelectionError naming an id that is not there. */
function byIds(problems: readonly Problem[], ids: readonly string[], what: string): Problem[] {
  const byId = new Map(problems.map((p) => [p.taskId, p]));
  return ids.map((id) => {
    const p = byId.get(id);
    if (p === undefined) throw new SelectionError(`${what}: no problem "${id}" in the problems file${problems.length === 0 ? '' : ` (e.g. "${problems[0]!.taskId}")`}`);
    return p;
  });
}

/**
 * The problems a selection covers, in order, with its scope, before any sample is looked at (`crucible eval
 * --endpoint` selects the problems it will ask a model about).
 * @param problems every problem of the file (after any release window), in file order.
 * @throws SelectionError for a `tasks` id that is not in the file (or the split), or a `limit` below 1.
 */
export function chooseProblems(problems: readonly Problem[], selection: ProblemSelection): { problems: Problem[]; scope: RunScope } {
  let selected: Problem[] = selection.split === undefined ? [...problems] : byIds(problems, selection.split.taskIds, 'split');
  const whole = selected.length;
  if (selection.tasks !== undefined) {
    const ids = [...new Set(selection.tasks)];
    const wanted = new Set(byIds(selected, ids, '--tasks').map((p) => p.taskId));
    selected = selected.filter((p) => wanted.has(p.taskId));
  }
  if (selection.limit !== undefined) {
    if (!Number.isInteger(selection.limit) || selection.limit < 1) throw new SelectionError(`--limit ${selection.limit}: give a whole number of problems, at least 1`);
    selected = selected.slice(0, selection.limit);
  }
  const scope: RunScope = {
    problemsInFile: problems.length,
    problems: selected.length,
    ...(selection.split === undefined ? {} : { split: { name: selection.split.name, problems: whole } }),
    ...(selection.tasks === undefined ? {} : { tasks: selection.tasks }),
    ...(selection.limit === undefined ? {} : { limit: selection.limit }),
    subset: selected.length < whole,
  };
  return { problems: selected, scope };
}

/**
 * The problems an evaluation covers and the samples to judge, with its scope (`chooseProblems`, then every chosen
 * problem must have a sample).
 * @param problems every problem of the file (after any release window), in file order.
 * @param samplesFile named in the error message.
 * @throws SelectionError for a `tasks` id that is not in the file (or the split), or a `limit` below 1.
 * @throws IncompleteSamplesError when some selected problem has no sample (one line: how many, which, what to do).
 */
export function selectProblems(problems: readonly Problem[], samples: readonly Sample[], selection: ProblemSelection,
  samplesFile = 'samples'): { problems: Problem[]; samples: Sample[]; scope: RunScope } {
  const { problems: selected, scope } = chooseProblems(problems, selection);
  const inFile = new Set(problems.map((p) => p.taskId));
  const chosen = new Set(selected.map((p) => p.taskId));
  const kept = samples.filter((s) => chosen.has(s.taskId) || !inFile.has(s.taskId));
  const attempted = new Set(kept.map((s) => s.taskId));
  const missing = selected.filter((p) => !attempted.has(p.taskId)).map((p) => p.taskId);
  const asked = [...(selection.tasks === undefined ? [] : [`--tasks`]), ...(selection.limit === undefined ? [] : [`--limit ${selection.limit}`])];
  if (missing.length > 0) {
    const named = missing.slice(0, NAMED_MISSING).join(', ') + (missing.length > NAMED_MISSING ? `, and ${missing.length - NAMED_MISSING} more` : '');
    const of = asked.length > 0 ? `the ${selected.length} problems selected by ${asked.join(' and ')}`
      : selection.split !== undefined ? `the ${selected.length} problems of the ${selection.split.name}` : `the ${selected.length} problems`;
    throw new IncompleteSamplesError(`${samplesFile}: samples attempt ${selected.length - missing.length} of ${of} (none for ${named}); `
      + 'a pass@k over part of a benchmark is not its score, so every problem must be attempted (as openai/human-eval asserts); '
      + 'for a deliberate subset give --limit N (the first N problems) or --tasks ID,...');
  }
  return { problems: selected, samples: kept, scope };
}

/** One line saying what a run's pass@k is over, or undefined for a whole problems file. */
export function scopeLine(scope: RunScope): string | undefined {
  const by = [...(scope.tasks === undefined ? [] : [`--tasks`]), ...(scope.limit === undefined ? [] : [`--limit ${scope.limit}`])].join(' and ');
  if (scope.subset) {
    return `SUBSET: pass@k is over ${scope.problems} of the ${scope.split === undefined ? `${scope.problemsInFile} problems in the file`
      : `${scope.split.problems} problems of the ${scope.split.name}`} (${by}), not the benchmark's score`;
  }
  if (scope.split !== undefined) return `split: the ${scope.split.name}: ${scope.problems} of the file's ${scope.problemsInFile} problems`;
  return undefined;
}
