"""One request's resources inside Z: C's output pipes (drained, capped), C's lifecycle through the spawner,
and the kernel's accounting of C's tree (the candidate sub-group's CPU and OOM-kill counters, or /proc of C
without sub-groups). Every judging mode (modes/) builds its job on a `Job` and always `close()`s it, which
sweeps every process of the box but Z, S and the warm T and empties the scratch directories and SysV IPC.
Theory of operation: zygote.py.
"""
import os
import time

from . import confine
from .outcome import cut

# Z's polling tick while it waits on a job (CPU limit checks between reports).
TICK_S = 0.01
# The most Z reads of one report of a tester (unit_test's warm T, assertions' T).
REPORT_MAX_BYTES = 1 << 20
JOB_DIR = "/tmp/crucible-job"
SCRATCH_DIRS = ("/box", "/tmp", "/dev/shm")


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
        # S's /proc/<pid>/schedstat, kept open for the job and re-read at offset 0 (S's CPU is read after every
        # generated test): bound to that process, so once it is gone a read fails rather than reading whoever
        # got its pid.
        self.spawner_stat = confine.open_schedstat(self.spawner_pid) if self.group else None
        self.spawner_cpu0 = confine.schedstat_ns_at(self.spawner_stat)
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
            now = confine.schedstat_ns_at(self.spawner_stat) if spawner == self.spawner_pid else None
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
            if self.spawner_stat is not None:
                os.close(self.spawner_stat)
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
            "reason": cut(reason or ""),
            "stdout": self.stdout.text(),
            "stderr": self.stderr.text(),
            "stdoutTruncated": self.stdout.exceeded,
            "stderrTruncated": self.stderr.exceeded,
        }

