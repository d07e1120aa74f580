/**
 * The registry of judging modes, one per problem kind. `BUILTIN_MODES` lists the kinds Crucible ships; a judge
 * and `prepareSubmission` take a `ModeRegistry` (default `defaultModes()`), so a kind of one's own plugs in with
 * `defaultModes().with(myMode)` without touching anything else.
 */
import type { ProblemBase } from '../../formats/types.js';
import { JudgeRequestError } from '../judge.js';
import { assertionsMode } from './assertions.js';
import { callMode } from './call.js';
import { checkerMode } from './checker.js';
import { ioMode } from './io.js';
import { ioiMode } from './ioi.js';
import type { AnyMode } from './mode.js';
import { expectedCallMode } from './expected-call.js';
import { pythonScriptMode } from './python-script.js';
import { scriptMode } from './script.js';
import { unitTestMode } from './unit-test.js';

export {
  defineMode, GroundTruthError, SubmissionError, type AnyMode, type CodeShape, type JudgingMode, type ModeContext, type ReferenceSpec,
} from './mode.js';
export type { ExpectedOutput } from './call.js';

/** The kinds Crucible ships, one module each (adding one: its module and an entry here). */
export const BUILTIN_MODES: readonly AnyMode[] = [ioMode, unitTestMode, callMode, assertionsMode, scriptMode, checkerMode,
  pythonScriptMode, expectedCallMode, ioiMode];

/** Judging modes by problem kind. Immutable once made: `with` returns a new registry. */
export class ModeRegistry {
  private readonly byKind = new Map<string, AnyMode>();

  /** @throws Error when two modes claim one kind. */
  constructor(modes: readonly AnyMode[]) {
    for (const mode of modes) {
      if (this.byKind.has(mode.kind)) throw new Error(`two judging modes for problem kind "${mode.kind}"`);
      this.byKind.set(mode.kind, mode);
    }
  }

  /** A registry with these modes added. @throws Error when a kind is taken. */
  with(...modes: readonly AnyMode[]): ModeRegistry {
    return new ModeRegistry([...this.byKind.values(), ...modes]);
  }

  /** Every registered mode. */
  get modes(): readonly AnyMode[] {
    return [...this.byKind.values()];
  }

  /** The mode judging `problem`. @throws JudgeRequestError for a kind no mode judges. */
  of(problem: ProblemBase): AnyMode {
    const mode = this.byKind.get(problem.kind);
    if (!mode) {
      throw new JudgeRequestError(`problem ${problem.taskId} is of kind "${problem.kind}", which no judging mode judges (known: ${[...this.byKind.keys()].join(', ')})`);
    }
    return mode;
  }
}

/** A registry of the built-in modes. */
export function defaultModes(): ModeRegistry {
  return new ModeRegistry(BUILTIN_MODES);
}
