/** The shared vocabulary of judging: statuses, test results, verdicts, Python values. Imported by every room. */
export { isSampleStatus, SAMPLE_STATUSES, sampleStatusSchema, type SampleStatus } from './status.js';
export {
  aggregateTests, REASON_CHARS, reasonWithStderr, runStatus, shortReason, stderrTail, testResultSchema, verdictWithoutTests,
  type TestResult, type Verdict,
} from './verdict.js';
export { formalCheckSchema, type FormalCheck, type SynthesisStats } from './formal.js';
export { checkPyValue, DEFAULT_PYVALUE_LIMITS, parseIntPayload, pyValueSchema, type PyValue, type PyValueLimits } from './pyvalue.js';
export {
  detailText, failedTestDetail, MAX_DETAILED_FAILURES, plainVerdict, TEST_DETAIL_CHARS,
  type DetailedVerdict, type FailedTestDetail, type JudgedBy, type TestDetailField, type VerdictDetail,
} from './detail.js';
export {
  ANALYZER_IDS, countFindings, countLines,
  type AnalysisCounts, type AnalysisReport, type AnalyzerId, type AnalyzerOutcome, type Finding, type FindingSeverity,
} from './analysis.js';
