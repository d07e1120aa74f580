/**
 * One submission path for every front end (`crucible eval`, `rerank`, `serve` and its compatibility routes):
 * from what a sample or request carries to the program a judge runs.
 *
 * Which code is judged: `solution` (a whole program) if given, else `completion` (continues the prompt), else
 * `code` (the program as given), else `response` (raw model text: `<think>` sections removed, the fenced
 * block in the problem's language preferred, `pick` first/last, see `src/extract/`; nothing found is the
 * verdict `no_code`, decided without a sandbox). The problem's judging mode then picks the language (a Python
 * problem is judged in Python; an io problem in the submission's language, else the problem's, else Python) and
 * assembles the program (Python prompt kinds: prompt + completion; `code` and extracted code are whole
 * programs when they define the entry point at top level).
 */
import { extractCode, type ExtractResult } from '../extract/index.js';
import type { ProblemBase } from '../formats/types.js';
import type { LanguageRegistry } from '../languages/registry.js';
import { verdictWithoutTests, type Verdict } from '../verdict/index.js';
import type { Program } from './judge.js';
import { SubmissionError, type AnyMode, type CodeShape } from './mode.js';
import type { ModeRegistry } from './registry.js';

/** What a submission may carry (see the module comment for which code is judged). */
export interface SubmissionInput {
  readonly solution?: string;
  readonly completion?: string;
  readonly code?: string;
  readonly response?: string;
  /** Language id or alias the submission is written in. */
  readonly language?: string;
  /** Which fenced block of a response: `last` (default) or `first`. */
  readonly pick?: 'first' | 'last';
  /** Remove `<think>` sections of a response first (default true). */
  readonly stripThink?: boolean;
}

/** How the program was obtained; `fenced`/`unfenced`/`no_code` mirror `extractCode`. */
export type Extraction =
  | { readonly kind: 'code' }
  | { readonly kind: 'fenced'; readonly tag: string; readonly blockIndex: number; readonly blockCount: number;
      readonly terminated: boolean; readonly thinkSectionsRemoved: number }
  | { readonly kind: 'unfenced'; readonly thinkSectionsRemoved: number }
  | { readonly kind: 'no_code'; readonly reason: 'empty' | 'prose'; readonly thinkSectionsRemoved: number };

/** A submission ready to judge (`program`), or already decided (`no_code`). `testCount` is the problem's. */
export type PreparedSubmission =
  | { readonly kind: 'program'; readonly program: Program; readonly extraction: Extraction; readonly testCount: number }
  | { readonly kind: 'decided'; readonly verdict: Verdict; readonly extraction: Extraction; readonly testCount: number };

/** What `prepareSubmission` needs besides the submission: the configured languages and the judging modes. */
export interface SubmissionContext {
  readonly languages: LanguageRegistry;
  readonly modes: ModeRegistry;
}

function extractionOf(result: ExtractResult): Extraction {
  switch (result.kind) {
    case 'fenced':
      return { kind: 'fenced', tag: result.tag, blockIndex: result.blockIndex, blockCount: result.blockCount,
        terminated: result.terminated, thinkSectionsRemoved: result.thinkSectionsRemoved };
    case 'unfenced':
      return { kind: 'unfenced', thinkSectionsRemoved: result.thinkSectionsRemoved };
    case 'no_code':
      return { kind: 'no_code', reason: result.reason, thinkSectionsRemoved: result.thinkSectionsRemoved };
  }
}

/** The code a submission gives without extraction, and its shape; undefined when it gives only a response. */
function givenCode(input: SubmissionInput): { code: string; shape: CodeShape } | undefined {
  if (input.solution !== undefined) return { code: input.solution, shape: 'solution' };
  if (input.completion !== undefined) return { code: input.completion, shape: 'completion' };
  if (input.code !== undefined) return { code: input.code, shape: 'code' };
  return undefined;
}

/**
 * Prepare one submission for `problem`: resolve its language, extract and assemble its program.
 * Pure and cheap (no sandbox). `no_code` comes back decided, with its reason.
 * @throws SubmissionError `unknown_language` (no such language configured), `wrong_language` (the problem is
 *   judged in another language), `no_program` (no solution, completion, code or response).
 * @throws JudgeRequestError for a problem kind no mode judges.
 */
export function prepareSubmission(problem: ProblemBase, input: SubmissionInput, context: SubmissionContext): PreparedSubmission {
  const mode = context.modes.of(problem);
  const testCount = mode.testCount(problem);
  try {
    return prepareWith(mode, problem, input, context, testCount);
  } catch (error) {
    if (error instanceof SubmissionError && error.testCount === undefined) {
      throw new SubmissionError(error.code, error.message, error.field, testCount);
    }
    throw error;
  }
}

/** `prepareSubmission` once the problem's mode is known. */
function prepareWith(mode: AnyMode, problem: ProblemBase, input: SubmissionInput, context: SubmissionContext, testCount: number): PreparedSubmission {
  const name = mode.language(problem, input.language);
  const remote = mode.remoteLanguages?.includes(name) === true && !context.languages.has(name);
  if (!remote && !context.languages.has(name)) {
    throw new SubmissionError('unknown_language',
      `unknown language "${name}"; configured: ${context.languages.languages.map((l) => l.id).join(', ')}`);
  }
  const resolved = remote ? undefined : context.languages.get(name);
  const language = resolved?.id ?? name;
  if (mode.acceptsLanguage !== undefined && !mode.acceptsLanguage(problem, language)) {
    throw new SubmissionError('wrong_language', `problem ${problem.taskId} (${problem.kind}) cannot be judged in ${language}`);
  }
  const given = givenCode(input);
  if (given !== undefined) {
    return { kind: 'program', program: { language, source: mode.assemble(problem, given.code, given.shape) },
      extraction: { kind: 'code' }, testCount };
  }
  if (input.response === undefined) {
    throw new SubmissionError('no_program', 'the submission has no solution, completion, code or response');
  }
  const result = extractCode(input.response, { fenceTags: mode.responseFenceTags?.(problem) ?? (resolved === undefined ? new Set([language]) : context.languages.fenceTags(resolved)),
    pick: input.pick ?? 'last',
    stripThink: input.stripThink ?? true });
  const extraction = extractionOf(result);
  if (result.kind === 'no_code') {
    const reason = result.reason === 'empty' ? 'the response is empty (after removing thinking)' : 'no code found in the response';
    return { kind: 'decided', verdict: verdictWithoutTests('no_code', testCount, reason), extraction, testCount };
  }
  return { kind: 'program', program: { language, source: mode.assemble(problem, result.code, 'code') }, extraction, testCount };
}
