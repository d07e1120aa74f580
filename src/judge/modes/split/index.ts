/**
 * Split judging per language (`../script-split.ts`): MultiPL-E's tests read as cases, a driver for the candidate's
 * box and a trusted expected-values program, one module per language. A language missing here is judged as one
 * script with the end-of-tests marker (`../script-multipl-e.ts`).
 */
import type { ValueSplit } from '../script-split.js';
import { CPP_SPLIT } from './cpp.js';
import { D_SPLIT } from './d.js';
import { GO_SPLIT } from './go.js';
import { LUA_SPLIT } from './lua.js';
import { RUST_SPLIT } from './rust.js';

/** MultiPL-E's split judging by Crucible language id. */
export const MULTIPL_E_SPLITS: Readonly<Record<string, ValueSplit>> = {
  lua: LUA_SPLIT,
  rust: RUST_SPLIT,
  cpp: CPP_SPLIT,
  go: GO_SPLIT,
  d: D_SPLIT,
};
