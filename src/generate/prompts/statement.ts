/**
 * Problems shown to the model as a statement: APPS/TACO, contest problems and repository tasks.
 *
 * - `bigcode-apps` (completions): bigcode-evaluation-harness `bigcode_eval/tasks/apps.py` at 8fc5bae:
 *   `\nQUESTION:\n` + question + starter code + `\nUse Call-Based format` (a function to write) or
 *   `\nUse Standard Input format`, then `\nANSWER:\n`; stop sequences `\nQUESTION`, `\n---`, `\nANSWER`; the
 *   generation (after the prompt) is the whole program.
 * - `statement` (chat): Crucible's own instruction for stdin/stdout problems without a published chat template
 *   (Crucible-native problems, CodeContests, IOI, APPS with a chat model): the statement, then a request for a
 *   complete program reading standard input and writing standard output in one fenced block.
 * - `repository` (chat): a repository-level task (SWE-bench's shape, a `problem_statement` field): the statement as
 *   the one user message, verbatim; the response is kept as it is (Crucible does not apply patches here).
 */
import type { ExpectedCallProblem, IoProblem } from '../../formats/types.js';
import { PromptError, type BuiltPrompt, type PromptApi } from './types.js';

/** bigcode-evaluation-harness APPS stop sequences. */
export const BIGCODE_APPS_STOP: readonly string[] = ['\nQUESTION', '\n---', '\nANSWER'];

/** A task of a repository (SWE-bench's `instance_id` and `problem_statement`; `repo` when given). */
export interface RepositoryTask {
  readonly kind: 'repository';
  readonly taskId: string;
  readonly problemStatement: string;
  readonly repo?: string;
}

/** Crucible's instruction after a statement (see the module comment). */
export function statementMessage(statement: string, language: string): string {
  return `${statement.trim()}\n\nWrite a complete ${language} program that solves this problem: read the input from standard input ` +
    'and write the answer to standard output. Answer with the program in one fenced code block.';
}

/** APPS as bigcode prompts it (completions), else the generic statement prompt. */
export function appsPrompt(problem: IoProblem | ExpectedCallProblem, api: PromptApi): BuiltPrompt {
  if (api === 'chat') return statementPrompt(problem);
  if (problem.statement === undefined) throw new PromptError(problem.taskId, 'no question to show the model');
  const starter = problem.kind === 'expected_call' ? problem.prompt : '';
  const prompt = `\nQUESTION:\n${problem.statement}${starter}` +
    `${problem.kind === 'expected_call' ? '\nUse Call-Based format' : '\nUse Standard Input format'}\nANSWER:\n`;
  return {
    taskId: problem.taskId, style: 'bigcode-apps', language: 'python',
    input: { api: 'completions', prompt }, stop: BIGCODE_APPS_STOP, output: { kind: 'prefixed', prefix: '' },
  };
}

/** The generic chat prompt of a problem with a statement. @throws PromptError without one. */
export function statementPrompt(problem: { readonly taskId: string; readonly statement?: string; readonly language?: string }): BuiltPrompt {
  if (problem.statement === undefined || problem.statement.trim() === '') {
    throw new PromptError(problem.taskId, 'the problem has no statement to show the model');
  }
  const language = problem.language ?? 'python';
  return {
    taskId: problem.taskId, style: 'statement', language,
    input: { api: 'chat', messages: [{ role: 'user', content: statementMessage(problem.statement, language) }] },
    stop: [], output: { kind: 'response' },
  };
}

/** A repository task's prompt: its problem statement as the one user message. @throws PromptError for completions. */
export function repositoryPrompt(task: RepositoryTask, api: PromptApi): BuiltPrompt {
  if (api === 'completions') throw new PromptError(task.taskId, 'repository tasks are prompted through the chat API (--chat)');
  return {
    taskId: task.taskId, style: 'repository', language: 'diff',
    input: { api: 'chat', messages: [{ role: 'user', content: task.problemStatement }] },
    stop: [], output: { kind: 'response' },
  };
}
