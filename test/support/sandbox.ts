/** Shared fixtures for tests: one sandbox + executor per test file, closed after. */
import { LanguageRegistry } from '../../src/languages/registry.js';
import { Executor } from '../../src/engine/executor.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { harnessInterpreter } from '../../src/engine/local-judge.js';
import type { PythonInterpreter } from '../../src/engine/harness-pool.js';

/**
 * Create the real sandbox (tests never run programs outside it) and an executor over the shipped languages.
 * `slotBoxes: false` forces a fresh bubblewrap per run (the path hosts without slot boxes take).
 */
export function openExecutor(slots = 2, options: { readonly slotBoxes?: boolean } = {}): { sandbox: Sandbox; executor: Executor; languages: LanguageRegistry } {
  const sandbox = Sandbox.create({ slots, slotBoxes: options.slotBoxes });
  const languages = LanguageRegistry.load();
  return { sandbox, executor: new Executor(sandbox, languages), languages };
}

/** The Python that runs the judge harness, from the shipped `languages/python.yaml` (as LocalJudge takes it). */
export function pythonInterpreter(): PythonInterpreter {
  return harnessInterpreter(LanguageRegistry.load().get('python'));
}
