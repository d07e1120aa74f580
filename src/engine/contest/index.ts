/**
 * The contest runners: checker runs, and guipenedo/piston's `codeforces` and `cms_ioi` packages reimplemented over the sandbox (served by
 * src/server/piston.ts, and run by the plan executor for `ioi` problems). Re-exported with them, the contest rules
 * they apply, which belong to the checker kind (`src/kinds/checker/`): checker verdicts, output matching, GroupMin.
 */
export { buildChecker, runChecker } from './run-checker.js';
export {
  CHECKER_LIMITS, cmsCheckerVerdict, pythonCheckerVerdict, TESTLIB_EXIT_CODES, testlibVerdict, defaultTestlibHeader, CRUCIBLE_TESTLIB_PATH,
  type CheckerInput, type CheckerKind, type CheckerSpec, type CheckerVerdict,
} from '../../kinds/checker/checker-verdicts.js';
export { CMS_IOI_LANGUAGES, runCmsIoiJob } from './cms-ioi-package.js';
export { CODEFORCES_LANGUAGES, parseCodeforcesConfig, runCodeforcesJob, type CodeforcesConfig, type PackageLanguage } from './codeforces-package.js';
export { cmsDiffMatch, codeforcesMatch, diffBEqual, normalizeCodeforces } from '../../kinds/checker/output-match.js';
export { ContestInfraError, ContestRequestError, type PackageJob, type PackageOutcome, type ScriptStage } from './package-job.js';
export { groupMinScore, subtaskPoints, type SubtaskScores } from '../../kinds/checker/subtasks.js';
