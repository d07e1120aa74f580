/**
 * bench:humaneval-x — every HumanEval-X canonical solution judged, per language Crucible supports (C++, Go, Java,
 * JavaScript as `script` problems; Python as `unit_test`): how many pass, which fail and why, and the wall time
 * of the language's 164 programs judged with the judge's default concurrency (compile + run each, in the sandbox).
 * `npm test` judges every 16th task only (test/acceptance/humaneval-x.test.ts); this is the full run.
 * With `--broken`, each language's broken solutions too (`brokenCompletion`: the body removed), which must fail.
 * With `--codegeex` (C++ only), the agreement with CodeGeeX's own rule: every canonical and broken solution is also
 * judged as CodeGeeX's harness judges it (its program, `g++ -std=c++11`, exit status 0; `test/support/codegeex.ts`,
 * run in the sandbox), and every solution whose two verdicts differ is listed.
 * Usage: npm run bench:humaneval-x [-- --lang cpp,go] [--broken] [--codegeex]
 */
import { LanguageRegistry } from '../src/languages/registry.js';
import { createJudge } from '../src/engine/factory.js';
import {
  brokenCompletion, canonicalCompletion, HUMANEVAL_X_LANGUAGES, humanEvalXPath, judgeCompletions, readHumanEvalX,
} from '../test/support/humaneval-x.js';
import { codegeexCppVerdict, withCodegeexCpp } from '../test/support/codegeex.js';
import type { Problem } from '../src/formats/types.js';
import type { Verdict } from '../src/verdict/index.js';

const i = process.argv.indexOf('--lang');
const only = i >= 0 ? process.argv[i + 1]?.split(',') : undefined;
const broken = process.argv.includes('--broken');
const codegeex = process.argv.includes('--codegeex');

/** Compare Crucible's verdicts with CodeGeeX's rule on the same solutions; print and count the disagreements. */
async function compareWithCodegeex(label: string, problems: readonly Problem[], verdicts: readonly Verdict[],
  solution: (p: Problem) => string): Promise<void> {
  const theirs = await Promise.all(problems.map((p) => p.kind === 'script' ? codegeexCppVerdict(judge, p, solution(p)) : Promise.resolve('n/a')));
  let differ = 0;
  problems.forEach((p, k) => {
    const ours = verdicts[k]!;
    if ((theirs[k] === 'passed') === ours.passed) return;
    differ++;
    console.log(`  ${label} ${p.taskId}: CodeGeeX ${theirs[k]!.slice(0, 80)}; Crucible ${ours.status}: ${(ours.reason ?? '').replace(/\s+/g, ' ').slice(0, 160)}`);
  });
  console.log(`cpp: ${label} solutions: ${problems.length - differ}/${problems.length} agree with CodeGeeX's rule`);
}
const languages = withCodegeexCpp(LanguageRegistry.load());
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
    if (codegeex && suffix === 'cpp') await compareWithCodegeex('canonical', problems, verdicts, canonicalCompletion);
    if (broken) {
      const wrong = await judgeCompletions(judge, languages, humanEvalXPath(suffix), problems, brokenCompletion);
      const failed = wrong.filter((v) => !v.passed).length;
      console.log(`${suffix}: ${failed}/${problems.length} broken solutions (body removed) fail`);
      wrong.forEach((v, k) => { if (v.passed) console.log(`  ${problems[k]!.taskId}: a broken solution passes`); });
      if (codegeex && suffix === 'cpp') await compareWithCodegeex('broken', problems, wrong, brokenCompletion);
    }
  }
} finally {
  await judge.close();
}
