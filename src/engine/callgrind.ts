/**
 * Deterministic instruction counts of a program through valgrind's callgrind (issue #28, item 7), run INSIDE the
 * program's sandbox: callgrind is the same process as the program it counts, so it gets exactly the program's
 * box, limits and seccomp filter. valgrind 3.19 (Debian) counts guest instructions ("Ir") by instrumenting every
 * basic block; with the hash seeds fixed (PYTHONHASHSEED=0) the count of a single-threaded program on a fixed
 * input is the same on every run, whatever the machine's load (EvalPerf, Liu et al. 2024, arXiv 2408.06450, uses
 * hardware instruction counters for the same reason; this kind of VM exposes none).
 *
 * Where the count comes from, and why the program cannot simply print one: callgrind writes no profile file
 * (`--callgrind-out-file=/dev/null`: a file in the box would be the program's to rewrite) and its total goes to the
 * run's stderr in valgrind's log format (`==PID== Collected : N`). The program shares that stream, so the trusted
 * side accepts a count only when (see `parseCallgrindLog`):
 * - the stream BEGINS with valgrind's banner for pid P (`==P== Callgrind, a call-graph generating cache
 *   profiler`): valgrind prints it before the program's first instruction, so P is valgrind's own pid;
 * - the banner appears exactly once: with `--trace-children=yes` an `exec` starts a second callgrind, which prints a
 *   second banner, so a program cannot exec a cheap program to print a fake total after its own (a program that
 *   writes a banner itself only makes its measurement fail);
 * - the stream ENDS with valgrind's closing summary for P, both totals equal: valgrind writes it after the program's
 *   last instruction (all its threads are gone at `exit_group`), so nothing the program wrote can follow it;
 * - the run ended `ok` with exit code 0 (a program that kills itself after writing a fake summary never gets its
 *   real one printed, and is rejected here).
 * What stays forgeable is in docs/SECURITY.md ("Efficiency measurements"): a forked process that outlives its
 * parent's summary (callers run single-process languages with a process limit that forbids fork), and native code
 * that writes into valgrind's own memory (callgrind shares the address space and does not protect its counters).
 */

import { openCounterLog, type CounterBanner } from './counter-log.js';

/** valgrind's launcher (Debian `valgrind`, in scripts/setup's packages). */
export const VALGRIND = '/usr/bin/valgrind';

/**
 * valgrind options of a count: callgrind, no profile file, children traced (so an exec shows as a second banner),
 * JIT-written code re-checked (`--smc-check=all`: the JVM and other JITs rewrite code in place).
 */
export const CALLGRIND_OPTIONS: readonly string[] = [
  '--tool=callgrind', '--callgrind-out-file=/dev/null', '--trace-children=yes', '--smc-check=all',
];

/** `argv` of a run wrapped in callgrind. */
export function callgrindArgv(argv: readonly string[]): string[] {
  return [VALGRIND, ...CALLGRIND_OPTIONS, ...argv];
}

/** A count read from callgrind's log, or why none could be trusted. */
export type CallgrindCount =
  | { readonly ok: true; readonly instructions: number; readonly pid: number }
  | { readonly ok: false; readonly reason: string };

const BANNER: CounterBanner = {
  noun: 'callgrind', counter: 'callgrind', line: /^==(\d+)== Callgrind, a call-graph generating cache profiler$/,
  text: 'Callgrind, a call-graph generating cache profiler',
};

/**
 * The instruction count in a callgrind run's stderr, under the rules of the module comment (`openCounterLog`, then
 * the closing summary for the banner's pid last). `stderrTruncated`: the sandbox cut the stream (then the summary
 * cannot be trusted to be the last thing written).
 */
export function parseCallgrindLog(stderr: string, stderrTruncated = false): CallgrindCount {
  const frame = openCounterLog(stderr, stderrTruncated, BANNER);
  if (!frame.ok) return frame;
  const { pid, lines } = frame;
  const tail = lines.slice(-5);
  const prefix = `==${pid}== `;
  const expected = [/^Events {4}: Ir$/, /^Collected : (\d+)$/, /^$/, /^I {3}refs: +([\d,]+)$/];
  if (tail.length < 5 || tail[0] !== `==${pid}== `) return { ok: false, reason: 'stderr does not end with callgrind\'s summary' };
  const values: string[] = [];
  for (let i = 0; i < expected.length; i++) {
    const line = tail[i + 1]!;
    const match = line.startsWith(prefix) || line === prefix.trimEnd() ? expected[i]!.exec(line.slice(prefix.length)) : null;
    if (!match) return { ok: false, reason: 'stderr does not end with callgrind\'s summary' };
    if (match[1] !== undefined) values.push(match[1].replaceAll(',', ''));
  }
  if (values.length !== 2 || values[0] !== values[1]) return { ok: false, reason: 'callgrind\'s two totals disagree' };
  const instructions = Number(values[0]);
  if (!Number.isSafeInteger(instructions)) return { ok: false, reason: `instruction count ${values[0]} is not a safe integer` };
  return { ok: true, instructions, pid: Number(pid) };
}
