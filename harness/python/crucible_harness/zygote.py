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

call mode: Z plays T's role itself and passes C's PyValue answers through (checked for shape, not trusted).
"""
import gc
import json
import math
import os
import select
import signal
import socket
import sys
import time

from . import confine, frames, pyvalue, tester

PRELOAD = ("math", "re", "typing", "collections", "itertools", "functools", "heapq", "string", "bisect",
           "statistics", "fractions", "decimal", "copy", "operator", "json", "hashlib", "random")
TICK_S = 0.01
REASON_CHARS = 300
REPORT_MAX_BYTES = 1 << 20
# Jobs one warm tester serves before it is replaced (bounds whatever drift test code could accumulate in it).
WARM_TESTER_JOBS = 100
JOB_DIR = "/tmp/crucible-job"
SCRATCH_DIRS = ("/box", "/tmp", "/dev/shm")
# Descriptors at which the spawner receives the candidate sub-group's cgroup.procs of the memory, pids and
# cpuacct controllers, in that order (spawner.py `--join`).
SPAWNER_JOIN_FDS = (4, 5, 6)
# The only variable the spawner (hence every candidate) inherits from the zygote's environment: the host starts
# the harness with a fixed hash seed so that set iteration order, and the answers of programs depending on it,
# are the same on every run (src/runner/python-pool.ts HARNESS_ENV).
INHERITED_ENV = ("PYTHONHASHSEED",)


def preload():
    for name in PRELOAD:
        __import__(name)
    # Move everything loaded so far into the GC's permanent generation: a collection in a forked child then
    # never walks (and so never copies-on-write) the parent's heap, which made each fork cost milliseconds.
    gc.collect()
    gc.freeze()


def _cut(s, n=REASON_CHARS):
    return s if len(s) <= n else s[: n - 1] + "…"


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


class Sink:
    """Drains one output pipe of C, keeping at most `cap` bytes."""

    def __init__(self, fd, cap):
        self.fd = fd
        self.cap = cap
        self.kept = bytearray()
        self.total = 0
        self.open = True
        os.set_blocking(fd, False)

    def feed(self):
        while True:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self.open = False
                return
            self.total += len(chunk)
            room = self.cap - len(self.kept)
            if room > 0:
                self.kept += chunk[:room]
            if self.exceeded:
                return

    @property
    def exceeded(self):
        return self.total > self.cap

    def text(self):
        return self.kept.decode("utf-8", errors="replace")


class Job:
    """Resources of one request: output pipes, the C processes, timing. `close()` always runs."""

    def __init__(self, zygote, req):
        self.z = zygote
        self.req = req
        self.t0 = time.monotonic()
        # The candidate sub-group (when the box has one): its CPU and OOM-kill counters at the start of the job,
        # and the spawner's own CPU, which the group also holds (S lives in it so that every C is born there).
        self.group = zygote.groups.get("candidate")
        self.group_cpu0 = self.group.cpu_ns() if self.group else 0
        self.group_oom0 = self.group.oom_kills() if self.group else 0
        self.spawner_pid = zygote.spawner.proc_pid
        self.spawner_cpu0 = confine.schedstat_ns(self.spawner_pid) if self.group else None
        self.group_cpu_seen = 0.0
        self.out_r, self.out_w = os.pipe()
        self.err_r, self.err_w = os.pipe()
        self.stdout = Sink(self.out_r, req["outputBytes"])
        self.stderr = Sink(self.err_r, req["outputBytes"])
        self.cpu_ms = 0          # C's CPU over all C processes of the job
        self.memory_kib = 0
        self.c_pid = None
        self.c_cpu_seen = 0      # latest /proc reading of the current C
        self.c_exit = None
        # T and C (call mode: Z and C) share one CPU for fast call round trips
        self.cpu = confine.current_cpu()
        os.makedirs(JOB_DIR, mode=0o700, exist_ok=True)

    # --- C lifecycle ---
    def spawn_candidate(self, chan_fd, cpu_budget_ms):
        params = {"memoryKiB": self.req["memoryKiB"], "cpuSec": -(-cpu_budget_ms // 1000) + 1, "dir": JOB_DIR,
                  "cpu": self.cpu}
        self.z.spawner.request([chan_fd, self.out_w, self.err_w], params)

    def receive_candidate_pid(self):
        msg = self.z.spawner.receive(5.0)
        if not msg or "pid" not in msg or "status" in msg:
            self.z.spawner.start()
            raise RuntimeError("the spawner did not start the candidate")
        if "joinError" in msg:
            self.z.spawner.start()
            raise confine.ConfinementError(str(msg["joinError"]))
        self.c_pid = msg["pid"]
        self.c_cpu_seen = 0
        self.c_exit = None

    def poll_candidate_cpu(self):
        """CPU ms of the candidate: with the sub-group, of every process that was ever in it during this job
        (monotone over the job); without, of the current C and its waited-for children (monotone per C)."""
        if self.group is not None:
            used = self.group.cpu_ns() - self.group_cpu0
            # Subtract what S spent (forking C, reporting): the judge's work, not the candidate's. If S was
            # replaced meanwhile (a candidate killed it) its share cannot be known and counts as C's.
            spawner = self.z.spawner.proc_pid
            now = confine.schedstat_ns(spawner) if spawner == self.spawner_pid else None
            if now is not None and self.spawner_cpu0 is not None:
                used -= now - self.spawner_cpu0
            self.group_cpu_seen = max(self.group_cpu_seen, used / 1e6)
            return self.group_cpu_seen
        if self.c_pid is not None:
            c = confine.cpu_ms(self.c_pid)
            if c is not None:
                self.c_cpu_seen = max(self.c_cpu_seen, c)
        return self.c_cpu_seen

    def oom_killed(self):
        """True when the sub-group's memory limit killed a process of the candidate's tree during this job."""
        return self.group is not None and self.group.oom_kills() > self.group_oom0

    def end_candidate(self):
        """Kill C and everything it started; collect its exit status and rusage from S."""
        reaped = self.z.sweep()
        if self.c_pid is not None:
            msg = self.z.spawner.receive(2.0)
            if msg and msg.get("pid") == self.c_pid and "status" in msg:
                self.c_exit = msg
                if self.group is None:
                    self.cpu_ms += max(self.c_cpu_seen, msg["cpuMs"])
                    self.memory_kib = max(self.memory_kib, msg["maxrssKiB"])
            else:
                if self.group is None:
                    self.cpu_ms += self.c_cpu_seen
                self.z.spawner.start()
            self.c_pid = None
        if self.group is not None:
            # Every process of the tree is gone (the sweep waited for the group to empty): the figures are final.
            self.cpu_ms = self.poll_candidate_cpu()
            self.memory_kib = max(self.memory_kib, self.group.peak_kib())
        return reaped

    def pump_output(self, fds):
        for s in (self.stdout, self.stderr):
            if s.fd in fds:
                s.feed()
        return self.stdout.exceeded or self.stderr.exceeded

    def output_exceeded(self):
        return self.stdout.exceeded or self.stderr.exceeded

    def output_fds(self):
        return [s.fd for s in (self.stdout, self.stderr) if s.open]

    def close(self):
        try:
            if self.c_pid is not None:
                self.end_candidate()
            else:
                self.z.sweep()
        finally:
            for fd in (self.out_w, self.err_w):
                os.close(fd)
            self.stdout.feed()
            self.stderr.feed()
            for fd in (self.out_r, self.err_r):
                os.close(fd)
            for d in SCRATCH_DIRS:
                confine.empty_dir(d)
            confine.clean_ipc()

    def base_response(self, status, reason):
        return {
            "id": self.req["id"],
            "status": status,
            "cpuMs": int(self.cpu_ms),
            "wallMs": int((time.monotonic() - self.t0) * 1000),
            "memoryKiB": int(self.memory_kib),
            "reason": _cut(reason or ""),
            "stdout": self.stdout.text(),
            "stderr": self.stderr.text(),
            "stdoutTruncated": self.stdout.exceeded,
            "stderrTruncated": self.stderr.exceeded,
        }


def _signal_name(status):
    if status is None:
        return None
    if os.WIFSIGNALED(status):
        try:
            return signal.Signals(os.WTERMSIG(status)).name
        except ValueError:
            return f"signal {os.WTERMSIG(status)}"
    return None


def _exit_text(status):
    if status is None:
        return "unknown status"
    name = _signal_name(status)
    if name:
        return f"killed by {name}"
    return f"exit code {os.WEXITSTATUS(status)}"


# ---------------------------------------------------------------------------------------------- unit_test

def run_unit_test(z, req):
    job = Job(z, req)
    try:
        return _unit_test(job, req)
    finally:
        job.close()


def _unit_test(job, req):
    cpu_limit = req["cpuMs"]
    chan_t, chan_c = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        job.spawn_candidate(chan_c.fileno(), cpu_limit)
    finally:
        chan_c.close()
    try:
        t = job.z.warm_tester(req, chan_t.fileno(), job.cpu)
    finally:
        chan_t.close()
    try:
        job.receive_candidate_pid()
        limit, report = _await_report(job, req, t)
    except BaseException:
        job.z.retire_tester()   # T may still be judging: its report must never meet a later job
        raise
    t_status = None
    if limit is not None or report is None:
        t_status = job.z.retire_tester()
    reaped = job.end_candidate()
    t_status = reaped.get(t.pid, t_status)
    if report is not None and job.z.tester is t and report.get("reusable") is not True:
        job.z.retire_tester()
    verdict = _unit_test_verdict(job, req, limit, report, t_status)
    verdict["testerJob"] = t.jobs   # 1: a fresh tester; n: its n-th job (observability, tests)
    return verdict


def _await_report(job, req, t):
    """Wait for T's report on this job under the job's CPU, wall and output limits.
    Returns (limit, report): limit (status, reason) or None; report a dict, or None when T gave none."""
    deadline = job.t0 + req["wallMs"] / 1000
    while True:
        now = time.monotonic()
        if now >= deadline:
            return ("time_limit_exceeded", f"wall-clock limit of {req['wallMs']} ms exceeded"), None
        ready, _, _ = select.select(job.output_fds() + [t.fd], [], [], min(TICK_S, deadline - now))
        if job.pump_output(ready):
            return ("output_limit_exceeded", f"output exceeded {req['outputBytes']} bytes"), None
        if t.fd in ready:
            done, report = t.receive()
            if done:
                return None, report
        if job.poll_candidate_cpu() > req["cpuMs"]:
            return ("time_limit_exceeded", f"CPU limit of {req['cpuMs']} ms exceeded"), None


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
    return (req.get("prelude") or "", req["test"], req["entryPoint"], req["memoryKiB"])


def _unit_test_verdict(job, req, limit, rep, t_status):
    def respond(status, reason, rep=None):
        out = job.base_response(status, reason)
        out["assertions"] = rep["assertions"] if rep else 0
        out["calls"] = rep["calls"] if rep else 0
        return out

    c_exit = job.c_exit["status"] if job.c_exit else None
    if job.output_exceeded():
        return respond("output_limit_exceeded", f"output exceeded {req['outputBytes']} bytes")
    if job.oom_killed():
        # First: what follows an OOM kill (a parent waiting forever for a killed child) is its consequence.
        return respond("memory_limit_exceeded", f"memory limit of {req['memoryKiB']} KiB exceeded by the candidate's "
                                                "processes together (cgroup OOM kill)")
    if limit is not None:
        return respond(*limit)
    if job.cpu_ms > req["cpuMs"] or _signal_name(c_exit) == "SIGXCPU":
        return respond("time_limit_exceeded", f"CPU limit of {req['cpuMs']} ms exceeded")
    if rep is None:
        return respond("runtime_error", f"the tester ended without a report ({_exit_text(t_status)}); "
                                        "the candidate may have killed it")
    err = rep.get("error")
    if rep["ok"] and err is None:
        if rep["assertions"] >= 1:
            return respond("passed", "", rep)
        return respond("no_tests", "the test code executed no assertion", rep)
    kind, etype, msg = err.get("kind"), err.get("type") or "", err.get("message") or ""
    where = f" (test line {err['line']})" if err.get("line") else ""
    detail = f"{etype}: {msg}" if msg else etype
    if kind == "assertion":
        return respond("wrong_answer", f"assertion failed{where}" + (f": {msg}" if msg else ""), rep)
    if kind == "opaque":
        return respond("wrong_answer", f"{msg}{where}", rep)
    if kind == "test_exception":
        return respond("wrong_answer", f"the test raised {detail}{where} on the candidate's result", rep)
    if kind == "candidate_memory" or (kind in ("candidate_exception", "candidate_load")
                                      and etype == "MemoryError"):
        return respond("memory_limit_exceeded", detail, rep)
    if kind == "candidate_exception":
        return respond("runtime_error", f"the candidate raised {detail}", rep)
    if kind == "candidate_load":
        return respond("runtime_error", f"loading the program failed: {msg}", rep)
    if kind == "candidate_crash":
        return respond("runtime_error", f"the candidate process died ({_exit_text(c_exit)})", rep)
    if kind == "protocol":
        return respond("runtime_error", f"the candidate broke the call protocol: {msg}", rep)
    return respond("internal_error", f"harness: {kind} {detail}", rep)


# --------------------------------------------------------------------------------------------------- call

class _Candidate:
    """Z's end of the call channel to one C."""

    def __init__(self, job, cpu_budget_ms):
        self.job = job
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            job.spawn_candidate(theirs.fileno(), cpu_budget_ms)
        finally:
            theirs.close()
        self.sock = ours
        self.fd = ours.fileno()
        os.set_blocking(self.fd, False)
        self.reader = frames.FrameReader(self.fd)
        job.receive_candidate_pid()
        self.alive = True

    def close(self):
        self.sock.close()

    def exchange(self, obj, cpu_ms, wall_ms):
        """Send one frame, wait for one answer under per-exchange CPU and wall limits.
        Returns (outcome, payload, cpu_used_ms): outcome is "reply" | "tle" | "wall" | "ole" | "dead" | "bad"."""
        job = self.job
        out = bytearray(frames.encode_frame(obj))
        start_cpu = job.poll_candidate_cpu()
        deadline = time.monotonic() + wall_ms / 1000
        while True:
            now = time.monotonic()
            used = job.poll_candidate_cpu() - start_cpu
            if used > cpu_ms:
                return "tle", None, used
            if now >= deadline:
                return "wall", None, used
            rfds = job.output_fds() + [self.fd]
            wfds = [self.fd] if out else []
            ready, writable, _ = select.select(rfds, wfds, [], min(TICK_S, deadline - now))
            if job.pump_output(ready):
                return "ole", None, used
            if writable:
                try:
                    n = os.write(self.fd, out)
                    del out[:n]
                except BlockingIOError:
                    pass
                except OSError:
                    return "dead", None, used
            if self.fd in ready:
                alive = self.reader.feed()
                try:
                    raw = self.reader.next_raw()
                except frames.FrameTooLarge:
                    return "bad", "the answer exceeds the transfer limit", used
                if raw is not None:
                    used = job.poll_candidate_cpu() - start_cpu
                    if used > cpu_ms:
                        return "tle", None, used
                    try:
                        return "reply", pyvalue.loads(raw.decode("utf-8")), used
                    except (pyvalue.DecodeError, UnicodeDecodeError):
                        return "bad", "malformed JSON", used
                if not alive:
                    return "dead", None, used


