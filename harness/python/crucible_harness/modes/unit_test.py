"""unit_test mode (HumanEval): `prelude` + `test` judge `program` through `check(entryPoint)`.

Per job Z forks one C (through S) and hands the warm T of this problem (Zygote.warm_tester: forked once per
problem, tester.serve) C's call channel and the program. The only pass signal is T's report on T's control
socket, carrying this job's sequence number; the verdict is built here from that report, C's CPU time (the
candidate sub-group's), an OOM kill in the group, the output caps and the wall clock. C's exit status, stdout
and messages never count towards a pass. Z retires T whenever a job ends without T's clean report, so a late
report of an abandoned job never meets a later one. Theory of operation: ../zygote.py.
"""
import select
import socket
import time

from ..job import TICK_S, Job
from ..outcome import cpu_limit_reason, exit_text, output_limit_reason, signal_name, wall_limit_reason

NAME = "unit_test"


def validate(req):
    """The fields only this mode reads (the lifecycle checked the common ones). Raises ValueError."""
    if type(req.get("entryPoint")) is not str:
        raise ValueError("field 'entryPoint' must be a str")
    if type(req.get("test")) is not str:
        raise ValueError("field 'test' must be a str")
    if type(req.get("prelude", "")) is not str:
        raise ValueError("field 'prelude' must be a str")


def run(z, req):
    """Judge one program; returns the response (status, assertions, calls, testerJob, accounting)."""
    job = Job(z, req)
    try:
        return _judge(job, req)
    finally:
        job.close()


def _judge(job, req):
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
    verdict = _verdict(job, req, limit, report, t_status)
    verdict["testerJob"] = t.jobs   # 1: a fresh tester; n: its n-th job (observability, tests)
    return verdict


def _await_report(job, req, t):
    """Wait for T's report on this job under the job's CPU, wall and output limits.
    Returns (limit, report): limit (status, reason) or None; report a dict, or None when T gave none."""
    deadline = job.t0 + req["wallMs"] / 1000
    while True:
        now = time.monotonic()
        if now >= deadline:
            return ("time_limit_exceeded", wall_limit_reason(req)), None
        ready, _, _ = select.select(job.output_fds() + [t.fd], [], [], min(TICK_S, deadline - now))
        if job.pump_output(ready):
            return ("output_limit_exceeded", output_limit_reason(req)), None
        if t.fd in ready:
            done, report = t.receive()
            if done:
                return None, report
        if job.poll_candidate_cpu() > req["cpuMs"]:
            return ("time_limit_exceeded", cpu_limit_reason(req["cpuMs"])), None


def _verdict(job, req, limit, rep, t_status):
    def respond(status, reason, rep=None):
        out = job.base_response(status, reason)
        out["assertions"] = rep["assertions"] if rep else 0
        out["calls"] = rep["calls"] if rep else 0
        return out

    c_exit = job.c_exit["status"] if job.c_exit else None
    if job.output_exceeded():
        return respond("output_limit_exceeded", output_limit_reason(req))
    if job.oom_killed():
        # First: what follows an OOM kill (a parent waiting forever for a killed child) is its consequence.
        return respond("memory_limit_exceeded", f"memory limit of {req['memoryKiB']} KiB exceeded by the candidate's "
                                                "processes together (cgroup OOM kill)")
    if limit is not None:
        return respond(*limit)
    if job.cpu_ms > req["cpuMs"] or signal_name(c_exit) == "SIGXCPU":
        return respond("time_limit_exceeded", cpu_limit_reason(req["cpuMs"]))
    if rep is None:
        return respond("runtime_error", f"the tester ended without a report ({exit_text(t_status)}); "
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
    if kind == "unsplit":
        # MBPP asserts (script mode) that would need the program's word for the expected value: never a pass.
        return respond("wrong_answer", msg, rep)
    if kind == "opaque":
        return respond("wrong_answer", f"{msg}{where}", rep)
    if kind == "test_exception":
        return respond("wrong_answer", f"the test raised {detail}{where} on the candidate's result", rep)
    if kind == "candidate_memory" or (kind in ("candidate_exception", "candidate_load")
                                      and etype == "MemoryError"):
        return respond("memory_limit_exceeded", detail, rep)
    if kind == "candidate_exception":
        # The test line whose call raised: which input crashed the candidate (a self-debug loop's feedback shows it).
        return respond("runtime_error", f"the candidate raised {detail}{where}", rep)
    if kind == "candidate_load":
        return respond("runtime_error", f"loading the program failed: {msg}", rep)
    if kind == "candidate_crash":
        return respond("runtime_error", f"the candidate process died ({exit_text(c_exit)})", rep)
    if kind == "protocol":
        return respond("runtime_error", f"the candidate broke the call protocol: {msg}", rep)
    return respond("internal_error", f"harness: {kind} {detail}", rep)
