/**
 * Deterministic bytecode counts of Java programs (issue #28, item 7), the JVM's counterpart of `callgrind.ts`.
 * callgrind's machine-instruction count of a JVM varies between runs even when only `main`'s thread is collected
 * (hash-table and allocator layout set during the JVM's multi-threaded start-up: docs/METRICS.md); the number of
 * bytecodes the program executes does not. A JVMTI agent (languages/support/jvm-bytecode-count.c, built on the host
 * by java.yaml's `prepare` step into `BYTECODE_AGENT`) counts one SingleStep event per bytecode on the main
 * thread from VMInit to VMDeath, under `-Xint`, and holds every other thread that tries to run Java code.
 *
 * The count is read from the run's stderr under the same rules as callgrind's (see `parseBytecodeLog`), and for
 * the same reason: the agent is part of the program's process, and the program shares the stream. The agent writes
 * its banner in `Agent_OnLoad`, before any Java code, and its summary at VMDeath, which the JVM posts on the exiting
 * thread after the program's last bytecode (System.exit, Runtime.halt and a returning `main` alike). No other thread
 * can write after it: the counted run's task limit (`JVM_COUNT_TASKS`) leaves no room for a new thread or process,
 * and the JDK's own threads are held by the agent before their first bytecode (a finalizer or signal handler the
 * program installed never runs).
 */

import { openCounterLog, type CounterBanner } from './counter-log.js';

/** The agent, made at set-up by java.yaml's `prepare` step from languages/support/jvm-bytecode-count.c. */
export const BYTECODE_AGENT = '/usr/local/lib/crucible/jvmti/bytecode-count.so';

/**
 * The sandbox's `processes` limit of a counted JVM run: what the JDK 17 JVM needs under `-Xint` with the serial
 * collector and no perf data, and not one more, so a program can start neither a thread nor a process while it is
 * counted. The JVM holds 11 threads once `main` runs (the launcher's primordial thread, `main`, the VM thread, the
 * Reference Handler, Finalizer, Signal Dispatcher, Service, Monitor Deflation, Notification and VM Periodic Task
 * threads, and the Common-Cleaner, which loading the main class from a file starts); the box's accounting needs 13
 * for that (measured: 12 fails to start the Common-Cleaner, 13 runs; `test/apps/efficiency-measure.test.ts` checks
 * that the program's own `Thread.start` is refused at this limit).
 */
export const JVM_COUNT_TASKS = 13;

/** The launcher whose runs can be counted (java.yaml's `run`). */
const JAVA = '/usr/bin/java';

/**
 * `argv` of a counted run: the plain run's `java` command with `-Xint` (no JIT: no compiler threads, and every
 * bytecode interpreted, as SingleStep needs) and the agent inserted after the launcher. Returns null when `argv`
 * does not start with `/usr/bin/java` (not a run this agent can count).
 */
export function bytecodeArgv(argv: readonly string[]): string[] | null {
  if (argv[0] !== JAVA) return null;
  return [JAVA, '-Xint', `-agentpath:${BYTECODE_AGENT}`, ...argv.slice(1)];
}

/** A count read from the agent's lines, or why none could be trusted. */
export type BytecodeCount =
  | { readonly ok: true; readonly bytecodes: number; readonly pid: number }
  | { readonly ok: false; readonly reason: string };

const BANNER: CounterBanner = {
  noun: 'bytecode-counter', counter: 'the bytecode counter', line: /^==(\d+)== Crucible bytecode count \(JVMTI SingleStep\)$/,
  text: 'Crucible bytecode count (JVMTI SingleStep)',
};

/**
 * The bytecode count in a counted run's stderr. Accepted only when the stream BEGINS with the agent's banner for
 * pid P (written before any Java code, so P is the JVM's own pid), holds the banner exactly once (a program that
 * writes one itself makes its count refused) (`openCounterLog`), and ENDS with the agent's two summary lines for P
 * (written at VMDeath, after the program's last bytecode). `stderrTruncated`: the sandbox cut the stream, so its
 * end is not the JVM's.
 */
export function parseBytecodeLog(stderr: string, stderrTruncated = false): BytecodeCount {
  const frame = openCounterLog(stderr, stderrTruncated, BANNER);
  if (!frame.ok) return frame;
  const { pid, lines } = frame;
  const [count, held] = lines.slice(-2);
  const countMatch = lines.length >= 3 ? new RegExp(`^==${pid}== bytecodes: (\\d+)$`).exec(count ?? '') : null;
  const heldMatch = new RegExp(`^==${pid}== threads held: \\d+$`).exec(held ?? '');
  if (!countMatch || !heldMatch) return { ok: false, reason: 'stderr does not end with the bytecode counter\'s summary' };
  const bytecodes = Number(countMatch[1]);
  if (!Number.isSafeInteger(bytecodes)) return { ok: false, reason: `bytecode count ${countMatch[1]} is not a safe integer` };
  return { ok: true, bytecodes, pid: Number(pid) };
}
