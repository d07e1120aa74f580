/** Shared fixtures for tests: one sandbox + executor per test file, closed after. */
import { LanguageRegistry } from '../../src/languages/registry.js';
import { Executor } from '../../src/runner/executor.js';
import { Sandbox } from '../../src/sandbox/index.js';

/** Create the real sandbox (tests never run programs outside it) and an executor over the shipped languages. */
export function openExecutor(slots = 2): { sandbox: Sandbox; executor: Executor; languages: LanguageRegistry } {
  const sandbox = Sandbox.create({ slots });
  const languages = LanguageRegistry.load();
  return { sandbox, executor: new Executor(sandbox, languages), languages };
}
