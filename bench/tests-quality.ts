/**
 * bench:tests-quality — the labelled solutions for `crucible tests-quality` on HumanEval vs HumanEval+ (issue #28,
 * item 4): the 16,400 CodeGen-16B HumanEval completions (CodeT's files, cut at CodeT's stop sequences) judged on
 * HumanEval+ (base and plus inputs, fail-fast); "correct" = the completions that pass base and plus, "incorrect" =
 * those that do not, written as `{task_id, completion}` JSONL into `--out` (default `runs/tests-quality-humaneval`).
 * Prints the verdict counts and the two `crucible tests-quality` commands whose figures docs/METRICS.md records.
 * Usage: npm run bench:tests-quality [-- --out DIR --jobs 2]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { datasetHash, readProblems, readSamples } from '../src/formats/index.js';
import { evaluate } from '../src/apps/evaluate.js';
import { createJudge } from '../src/engine/factory.js';
import { RunStore } from '../src/store/run-store.js';
import { CODET_PROBLEMS, CODET_SOLUTIONS, HUMANEVAL, HUMANEVAL_PLUS } from '../test/support/data.js';
import { defaultCacheDir } from '../src/paths.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const out = resolve(arg('--out') ?? join('runs', 'tests-quality-humaneval'));
const jobs = Number(arg('--jobs') ?? availableParallelism());
mkdirSync(out, { recursive: true });

const codetProblems = await readProblems(CODET_PROBLEMS, 'humaneval');
const samples = await readSamples(CODET_SOLUTIONS, { problems: codetProblems });
const plus = await readProblems(HUMANEVAL_PLUS);
const plusHash = await datasetHash(HUMANEVAL_PLUS);
const judge = createJudge({ slots: jobs, cacheDir: defaultCacheDir() });
const store = RunStore.open(join(out, 'label-run'), { problemsHash: plusHash, samplesHash: await datasetHash(CODET_SOLUTIONS), options: {} });
const started = Date.now();
const result = await evaluate({ judge, store, problems: plus, datasetHash: plusHash, samples, ks: [1], bootstrapReps: 100 });
store.close();
await judge.close();
const plusPassed = new Map(result.records.map((r) => [`${r.taskId}#${r.sampleIndex}`, r.plusPassed === true]));
const line = (s: (typeof samples)[number]): string => JSON.stringify({ task_id: s.taskId, completion: s.completion ?? '' });
const correct = samples.filter((s) => plusPassed.get(`${s.taskId}#${s.index}`) === true);
const incorrect = samples.filter((s) => plusPassed.get(`${s.taskId}#${s.index}`) !== true);
writeFileSync(join(out, 'correct.jsonl'), correct.map(line).join('\n') + '\n');
writeFileSync(join(out, 'incorrect.jsonl'), incorrect.map(line).join('\n') + '\n');
const baseFailed = result.records.filter((r) => !r.passed).length;
process.stdout.write([
  `labelled ${samples.length} completions on HumanEval+ in ${((Date.now() - started) / 1000).toFixed(0)} s: ${correct.length} correct (base and plus pass), `
    + `${incorrect.length} incorrect (${baseFailed} of them fail the base inputs); verdicts ${JSON.stringify(result.countsByStatus)}`,
  `files: ${join(out, 'correct.jsonl')}, ${join(out, 'incorrect.jsonl')}`,
  'then:',
  `  crucible tests-quality --problems ${HUMANEVAL} --correct ${join(out, 'correct.jsonl')} --incorrect ${join(out, 'incorrect.jsonl')} --out ${join(out, 'humaneval.json')}`,
  `  crucible tests-quality --problems ${HUMANEVAL_PLUS} --correct ${join(out, 'correct.jsonl')} --incorrect ${join(out, 'incorrect.jsonl')} --out ${join(out, 'humanevalplus.json')}`,
  '',
].join('\n'));
