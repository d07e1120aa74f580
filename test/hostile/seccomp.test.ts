/**
 * The seccomp filter (src/sandbox/native/seccomp.h) holds for every untrusted program on every path: one-shot
 * runs on slot boxes and on a bubblewrap per run, Python harness candidates and the testers of generated tests.
 * Each denied class fails with EPERM (clone3 with ENOSYS, so libc falls back to clone), a foreign system-call
 * ABI kills the process, and what programs need (fork, threads, plain clone) still works. The kernel keyring,
 * which once carried a secret from one run of a slot box to the next, is closed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runLimits } from '../../src/limits.js';
import { PythonHarnessPool } from '../../src/engine/harness-pool.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import type { ExecutionResult } from '../../src/sandbox/types.js';
import { runProcessesOf } from '../support/processes.js';
import { openExecutor, pythonInterpreter } from '../support/sandbox.js';

const programs = join(PROJECT_ROOT, 'test', 'hostile', 'programs');
const source = (file: string): string => readFileSync(join(programs, file), 'utf8');

const DENIED_C = [
  'add_key EPERM', 'keyctl EPERM', 'request_key EPERM', 'io_uring_setup EPERM', 'userfaultfd EPERM', 'bpf EPERM',
  'perf_event_open EPERM', 'unshare_user EPERM', 'unshare_mount EPERM', 'unshare_net EPERM', 'clone_newuser EPERM',
  'clone_newpid EPERM', 'clone3 ENOSYS', 'setns EPERM', 'mount EPERM', 'umount2 EPERM', 'pivot_root EPERM',
  'ptrace EPERM', 'process_vm_readv EPERM', 'process_vm_writev EPERM', 'kexec_load EPERM', 'init_module EPERM',
  'finit_module EPERM', 'delete_module EPERM', 'swapon EPERM', 'reboot EPERM', 'acct EPERM', 'quotactl EPERM',
  'open_by_handle_at EPERM', 'name_to_handle_at EPERM', 'mq_open EPERM', 'fork works', 'thread works', 'clone works',
];

for (const slotBoxes of [true, false]) {
  const { sandbox, executor, languages } = openExecutor(1, { slotBoxes });
  const limits = runLimits({ cpuMs: 2000, memoryKiB: 256 * 1024 });

  async function attack(file: string, language: string, stdin = ''): Promise<ExecutionResult> {
    const result = await executor.runProgram(languages.get(language), source(file), stdin, limits);
    assert.deepEqual(runProcessesOf(sandbox), [], `${file}: a process of the run survived the verdict`);
    return result;
  }

  describe(`seccomp filter (${slotBoxes ? 'slot boxes' : 'a bubblewrap per run'})`, () => {
    after(async () => {
      await executor.close();
      sandbox.close();
    });

    it('runs on the intended path', () => {
      assert.equal(sandbox.usesSlotBoxes, slotBoxes);
    });

    it('denied_syscalls.c: every denied class fails with EPERM (clone3 ENOSYS); fork, threads and clone work', async () => {
      const r = await attack('denied_syscalls.c', 'c');
      assert.equal(r.status, 'ok', `${r.status}: ${r.reason} ${r.stderr}`);
      assert.deepEqual(r.stdout.trim().split('\n'), DENIED_C);
    });

    for (const abi of ['i386', 'x32']) {
      it(`foreign_abi.c: a system call through the ${abi} table kills the process (SIGSYS)`, async () => {
        const r = await attack('foreign_abi.c', 'c', `${abi}\n`);
        assert.equal(r.status, 'runtime_error', `${r.status}: ${r.reason} ${r.stdout}`);
        assert.equal(r.signal, 'SIGSYS');
        assert.equal(r.stdout, '');
      });
    }

    it('keyring_secret.py: a secret cannot be stored in the kernel keyring, so the next run of the slot finds none', async () => {
      const store = await attack('keyring_secret.py', 'python', 'store\n');
      assert.equal(store.status, 'ok', store.stderr);
      assert.equal(store.stdout, 'store user EPERM\nstore session EPERM\n');
      const read = await attack('keyring_secret.py', 'python', 'read\n');
      assert.equal(read.status, 'ok', read.stderr);
      assert.equal(read.stdout, 'find user EPERM\nfind session EPERM\n');
    });

    it('the filter is on in every process of a run (Seccomp: 2 in /proc/self/status)', async () => {
      const probe = await executor.runProgram(languages.get('bash'),
        'grep -E "^(Seccomp|NoNewPrivs):" /proc/self/status; sh -c \'grep -E "^Seccomp:" /proc/self/status\'', '', limits);
      assert.equal(probe.status, 'ok', probe.stderr);
      assert.equal(probe.stdout, 'NoNewPrivs:\t1\nSeccomp:\t2\nSeccomp:\t2\n');
    });
  });
}

describe('seccomp filter (Python harness: candidates and testers of generated tests)', () => {
  const { sandbox } = openExecutor(1);
  const pool = new PythonHarnessPool(sandbox, pythonInterpreter(), 1);
  after(() => {
    pool.close();
    sandbox.close();
  });
  const LIMITS = { cpuMs: 2000, wallMs: 10_000, memoryKiB: 512 * 1024, outputBytes: 1 << 16 };
  const EXPECTED = ['add_key EPERM', 'keyctl EPERM', 'request_key EPERM', 'io_uring_setup EPERM', 'userfaultfd EPERM',
    'bpf EPERM', 'perf_event_open EPERM', 'ptrace EPERM', 'mount EPERM', 'setns EPERM', 'unshare_user EPERM',
    'clone3 ENOSYS', 'kexec_load EPERM', 'init_module EPERM', 'fork 3', 'thread'].join('\n');

  it('a candidate: every denied class fails, fork and threads work', async () => {
    const r = await pool.run({ mode: 'call', program: source('harness/denied_syscalls.py'), entryPoint: 'f', inputs: [[]], ...LIMITS });
    assert.equal(r.status, 'ok', JSON.stringify(r));
    assert.equal(r.results?.[0]?.value, EXPECTED);
  });

  it('a tester of generated tests: the test code itself meets the filter', async () => {
    const program = `${source('harness/denied_syscalls.py')}\ndef g():\n    return 1\n`;
    const assertion = 'import ctypes, errno\n' +
      'libc = ctypes.CDLL(None, use_errno=True)\n' +
      'assert libc.syscall(248, b"user", b"k", b"x", 1, -4) == -1 and ctypes.get_errno() == errno.EPERM\n' +
      'assert libc.syscall(425, 1, ctypes.create_string_buffer(128)) == -1 and ctypes.get_errno() == errno.EPERM\n' +
      'assert g() == 1\n';
    const r = await pool.run({ mode: 'assertions', program, prelude: '', entryPoint: 'g', assertions: [assertion], ...LIMITS });
    assert.equal(r.status, 'ok', JSON.stringify(r));
    assert.equal(r.results?.[0]?.status, 'passed', JSON.stringify(r.results));
  });
});