def _failure(job, outcome, payload, req, cpu_ms):
    """Map a non-reply outcome (or an error reply) to (status, reason)."""
    if outcome == "tle":
        return "time_limit_exceeded", f"CPU limit of {cpu_ms} ms exceeded"
    if outcome == "wall":
        return "time_limit_exceeded", f"wall-clock limit of {req['wallMs']} ms exceeded"
    if outcome == "ole":
        return "output_limit_exceeded", f"output exceeded {req['outputBytes']} bytes"
    if outcome == "bad":
        return "runtime_error", f"the candidate broke the call protocol: {payload}"
    if outcome == "dead" and job.oom_killed():
        return "memory_limit_exceeded", f"memory limit of {req['memoryKiB']} KiB exceeded (cgroup OOM kill)"
    if outcome == "dead":
        return "runtime_error", "the candidate process died"
    if type(payload) is dict and type(payload.get("error")) is list and len(payload["error"]) == 2 \
            and all(type(x) is str for x in payload["error"]):
        ename, msg = payload["error"]
        status = "memory_limit_exceeded" if ename == "MemoryError" else "runtime_error"
        return status, f"{ename[:100]}: {msg}" if msg else ename[:100]
    return "runtime_error", "the candidate sent an unexpected message"


def run_call(z, req):
    job = Job(z, req)
    allowed = os.sched_getaffinity(0)
    try:
        confine.pin_to_cpu(job.cpu)
        return _call(job, req)
    finally:
        try:
            os.sched_setaffinity(0, allowed)
        finally:
            job.close()


