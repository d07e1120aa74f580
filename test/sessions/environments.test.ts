/**
 * Sessions on real boxes (SessionManager, no HTTP): state persists across steps in each box environment, two
 * sessions cannot see each other, reset is pristine, delete and TTL eviction leave no process, file or cgroup,
 * and hostile steps end in a verdict for that step only (the session survives, others are untouched).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { BoxEnvironment } from '../../src/sessions/environments/box-environment.js';
import { SessionManager } from '../../src/sessions/manager.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { SessionError, type Observation } from '../../src/sessions/types.js';

let manager: SessionManager;

before(() => {
  manager = new SessionManager({
    maxSessions: 16, evictionIntervalMs: 0,
    defaultLimits: { cpuMs: 1000, wallMs: 5000, memoryKiB: 128 * 1024, outputBytes: 100_000, diskKiB: 16 * 1024 },
  });
});

after(async () => {
  await manager.close();
});

async function open(environment: 'python' | 'bash' | 'sqlite', task?: unknown): Promise<string> {
  return (await manager.create({ environment, ...(task === undefined ? {} : { task }) })).id;
}

async function step(id: string, action: string): Promise<Observation> {
  return (await manager.step(id, action)).observation;
}

/** Host pids of processes running as `uid` (from /proc), excluding zombies. */
function processesOf(uid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(join('/proc', name, 'status'), 'utf8');
      const owner = /^Uid:\s+(\d+)/m.exec(status)?.[1];
      const state = /^State:\s+(\S)/m.exec(status)?.[1];
      if (Number(owner) === uid && state !== 'Z') out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function boxOf(id: string) {
  const box = (manager.environmentOf(id) as BoxEnvironment | undefined)?.sessionBox;
  assert.ok(box, 'the session has a box');
  return box;
}

describe('state persists across steps', () => {
  test('python: variables, functions and imports; a last expression is printed; exceptions are runtime_error', async () => {
    const id = await open('python');
    assert.equal((await step(id, 'import math\nx = 41\ndef f(v):\n    return v + 1')).status, 'ok');
    const r = await step(id, 'f(x)');
    assert.equal(r.status, 'ok');
    assert.equal(r.stdout, '42\n');
    assert.equal((await step(id, 'print(math.isqrt(x * x))')).stdout, '41\n');
    const e = await step(id, '1 / 0');
    assert.equal(e.status, 'runtime_error');
    assert.equal(e.exitCode, 1);
    assert.match(e.stderr, /ZeroDivisionError/);
    assert.doesNotMatch(e.stderr, /repl\.py/, 'the traceback shows the step, not the driver');
    const x = await step(id, 'exit(3)');
    assert.equal(x.exitCode, 3);
    assert.equal((await step(id, 'x')).stdout, '41\n', 'exit() ends the step, not the REPL');
    await manager.delete(id);
  });

  test('python: the REPL runs without site, yet a program gets what site gives (Debian\'s packages, quit, help) and full tracebacks', async () => {
    const id = await open('python');
    const r = await step(id, 'import sys, yaml\nprint(sys.flags.no_site, yaml.safe_load("a: [1, 2]"))\nprint(callable(quit), callable(help))');
    assert.equal(r.status, 'ok', r.stderr);
    assert.equal(r.stdout, "1 {'a': [1, 2]}\nTrue True\n");
    const chained = await step(id, 'def f():\n    raise ValueError("inner") from KeyError(7)\nf()');
    assert.equal(chained.status, 'runtime_error');
    assert.match(chained.stderr, /KeyError: 7\n\nThe above exception was the direct cause of the following exception:\n\nTraceback \(most recent call last\):\n  File "<step>", line 3, in <module>\n  File "<step>", line 2, in f\nValueError: inner\n$/);
    const syntax = await step(id, 'x = (');
    assert.equal(syntax.status, 'runtime_error');
    assert.match(syntax.stderr, /SyntaxError/);
    assert.equal((await step(id, 'quit(4)')).exitCode, 4);
    await manager.delete(id);
  });

  test('bash: working directory, variables, functions and files', async () => {
    const id = await open('bash');
    assert.equal((await step(id, 'mkdir -p /tmp/w && cd /tmp/w && NAME=crucible && greet() { echo "hi $1"; } && echo data > f.txt')).status, 'ok');
    const r = await step(id, 'pwd; echo $NAME; greet you; cat f.txt');
    assert.equal(r.stdout, '/tmp/w\ncrucible\nhi you\ndata\n');
    const failed = await step(id, 'false');
    assert.equal(failed.status, 'runtime_error');
    assert.equal(failed.exitCode, 1);
    await manager.delete(id);
  });

  test('sqlite: the task\'s database, SQL actions, result sets as observations', async () => {
    const id = await open('sqlite', { sql: "CREATE TABLE t(a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x'), (2, 'y;z');" });
    assert.equal((await step(id, "INSERT INTO t VALUES (3, 'w');")).status, 'ok');
    const r = await step(id, 'SELECT a, b FROM t ORDER BY a;\nSELECT count(*) AS n FROM t');
    assert.equal(r.status, 'ok');
    assert.equal(r.stdout, 'a|b\n1|x\n2|y;z\n3|w\nn\n3\n');
    assert.deepEqual(r.columns, ['n']);
    assert.deepEqual(r.rows, [[3]]);
    const bad = await step(id, 'SELECT nope FROM t');
    assert.equal(bad.status, 'runtime_error');
    assert.match(bad.stderr, /no such column: nope/);
    await assert.rejects(manager.create({ environment: 'sqlite', task: { sql: 'CREATE TABLE broken(' } }),
      (e: unknown) => e instanceof SessionError && e.code === 'invalid_task' && e.field === 'task');
    await manager.delete(id);
  });
});

describe('isolation and clean-up', () => {
  test('two sessions cannot see each other\'s files or processes; session processes are confined', async () => {
    const a = await open('bash');
    const b = await open('bash');
    await step(a, 'echo marker-7f3a > /box/secret; echo marker-7f3a > /tmp/secret');
    const seen = await step(b, 'ls -a /box /tmp; grep -rl marker-7f3a /box /tmp /dev/shm; ls /proc | grep -c "^[0-9]"; cat /proc/self/status');
    assert.doesNotMatch(seen.stdout, /secret/);
    assert.notEqual(boxOf(a).uid, boxOf(b).uid, 'each session runs as its own host uid');
    // Only b's own agent, shell and the step's commands are visible.
    const count = Number(/^(\d+)$/m.exec(seen.stdout)?.[1]);
    assert.ok(count <= 6, `b sees ${count} processes`);
    assert.match(seen.stdout, /^Seccomp:\s+2$/m);
    assert.match(seen.stdout, /^NoNewPrivs:\s+1$/m);
    assert.match(seen.stdout, /^CapEff:\s+0000000000000000$/m);
    assert.equal((await step(a, 'cat /box/secret')).stdout, 'marker-7f3a\n');
    await manager.delete(a);
    await manager.delete(b);
  });

  test('the agent (pid 1) cannot be killed, stopped or read from a step', async () => {
    const id = await open('python');
    const r = await step(id, [
      'import os, signal',
      'for s in (signal.SIGKILL, signal.SIGSTOP, signal.SIGTERM):',
      '    os.kill(1, s)',
      'for p in ("/proc/1/fd/1", "/proc/1/mem", "/proc/1/environ"):',
      '    try:',
      '        open(p, "rb").read(1)',
      '        print("opened", p)',
      '    except OSError as e:',
      '        print("denied", p, e.errno)',
    ].join('\n'));
    assert.doesNotMatch(r.stdout, /opened/);
    assert.equal((await step(id, 'print("alive")')).stdout, 'alive\n');
    await manager.delete(id);
  });

  test('reset is pristine: no variable, file or process of before', async () => {
    const id = await open('python');
    await step(id, "v = 5\nopen('/box/kept', 'w').write('x')\nopen('/tmp/kept', 'w').write('x')");
    const uidBefore = boxOf(id).uid;
    const pidsBefore = processesOf(uidBefore);
    const reset = await manager.reset(id);
    assert.equal(reset.info.step, 0);
    for (const pid of pidsBefore) assert.equal(existsSync(`/proc/${pid}`), false, `process ${pid} of the old box is gone`);
    const r = await step(id, "import os\nprint('v' in globals(), os.listdir('/box'), os.listdir('/tmp'))");
    assert.equal(r.stdout, 'False [] []\n');
    // bubblewrap (outside the box's pid namespace), the agent and the REPL.
    assert.equal(processesOf(boxOf(id).uid).length, 3, 'the new box holds bubblewrap, its agent and its REPL only');
    await manager.delete(id);
  });

  test('delete leaves no process, file or cgroup behind', async () => {
    const id = await open('bash');
    await step(id, 'echo x > /box/f; sleep 0.1');
    const box = boxOf(id);
    const uid = box.uid;
    const dirs = box.cgroupDirs;
    assert.ok(processesOf(uid).length >= 2, 'the box runs (agent and shell)');
    await manager.delete(id);
    assert.deepEqual(processesOf(uid), []);
    const sub = dirs.filter((d) => d.endsWith('/session'));
    assert.equal(sub.length, 3, 'memory, pids and cpuacct sub-groups were made');
    for (const d of sub) assert.equal(existsSync(d), false, `${d} removed`);
    for (const d of dirs.filter((x) => !x.endsWith('/session'))) {
      assert.equal(readFileSync(join(d, 'cgroup.procs'), 'utf8').trim(), '', `${d} holds no task`);
    }
    await assert.rejects(manager.step(id, 'true'), (e: unknown) => e instanceof SessionError && e.code === 'unknown_session');
  });

  test('a box that ends under a session is replaced at the next step, which says all state was lost', async () => {
    const id = await open('python');
    await step(id, 'v = 1');
    const box = boxOf(id);
    // Crucible's failure, simulated: the agent (pid 1 of the box) killed from the host.
    const agent = processesOf(box.uid).find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('session-agent'));
    assert.ok(agent !== undefined, 'the agent runs');
    process.kill(agent, 'SIGKILL');
    await box.boxResult;
    assert.equal(box.alive, false);
    const r = await step(id, "print('v' in globals())");
    assert.equal(r.status, 'ok');
    assert.equal(r.stdout, 'False\n');
    assert.equal(r.restarted, true);
    assert.match(String(r.notice), /box had ended .* lost/);
    await manager.delete(id);
    assert.deepEqual(processesOf(box.uid).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('session-agent') || readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('crucible_session')), []);
  });

  test('TTL eviction closes idle sessions like a delete', async () => {
    const id = (await manager.create({ environment: 'python', ttlSeconds: 1 })).id;
    const uid = boxOf(id).uid;
    const before = manager.stats.evicted;
    assert.equal(await manager.evictIdle(Date.now()), 0, 'not idle long enough yet');
    assert.equal(await manager.evictIdle(Date.now() + 1500), 1);
    assert.equal(manager.stats.evicted, before + 1);
    assert.equal(manager.has(id), false);
    assert.deepEqual(processesOf(uid), []);
    await assert.rejects(manager.step(id, 'print(1)'), (e: unknown) => e instanceof SessionError && e.code === 'unknown_session');
  });
});

