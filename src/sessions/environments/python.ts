/**
 * `python`: a persistent Python REPL (Debian's python3.11 with its site packages). Each action is Python code
 * run in one namespace kept between steps; a last expression's repr is printed, as an interactive interpreter
 * does; an exception's traceback goes to stderr with exitCode 1 (harness/python/crucible_session/repl.py).
 */
import type { BoxEnvironmentSpec } from './box-environment.js';

export const PYTHON_ENVIRONMENT: BoxEnvironmentSpec = {
  kind: 'python',
  actionName: 'Python code',
  stateName: 'variables, functions and imports',
  setup: () => null,
  observe: () => ({}),
};
