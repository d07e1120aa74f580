/** Dataset and sample adapters: the public surface of `src/formats/`. */
export { DatasetError } from './errors.js';
export { isGzipFile, openDecompressed, readJsonl, readLines } from './jsonl.js';
export { datasetHash } from './hash.js';
export { readHumanEval } from './humaneval.js';
export { readHumanEvalX } from './humaneval-x.js';
export { readMultiplE, readMultiplESamples, MULTIPL_E_LANGUAGES } from './multipl-e.js';
export { readEvalPlus } from './evalplus.js';
export { readMbpp, MBPP_TIME_LIMIT_MS } from './mbpp.js';
export { readLiveCodeBench, withinReleaseWindow, LCB_TIME_LIMIT_MS, type ReleaseWindow } from './livecodebench.js';
export { decodeCompressedPickledStr, unpickleStr, PickledStrError } from './pickled-str.js';
export { readApps, APPS_TIME_LIMIT_MS } from './apps.js';
export { readCodeContests } from './codecontests.js';
export { mbppDeserializeArgs } from './mbpp_inputs.js';
export { readCrucibleProblems, CrucibleProblemSchema, ComparatorSchema } from './crucible.js';
export {
  detectProblemFormat, findProblemFormat, PROBLEM_FORMATS, problemFormatNames, readProblems, UnknownFormatError,
  type FirstRecord, type ProblemFormatEntry,
} from './registry.js';
export { readSamples, readSampleFile, readSampleJsonl, detectSampleFormat, type SampleFile, type SampleFormat, type ReadSamplesOptions } from './samples.js';
export { alignBigcode, bigcodePrompt, MBPP_TEST_SPLIT, type BigcodeAlignment, type BigcodeSplit } from './bigcode.js';
export {
  CODET_STOP_SEQUENCES,
  CODET_TEST_CASE_LIMIT,
  cutAtStopSequences,
  extractCodetTestCases,
  readCodetSamples,
  readCodetTests,
  type CodetTaskTests,
} from './codet.js';
export { looksLikeCompilablePython } from './python_syntax.js';
export { parsePyJson, toPyValue } from './pyjson.js';
