/** Code extraction from model responses: the public surface of `src/extract/`. */
export { extractCode, type ExtractOptions, type ExtractResult } from './extract.js';
export { stripThink, type ThinkStripResult } from './think.js';
export { findFencedBlocks, type FencedBlock } from './fences.js';
export { looksLikeCode } from './looks_like_code.js';
export { END_TOKENS, stripEndTokens } from './end-tokens.js';