describe('hostile steps get a verdict; the session survives; other sessions are untouched', () => {
  let bystander: string;
  before(async () => {
    bystander = await open('python');
    await step(bystander, 'keep = [7]');
  });

  const cases: { name: string; env: 'python' | 'bash'; code: string; statuses: string[]; restarted?: boolean }[] = [
    { name: 'infinite loop', env: 'python', code: 'while True: pass', statuses: ['time_limit_exceeded'], restarted: true },
    { name: 'sleeping forever', env: 'bash', code: 'sleep 1000', statuses: ['time_limit_exceeded'], restarted: true },
    { name: 'memory bomb', env: 'python', code: "s = b'x' * (600 * 1024 * 1024)", statuses: ['memory_limit_exceeded'], restarted: true },
    { name: 'huge output', env: 'bash', code: 'yes', statuses: ['output_limit_exceeded'], restarted: true },
    { name: 'stderr flood', env: 'python', code: "import sys\nwhile True: sys.stderr.write('e' * 4096)", statuses: ['output_limit_exceeded'], restarted: true },
    { name: 'fork bomb (shell)', env: 'bash', code: ':(){ :|:& };:; sleep 2', statuses: ['ok', 'runtime_error', 'time_limit_exceeded'] },
    { name: 'fork bomb (python)', env: 'python', code: 'import os\nwhile True: os.fork()', statuses: ['runtime_error', 'time_limit_exceeded', 'memory_limit_exceeded'] },
    { name: 'kill -9 -1', env: 'bash', code: 'kill -9 -1; echo survived', statuses: ['ok'] },
    { name: 'disk fill', env: 'python', code: "i = 0\nwhile True:\n    open(f'/box/f{i}', 'wb').write(b'x' * (1 << 20)); i += 1",
      statuses: ['runtime_error'] },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const id = await open(c.env);
      await step(id, c.env === 'python' ? 'mark = 1' : 'MARK=1');
      const r = await step(id, c.code);
      assert.ok(c.statuses.includes(r.status), `${c.name}: ${r.status} (${r.reason ?? ''}) ${r.stderr.slice(-200)}`);
      if (c.restarted !== undefined) {
        assert.equal(r.restarted, c.restarted);
        assert.match(String(r.notice), /restarted .* lost; files under \/box and \/tmp are kept/);
      }
      const alive = await step(id, c.env === 'python' ? "print('mark' in globals())" : 'echo ${MARK:-gone}');
      assert.equal(alive.status, 'ok', `${c.name}: the session still works`);
      assert.equal(alive.stdout.trim(), r.restarted ? (c.env === 'python' ? 'False' : 'gone') : (c.env === 'python' ? 'True' : '1'));
      await manager.delete(id);
    });
  }

  test('the bystander session kept its state through every attack', async () => {
    const r = await step(bystander, 'print(keep)');
    assert.equal(r.stdout, '[7]\n', JSON.stringify(r));
    await manager.delete(bystander);
  });
});

