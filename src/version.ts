/** Crucible's version, read once from package.json (a leaf: the CLI, the MCP server and the HTTP routes report it). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './paths.js';

export const CRUCIBLE_VERSION: string = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
