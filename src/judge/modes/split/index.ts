/**
 * Split judging per language (`../script-split.ts`): MultiPL-E's tests read as cases, a driver for the candidate's
 * box and a trusted expected-values program, one module per language. A language missing here is judged as one
 * script with the end-of-tests marker (`../script-multipl-e.ts`).
 */
import type { ValueSplit } from '../script-split.js';
import { CLOJURE_SPLIT } from './clojure.js';
import { ELIXIR_SPLIT } from './elixir.js';
import { LUA_SPLIT } from './lua.js';
import { R_SPLIT } from './r.js';
import { RACKET_SPLIT } from './racket.js';
import { SCHEME_SPLIT } from './scheme.js';

/** MultiPL-E's split judging by Crucible language id. */
export const MULTIPL_E_SPLITS: Readonly<Record<string, ValueSplit>> = {
  lua: LUA_SPLIT,
  r: R_SPLIT,
  racket: RACKET_SPLIT,
  scheme: SCHEME_SPLIT,
  clojure: CLOJURE_SPLIT,
  elixir: ELIXIR_SPLIT,
};
