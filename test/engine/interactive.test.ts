/**
 * Interactive runs (`src/engine/interactive.ts`) in the real sandbox: a trusted program and candidates in boxes of
 * their own, talking through Crucible. Both channel kinds (stdio, and FIFOs in the trusted box through the relay,
 * with several candidates), different uids on the two sides, the kill rule both ways, limits per box, the output
 * limit on a channel, and a run that needs more boxes than the sandbox has slots.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { harnessInterpreter } from '../../src/engine/harness-pool.js';
import { runInteractive, type InteractiveSpec } from '../../src/engine/interactive.js';
import type { BoxCommand } from '../../src/engine/executor.js';
import { runLimits } from '../../src/limits.js';
import { runProcessesOf } from '../support/processes.js';
import { openExecutor } from '../support/sandbox.js';

const { sandbox, executor, languages } = openExecutor(3);
const python = languages.get('python');
const relay = harnessInterpreter(python);
after(async () => {
  await executor.close();
  sandbox.close();
});

/** A Python program's box command with `limits` (CPU ms). */
function py(source: string, cpuMs = 2000, extra: Partial<Parameters<typeof runLimits>[0]> = {}): BoxCommand {
  return executor.command(python, source, { ok: true, artifactDir: null, result: null }, runLimits({ cpuMs, ...extra }));
}

const run = async (spec: InteractiveSpec): ReturnType<typeof runInteractive> => {
  const result = await runInteractive(sandbox, relay, spec);
  assert.deepEqual(runProcessesOf(sandbox), [], 'a process of a box survived the run');
  return result;
};

/** A candidate that answers each number with its double until the end of its input. */
const DOUBLER = 'import sys\nfor line in sys.stdin:\n    print(2 * int(line), flush=True)\n';

describe('interactive runs', () => {
  test('stdio: the interactor talks to the candidate and judges by its exit status; the boxes have different uids', async () => {
    const interactor = [
      'import os, sys',
      'peer = int(sys.stdin.readline())',
      'sys.stderr.write("same uid\\n" if peer == os.getuid() else "different uids\\n")',
      'for x in (3, 5, 21):',
      '    print(x, flush=True)',
      '    if int(sys.stdin.readline()) != 2 * x: sys.exit(1)',
      'sys.stderr.write("ok\\n")',
    ].join('\n');
    const candidate = `import os\nprint(os.getuid(), flush=True)\n${DOUBLER}`;
    const r = await run({ trusted: py(interactor), candidates: [py(candidate)], channels: 'stdio' });
    assert.equal(r.trusted.status, 'ok', r.trusted.reason);
    assert.equal(r.trusted.stderr, 'different uids\nok\n');
    // The candidate was still reading when the interactor ended: the kill rule ended it, no verdict on it.
    assert.ok(r.candidates[0]!.status === 'ok' || r.endedByPeer.candidates[0], r.candidates[0]!.reason);
    const wrong = await run({ trusted: py(interactor), candidates: [py('import os\nprint(os.getuid(), flush=True)\nprint(0, flush=True)\ninput()\n')],
      channels: 'stdio' });
    assert.equal(wrong.trusted.status, 'runtime_error');
    assert.equal(wrong.trusted.exitCode, 1);
  });

  test('fifo: the trusted program gets two FIFOs per candidate, its stdin, and its own stdout back', async () => {
    const manager = [
      'import sys',
      'paths, rest = sys.argv[1:5], sys.argv[5:]',
      'outs = [open(paths[2 * i + 1], "w") for i in range(2)]',
      'ins = [open(paths[2 * i], "r") for i in range(2)]',
      'base = int(sys.stdin.read())',
      'for i in range(2):',
      '    outs[i].write(f"{base + i}\\n"); outs[i].flush()',
      'print(sum(int(f.readline()) for f in ins), *rest)',
    ].join('\n');
    const r = await run({ trusted: { ...py(manager), args: ['extra'], stdin: '10\n' },
      candidates: [py(DOUBLER), py(DOUBLER)], channels: 'fifo' });
    assert.equal(r.trusted.status, 'ok', `${r.trusted.reason} ${r.trusted.stderr}`);
    assert.equal(r.trusted.stdout, '42 extra\n');
  });

  test('the kill rule: a candidate that fails ends the trusted program; a trusted program that ends ends the candidate', async () => {
    const waiting = 'import sys\nsys.stdin.readline()\n';
    const crash = await run({ trusted: py(waiting, 5000), candidates: [py('raise SystemExit(3)')], channels: 'stdio' });
    assert.deepEqual([crash.candidates[0]!.status, crash.candidates[0]!.exitCode], ['runtime_error', 3]);
    assert.equal(crash.endedByPeer.trusted, true);
    const early = await run({ trusted: py('print("bye")'), candidates: [py('import time\ntime.sleep(60)\n')], channels: 'stdio' });
    assert.equal(early.trusted.status, 'ok');
    assert.equal(early.endedByPeer.candidates[0], true);
    assert.ok(early.candidates[0]!.wallMs < 30_000);
  });

  test('limits per box: a candidate that spins is its own time-out; one that floods its channel exceeds its output limit', async () => {
    const waiting = 'import sys\nsys.stdin.read()\n';
    const spin = await run({ trusted: py(waiting, 5000), candidates: [py('while True: pass', 300)], channels: 'stdio' });
    assert.equal(spin.candidates[0]!.status, 'time_limit_exceeded');
    assert.equal(spin.endedByPeer.trusted, true);
    const flood = await run({ trusted: py(waiting, 5000), candidates: [py('import sys\nwhile True: sys.stdout.write("x" * 65536)\n', 5000,
      { outputBytes: 1 << 20 })], channels: 'stdio' });
    assert.equal(flood.candidates[0]!.status, 'output_limit_exceeded');
  });

  test('more boxes than the sandbox has slots is refused before anything runs', async () => {
    await assert.rejects(runInteractive(sandbox, relay, { trusted: py('pass'), candidates: [py('pass'), py('pass'), py('pass')], channels: 'fifo' }),
      RangeError);
  });
});