def _call(job, req):
    inputs, cpu_ms, wall_ms = req["inputs"], req["cpuMs"], req["wallMs"]
    fail_fast = req.get("failFast", True) is not False
    results = []
    cand = None
    load_failure = None

    def finish_dead_candidate(outcome):
        nonlocal cand
        job.end_candidate()
        cand.close()
        cand = None
        sig = _signal_name(job.c_exit["status"]) if job.c_exit else None
        return "tle" if sig == "SIGXCPU" and outcome == "dead" else outcome

    i = 0
    while i < len(inputs):
        if cand is None:
            cand = _Candidate(job, cpu_ms * (len(inputs) - i + 1))
            outcome, payload, used = cand.exchange({"load": req["program"], "entry": req["entryPoint"]},
                                                   cpu_ms, wall_ms)
            if outcome != "reply" or payload.get("ready") is not True:
                if outcome != "reply":
                    outcome = finish_dead_candidate(outcome)
                status, reason = _failure(job, outcome, payload, req, cpu_ms)
                load_failure = (status, f"loading the program failed: {reason}")
                break
        outcome, payload, used = cand.exchange({"call": inputs[i], "kw": []}, cpu_ms, wall_ms)
        if outcome == "reply" and "v" in payload and len(payload) == 1:
            try:
                pyvalue.decode(payload["v"])
                results.append({"status": "ok", "value": payload["v"], "cpuMs": int(used)})
                i += 1
                continue
            except pyvalue.DecodeError as e:
                outcome, payload = "bad", f"malformed value: {e}"
        if outcome != "reply":
            outcome = finish_dead_candidate(outcome)
        status, reason = _failure(job, outcome, payload, req, cpu_ms)
        results.append({"status": status, "reason": _cut(reason), "cpuMs": int(used)})
        i += 1
        if fail_fast or status == "output_limit_exceeded":
            break
        if cand is not None and outcome == "bad":
            finish_dead_candidate(outcome)
    if cand is not None:
        job.end_candidate()
        cand.close()
    if load_failure is not None:
        status, reason = load_failure
    else:
        first_bad = next((r for r in results if r["status"] != "ok"), None)
        status = first_bad["status"] if first_bad else "ok"
        reason = first_bad["reason"] if first_bad else ""
        if not first_bad and len(results) != len(inputs):
            status, reason = "internal_error", "not every input was run"
    if status == "ok" and job.oom_killed():
        # A process of the candidate's tree was killed by the memory limit even though every answer came back.
        status, reason = "memory_limit_exceeded", f"memory limit of {req['memoryKiB']} KiB exceeded (cgroup OOM kill)"
    out = job.base_response(status, reason)
    out["results"] = results
    return out


