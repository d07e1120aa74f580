/**
 * bench:mbpp — MBPP as published (974 tasks), judged as MBPP judges (`python_script` through the Python harness):
 * the reference solutions, then the same solutions with an early `return None`; pass counts, failures by status,
 * and the wall time of each 974-program pass with the judge's default concurrency.
 * Usage: npm run bench:mbpp
 */
import { readProblems } from '../src/formats/index.js';
import { LanguageRegistry } from '../src/languages/registry.js';
import { createJudge } from '../src/engine/factory.js';
import { judgeCompletions } from '../test/support/humaneval-x.js';
import { MBPP_PATH, mbppEarlyReturn, mbppReference } from '../test/support/mbpp.js';

const languages = LanguageRegistry.load();
const judge = createJudge({ languages, cacheDir: null });
try {
  const problems = await readProblems(MBPP_PATH, 'mbpp');
  for (const [name, solution] of [['reference', mbppReference], ['early return', mbppEarlyReturn]] as const) {
    const started = performance.now();
    const verdicts = await judgeCompletions(judge, languages, MBPP_PATH, problems, solution);
    const wallS = (performance.now() - started) / 1000;
    const byStatus = new Map<string, number>();
    for (const v of verdicts) byStatus.set(v.status, (byStatus.get(v.status) ?? 0) + 1);
    console.log(`${name}: ${[...byStatus].map(([s, n]) => `${s} ${n}`).join(', ')} of ${problems.length}; ${wallS.toFixed(1)} s wall `
      + `(${(problems.length / wallS).toFixed(1)} programs/s, ${judge.capacity.slots} slots)`);
  }
} finally {
  await judge.close();
}
