"""The zygote Z: a warm, trusted interpreter serving judge requests, one at a time.

Theory of operation (one unit_test job):

    host ==NDJSON==> Z (pid 1 of the box, non-dumpable, no capabilities)
                     |-- control socket --> S (spawner; exec'd clean at start-up, never sees a test)
                     |                        `-- fork --> C (candidate: setsid, rlimits, fresh /tmp dir)
                     |-- fork --> T (warm tester)  <==== call channel (socketpair) ====>  C
                     |<=== T's control socket (only Z and T hold it): C's channel + program in, report out

The verdict is built by Z from T's report, C's CPU time, the output caps and the wall clock. CPU and memory are
the kernel's figures for the candidate sub-cgroup (Crucible makes it outside the box, sets its limits per job
and hands Z its descriptors: confine.Subgroup): S puts every C in it before C runs anything, and whatever C
forks stays there, so a double-forked, orphaned grandchild's CPU counts against C and the memory limit holds
for C's whole tree. Without sub-groups (a host without cgroups) Z falls back to /proc/<C>/stat of C itself.
C can reach nothing of Z or T: both are non-dumpable and C has no capabilities, so /proc/<pid>/{mem,fd,environ}
and ptrace are closed to it; Z is pid 1 of its pid namespace, so C cannot signal it either, and no other
process of the box holds the host's pipes. After every job Z SIGKILLs every process but itself, S and the
warm T until none is left (which empties the sub-groups: their tasks are processes of the box), reaps them, resumes S and T (a candidate may have
stopped them), empties /box, /tmp and /dev/shm (however deep the tree a candidate built) and removes the box's
SysV IPC objects, so the next candidate finds nothing of this one.

Warm tester: T is forked once per problem and judges consecutive candidates of that problem (same prelude,
test code, entry point and memory limit), each in fresh globals with `random` re-seeded, builtins, timers and
signal handlers restored (tester.serve). Z retires T (SIGKILL) whenever a job ends without T's clean report
for it (a limit, T's death, a report carrying another job's sequence number), when T says it cannot be
reused (test code left a thread running), when the problem changes, and after WARM_TESTER_JOBS jobs. A job
then forks one process (C) instead of two: see docs/PERFORMANCE.md and docs/SECURITY.md ("Warm tester").

Files: this module is the process lifecycle (start-up, the serve loop, Z's handles on S and on the warm T, the
sweep, request checks and dispatch); job.py is one request's resources (C's output pipes, C's lifecycle through
S, the cgroup CPU/OOM accounting); modes/ holds one module per judging mode (unit_test.py above, script.py the
same lifecycle for MBPP's assert lines, call.py where Z plays T's role itself, assertions.py for generated tests), registered in modes/__init__.py; outcome.py is
what the modes say about an outcome (reasons, wait statuses). spawner.py, candidate.py and tester.py are the
code of S, C and T; confine.py their confinement; frames.py and pyvalue.py the call channel's encoding.
"""
import gc
import json
import os
import signal
import socket
import sys

from . import confine, frames, modes, pyvalue, tester
from .job import REPORT_MAX_BYTES
from .outcome import cut

PRELOAD = ("math", "re", "typing", "collections", "itertools", "functools", "heapq", "string", "bisect",
           "statistics", "fractions", "decimal", "copy", "operator", "json", "hashlib", "random")
# Jobs one warm tester serves before it is replaced (bounds whatever drift test code could accumulate in it).
WARM_TESTER_JOBS = 100
# Descriptors at which the spawner receives the candidate sub-group's cgroup.procs of the memory, pids and
# cpuacct controllers, in that order (spawner.py `--join`).
SPAWNER_JOIN_FDS = (4, 5, 6)
# The only variable the spawner (hence every candidate) inherits from the zygote's environment: the host starts
# the harness with a fixed hash seed so that set iteration order, and the answers of programs depending on it,
# are the same on every run (PYTHONHASHSEED=0 from languages/python.yaml; src/engine/harness-pool.ts).
INHERITED_ENV = ("PYTHONHASHSEED",)


def preload():
    for name in PRELOAD:
        __import__(name)
    # Move everything loaded so far into the GC's permanent generation: a collection in a forked child then
    # never walks (and so never copies-on-write) the parent's heap, which made each fork cost milliseconds.
    gc.collect()
    gc.freeze()