# ------------------------------------------------------------------------------------------ assertions

# Report kinds after which C (or the channel to it) is gone or untrustworthy: both T and C are replaced.
_RESTART_KINDS = ("candidate_crash", "candidate_memory", "protocol", "unsupported", "internal")


class _TesterPair:
    """One T (serving generated tests on command) and the C it talks to."""

    def __init__(self, job, req, remaining):
        chan_t, chan_c = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            job.spawn_candidate(chan_c.fileno(), req["cpuMs"] * (remaining + 1))
        finally:
            chan_c.close()
        rep_r, rep_w = os.pipe()
        ctl_r, ctl_w = os.pipe()
        go_r, go_w = os.pipe()
        t_pid = os.fork()
        if t_pid == 0:
            os.close(go_w)
            tester.run_assertions(chan_t.fileno(), rep_w, ctl_r, req, job.cpu, go_r)   # never returns
        os.close(go_r)
        os.close(rep_w)
        os.close(ctl_r)
        chan_t.close()
        self.job, self.t_pid, self.rep_r, self.ctl_w = job, t_pid, rep_r, ctl_w
        self.buffer = bytearray()
        # Generated tests are model-written: T goes into the tester sub-group (its tree counted and limited like
        # a candidate's) before it may run one; it waits on `go` for that.
        self.tgroup = job.z.groups.get("tester")
        self.oom_hit = False
        try:
            try:
                if self.tgroup is not None:
                    self.tgroup.join(t_pid)
                os.write(go_w, b"1")
            finally:
                os.close(go_w)
            job.receive_candidate_pid()
        except BaseException:
            self.close()
            raise

    def close(self):
        """Kill T and C (the sweep takes every process but Z and S) and collect C's accounting."""
        for fd in (self.rep_r, self.ctl_w):
            try:
                os.close(fd)
            except OSError:
                pass
        self.job.end_candidate()

    def tester_cpu(self):
        """CPU ms of T's tree (its sub-group) or of T itself (no sub-groups)."""
        if self.tgroup is not None:
            return self.tgroup.cpu_ns() / 1e6
        return confine.cpu_ms(self.t_pid) or 0

    def ooms(self):
        groups = [g for g in (self.job.group, self.tgroup) if g is not None]
        return sum(g.oom_kills() for g in groups)

    def run(self, i, cpu_ms, wall_ms):
        """Run assertion i. Returns (outcome, report): outcome "report" | "tle" | "wall" | "ole" | "dead".
        Sets `oom_hit` when a memory limit killed a process of C's or T's tree meanwhile."""
        oom0 = self.ooms()
        try:
            return self._run(i, cpu_ms, wall_ms)
        finally:
            self.oom_hit = self.ooms() > oom0

    def _run(self, i, cpu_ms, wall_ms):
        job = self.job
        c_start = job.poll_candidate_cpu()
        t_start = self.tester_cpu()
        deadline = time.monotonic() + wall_ms / 1000
        try:
            os.write(self.ctl_w, b"%d\n" % i)
        except OSError:
            return "dead", None
        while True:
            if b"\n" in self.buffer:
                line, _, rest = bytes(self.buffer).partition(b"\n")
                self.buffer = bytearray(rest)
                try:
                    rep = json.loads(line)
                except ValueError:
                    return "dead", None
                # The trees' CPU up to the report counts too (a tick may not have seen its last milliseconds).
                if job.poll_candidate_cpu() - c_start > cpu_ms or self.tester_cpu() - t_start > cpu_ms:
                    return "tle", None
                return ("report", rep) if type(rep) is dict and rep.get("i") == i else ("dead", None)
            now = time.monotonic()
            if job.poll_candidate_cpu() - c_start > cpu_ms or self.tester_cpu() - t_start > cpu_ms:
                return "tle", None
            if now >= deadline:
                return "wall", None
            ready, _, _ = select.select(job.output_fds() + [self.rep_r], [], [], min(TICK_S, deadline - now))
            if job.pump_output(ready):
                return "ole", None
            if self.rep_r in ready:
                chunk = os.read(self.rep_r, 1 << 16)
                if not chunk:
                    return "dead", None
                self.buffer += chunk
                if len(self.buffer) > REPORT_MAX_BYTES:
                    return "dead", None