describe('the hostile suite\'s Python programs, run as session steps', () => {
  const programs = join(PROJECT_ROOT, 'test', 'hostile', 'programs');
  /** The program's source as one step; `stdin` is given through sys.stdin (a step's own stdin is /dev/null). */
  const source = (name: string, stdin?: string): string =>
    (stdin === undefined ? '' : `import io, sys\nsys.stdin = io.StringIO(${JSON.stringify(stdin)})\n`) + readFileSync(join(programs, name), 'utf8');
  const cases: { file: string; stdin?: string; statuses: string[]; stdout?: (out: string) => void }[] = [
    { file: 'memory_bomb.py', statuses: ['memory_limit_exceeded', 'time_limit_exceeded'] },
    { file: 'sleep_forever.py', statuses: ['time_limit_exceeded'] },
    { file: 'stdout_flood.py', statuses: ['output_limit_exceeded'] },
    { file: 'stderr_flood.py', statuses: ['output_limit_exceeded'] },
    { file: 'fill_disk.py', statuses: ['runtime_error', 'memory_limit_exceeded', 'ok'] },
    { file: 'fill_tmp.py', statuses: ['runtime_error', 'memory_limit_exceeded'] },
    { file: 'connect_public.py', statuses: ['ok'], stdout: (out) => assert.equal(out.trim(), 'blocked blocked blocked') },
    { file: 'read_secrets.py', stdin: `${PROJECT_ROOT}\n`, statuses: ['ok'],
      stdout: (out) => { for (const line of out.trim().split('\n')) assert.match(line, /^denied /, line); } },
    { file: 'write_outside.py', statuses: ['ok'],
      stdout: (out) => assert.deepEqual(out.trim().split('\n').slice(-2), ['wrote /box/inside.txt', 'wrote /tmp/inside.txt']) },
    { file: 'kill_parent.py', statuses: ['ok'], stdout: (out) => assert.equal(out.trim(), 'still here') },
    { file: 'double_fork_setsid.py', statuses: ['ok'], stdout: (out) => assert.equal(out.trim(), 'parent done') },
    { file: 'keyring_secret.py', stdin: 'store\n', statuses: ['ok'], stdout: (out) => assert.equal(out, 'store user EPERM\nstore session EPERM\n') },
  ];
  let bystander: string;
  before(async () => {
    bystander = await open('bash');
    await step(bystander, 'echo kept > /box/mine; LEFT=here');
  });
  for (const c of cases) {
    test(c.file, async () => {
      const id = await open('python');
      const r = await step(id, source(c.file, c.stdin));
      assert.ok(c.statuses.includes(r.status), `${c.file}: ${r.status} (${r.reason ?? ''}) ${r.stderr.slice(-300)}`);
      c.stdout?.(r.stdout);
      assert.equal((await step(id, "print('next')")).stdout, 'next\n', 'the session goes on');
      await manager.delete(id);
    });
  }
  test('the bystander kept its files and variables', async () => {
    assert.equal((await step(bystander, 'cat /box/mine; echo $LEFT')).stdout, 'kept\nhere\n');
    await manager.delete(bystander);
  });
});
