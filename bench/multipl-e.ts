/**
 * bench:multipl-e — MultiPL-E's test suites as split judging reads them (`src/kinds/script/split.ts`): for
 * each problem of each MultiPL-E file given, whether its tests are read as cases, and whether the trusted
 * expected-values program runs in the sandbox and prints exactly one readable value per case; with the median
 * wall time of that program (it runs once per problem and is remembered). No candidate code is run.
 * Usage: npm run bench:multipl-e -- <file.jsonl | directory> ...   (MultiPL-E rows: name, language, prompt, tests)
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readProblems } from '../src/formats/index.js';
import type { ScriptProblem } from '../src/formats/types.js';
import { splitOf } from '../src/kinds/script/script.js';
import { MULTIPL_E_SPLITS } from '../src/kinds/script/multipl-e/index.js';
import { EXPECTED_VALUES_LIMITS } from '../src/kinds/script/split.js';
import { parseScriptValue, valueLines } from '../src/kinds/script/values.js';
import { LanguageRegistry } from '../src/languages/registry.js';
import { createJudge } from '../src/engine/factory.js';

const inputs = process.argv.slice(2).flatMap((p) => statSync(p).isDirectory()
  ? readdirSync(p).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(p, f)) : [p]);
if (inputs.length === 0) {
  console.error('usage: npm run bench:multipl-e -- <file.jsonl | directory> ...');
  process.exit(2);
}

const languages = LanguageRegistry.load();
const judge = createJudge({ languages, cacheDir: null });

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)]!;
}

try {
  for (const file of inputs) {
    let problems: ScriptProblem[];
    try {
      problems = await readProblems(file, 'multipl-e') as ScriptProblem[];
    } catch (error) {
      console.log(`${file}: not read (${(error as Error).message.split('\n')[0]})`);
      continue;
    }
    const unread: string[] = [];
    const failed: string[] = [];
    const wallMs: number[] = [];
    let cases = 0;
    await Promise.all(problems.map(async (problem) => {
      const split = splitOf(problem);
      if (split === undefined) { unread.push(problem.taskId); return; }
      const source = split.split.expectedProgram({ setup: problem.setup ?? '', prompt: problem.prompt, tests: split.tests });
      const outcome = await judge.runPlain({ program: { language: problem.language, source }, stdin: '', limits: EXPECTED_VALUES_LIMITS });
      const run = outcome.run;
      if (run === null || run.status !== 'ok') {
        failed.push(`${problem.taskId} (${outcome.compile?.status === 'ok' || outcome.compile === null ? run?.status : 'compile error'}: ${(run?.stderr ?? outcome.compile?.stderr ?? '').trim().split('\n').slice(0, 2).join(' | ').slice(0, 160)})`);
        return;
      }
      wallMs.push(run.wallMs);
      const lines = valueLines(run.stdout);
      const bad = split.tests.cases.findIndex((_, i) => {
        const texts = lines.get(i);
        if (texts?.length !== 1) return true;
        try { parseScriptValue(texts[0]!); return false; } catch { return true; }
      });
      if (bad >= 0) { failed.push(`${problem.taskId} (case ${bad + 1}: no single readable value)`); return; }
      cases += split.tests.cases.length;
    }));
    const language = problems[0]?.language ?? '?';
    if (MULTIPL_E_SPLITS[language] === undefined) {
      console.log(`${file} [${language}]: no split judging for this language (judged as one script)`);
      continue;
    }
    const read = problems.length - unread.length;
    console.log(`${file} [${language}]: tests read as cases ${read}/${problems.length}; expected-values programs ok `
      + `${read - failed.length}/${read} (${cases} cases); run wall median ${median(wallMs).toFixed(0)} ms`);
    for (const name of unread.slice(0, 10)) console.log(`  not read: ${name}`);
    for (const line of failed.slice(0, 10)) console.log(`  failed: ${line}`);
  }
} finally {
  await judge.close();
}
