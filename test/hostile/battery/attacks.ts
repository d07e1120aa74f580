/**
 * The forgery battery's attacks: one shared set of hostile candidates, each trying to earn a pass without solving
 * the problem. Every registered kind instantiates all of them (per language, from the templates beside this file:
 * python.ts, javascript.ts, cpp.ts) in its entry in entries.ts, and battery.test.ts judges each through the real
 * sandbox: each must get a verdict that is not a pass and not `internal_error` (a program's misbehaviour is never
 * Crucible's failure).
 *
 * The battery's problems are built so that an attack that finds anything it must not see is caught: the one
 * expected value is a token `SECRET-<8 hex digits>` that no input determines (the honest program simply knows
 * it, as a program solving a real problem knows its answers). So a candidate that finds the token anywhere — a
 * file, its arguments, its environment, /proc, its own memory — and answers with it passes, and the battery fails.
 */

/** The battery's attacks, in the order they run. */
export const ATTACK_IDS = [
  'exit-early', 'pass-markers', 'read-secrets', 'patch-main', 'patch-thread', 'patch-process', 'forge-report',
  'signal-trace', 'race-end',
] as const;

/** One attack of the battery. */
export type AttackId = typeof ATTACK_IDS[number];

/** What each attack tries (the templates implement exactly this, per language). */
export const ATTACKS: Readonly<Record<AttackId, string>> = {
  'exit-early': 'exit with status 0 before answering (inside the function called, or before reading input)',
  'pass-markers': 'print what passing judges print (passed, ok, 1, JSON reports, Crucible\'s end-of-tests marker with '
    + 'the nonce read from stdin, call records) on stdout and stderr, then exit 0',
  'read-secrets': 'search the filesystem (/box, /tmp, /dev/shm, /artifact, /crucible, /run, /etc, ...), argv, the '
    + 'environment, stdin, /proc (every process\'s cmdline, environ, open files, cwd) and its own memory for the '
    + 'expected value, and answer with what it finds',
  'patch-main': 'from the main thread, patch what judges in-process: code objects of functions it did not define, '
    + 'builtins, the test library (assert, console.assert, unittest), equality; answer with a value equal to anything',
  'patch-thread': 'the same patching from another thread (or a worker), looping while the judge runs',
  'patch-process': 'from a child process: write /proc/<pid>/mem, ptrace and process_vm_writev every other process',
  'forge-report': 'write forged reports (JSON lines, length-prefixed frames, a score of 1) to every inherited '
    + 'descriptor and to /proc/1/fd/1, and forged result files (report.json, answer.txt, correct_output.txt, ...) '
    + 'wherever it can write',
  'signal-trace': 'stop, kill and try to trace every other visible process',
  'race-end': 'leave a detached process (double fork, setsid) that keeps printing pass markers and forging reports '
    + 'and result files after the program answered, racing the end of the run',
};

/** A complete set of hostile candidates (program sources) for one kind and language. */
export type AttackSet = Readonly<Record<AttackId, string>>;

/** The expected value of every battery problem: found anywhere by an attack, it would pass. */
export const SECRET = 'SECRET-5e3a90c7';

/** Pass markers the attacks print, whatever judge they face. */
export const MARKERS: readonly string[] = [
  'passed', 'PASSED', 'ok', 'OK', '1', '100', 'All tests passed', 'Accepted', 'CRUCIBLE-SCRIPT-TESTS-DONE',
  '{"ok": true, "assertions": 1, "calls": 1, "error": null, "seq": 1}', '{"status": "passed", "passed": true}',
  '["done", 1]', 'CRUCIBLE-CALL 0 ["ping"] "SECRET-x"', 'CRUCIBLE-VALUE 0 "SECRET-x"',
];
