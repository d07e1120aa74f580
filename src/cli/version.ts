/** Crucible's version (kept in `src/version.ts`, a leaf other front ends import too). */
export { CRUCIBLE_VERSION } from '../version.js';