def _assertion_result(outcome, rep, req):
    """Map one generated test's outcome to {"status", "reason", "signature"}."""
    if outcome == "tle":
        return {"status": "time_limit_exceeded", "reason": f"CPU limit of {req['cpuMs']} ms exceeded"}
    if outcome == "wall":
        return {"status": "time_limit_exceeded", "reason": f"wall-clock limit of {req['wallMs']} ms exceeded"}
    if outcome == "ole":
        return {"status": "output_limit_exceeded", "reason": f"output exceeded {req['outputBytes']} bytes"}
    if outcome == "dead":
        return {"status": "runtime_error", "reason": "the tester ended without a report; the candidate may have killed it"}
    signature = rep.get("signature") if type(rep.get("signature")) is str else ""
    err = rep.get("error")
    if rep.get("ok") is True and err is None:
        return {"status": "passed", "signature": signature}
    if type(err) is not dict:
        return {"status": "no_tests", "reason": "the test executed no assertion", "signature": signature}
    kind, etype = err.get("kind"), err.get("type") or ""
    status = {"assertion": "wrong_answer", "opaque": "wrong_answer", "test_exception": "wrong_answer",
              "test_invalid": "wrong_answer", "candidate_memory": "memory_limit_exceeded"}.get(kind, "runtime_error")
    if etype == "MemoryError":
        status = "memory_limit_exceeded"
    return {"status": status, "reason": _cut(f"{kind} {etype}: {err.get('message') or ''}"), "signature": signature}


