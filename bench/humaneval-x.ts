/**
 * bench:humaneval-x — every HumanEval-X canonical solution judged, per language Crucible supports (C++, Go, Java,
 * JavaScript as `script` problems; Python as `unit_test`): how many pass, which fail and why, and the wall time
 * of the language's 164 programs judged with the judge's default concurrency (compile + run each, in the sandbox).
 * `npm test` judges every 16th task only (test/acceptance/humaneval-x.test.ts); this is the full run.
 * With `--broken`, each language's broken solutions too (`brokenCompletion`: the body removed), which must fail.
 * Usage: npm run bench:humaneval-x [-- --lang cpp,go] [--broken]
 */
import { LanguageRegistry } from '../src/languages/registry.js';
import { createJudge } from '../src/engine/factory.js';
import {
  brokenCompletion, canonicalCompletion, HUMANEVAL_X_LANGUAGES, humanEvalXPath, judgeCompletions, readHumanEvalX,
} from '../test/support/humaneval-x.js';

const i = process.argv.indexOf('--lang');
const only = i >= 0 ? process.argv[i + 1]?.split(',') : undefined;
const broken = process.argv.includes('--broken');
const languages = LanguageRegistry.load();
const judge = createJudge({ languages, cacheDir: null });
try {
  for (const suffix of HUMANEVAL_X_LANGUAGES) {
    if (only !== undefined && !only.includes(suffix)) continue;
    const problems = await readHumanEvalX(suffix);
    const started = performance.now();
    const verdicts = await judgeCompletions(judge, languages, humanEvalXPath(suffix), problems, canonicalCompletion);
    const wallS = (performance.now() - started) / 1000;
    const passed = verdicts.filter((v) => v.passed).length;
    console.log(`${suffix}: ${passed}/${problems.length} canonical solutions pass; ${wallS.toFixed(1)} s wall `
      + `(${(problems.length / wallS).toFixed(2)} programs/s, ${judge.capacity.slots} slots)`);
    verdicts.forEach((v, k) => {
      if (!v.passed) console.log(`  ${problems[k]!.taskId}: ${v.status}: ${(v.reason ?? '').replace(/\s+/g, ' ').slice(0, 200)}`);
    });
    if (broken) {
      const wrong = await judgeCompletions(judge, languages, humanEvalXPath(suffix), problems, brokenCompletion);
      const failed = wrong.filter((v) => !v.passed).length;
      console.log(`${suffix}: ${failed}/${problems.length} broken solutions (body removed) fail`);
      wrong.forEach((v, k) => { if (v.passed) console.log(`  ${problems[k]!.taskId}: a broken solution passes`); });
    }
  }
} finally {
  await judge.close();
}
