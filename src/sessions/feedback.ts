/**
 * Execution feedback for a model that tries again: a verdict and its detail turned into one text within a budget
 * of characters, naming the first failing test's input, what was expected and what the program gave. This is
 * the observation of a `program` session's `submit` (and what a self-debug loop feeds back), so it follows the
 * shape self-debugging work feeds models (Chen et al. 2023, "Teaching Large Language Models to Self-Debug",
 * unit-test feedback: the failing input, the expected and the actual output): a status line, then the test.
 * A unit-test failure that names its line (`assertion failed (test line 10)`) shows that line of the test code
 * first ("Failing line 10: assert candidate([1.0, 2.8], 0.3) == True"): it is the failing input.
 *
 * Hidden tests (`FeedbackOptions.visible`): a failing test the caller did not mark visible is named by its index
 * and status only ("First failing test: #3 (wrong_answer), a hidden test: ..."); nothing of it is shown (input,
 * expected output, the program's output or stderr, the reason, which often quotes the expected value), and the
 * first failing visible test, if any, is shown in full after it. A `program` session marks none visible unless
 * its task says so, so feedback never carries a hidden test's expected value (issue #23: a policy that grows a
 * lookup table from feedback earns nothing).
 *
 * Budget: the text never exceeds `budgetChars`. The status line and the test's heading are kept first; the four
 * texts (input, expected, got, stderr) then share what is left by water-filling (a short text keeps all of
 * itself and its unused share goes to the others), and every text that was cut says so with its full length,
 * so a reader (or a model) never mistakes a cut text for the whole.
 */
import type { DetailedVerdict, FailedTestDetail, TestResult } from '../verdict/index.js';

/** Default budget of a feedback text, characters. */
export const DEFAULT_FEEDBACK_CHARS = 2000;
/** Smallest budget accepted (a status line and a test heading fit). */
export const MIN_FEEDBACK_CHARS = 200;
/** Largest budget accepted. */
export const MAX_FEEDBACK_CHARS = 100_000;

/** The first failing test as feedback shows it (texts as the judge gave them, before the budget). */
export interface FailingTest {
  /** Index of the test in the problem's tests (0-based, as `TestResult.index`). */
  readonly index: number;
  readonly status: string;
  readonly reason?: string;
  readonly input?: string;
  readonly expected?: string;
  /** What the program printed or returned, or the failure it raised. */
  readonly actual?: string;
  readonly stderr?: string;
  /** A hidden test: only its index and status are given. */
  readonly hidden?: true;
}

/**
 * Feedback on one verdict. `text` is at most the budget; `failingTest` is the first failing test (null when the
 * verdict passed or no test result names one, e.g. a compile error); `namesInput` says whether `text` shows
 * that test's input (some of it at least); `cut` whether any part was shortened to fit.
 */
export interface Feedback {
  readonly text: string;
  readonly failingTest: FailingTest | null;
  readonly namesInput: boolean;
  readonly cut: boolean;
}

/**
 * Options: `budgetChars` (default `DEFAULT_FEEDBACK_CHARS`, clamped to `MIN_FEEDBACK_CHARS`..`MAX_FEEDBACK_CHARS`);
 * `tests`: descriptions of the problem's tests (`Judge.describeTests`) used for the failing test's input and
 * expected output when the verdict carries no detail (a judgement shared with an identical request is plain).
 */
export interface FeedbackOptions {
  readonly budgetChars?: number;
  readonly tests?: readonly FailedTestDetail[];
  /** Which tests may be shown, by index (default: every test). A hidden failing test is named, never shown. */
  readonly visible?: (index: number) => boolean;
}

const CUT_MARK = (total: number): string => `\n[... cut: ${total} characters in all]`;

/** The first test that did not pass, by index order (among those `accept` takes), or null. */
function firstFailing(tests: readonly TestResult[], accept: (index: number) => boolean = () => true): TestResult | null {
  let first: TestResult | null = null;
  for (const t of tests) if (t.status !== 'passed' && accept(t.index) && (first === null || t.index < first.index)) first = t;
  return first;
}

function statusLine(v: DetailedVerdict): string {
  const passed = v.tests.reduce((k, t) => k + (t.status === 'passed' ? 1 : 0), 0);
  if (v.passed) return `Verdict: passed (all ${v.testCount} tests passed).`;
  const ran = v.tests.length > 0 && v.tests.length < v.testCount ? `, ${v.tests.length} of ${v.testCount} run` : '';
  const reason = v.reason !== undefined && v.tests.length === 0 ? ` ${v.reason}` : '';
  return `Verdict: ${v.status} (${passed} of ${v.testCount} tests passed${ran}).${reason}`;
}

/** `text` cut to `room` characters including the cut mark; the whole text when it fits. */
function fit(text: string, room: number): { readonly text: string; readonly cut: boolean } {
  if (text.length <= room) return { text, cut: false };
  const mark = CUT_MARK(text.length);
  return { text: text.slice(0, Math.max(0, room - mark.length)) + mark, cut: true };
}

