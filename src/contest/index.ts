/**
 * Contest judging: checkers (testlib, open-r1 Python, CMS), IOI subtask scoring (GroupMin), and guipenedo/piston's
 * `codeforces` and `cms_ioi` packages reimplemented over the sandbox (served by src/server/piston.ts).
 */
export { ContestBox, ARTIFACT_DIR, type Built } from './box.js';
export {
  buildChecker, CHECKER_LIMITS, cmsCheckerVerdict, pythonCheckerVerdict, runChecker, TESTLIB_EXIT_CODES, testlibVerdict, defaultTestlibHeader, CRUCIBLE_TESTLIB_PATH,
  type CheckerInput, type CheckerKind, type CheckerSpec, type CheckerVerdict,
} from './checkers.js';
export { CMS_IOI_LANGUAGES, runCmsIoiJob } from './cms-ioi-package.js';
export { CODEFORCES_LANGUAGES, parseCodeforcesConfig, runCodeforcesJob, type CodeforcesConfig, type PackageLanguage } from './codeforces-package.js';
export { cmsDiffMatch, codeforcesMatch, diffBEqual, normalizeCodeforces } from './output-match.js';
export { ContestInfraError, ContestRequestError, type PackageJob, type PackageOutcome, type ScriptStage } from './package-job.js';
export { groupMinScore, subtaskPoints, type SubtaskScores } from './subtasks.js';
