/**
 * Replay judging per language (`./replay.ts`) for HumanEval-X's `script` problems (the default dialect),
 * one module per language. A language missing here is judged as one script with the end-of-tests marker
 * (`./one-program.ts`).
 */
import type { ReplaySplit } from './replay.js';
import { CPP_REPLAY } from './cpp.js';
import { GO_REPLAY } from './go.js';
import { JAVA_REPLAY } from './java.js';
import { JAVASCRIPT_REPLAY } from './javascript.js';
import { RUST_REPLAY } from './rust.js';

/** HumanEval-X's replay judging by Crucible language id. */
export const HUMANEVAL_X_REPLAYS: Readonly<Record<string, ReplaySplit>> = {
  javascript: JAVASCRIPT_REPLAY,
  go: GO_REPLAY,
  cpp: CPP_REPLAY,
  cpp11: CPP_REPLAY,
  java: JAVA_REPLAY,
  'rust-test': RUST_REPLAY,
};