/** Split `total` characters among texts of `lengths` (water-filling): returns each one's room. */
function shares(lengths: readonly number[], total: number): number[] {
  const room = lengths.map(() => 0);
  let left = Math.max(0, total);
  let open = lengths.map((_, i) => i);
  while (open.length > 0 && left > 0) {
    const each = Math.floor(left / open.length);
    if (each === 0) break;
    const still: number[] = [];
    for (const i of open) {
      const want = lengths[i]! - room[i]!;
      const give = Math.min(want, each);
      room[i] = room[i]! + give;
      left -= give;
      if (room[i]! < lengths[i]!) still.push(i);
    }
    open = still;
  }
  return room;
}

/**
 * Feedback text for `verdict` within the budget (see the module comment for the layout and the budget rule).
 * Pure; never throws.
 */
export function formatFeedback(verdict: DetailedVerdict, options: FeedbackOptions = {}): Feedback {
  const budget = Math.min(MAX_FEEDBACK_CHARS, Math.max(MIN_FEEDBACK_CHARS, Math.floor(options.budgetChars ?? DEFAULT_FEEDBACK_CHARS)));
  const head = statusLine(verdict);
  const failing = verdict.passed ? null : firstFailing(verdict.tests);
  if (failing === null) {
    const stderr = verdict.detail?.stderr;
    if (verdict.passed || stderr === undefined || stderr === '') {
      const cutHead = fit(head, budget);
      return { text: cutHead.text, failingTest: null, namesInput: false, cut: cutHead.cut };
    }
    const label = verdict.status === 'compile_error' ? '\nCompiler output:\n' : '\nStderr:\n';
    const body = fit(stderr, budget - head.length - label.length);
    const text = (head + label + body.text).slice(0, budget);
    return { text, failingTest: null, namesInput: false, cut: body.cut || text.length < head.length + label.length + body.text.length };
  }
  const visible = options.visible ?? (() => true);
  let hiddenLine = '';
  let target: TestResult = failing;
  if (!visible(failing.index)) {
    hiddenLine = `\nFirst failing test: #${failing.index} (${failing.status}), a hidden test: its input, expected output and what the program did on it are not shown.`;
    const firstVisible = firstFailing(verdict.tests, visible);
    const hidden: FailingTest = { index: failing.index, status: failing.status, hidden: true };
    if (firstVisible === null) {
      const text = fit(head, budget - Math.min(hiddenLine.length, budget)).text + hiddenLine;
      return { text: text.slice(0, budget), failingTest: hidden, namesInput: false, cut: text.length > budget };
    }
    target = firstVisible;
  }
  const detail = verdict.detail?.failures?.find((f) => f.index === target.index);
  const described = options.tests?.find((t) => t.index === target.index);
  const test: FailingTest = {
    index: target.index,
    status: target.status,
    ...(target.reason === undefined ? {} : { reason: target.reason }),
    ...pick('input', detail?.input ?? described?.input),
    ...pick('expected', detail?.expected ?? described?.expected),
    ...pick('actual', detail?.actual),
    ...pick('stderr', detail?.stderr),
  };
  const heading = `${hiddenLine}\nFirst failing ${hiddenLine === '' ? '' : 'visible '}test: #${test.index} (${test.status}${test.reason === undefined ? '' : `: ${test.reason}`})`;
  const parts: { readonly label: string; readonly text: string }[] = [];
  // A unit test names its failing line ("assertion failed (test line 10)"): that line is the failing input.
  const line = failingLine(test);
  if (line !== null) parts.push({ label: `\nFailing line ${line.number}:\n`, text: line.text });
  if (test.input !== undefined) parts.push({ label: '\nInput:\n', text: test.input });
  if (test.expected !== undefined) parts.push({ label: '\nExpected:\n', text: test.expected });
  if (test.actual !== undefined) parts.push({ label: '\nGot:\n', text: test.actual });
  if (test.stderr !== undefined && test.stderr !== '') parts.push({ label: '\nStderr:\n', text: test.stderr });
  const fixed = head.length + heading.length + parts.reduce((k, p) => k + p.label.length, 0);
  const rooms = shares(parts.map((p) => p.text.length), budget - fixed);
  let cut = false;
  let text = head + heading;
  parts.forEach((part, i) => {
    const room = rooms[i]!;
    // A text with no room at all is left out rather than shown as a bare cut mark.
    if (room <= 0) {
      cut = true;
      return;
    }
    const shown = fit(part.text, room);
    cut ||= shown.cut;
    text += part.label + shown.text;
  });
  if (text.length > budget) {
    text = text.slice(0, budget);
    cut = true;
  }
  const namesInput = (test.input !== undefined && text.includes('\nInput:\n')) || (line !== null && text.includes('\nFailing line '));
  // The first failing test is what `failingTest` names: the hidden one (index and status only) when it is hidden.
  const failingTest: FailingTest = target === failing ? test : { index: failing.index, status: failing.status, hidden: true };
  return { text, failingTest, namesInput, cut };
}

/** The test-code line a unit-test failure names (`test line N` in its reason), from the test's input. */
function failingLine(test: FailingTest): { readonly number: number; readonly text: string } | null {
  const match = /\btest line (\d+)\b/.exec(test.reason ?? '');
  if (match === null || test.input === undefined) return null;
  const number = Number(match[1]);
  const text = test.input.split('\n')[number - 1]?.trim();
  return text === undefined || text === '' ? null : { number, text };
}

function pick<K extends 'input' | 'expected' | 'actual' | 'stderr'>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Partial<Record<K, string>>);
}
