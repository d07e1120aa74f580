/**
 * `bash`: a persistent shell. Each action is a command line run by `eval` in one bash process, so the working
 * directory, variables, functions and files persist between steps; stdin of a step is /dev/null; processes a
 * step leaves running are killed when it ends (src/sandbox/native/session-agent.c).
 */
import type { BoxEnvironmentSpec } from './box-environment.js';

export const BASH_ENVIRONMENT: BoxEnvironmentSpec = {
  kind: 'bash',
  actionName: 'a command line',
  stateName: 'the working directory, variables and functions',
  setup: () => null,
  observe: () => ({}),
};
