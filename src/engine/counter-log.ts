/**
 * The frame both in-process counters' logs are read in (`callgrind.ts` for valgrind's callgrind, `jvm-bytecodes.ts`
 * for the JVMTI bytecode counter): the counter shares the measured program's stderr, so its lines are trusted only
 * where the program cannot have written them. The stream must BEGIN with the counter's banner (written before the
 * program's first instruction: it fixes the counter's pid P) and hold that banner exactly once (a second one is an
 * exec'd program's, or the program's own forgery); the caller then checks that the stream ENDS with the counter's
 * summary for P (written after the program's last instruction). docs/SECURITY.md, "Efficiency measurements".
 */

/** A counter's banner: the pattern of its first line (group 1: the pid) and text that appears in every copy of it. */
export interface CounterBanner {
  /** The counter's name in reasons ("callgrind", "the bytecode counter"), and as a noun before "banners". */
  readonly counter: string;
  readonly noun: string;
  readonly line: RegExp;
  readonly text: string;
}

/** The stream's lines (trailing empty lines dropped) under a trusted banner for `pid`, or why it is refused. */
export type CounterFrame =
  | { readonly ok: true; readonly pid: string; readonly lines: readonly string[] }
  | { readonly ok: false; readonly reason: string };

/**
 * Open `stderr` as a counter's log framed by `banner` (see the module comment). `truncated`: the sandbox cut the
 * stream, so its end is not the program's and the summary cannot be trusted to be last.
 */
export function openCounterLog(stderr: string, truncated: boolean, banner: CounterBanner): CounterFrame {
  if (truncated) return { ok: false, reason: 'stderr was truncated; the closing summary is missing' };
  const lines = stderr.split('\n');
  const first = banner.line.exec(lines[0] ?? '');
  if (!first) return { ok: false, reason: `stderr does not begin with ${banner.counter}'s banner` };
  const copies = lines.filter((line) => line.includes(banner.text)).length;
  if (copies !== 1) return { ok: false, reason: `${copies} ${banner.noun} banners (the program exec'd, or wrote one)` };
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return { ok: true, pid: first[1]!, lines };
}
