/**
 * The registry of judging modes, one per problem kind: the machinery a judge and `prepareSubmission` look a
 * problem's mode up in. The kinds Crucible ships are registered by `defaultModes()` (`src/kinds/index.ts`); a kind
 * of one's own plugs in with `defaultModes().with(myMode)` without touching anything else.
 */
import type { ProblemBase } from '../formats/types.js';
import { JudgeRequestError } from './judge.js';
import type { AnyMode } from './mode.js';

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
