/**
 * Another Crucible instance for test/hostile/instances.test.ts, meant to run in its own pid namespace
 * (`unshare --pid --fork --mount-proc`). Usage: `node instance-child.js --instance-child RUNS`: creates a
 * sandbox, prints {"ready", "instanceIds"}, runs RUNS tiny programs (making a second sandbox halfway, whose
 * start sweeps the host's dead instances while the test's instance runs), one JSON line per verdict, and
 * says {"holding"}, and exits when its stdin closes; with RUNS 0 it runs one program and then waits to be
 * killed. Does nothing without the flag.
 */
import { runLimits } from '../../src/limits.js';
import { Sandbox } from '../../src/sandbox/index.js';

async function main(runs: number): Promise<void> {
  const sandbox = Sandbox.create({ slots: 1, boxSlots: 1 });
  const say = (value: object): void => {
    process.stdout.write(JSON.stringify(value) + '\n');
  };
  say({ ready: true, instanceIds: sandbox.instanceIds });
  let second: Sandbox | null = null;
  for (let i = 0; i < Math.max(1, runs); i++) {
    if (runs > 0 && i === Math.floor(runs / 2)) {
      second = Sandbox.create({ slots: 1, boxSlots: 1 });
      say({ second: second.instanceIds });
    }
    const { result } = await sandbox.run({ argv: ['/usr/bin/python3.11', '-S', '-c', `print(${i})`], limits: runLimits() });
    say({ i, status: result.status, stdout: result.stdout, reason: result.reason ?? null });
  }
  say({ holding: true });
  if (runs === 0) await new Promise(() => {});
  // Stay alive (everything still made) until the test closes our stdin.
  await new Promise<void>((resolve) => {
    process.stdin.resume();
    process.stdin.once('end', () => resolve());
  });
  second?.close();
  sandbox.close();
}

const flag = process.argv.indexOf('--instance-child');
if (flag >= 0) await main(Number(process.argv[flag + 1] ?? '10'));
