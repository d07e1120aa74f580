"""assertions mode (CodeT generated tests): each assertion of `assertions` judged on its own, under its own CPU
and wall limits, against one loaded candidate.

Generated tests are model-written, so T runs untrusted code here too: Z forks T itself (never reusing it),
puts it in the tester sub-group before it may run anything, and sends it one test index at a time; a limit,
crash, memory error or protocol breach replaces both T and C before the next test. A test's pass only ranks
solutions against each other (docs/SECURITY.md, "Generated tests"). Theory of operation: ../zygote.py.
"""
import json
import os
import select
import socket
import time

from .. import confine, tester
from ..job import REPORT_MAX_BYTES, TICK_S, Job
from ..outcome import cut, limit_failure, oom_reason

NAME = "assertions"


def validate(req):
    """The fields only this mode reads (the lifecycle checked the common ones). Raises ValueError."""
    if type(req.get("entryPoint")) is not str:
        raise ValueError("field 'entryPoint' must be a str")
    if type(req.get("assertions")) is not list or not all(type(a) is str for a in req["assertions"]):
        raise ValueError("field 'assertions' must be a list of str")
    if type(req.get("prelude", "")) is not str:
        raise ValueError("field 'prelude' must be a str")


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
        # Both trees' OOM-kill counters (monotone) when the last test ended: the next test's starting count, so
        # they are read once per test, not before and after (None: no test of this pair ran yet).
        self.oom_seen = None
        # C's and T's CPU ms when the last test's report was checked: the next test's starting figures (None:
        # no test of this pair ran yet), so the CPU is read once per test, not at its start and at its report.
        self.cpu_seen = None
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
        Sets `oom_hit` when a memory limit killed a process of C's or T's tree since the previous test of this
        pair ended (or, for its first test, since this one started): nothing of either tree goes uncounted."""
        oom0 = self.ooms() if self.oom_seen is None else self.oom_seen
        try:
            return self._run(i, cpu_ms, wall_ms)
        finally:
            self.oom_seen = self.ooms()
            self.oom_hit = self.oom_seen > oom0

    def _over(self, c_start, t_start, cpu_ms):
        """Whether C's or T's tree used more than `cpu_ms` since the given figures; remembers the figures read."""
        c, t = self.job.poll_candidate_cpu(), self.tester_cpu()
        self.cpu_seen = (c, t)
        return c - c_start > cpu_ms or t - t_start > cpu_ms

    def _run(self, i, cpu_ms, wall_ms):
        job = self.job
        # The test's CPU counts from the previous test's report check (read just before, with nothing but this
        # zygote running between): the first test of a pair reads its own.
        c_start, t_start = self.cpu_seen if self.cpu_seen is not None else (job.poll_candidate_cpu(), self.tester_cpu())
        self.cpu_seen = None   # a test that ends without a report check leaves no figures to start from
        deadline = time.monotonic() + wall_ms / 1000
        try:
            os.write(self.ctl_w, b"%d\n" % i)
        except OSError:
            return "dead", None
        waited = False   # no CPU check before the first wait: nothing ran yet, and every outcome checks after it
        while True:
            if b"\n" in self.buffer:
                line, _, rest = bytes(self.buffer).partition(b"\n")
                self.buffer = bytearray(rest)
                try:
                    rep = json.loads(line)
                except ValueError:
                    return "dead", None
                # The trees' CPU up to the report counts too (a tick may not have seen its last milliseconds).
                if self._over(c_start, t_start, cpu_ms):
                    return "tle", None
                return ("report", rep) if type(rep) is dict and rep.get("i") == i else ("dead", None)
            now = time.monotonic()
            if waited and self._over(c_start, t_start, cpu_ms):
                return "tle", None
            waited = True
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
    limit = limit_failure(outcome, req, req["cpuMs"])
    if limit is not None:
        return {"status": limit[0], "reason": limit[1]}
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
    return {"status": status, "reason": cut(f"{kind} {etype}: {err.get('message') or ''}"), "signature": signature}


def run(z, req):
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
                result = {"status": "memory_limit_exceeded", "reason": oom_reason(req)}
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
