"""script mode (MBPP): `program` (the program, then the problem's setup) judged by its assert lines, `asserts`.

The lifecycle is unit_test's (one C per job through S, the warm T of this problem, T's report as the only pass
signal, the same limits and verdicts), but T judges the job with tester.ScriptJudgement: each assert line is
parsed and evaluated in T, and C only evaluates the calls into the program, returning their values as data
(split_asserts.py). So the program's process never hosts test code (MBPP's own harness runs the asserts in the
program's namespace, where a thread of the program can rewrite them), and never sees an expected value.
"""
from . import unit_test

NAME = "script"


def validate(req):
    """The fields only this mode reads (the lifecycle checked the common ones). Raises ValueError."""
    if type(req.get("asserts")) is not list or not all(type(a) is str for a in req["asserts"]):
        raise ValueError("field 'asserts' must be a list of str")


def run(z, req):
    """Judge one program; returns the response (status, assertions, calls, testerJob, accounting)."""
    return unit_test.run(z, req)
