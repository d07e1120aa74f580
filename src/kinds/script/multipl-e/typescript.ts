/**
 * TypeScript (MultiPL-E `humaneval_to_ts.py`): the JavaScript test shape (`./javascript.ts`) behind a
 * `declare var require: any;`, with typed prompts. Crucible's TypeScript toolchain transpiles without type
 * checking and runs the result on Node, so both programs are JavaScript's: the serializer is plain JavaScript
 * (valid TypeScript syntax), the equality mirrored is `node:assert`'s legacy `deepEqual` as for JavaScript, and the
 * expected literals need no declarations from the prompt.
 */
import type { ValueSplit } from '../split.js';
import { JAVASCRIPT_SPLIT } from './javascript.js';

/** MultiPL-E TypeScript split (see the module comment). */
export const TYPESCRIPT_SPLIT: ValueSplit = JAVASCRIPT_SPLIT;
