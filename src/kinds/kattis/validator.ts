/**
 * A Kattis package's own output validator, run in the sandbox (problem-supplied code is still code), as the
 * Kattis problem package format invokes it (problemtools `problemtools/judge/validate.py`, the format's "Output
 * validator" section): `validator input answer feedback_dir [arguments] < output`, exit status 42 accepted, 43
 * wrong answer, anything else (another status, a crash, a limit) a judge error; a scoring problem's validator may
 * write its score to `feedback_dir/score.txt`: only where custom scores are allowed (problemtools: a 2023-07
 * scoring problem, or legacy `validation: custom score`, where it is also mandatory), never on a wrong answer.
 * Its `judgemessage.txt` is the test's reason. Limits: problemtools' defaults for validation (60 s, 1 GiB, 8 MiB).
 */
import type { KattisProblem } from '../../formats/types.js';
import type { ExecutionTools } from '../../judge/plan.js';
import type { KattisVerdict } from './grading.js';

/** Limits of one validator run (problemtools' `validation_time`, `validation_memory`, `validation_output` defaults). */
export const VALIDATOR_LIMITS = { cpuMs: 60_000, memoryKiB: 1024 * 1024, outputBytes: 8 * 1024 * 1024 };

/** Exit statuses of the format's output validators. */
export const VALIDATOR_EXIT = { accepted: 42, wrongAnswer: 43 } as const;

/** What a validator decided on one test case. */
export interface ValidatorOutcome {
  readonly verdict: Extract<KattisVerdict, 'AC' | 'WA' | 'JE'>;
  /** The validator's score (`score.txt`), when it gave one where allowed. */
  readonly score?: number;
  readonly message: string;
}

const SCORE_FILE = 'feedback/score.txt';
const MESSAGE_FILE = 'feedback/judgemessage.txt';

/**
 * Run the package's validator on one test case's `input`, `answer` and the submission's `output` (module comment).
 * Never throws for what the validator does.
 */
export async function runCustomValidator(problem: KattisProblem & { validator: { kind: 'custom' } }, test: KattisProblem['tests'][number],
  output: string, tools: ExecutionTools): Promise<ValidatorOutcome> {
  const { validator } = problem;
  const { result, files } = await tools.runProgramCollecting({ language: validator.language, source: validator.source }, output,
    VALIDATOR_LIMITS, {
      // The feedback directory must exist; a box file cannot be a bare directory, so it starts with the empty
      // `teammessage.txt` a validator may write anyway (the format's feedback file for the team).
      files: { 'testcase.in': test.input, 'testcase.ans': test.answer, 'feedback/teammessage.txt': '' },
      args: ['testcase.in', 'testcase.ans', 'feedback/', ...test.validatorArgs],
      collect: [SCORE_FILE, MESSAGE_FILE],
    });
  const messageFile = files[MESSAGE_FILE];
  const message = messageFile === undefined || 'refused' in messageFile ? '' : messageFile.text.trim();
  if (result.status === 'compile_error') return { verdict: 'JE', message: `the output validator did not compile: ${result.stderr.slice(0, 300)}` };
  if ((result.status !== 'ok' && result.status !== 'runtime_error') || result.signal !== null) {
    return { verdict: 'JE', message: `the output validator ended ${result.status}${result.signal ? ` (${result.signal})` : ''}: ${result.reason ?? ''}` };
  }
  const scoreFile = files[SCORE_FILE];
  if (scoreFile !== undefined && 'refused' in scoreFile) return { verdict: 'JE', message: `the output validator's score.txt was not read: ${scoreFile.refused}` };
  if (scoreFile?.truncated) return { verdict: 'JE', message: 'the output validator\'s score.txt is longer than 64 KiB' };
  const scoreText = scoreFile?.text;
  if (result.exitCode === VALIDATOR_EXIT.wrongAnswer) {
    if (scoreText !== undefined) return { verdict: 'JE', message: 'the output validator wrote score.txt on a wrong answer' };
    return { verdict: 'WA', message: message || 'wrong answer (output validator)' };
  }
  if (result.exitCode !== VALIDATOR_EXIT.accepted) {
    return { verdict: 'JE', message: `the output validator exited ${result.exitCode}: ${result.stderr.slice(0, 300)}` };
  }
  const allowed = problem.scoring && validator.customScore;
  if (scoreText === undefined) {
    if (problem.formatVersion === 'legacy' && allowed) return { verdict: 'JE', message: 'the output validator wrote no score.txt (custom scoring)' };
    return { verdict: 'AC', message };
  }
  if (!allowed) return { verdict: 'JE', message: 'the output validator wrote score.txt, but the problem has no custom scoring' };
  const score = Number(scoreText.trim());
  if (scoreText.trim() === '' || !Number.isFinite(score)) return { verdict: 'JE', message: `the output validator's score.txt is not a number: ${JSON.stringify(scoreText.slice(0, 50))}` };
  return { verdict: 'AC', score, message };
}
