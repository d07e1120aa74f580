/**
 * The prompt of a task, as its benchmark's own harness builds it (one module per benchmark beside this file;
 * docs/GENERATE.md lists the styles and their sources):
 *
 * | problem (reader)                                   | completions            | chat                |
 * |----------------------------------------------------|------------------------|---------------------|
 * | HumanEval `unit_test`                              | `bigcode-humaneval`    | `evalplus-instruct` |
 * | EvalPlus `call` (HumanEval+, MBPP+)                | `evalplus-completion`  | `evalplus-instruct` |
 * | MBPP `python_script`                               | `bigcode-mbpp`         | `evalplus-instruct` |
 * | MultiPL-E `script`                                 | `multipl-e`            | `complete-program`  |
 * | HumanEval-X `script`                               | `humaneval-x`          | `complete-program`  |
 * | LiveCodeBench `io` / `expected_call`               | —                      | `livecodebench`     |
 * | APPS/TACO `io` / `expected_call`                   | `bigcode-apps`         | `statement`         |
 * | other stdin/stdout problems (`io`, `checker`)      | —                      | `statement`         |
 * | repository tasks (`problem_statement`)             | —                      | `repository`        |
 *
 * The default API is the harness's first one: completions where the table has a completion style, else chat.
 */
import type { Problem } from '../../formats/types.js';
import { evalPlusPrompt, humanEvalPrompt } from './humaneval.js';
import { liveCodeBenchPrompt } from './livecodebench.js';
import { mbppPrompt } from './mbpp.js';
import { scriptPrompt } from './multipl-e.js';
import { appsPrompt, repositoryPrompt, statementPrompt, type RepositoryTask } from './statement.js';
import { PromptError, type BuiltPrompt, type PromptApi } from './types.js';

export { cutAtStop, PromptError, type BuiltPrompt, type ChatMessage, type OutputShape, type PromptApi, type PromptInput } from './types.js';
export { extractLiveCodeBenchCode } from './livecodebench.js';
export type { RepositoryTask } from './statement.js';

/** What can be prompted: a problem of any reader, or a repository task. */
export type PromptSource = Problem | RepositoryTask;

/** Which published family a problem belongs to, when the problem says (comparator or call rule). */
function family(source: PromptSource): 'livecodebench' | 'apps' | undefined {
  if (source.kind === 'io' && (source.comparator.kind === 'livecodebench' || source.comparator.kind === 'apps')) return source.comparator.kind;
  if (source.kind === 'expected_call') return source.rule;
  return undefined;
}

/** The API a task is prompted through by default (see the module comment). */
export function defaultApi(source: PromptSource): PromptApi {
  switch (source.kind) {
    case 'unit_test': case 'call': case 'python_script': case 'script': case 'assertions':
      return 'completions';
    default:
      return family(source) === 'apps' ? 'completions' : 'chat';
  }
}

/**
 * The prompt of `source` through `api` (default `defaultApi`).
 * @throws PromptError when the task has no template for that API or nothing to show the model.
 */
export function buildPrompt(source: PromptSource, api: PromptApi = defaultApi(source)): BuiltPrompt {
  switch (source.kind) {
    case 'repository': return repositoryPrompt(source, api);
    case 'unit_test': return humanEvalPrompt(source, api);
    // CodeT-style assertion problems continue a HumanEval prompt too.
    case 'assertions': return humanEvalPrompt({ ...source, kind: 'unit_test', test: '' }, api);
    case 'call': return evalPlusPrompt(source, api);
    case 'python_script': return mbppPrompt(source, api);
    case 'script': return scriptPrompt(source, api);
    case 'io': case 'expected_call': {
      const published = family(source);
      if (published === 'livecodebench') return liveCodeBenchPrompt(source, api);
      if (published === 'apps') return appsPrompt(source, api);
      if (source.kind === 'expected_call') throw new PromptError(source.taskId, 'no prompt template for this call-based problem');
      return chatOnly(source.taskId, api, () => statementPrompt(source));
    }
    case 'checker': return chatOnly(source.taskId, api, () => statementPrompt(source));
    default:
      throw new PromptError(source.taskId, `no prompt template for ${source.kind} problems`);
  }
}

function chatOnly(taskId: string, api: PromptApi, build: () => BuiltPrompt): BuiltPrompt {
  if (api === 'completions') throw new PromptError(taskId, 'this problem has a chat prompt only (--chat)');
  return build();
}
