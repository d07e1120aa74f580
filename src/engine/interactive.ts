/**
 * Interactive runs: a trusted program (a CMS Communication manager, a Codeforces interactor, a test driver) and
 * one or more candidate processes that talk to it while they run, each in a box of its own
 * (`Sandbox.runConnected`: its own slot, so its own uid, cgroups and namespaces, and its own limits). Nothing is
 * shared: no process, no file, no FIFO in a directory both can reach. What crosses is the bytes each side writes
 * on its channel, relayed by Crucible outside the boxes:
 *
 * - `stdio`: one candidate; the trusted program's stdout is the candidate's stdin and the candidate's stdout the
 *   trusted program's stdin (Codeforces interactors, testlib's `interactor`). The trusted program's own verdict is
 *   its exit status and stderr (its stdout is the channel).
 * - `fifo`: N candidates; the trusted program runs under Crucible's relay in its box
 *   (`harness/relay/crucible_relay.py`), which makes 2N FIFOs in that box's own /tmp, passes their paths as the
 *   program's first arguments (CMS's manager convention: per candidate, the FIFO it reads from, then the one it
 *   writes to), gives it `stdin` as its stdin, and multiplexes the FIFOs and the program's own stdout into frames
 *   on the box's stdout; candidate i's box is connected to channel i by its stdin and stdout.
 *
 * Kill rule: when the trusted program's box ends (any way), every candidate still running is killed; when a
 * candidate ends other than `ok` (a limit, a crash, a non-zero exit), every other box is killed (trusted included);
 * a candidate that exits `ok` only closes its channel (the trusted program reads its end). A box killed by that
 * rule is `endedByPeer` (`InteractiveResult`, `src/judge/plan.ts`: its result is `internal_error` "run cancelled: the
 * other side ended", no verdict on it).
 * Output limits count every byte a box writes on its channel (`Capture` `stream`); the trusted program's own
 * stdout (fifo) is kept up to its output limit.
 */
import type { Readable, Writable } from 'node:stream';
import { BOX_HARNESS, BOX_WORK, type ConnectedBox, type Sandbox } from '../sandbox/index.js';
import type { ExecutionResult } from '../sandbox/types.js';
import { OutputDrain } from '../sandbox/launch.js';
import type { InteractiveResult } from '../judge/plan.js';
import type { BoxCommand } from './executor.js';
import type { PythonInterpreter } from './harness-pool.js';

/** How the trusted program and the candidates are connected (see the module comment). */
export type Channels = 'stdio' | 'fifo';

/**
 * One interactive run: the trusted program's box, the candidates' boxes (exactly one with `stdio`), and the
 * channels. With `fifo` channels the trusted program gets `stdin` as its stdin and the FIFOs' paths after its
 * argv, before `args`; with `stdio` its stdin is the channel (no `stdin`) and `args` simply follow its argv.
 */
export interface InteractiveSpec {
  readonly trusted: BoxCommand & { readonly stdin?: string; readonly args?: readonly string[] };
  readonly candidates: readonly BoxCommand[];
  readonly channels: Channels;
}

/** The kill reason of a box ended by the kill rule (its result's reason is `run cancelled: ` + this). */
export const PEER_ENDED = 'the other side of the interactive run ended';

/** The relay script as the trusted box sees it (the harness directory is bound read-only in every per-run box). */
const RELAY = `${BOX_HARNESS}/relay/crucible_relay.py`;
/** The trusted program's stdin beside the relay in its box (`fifo`). */
const RELAY_STDIN_FILE = 'crucible-relay-stdin';
/** Channel number of the trusted program's own stdout in the relay's frames. */
const OUT_CHANNEL = 255;
/** Threads of the relay besides its channels' (main, demux, stdout reader), for the trusted box's process limit. */
const RELAY_THREADS = 4;

/** The trusted box's command: as given (`stdio`), or under the relay with its stdin as a file (`fifo`). */
function trustedCommand(spec: InteractiveSpec, relay: PythonInterpreter): BoxCommand {
  const { stdin, args = [], ...trusted } = spec.trusted;
  if (spec.channels === 'stdio') {
    if (spec.candidates.length !== 1) throw new RangeError('stdio channels connect exactly one candidate');
    if (stdin !== undefined) throw new RangeError('with stdio channels the trusted program\'s stdin is the channel');
    return { ...trusted, argv: [...trusted.argv, ...args] };
  }
  const n = spec.candidates.length;
  return {
    ...trusted,
    argv: [...relay.argv, RELAY, String(n), `${BOX_WORK}/${RELAY_STDIN_FILE}`, String(trusted.argv.length), '--', ...trusted.argv, ...args],
    env: { ...relay.env, ...trusted.env },
    files: { ...trusted.files, [RELAY_STDIN_FILE]: stdin ?? '' },
    limits: { ...trusted.limits, processes: trusted.limits.processes + 2 * n + RELAY_THREADS },
  };
}