def run_assertions(z, req):
    """Generated tests (CodeT): each assertion of `req["assertions"]` judged on its own, under its own CPU and
    wall limits, against one loaded candidate; a limit, crash or protocol breach replaces T and C before the next
    assertion. A program that does not load fails every assertion with the load error."""
    job = Job(z, req)
    pair = None
    results = []
    try:
        n = len(req["assertions"])
        for i in range(n):
            if pair is None:
                pair = _TesterPair(job, req, n - i)
            outcome, rep = pair.run(i, req["cpuMs"], req["wallMs"])
            result = _assertion_result(outcome, rep, req)
            err = rep.get("error") if outcome == "report" else None
            kind = err.get("kind") if type(err) is dict else None
            if pair.oom_hit and result["status"] not in ("time_limit_exceeded", "output_limit_exceeded"):
                # A memory limit killed a process of C's or T's tree during this test, whatever T reported.
                result = {"status": "memory_limit_exceeded",
                          "reason": f"memory limit of {req['memoryKiB']} KiB exceeded (cgroup OOM kill)"}
                kind = "candidate_memory"
            results.append(result)
            if kind == "candidate_load":
                results.extend(dict(result) for _ in range(i + 1, n))
                break
            if outcome == "ole":
                results.extend({"status": "output_limit_exceeded", "reason": result["reason"]} for _ in range(i + 1, n))
                break
            if outcome != "report" or kind in _RESTART_KINDS:
                pair.close()
                pair = None
    finally:
        if pair is not None:
            pair.close()
        job.close()
    out = job.base_response("ok", "")
    out["results"] = results
    return out