class Spawner:
    """Handle on S. Restarted (by exec, so still clean) whenever it dies or stops answering."""

    def __init__(self, harness_path, group=None):
        self.harness_path = harness_path
        self.group = group
        self.proc_pid = None
        self.sock = None
        self.start()

    def start(self):
        if self.sock is not None:
            self.stop()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        null = os.open(os.devnull, os.O_RDWR)
        actions = [(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, null, 1),
                   (os.POSIX_SPAWN_DUP2, theirs.fileno(), 3)]
        # -s -P rather than -I (which implies -E): the spawner honours the inherited hash seed.
        argv = [sys.executable, "-s", "-P", "-S", "-B", self.harness_path, "--spawner"]
        if self.group is not None:
            actions += [(os.POSIX_SPAWN_DUP2, src, dst) for src, dst in zip(self.group.procs, SPAWNER_JOIN_FDS)]
            argv += ["--join", ",".join(str(fd) for fd in SPAWNER_JOIN_FDS)]
        env = {k: os.environ[k] for k in INHERITED_ENV if k in os.environ}
        self.proc_pid = os.posix_spawn(sys.executable, argv, env, file_actions=actions)
        os.close(null)
        theirs.close()
        self.sock = ours
        # Wait until S is done starting (and in the candidate group): a job's share of S's CPU is then only what
        # S spends on that job. A spawner that never gets ready fails the next job (Crucible's failure).
        ready = self.receive(10.0)
        if not ready or ready.get("ready") is not True:
            self.stop()

    def stop(self):
        try:
            self.sock.close()
        except OSError:
            pass
        self.sock = None
        if self.proc_pid:
            try:
                os.kill(self.proc_pid, signal.SIGKILL)
                os.waitpid(self.proc_pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        self.proc_pid = None

    def request(self, fds, params):
        """Ask S for a new C. Restarts S once if it is gone."""
        msg = json.dumps(params).encode()
        for attempt in (0, 1):
            if self.sock is None:
                self.start()
            if self.sock is None:
                raise confine.ConfinementError("the spawner did not start")
            try:
                socket.send_fds(self.sock, [msg], fds)
                return
            except OSError:
                if attempt:
                    raise
                self.start()

    def receive(self, timeout_s):
        self.sock.settimeout(timeout_s)
        try:
            data = self.sock.recv(65536)
        except (OSError, socket.timeout):
            return None
        if not data:
            return None
        return json.loads(data)


class WarmTester:
    """Z's handle on a warm T (tester.serve): kept across unit_test jobs of one problem, so that a job forks one
    process (C) instead of two. T is retired (SIGKILL) whenever a job ends without its clean report (a limit,
    T's death), when it says it is not reusable, when the problem changes, and after WARM_TESTER_JOBS jobs."""

    def __init__(self, req, cpu):
        self.key = _tester_key(req)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        pid = os.fork()
        if pid == 0:
            ours.close()
            tester.serve(theirs.fileno(), req, cpu)   # never returns
        theirs.close()
        ours.settimeout(5.0)
        self.pid, self.sock, self.fd = pid, ours, ours.fileno()
        self.reader = frames.FrameReader(self.fd, REPORT_MAX_BYTES)
        self.jobs = 0

    def send(self, chan_fd, req, cpu):
        """Hand T one candidate's call channel and program. False if T is gone."""
        self.jobs += 1
        try:
            socket.send_fds(self.sock, [b"J"], [chan_fd])
            self.sock.sendall(frames.encode_frame({"seq": self.jobs, "program": req["program"],
                                                   "cpuMs": req["cpuMs"], "cpu": cpu}))
        except OSError:
            return False
        return True

    def receive(self):
        """Read what T sent. Returns (done, report): (False, None) while the frame is incomplete; (True, dict)
        for a well-formed report on the current job; (True, None) when T closed the socket or sent anything
        else (too large, malformed, another job's sequence number)."""
        if not self.reader.feed():
            return True, None
        try:
            raw = self.reader.next_raw()
        except frames.FrameTooLarge:
            return True, None
        if raw is None:
            return False, None
        try:
            rep = json.loads(raw)
        except ValueError:
            return True, None
        if type(rep) is not dict or rep.get("seq") != self.jobs or type(rep.get("ok")) is not bool:
            return True, None
        return True, rep

    def kill(self):
        """SIGKILL and reap T. Returns its wait status (None if it was reaped elsewhere)."""
        try:
            self.sock.close()
        except OSError:
            pass
        try:
            os.kill(self.pid, signal.SIGKILL)
            return os.waitpid(self.pid, 0)[1]
        except (ProcessLookupError, ChildProcessError):
            return None


def _tester_key(req):
    return (req["mode"], req.get("prelude") or "", req.get("test"), tuple(req.get("asserts") or ()),
            req.get("entryPoint"), req["memoryKiB"])



# --------------------------------------------------------------------------------------------------- serve

_RUN_FIELDS = {"id": str, "mode": str, "program": str, "cpuMs": int, "wallMs": int, "memoryKiB": int,
               "outputBytes": int}


def validate(req):
    """Check the fields every mode reads, then the mode's own (modes.get(...).validate). Raises ValueError."""
    for name, typ in _RUN_FIELDS.items():
        if type(req.get(name)) is not typ:
            raise ValueError(f"field {name!r} must be a {typ.__name__}")
    for name in ("cpuMs", "wallMs", "memoryKiB", "outputBytes"):
        if req[name] <= 0:
            raise ValueError(f"field {name!r} must be positive")
    modes.get(req["mode"]).validate(req)


class Zygote:
    def __init__(self, harness_path, groups=None):
        # Sub-groups Crucible gave the box: "candidate" (every C's tree) and "tester" (generated tests' T).
        self.groups = groups or {}
        self.spawner = Spawner(harness_path, self.groups.get("candidate"))
        self.tester = None

    def warm_tester(self, req, chan_fd, cpu):
        """The warm T for this problem (reused, or forked fresh), already handed `chan_fd` and the program."""
        t = self.tester
        if t is not None and (t.key != _tester_key(req) or t.jobs >= WARM_TESTER_JOBS):
            self.retire_tester()
        for _attempt in (0, 1):
            if self.tester is None:
                self.tester = WarmTester(req, cpu)
            if self.tester.send(chan_fd, req, cpu):
                return self.tester
            self.retire_tester()
        raise RuntimeError("the tester did not take the job")

    def retire_tester(self):
        """Kill the warm T, if any. Returns its wait status."""
        t, self.tester = self.tester, None
        return t.kill() if t is not None else None

    def sweep(self):
        keep = {os.getpid(), self.spawner.proc_pid}
        if self.tester is not None:
            keep.add(self.tester.pid)
        reaped = confine.sweep_processes(keep)
        if self.tester is not None:
            if self.tester.pid in reaped:
                self.tester.sock.close()
                self.tester = None
            else:
                # a candidate may have stopped T; it is dead now, so nobody can stop T again
                try:
                    os.kill(self.tester.pid, signal.SIGCONT)
                except ProcessLookupError:
                    self.tester = None
        if self.spawner.proc_pid is None or self.spawner.proc_pid in reaped:
            self.spawner.proc_pid = None
            self.spawner.start()
        else:
            try:
                os.kill(self.spawner.proc_pid, signal.SIGCONT)
            except ProcessLookupError:
                self.spawner.start()
        return reaped

    def handle(self, line):
        req_id = None
        try:
            req = pyvalue.loads(line)
            if type(req) is not dict:
                raise ValueError("a request is a JSON object")
            req_id = req.get("id") if type(req.get("id")) is str else None
            if req.get("op") == "ping":
                return {"op": "pong"}
            if req.get("op") != "run":
                raise ValueError("unknown op")
            validate(req)
        except (ValueError, pyvalue.DecodeError) as e:
            return {"id": req_id, "status": "internal_error", "reason": cut(f"bad request: {e}")}
        try:
            return modes.MODES[req["mode"]].run(self, req)
        except BaseException as e:
            try:
                self.sweep()
            except BaseException:
                pass
            return {"id": req_id, "status": "internal_error",
                    "reason": cut(f"harness failure: {type(e).__name__}: {e}")}


def _write_line(obj):
    data = (pyvalue.dumps(obj) + "\n").encode()
    while data:
        data = data[os.write(1, data):]


def main(harness_path, once):
    if os.getpid() != 1:
        _write_line({"status": "internal_error",
                     "reason": "the harness must run as pid 1 of its own pid namespace (bwrap --as-pid-1): "
                               "otherwise another process of the box holds the host's pipes"})
        return 2
    groups = confine.subgroups_from_env()
    confine.set_nondumpable()
    confine.drop_capabilities()
    preload()
    sys.set_int_max_str_digits(0)
    z = Zygote(harness_path, groups)
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline()
        if not line:
            return 0
        if not line.strip():
            continue
        _write_line(z.handle(line))
        if once:
            return 0
