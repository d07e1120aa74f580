"""The judging modes of the harness, one module each; the lifecycle (../zygote.py) dispatches a request
`{"op": "run", "mode": NAME, ...}` to the module registered under NAME.

A mode module has:
  NAME            the request's `mode` (as in src/judge/harness/protocol.ts, `HarnessJob`)
  validate(req)   checks the fields only this mode reads (the lifecycle checked the common ones first);
                  raises ValueError (or pyvalue.DecodeError) for a bad request
  run(z, req)     judges one request on the zygote `z` (its spawner, sub-groups, warm tester, sweep) and
                  returns the response dict; builds its work on a job.Job, which it always closes
Adding a mode: its module here, its entry in MODES, and the job's shape in the host's protocol.
"""
from . import assertions, call, script, unit_test

MODES = {mode.NAME: mode for mode in (unit_test, script, call, assertions)}


def get(name):
    """The mode module registered under `name`. Raises ValueError naming the known modes."""
    mode = MODES.get(name)
    if mode is None:
        names = [repr(n) for n in MODES]
        raise ValueError(f"mode must be {', '.join(names[:-1])} or {names[-1]}")
    return mode
