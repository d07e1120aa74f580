/**
 * Paths of the shared real data (read from ../shared/data beside the project, or the directory `CRUCIBLE_DATA`
 * names; never copied into the project).
 */
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';

/** The shared data directory: `$CRUCIBLE_DATA`, else `../shared/data` beside the project root. */
export const SHARED_DATA = process.env['CRUCIBLE_DATA'] ?? join(PROJECT_ROOT, '..', 'shared', 'data');
export const CODET_PROBLEMS = join(SHARED_DATA, 'codet', 'HumanEval_for_code_generation.jsonl.gz');
export const CODET_SOLUTIONS = join(SHARED_DATA, 'codet', 'HumanEval_codegen16B_temp0.8_topp0.95_num100_max300_code_solution.jsonl.gz');
export const CODET_TESTS = join(SHARED_DATA, 'codet', 'HumanEval_codegen16B_temp0.8_topp0.95_num100_max300_test_case.jsonl.gz');
export const HUMANEVAL = join(SHARED_DATA, 'HumanEval.jsonl.gz');
export const HUMANEVAL_PLUS = join(SHARED_DATA, 'HumanEvalPlus.jsonl.gz');
export const MBPP_PLUS = join(SHARED_DATA, 'MbppPlus.jsonl.gz');
export const DAFNYBENCH = join(SHARED_DATA, 'dafnybench');
export const COQ_ART = join(SHARED_DATA, 'coq-art');
export const SMT_LIB = join(SHARED_DATA, 'smt-lib');
