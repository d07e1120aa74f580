"""call mode (EvalPlus): call `entryPoint` of `program` on each argument list of `inputs`; PyValue answers back.

Z plays T's role itself: it loads the program into one C (forked through S) over the call channel, then sends
the calls, up to CALLS_AHEAD ahead of their answers, and takes the answers in order under per-call CPU and wall limits, with C and Z pinned to one
CPU for fast round trips. C's answers are checked for shape (pyvalue.decode) and passed through, never
trusted: the host compares them with the expected outputs. A dead or misbehaving C is replaced before the
next input; `failFast` (default true) stops at the first failed call. Without it, `stopAfterTimeouts` (k, optional)
stops after the k-th call that hit the time limit: the calls after it are not run (the response says so with
`stoppedAfterTimeouts: k`), so a program that never ends costs k per-call limits, not one per input. Theory of
operation: ../zygote.py.
"""
import os
import select
import socket
import time

from .. import confine, frames, pyvalue
from ..job import TICK_S, Job
from ..outcome import cut, limit_failure, oom_reason, signal_name

NAME = "call"
# Calls sent to C ahead of their answers (and at most this many bytes of them): see _Candidate.calls.
CALLS_AHEAD = 64
AHEAD_BYTES = 1 << 16


def validate(req):
    """The fields only this mode reads (the lifecycle checked the common ones). Raises ValueError or
    pyvalue.DecodeError (an argument that is not plain data)."""
    if type(req.get("entryPoint")) is not str:
        raise ValueError("field 'entryPoint' must be a str")
    if type(req.get("inputs")) is not list or not all(type(a) is list for a in req["inputs"]):
        raise ValueError("field 'inputs' must be a list of argument lists")
    for args in req["inputs"]:
        for a in args:
            pyvalue.decode(a, allow_opaque=False)
    k = req.get("stopAfterTimeouts")
    if k is not None and (type(k) is not int or k < 1):
        raise ValueError("field 'stopAfterTimeouts' must be a positive int")


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


    def calls(self, inputs, start, cpu_ms, wall_ms):
        """Call the entry point on inputs[start:], in order; yield (outcome, payload, cpu_used_ms) per input as
        `exchange` does. Up to CALLS_AHEAD calls (at most AHEAD_BYTES of frames) are sent before their answers
        come back, so C goes from one call to the next without waiting for Z. C answers in order, so input k's
        CPU and wall are what C used between answer k-1 and answer k, checked against the limits on every tick;
        answers that arrive in one read share one CPU reading (the first of them is charged it). Z wakes at least
        every TICK_S, so what a later answer in such a read hides is at most about a tick of C's CPU.
        After a non-reply outcome the generator is done (C must be replaced)."""
        job = self.job
        out = bytearray()
        sent = answered = start
        mark_cpu = job.poll_candidate_cpu()
        deadline = time.monotonic() + wall_ms / 1000
        while answered < len(inputs):
            while sent < len(inputs) and sent - answered < CALLS_AHEAD and len(out) < AHEAD_BYTES:
                out += frames.encode_frame({"call": inputs[sent], "kw": []})
                sent += 1
            now = time.monotonic()
            used = job.poll_candidate_cpu() - mark_cpu
            if used > cpu_ms:
                yield "tle", None, used
                return
            if now >= deadline:
                yield "wall", None, used
                return
            rfds = job.output_fds() + [self.fd]
            ready, writable, _ = select.select(rfds, [self.fd] if out else [], [], min(TICK_S, deadline - now))
            if job.pump_output(ready):
                yield "ole", None, used
                return
            if writable:
                try:
                    del out[:os.write(self.fd, out)]
                except BlockingIOError:
                    pass
                except OSError:
                    yield "dead", None, used
                    return
            if self.fd not in ready:
                continue
            alive = self.reader.feed()
            # Z and C share one CPU: C did not run since this read, so one reading serves every frame it brought.
            cpu = job.poll_candidate_cpu()
            while answered < len(inputs):
                try:
                    raw = self.reader.next_raw()
                except frames.FrameTooLarge:
                    yield "bad", "the answer exceeds the transfer limit", used
                    return
                if raw is None:
                    break
                used = cpu - mark_cpu
                if used > cpu_ms:
                    yield "tle", None, used
                    return
                try:
                    payload = pyvalue.loads(raw.decode("utf-8"))
                except (pyvalue.DecodeError, UnicodeDecodeError):
                    yield "bad", "malformed JSON", used
                    return
                answered += 1
                mark_cpu = cpu
                deadline = time.monotonic() + wall_ms / 1000
                yield "reply", payload, used
            if not alive and answered < len(inputs):
                yield "dead", None, job.poll_candidate_cpu() - mark_cpu
                return


def _failure(job, outcome, payload, req, cpu_ms):
    """Map a non-reply outcome (or an error reply) to (status, reason)."""
    limit = limit_failure(outcome, req, cpu_ms)
    if limit is not None:
        return limit
    if outcome == "bad":
        return "runtime_error", f"the candidate broke the call protocol: {payload}"
    if outcome == "dead" and job.oom_killed():
        return "memory_limit_exceeded", oom_reason(req)
    if outcome == "dead":
        return "runtime_error", "the candidate process died"
    if type(payload) is dict and type(payload.get("error")) is list and len(payload["error"]) == 2 \
            and all(type(x) is str for x in payload["error"]):
        ename, msg = payload["error"]
        status = "memory_limit_exceeded" if ename == "MemoryError" else "runtime_error"
        return status, f"{ename[:100]}: {msg}" if msg else ename[:100]
    return "runtime_error", "the candidate sent an unexpected message"


def run(z, req):
    """Call the entry point on every input; returns the response with one result per input run."""
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
    stop_after_timeouts = req.get("stopAfterTimeouts")
    timeouts = 0
    stopped_after_timeouts = False
    results = []
    cand = None
    load_failure = None

    def finish_dead_candidate(outcome):
        nonlocal cand
        job.end_candidate()
        cand.close()
        cand = None
        sig = signal_name(job.c_exit["status"]) if job.c_exit else None
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
        stop = False
        for outcome, payload, used in cand.calls(inputs, i, cpu_ms, wall_ms):
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
            results.append({"status": status, "reason": cut(reason), "cpuMs": int(used)})
            i += 1
            if status == "time_limit_exceeded":
                timeouts += 1
            if fail_fast or status == "output_limit_exceeded":
                stop = True
            elif stop_after_timeouts is not None and timeouts >= stop_after_timeouts and i < len(inputs):
                stop = stopped_after_timeouts = True
            elif cand is not None and outcome == "bad":
                finish_dead_candidate(outcome)
            if stop or cand is None:
                break
        if stop:
            break
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
        status, reason = "memory_limit_exceeded", oom_reason(req)
    out = job.base_response(status, reason)
    out["results"] = results
    if stopped_after_timeouts:
        out["stoppedAfterTimeouts"] = stop_after_timeouts
    return out
