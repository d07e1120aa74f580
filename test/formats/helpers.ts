/** Shared paths and temp-file helpers for format tests. Data is read from ../shared/data, never copied. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PROJECT_ROOT } from '../../src/paths.js';
import { SHARED_DATA } from '../support/data.js';

export const DATA = SHARED_DATA;
export const CODET = join(DATA, 'codet');
/** LiveCodeBench rows in the published shape, made by `test/formats/data/livecodebench/make_fixtures.py`. */
export const LCB_FIXTURE = join(PROJECT_ROOT, 'test', 'formats', 'data', 'livecodebench', 'code_generation_lite.jsonl');
/** APPS, TACO and CodeContests rows in the published shapes, made by `test/formats/data/contests/make_fixtures.py`. */
export const CONTESTS_DIR = join(PROJECT_ROOT, 'test', 'formats', 'data', 'contests');
export const CODET_PROBLEMS = join(CODET, 'HumanEval_for_code_generation.jsonl.gz');
export const CODET_SOLUTIONS = join(CODET, 'HumanEval_codegen16B_temp0.8_topp0.95_num100_max300_code_solution.jsonl.gz');
export const CODET_TESTS = join(CODET, 'HumanEval_codegen16B_temp0.8_topp0.95_num100_max300_test_case.jsonl.gz');

/** Write `content` to a fresh temp dir under `name` (gzipped when `gzip`), return its path. */
export function tempFile(name: string, content: string, gzip = false): string {
  const dir = mkdtempSync(join(tmpdir(), 'crucible-formats-'));
  const path = join(dir, name);
  writeFileSync(path, gzip ? gzipSync(Buffer.from(content)) : content);
  return path;
}