# --------------------------------------------------------------------------------------------------- serve

_RUN_FIELDS = {"id": str, "mode": str, "program": str, "entryPoint": str, "cpuMs": int, "wallMs": int,
               "memoryKiB": int, "outputBytes": int}


def validate(req):
    for name, typ in _RUN_FIELDS.items():
        if type(req.get(name)) is not typ:
            raise ValueError(f"field {name!r} must be a {typ.__name__}")
    for name in ("cpuMs", "wallMs", "memoryKiB", "outputBytes"):
        if req[name] <= 0:
            raise ValueError(f"field {name!r} must be positive")
    if req["mode"] == "unit_test":
        if type(req.get("test")) is not str:
            raise ValueError("field 'test' must be a str")
        if type(req.get("prelude", "")) is not str:
            raise ValueError("field 'prelude' must be a str")
    elif req["mode"] == "assertions":
        if type(req.get("assertions")) is not list or not all(type(a) is str for a in req["assertions"]):
            raise ValueError("field 'assertions' must be a list of str")
        if type(req.get("prelude", "")) is not str:
            raise ValueError("field 'prelude' must be a str")
    elif req["mode"] == "call":
        if type(req.get("inputs")) is not list or not all(type(a) is list for a in req["inputs"]):
            raise ValueError("field 'inputs' must be a list of argument lists")
        for args in req["inputs"]:
            for a in args:
                pyvalue.decode(a, allow_opaque=False)
    else:
        raise ValueError("mode must be 'unit_test', 'call' or 'assertions'")


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
            return {"id": req_id, "status": "internal_error", "reason": _cut(f"bad request: {e}")}
        try:
            if req["mode"] == "unit_test":
                return run_unit_test(self, req)
            if req["mode"] == "assertions":
                return run_assertions(self, req)
            return run_call(self, req)
        except BaseException as e:
            try:
                self.sweep()
            except BaseException:
                pass
            return {"id": req_id, "status": "internal_error",
                    "reason": _cut(f"harness failure: {type(e).__name__}: {e}")}


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
