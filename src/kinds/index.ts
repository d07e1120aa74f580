/**
 * The built-in problem kinds, one folder each under `src/kinds/`. `BUILTIN_MODES` lists the kinds Crucible ships;
 * a judge and `prepareSubmission` take a `ModeRegistry` (`src/judge/registry.ts`; default `defaultModes()`), so a
 * kind of one's own plugs in with `defaultModes().with(myMode)` without touching anything else.
 */
import { LanguageRegistry } from '../languages/registry.js';
import { ModeRegistry } from '../judge/registry.js';
import type { SubmissionContext } from '../judge/submission.js';
import { assertionsMode } from './python/assertions.js';
import { callMode } from './python/call.js';
import { checkerMode } from './checker/checker.js';
import { ioMode } from './io/io.js';
import { ioiMode } from './ioi/ioi.js';
import { kattisMode } from './kattis/kattis.js';
import type { AnyMode } from '../judge/mode.js';
import { expectedCallMode } from './python/expected-call.js';
import { proofMode } from './proof/proof.js';
import { pythonScriptMode } from './python/python-script.js';
import { repositoryMode } from './repository/repository.js';
import { scriptMode } from './script/script.js';
import { unitTestMode } from './python/unit-test.js';
import { sqlKindMode } from './sql/sql.js';
import { verilogKindMode } from './verilog/verilog.js';

export {
  defineMode, GroundTruthError, referenceFailureReason, SubmissionError, type AnyMode, type CodeShape, type JudgingMode, type ModeContext, type ReferenceSpec,
} from '../judge/mode.js';
export { ModeRegistry } from '../judge/registry.js';
export type { ExpectedOutput } from './python/call.js';

/** The kinds Crucible ships, one module each (adding one: its module and an entry here). */
export const BUILTIN_MODES: readonly AnyMode[] = [ioMode, unitTestMode, callMode, assertionsMode, scriptMode, checkerMode,
  pythonScriptMode, expectedCallMode, ioiMode, sqlKindMode, verilogKindMode, kattisMode, repositoryMode, proofMode];

/** A registry of the built-in modes. */
export function defaultModes(): ModeRegistry {
  return new ModeRegistry(BUILTIN_MODES);
}

/** The shipped languages (`languages/*.yaml`) and the built-in judging modes. */
export function defaultSubmissionContext(): SubmissionContext {
  return { languages: LanguageRegistry.load(), modes: defaultModes() };
}
