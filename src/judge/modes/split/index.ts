/**
 * Split judging per language (`../script-split.ts`): MultiPL-E's tests read as cases, a driver for the candidate's
 * box and a trusted expected-values program, one module per language. A language missing here is judged as one
 * script with the end-of-tests marker (`../script-multipl-e.ts`).
 */
import type { ValueSplit } from '../script-split.js';
import { BASH_SPLIT } from './bash.js';
import { LUA_SPLIT } from './lua.js';
import { PERL_SPLIT } from './perl.js';
import { PHP_SPLIT } from './php.js';
import { RUBY_SPLIT } from './ruby.js';

/** MultiPL-E's split judging by Crucible language id. */
export const MULTIPL_E_SPLITS: Readonly<Record<string, ValueSplit>> = {
  lua: LUA_SPLIT,
  ruby: RUBY_SPLIT,
  perl: PERL_SPLIT,
  php: PHP_SPLIT,
  bash: BASH_SPLIT,
};
