"""What every judging mode says about a job's outcome, in the same words: reasons (cut to REASON_CHARS) for the
limits a job can hit, and a candidate's wait status as text. Shared by the modes (modes/) and the job (job.py).
"""
import os
import signal

REASON_CHARS = 300


def cut(s, n=REASON_CHARS):
    """`s`, or its first n-1 characters and an ellipsis: reasons travel in every response line."""
    return s if len(s) <= n else s[: n - 1] + "…"


def signal_name(status):
    """Name of the signal that ended a process (wait status `status`), or None (exited, or unknown)."""
    if status is None:
        return None
    if os.WIFSIGNALED(status):
        try:
            return signal.Signals(os.WTERMSIG(status)).name
        except ValueError:
            return f"signal {os.WTERMSIG(status)}"
    return None


def exit_text(status):
    """A wait status as a reason fragment: "killed by SIGKILL", "exit code 1", "unknown status"."""
    if status is None:
        return "unknown status"
    name = signal_name(status)
    if name:
        return f"killed by {name}"
    return f"exit code {os.WEXITSTATUS(status)}"


def cpu_limit_reason(cpu_ms):
    return f"CPU limit of {cpu_ms} ms exceeded"


def wall_limit_reason(req):
    return f"wall-clock limit of {req['wallMs']} ms exceeded"


def output_limit_reason(req):
    return f"output exceeded {req['outputBytes']} bytes"


def oom_reason(req):
    """A cgroup OOM kill in the candidate's (or a generated test's tester's) tree."""
    return f"memory limit of {req['memoryKiB']} KiB exceeded (cgroup OOM kill)"


def limit_failure(outcome, req, cpu_ms):
    """(status, reason) of one call or generated test that hit a limit: outcome "tle" (CPU over `cpu_ms`),
    "wall" or "ole" (output cap); None for any other outcome."""
    if outcome == "tle":
        return "time_limit_exceeded", cpu_limit_reason(cpu_ms)
    if outcome == "wall":
        return "time_limit_exceeded", wall_limit_reason(req)
    if outcome == "ole":
        return "output_limit_exceeded", output_limit_reason(req)
    return None
