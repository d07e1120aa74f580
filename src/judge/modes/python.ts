/**
 * What the Python-prompt kinds (unit_test, call, assertions) share: they are judged in Python, the program is
 * the prompt followed by the completion, and the harness's statuses map onto sample statuses.
 */
import type { HarnessResponse } from '../harness/protocol.js';
import type { SampleStatus } from '../../verdict/index.js';
import type { CodeShape } from './mode.js';

/** `language` and `acceptsLanguage` of a mode judged in Python only (whatever alias a submission used). */
export const PYTHON_ONLY = {
  language: (_problem: unknown, requested: string | undefined): string => requested ?? 'python',
  acceptsLanguage: (_problem: unknown, languageId: string): boolean => languageId === 'python',
} as const;

function definesAtTopLevel(code: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^(?:async\\s+)?def\\s+${escaped}\\s*\\(`, 'm').test(code);
}

/**
 * The program of a Python-prompt problem (openai/human-eval `check_correctness`: prompt + completion):
 * a `completion` continues the prompt; a `solution` is whole; other `code` (given as is or extracted from a
 * response) is whole when it defines the entry point at top level (`def <entry_point>(`), else continues the prompt.
 */
export function assemblePython(prompt: string, entryPoint: string, code: string, shape: CodeShape): string {
  if (shape === 'solution') return code;
  if (shape === 'code' && definesAtTopLevel(code, entryPoint)) return code;
  return prompt + code;
}

/** A harness status as a sample status (`ok`, a job that completed, is a pass). */
export function harnessStatus(status: HarnessResponse['status']): SampleStatus {
  return status === 'ok' ? 'passed' : status;
}
