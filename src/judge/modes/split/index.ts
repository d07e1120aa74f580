/**
 * Split judging per language (`../script-split.ts`): MultiPL-E's tests read as cases, a driver for the candidate's
 * box and a trusted expected-values program, one module per language. A language missing here is judged as one
 * script with the end-of-tests marker (`../script-multipl-e.ts`).
 */
import type { ValueSplit } from '../script-split.js';
import { CSHARP_SPLIT } from './csharp.js';
import { JAVA_SPLIT } from './java.js';
import { KOTLIN_SPLIT } from './kotlin.js';
import { LUA_SPLIT } from './lua.js';
import { SCALA_SPLIT } from './scala.js';

/** MultiPL-E's split judging by Crucible language id. */
export const MULTIPL_E_SPLITS: Readonly<Record<string, ValueSplit>> = {
  lua: LUA_SPLIT,
  java: JAVA_SPLIT,
  csharp: CSHARP_SPLIT,
  scala: SCALA_SPLIT,
  kotlin: KOTLIN_SPLIT,
};