/**
 * Write `data` to `to` unless it has ended (its box is gone); when `to` is full, pause `from` until it drains, so a
 * side that does not read holds the writer back instead of filling Crucible's memory.
 */
function forward(from: Readable, to: Writable, data: Buffer): void {
  if (to.writableEnded || to.destroyed) return;
  if (!to.write(data)) {
    from.pause();
    const resume = (): void => {
      to.off('drain', resume);
      to.off('close', resume);
      from.resume();
    };
    to.once('drain', resume);
    to.once('close', resume);
  }
}

/** Frames of the relay's stdout, parsed as they come: `onFrame(channel, bytes)`, empty bytes ending a channel. */
function frameReader(onFrame: (channel: number, data: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 5) {
      const length = pending.readUInt32LE(1);
      if (pending.length < 5 + length) break;
      onFrame(pending[0]!, pending.subarray(5, 5 + length));
      pending = pending.subarray(5 + length);
    }
  };
}

/** One frame for the relay's stdin. */
function frame(channel: number, data: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt8(channel, 0);
  header.writeUInt32LE(data.length, 1);
  return Buffer.concat([header, data]);
}

/**
 * Connect the relay (`trusted`) to the candidates: its frames to their stdins, their stdouts to its stdin as
 * frames; the program's own stdout into `out`. Backpressure both ways: a side that does not read pauses the writer.
 */
function relayFrames(trusted: ConnectedBox, candidates: readonly ConnectedBox[], out: OutputDrain): void {
  trusted.stdout.on('data', frameReader((channel, data) => {
    if (channel === OUT_CHANNEL) {
      if (data.length > 0) out.push(Buffer.from(data));
      return;
    }
    const to = candidates[channel]?.stdin;
    if (to === undefined) return;
    if (data.length === 0) to.end();
    else forward(trusted.stdout, to, Buffer.from(data));
  }));
  candidates.forEach((candidate, i) => {
    candidate.stdout.on('data', (chunk: Buffer) => forward(candidate.stdout, trusted.stdin, frame(i, chunk)));
    candidate.stdout.once('end', () => forward(candidate.stdout, trusted.stdin, frame(i, Buffer.alloc(0))));
  });
  // Every candidate gone: the relay's stdin ends too.
  void Promise.all(candidates.map((c) => c.result)).then(() => trusted.stdin.end());
}

/**
 * Apply the kill rule (see the module comment) as boxes end; returns which boxes it killed (by index: trusted
 * first, then the candidates).
 */
function killRule(boxes: readonly ConnectedBox[]): boolean[] {
  const killed = boxes.map(() => false);
  const ended = boxes.map(() => false);
  const kill = (except: number): void => boxes.forEach((box, i) => {
    if (i !== except && !ended[i] && !killed[i]) {
      killed[i] = true;
      box.kill(PEER_ENDED);
    }
  });
  boxes.forEach((box, i) => void box.result.then((result) => {
    ended[i] = true;
    if (killed[i]) return;
    if (i === 0 || result.status !== 'ok') kill(i);
  }));
  return killed;
}

/** Whether the kill rule ended this box (it was killed by it, and the result says so). */
function endedByPeer(killed: boolean, result: ExecutionResult): boolean {
  return killed && result.status === 'internal_error' && result.reason === `run cancelled: ${PEER_ENDED}`;
}

/**
 * Run one interactive run (see the module comment) on `sandbox`. Never throws for what a program does.
 * @throws RangeError for a malformed spec, or more boxes than the sandbox has slots; the signal's reason when it
 *   aborts (every box is killed).
 */
export async function runInteractive(sandbox: Sandbox, relay: PythonInterpreter, spec: InteractiveSpec,
  signal?: AbortSignal): Promise<InteractiveResult> {
  const trusted = trustedCommand(spec, relay);
  const out = new OutputDrain(trusted.limits.outputBytes, () => undefined);
  let killed: boolean[] = [];
  const ran = await sandbox.runConnected([trusted, ...spec.candidates], (boxes) => {
    const [manager, ...candidates] = boxes;
    killed = killRule(boxes);
    if (spec.channels === 'stdio') {
      manager!.stdout.pipe(candidates[0]!.stdin);
      candidates[0]!.stdout.pipe(manager!.stdin);
    } else {
      relayFrames(manager!, candidates, out);
    }
  }, signal);
  if (ran.some((r) => r.result.cancelled)) signal?.throwIfAborted();
  const results = ran.map((r) => r.result);
  const own = spec.channels === 'fifo' ? { stdout: out.text(), stdoutTruncated: out.truncated } : { stdout: '' };
  return {
    trusted: { ...results[0]!, ...own },
    candidates: results.slice(1),
    endedByPeer: { trusted: endedByPeer(killed[0] ?? false, results[0]!), candidates: results.slice(1).map((r, i) => endedByPeer(killed[i + 1] ?? false, r)) },
  };
}
