"""The candidate process C: untrusted from the moment it runs `program`.

Forked from the spawner (whose memory never held a test, an expected output or another job's program, and whose
empty capability sets it inherits: spawner.py checks them once at start-up), it
waits until the spawner has put it in the candidate sub-cgroup (when the box has one), confines itself, receives the program over its private call channel (fd 3), executes it in a fresh `{}`
globals dict, exactly as openai/human-eval does (so `__name__` resolves to "builtins" and `__main__` blocks
do not run), then serves calls until the channel closes. Nothing it sends is trusted by anyone.

Channel frames (see frames.py), requests -> answers:
  {"load": program, "entry": name, "names": [name...]}
      -> {"ready": {name: {"f": 1} | {"m": module name} | {"v": PyValue}}} ({"ready": true} without "names")
         | {"error": [type, message]}
  {"call": [PyValue...], "kw": [[k, PyValue]...], "fn"?: name} -> {"v": PyValue} | {"error": [type, message]}

`names` are the free names of the test code that the tester does not define itself; `ready` describes those the
program's globals hold (a callable, a module, or data), so the tester can make them visible to the test as
openai/human-eval's one namespace does: callables as call proxies (`fn`: a call of that global, looked up when
called), modules by name, data as values. Nothing here is trusted: the tester checks every answer.
A script (the `script` mode: MBPP's program + setup, judged by its assert lines in the tester) loads without an
entry point and answers with the names its globals bind, then evaluates expressions the tester sends (calls
into the program, their arguments included; never a comparison or an expected value):
  {"load": program, "entry": null}          -> {"ready": true, "names": [[name, module name | null]...]} | {"error": ...}
  {"eval": expression source}               -> {"v": PyValue} | {"error": [type, message]}
"""
import io
import os
import random
import sys
import types

from . import confine, frames, pyvalue

CHANNEL_FD = 3
MESSAGE_CHARS = 300
# Every candidate starts from the same `random` state (and, through the spawner's PYTHONHASHSEED, the same
# hash seed): a program that uses randomness gets the same verdict on every run.
RANDOM_SEED = 0


def _describe(exc):
    try:
        name = type(exc).__name__
        if type(name) is not str:
            name = "Exception"
    except BaseException:
        name = "Exception"
    try:
        msg = str(exc)
        if type(msg) is not str:
            msg = ""
    except BaseException:
        msg = "<str() failed>"
    return [name[:100], msg[:MESSAGE_CHARS]]


def run(fds, params):
    """Entry point in the freshly forked child of the spawner. Never returns."""
    _exit = os._exit
    try:
        os.setsid()
        confine.arrange_fds({1: fds[1], 2: fds[2], CHANNEL_FD: fds[0]})
        confine.set_limits(params["memoryKiB"], params["cpuSec"])
        confine.pin_to_cpu(params.get("cpu"))
        os.chdir(params["dir"])
        random.seed(RANDOM_SEED)
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", line_buffering=True)
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", line_buffering=True)
        _serve()
    except BaseException:
        pass
    finally:
        _exit(0)


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass


def _describe_names(globals_, names):
    """What the program's globals hold under `names` (module comment); names it does not define are left out."""
    out = {}
    for name in names:
        if name not in globals_:
            continue
        value = globals_[name]
        try:
            if type(value) is types.ModuleType:
                module = value.__name__
                if type(module) is str:
                    out[name] = {"m": module}
            elif callable(value):
                out[name] = {"f": 1}
            else:
                out[name] = {"v": pyvalue.encode(value)}
        except BaseException:
            pass
    return out


# At most this many names of a script's globals are reported (the tester refuses more).
MAX_NAMES = 10_000


def _bound_names(globals_):
    """[name, module name or None] for each name the script's globals bind (a module: its __name__)."""
    out = []
    for name, value in list(globals_.items())[:MAX_NAMES]:
        if type(name) is not str:
            continue
        module = value.__name__ if type(value) is types.ModuleType else None
        out.append([name[:200], module[:200] if type(module) is str else None])
    return out


def _serve():
    write, read = frames.write_frame, frames.read_frame
    first = read(CHANNEL_FD)
    names = first.get("names", []) if type(first) is dict else None
    if (type(first) is not dict or type(first.get("load")) is not str
            or (first.get("entry") is not None and type(first.get("entry")) is not str)
            or type(names) is not list or any(type(n) is not str for n in names)):
        write(CHANNEL_FD, {"error": ["HarnessError", "bad load request"]})
        return
    entry = first["entry"]
    globals_ = {}
    fn = None
    try:
        exec(compile(first["load"], "<candidate>", "exec"), globals_)
        if entry is None:
            reply = {"ready": True, "names": _bound_names(globals_)}
        else:
            if entry not in globals_:
                raise NameError(f"name '{entry}' is not defined")
            fn = globals_[entry]
            reply = {"ready": _describe_names(globals_, names) if "names" in first else True}
    except BaseException as e:
        reply = {"error": _describe(e)}
    _flush()
    write(CHANNEL_FD, reply)
    if "error" in reply:
        return
    while True:
        try:
            req = read(CHANNEL_FD)
        except frames.ChannelClosed:
            return
        try:
            if entry is None:
                code = compile(req["eval"], "<test>", "eval")
            else:
                args = [pyvalue.decode(a, allow_opaque=False) for a in req["call"]]
                kwargs = {k: pyvalue.decode(v, allow_opaque=False) for k, v in req.get("kw", [])}
                target = req.get("fn")
                if target is not None and type(target) is not str:
                    raise ValueError("fn must be a name")
        except BaseException as e:
            write(CHANNEL_FD, {"error": ["HarnessError", f"bad request: {_describe(e)[1]}"]})
            return
        try:
            if entry is None:
                value = eval(code, globals_)
            else:
                if target is None:
                    called = fn
                elif target in globals_:
                    called = globals_[target]
                else:
                    raise NameError(f"name '{target}' is not defined")
                value = called(*args, **kwargs)
            reply = {"v": pyvalue.encode(value)}
        except BaseException as e:
            reply = {"error": _describe(e)}
        _flush()
        write(CHANNEL_FD, reply)
