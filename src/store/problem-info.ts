/**
 * What the store keeps of a problem for the problem page and breakdowns (`ProblemInfo`, `ProblemLabels`), taken
 * from the problem as its format reader made it: the statement, the prompt the model continued, the reference
 * solution, the unit-test code, a repository task's FAIL_TO_PASS/PASS_TO_PASS test ids, and LiveCodeBench's difficulty, platform and release date. Inputs and expected
 * outputs of tests are kept apart (`test_cases`, when a sample fails them).
 */
import type { Problem } from '../formats/types.js';
import type { ProblemInfo, ProblemLabels } from './result-store.js';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The problem's statement, prompt, reference and test code (a repository task's test ids), as far as its kind has them. */
export function problemInfoOf(problem: Problem): ProblemInfo {
  const p = problem as Problem & Record<string, unknown>;
  const language = text(p['language']) ?? 'python';
  const canonical = text(p['canonicalSolution']);
  const reference = p.kind === 'io' || p.kind === 'checker' ? (p as { referenceSolution?: { language: string; code: string } }).referenceSolution
    : canonical === undefined ? undefined : { language, code: canonical };
  const test = p.kind === 'python_script' ? [text(p['setup']), ...(p['tests'] as string[])].filter((x) => x !== undefined).join('\n')
    : p.kind === 'assertions' ? (p['assertions'] as string[]).join('\n') : text(p['test']);
  const info: Record<string, unknown> = {
    title: text(p['title']), statement: text(p['statement']), prompt: text(p['prompt']), entryPoint: text(p['entryPoint']),
    reference, test,
    repositoryTests: p.kind === 'repository' ? { failToPass: [...p.failToPass], passToPass: [...p.passToPass] } : undefined,
  };
  return Object.fromEntries(Object.entries(info).filter(([, v]) => v !== undefined)) as ProblemInfo;
}

/** The problem's labels (LiveCodeBench difficulty, platform, release date), `{}` when it has none. */
export function problemLabelsOf(problem: Problem): ProblemLabels {
  const p = problem as Problem & Record<string, unknown>;
  const labels: Record<string, string | undefined> = { difficulty: text(p['difficulty']), platform: text(p['platform']), releaseDate: text(p['releaseDate']) };
  return Object.fromEntries(Object.entries(labels).filter(([, v]) => v !== undefined)) as ProblemLabels;
}
