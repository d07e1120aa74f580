"""Session agent: pid 1 of one session's long-lived box (src/sessions/box.ts). Trusted; holds the box's link to
the host (stdin/stdout) and never runs a line of model code.

Theory of operation:
- Start-up: refuse unless pid 1 (as init of the box's pid namespace no signal from inside can kill or stop us);
  take the "session" sub-cgroup's descriptors (made and limited by Crucible outside the box); drop every
  capability, set no_new_privs and become non-dumpable (so nothing in the box can ptrace us or open
  /proc/1/fd/*, i.e. the host link). The seccomp filter was installed on us by bubblewrap and is inherited by
  everything the box runs.
- The REPL (the environment's process: a Python interpreter, a shell, a SQLite connection) is a child that
  joins the sub-cgroup before it execs, so every process of model code is counted and bounded there
  (memory.limit, pids.max; CPU read by Crucible from outside). Its stdout and stderr are pipes to us; it reads
  one step on fd 3 (8-byte length + UTF-8) and reports the step's end on fd 4 (one JSON line).
- Commands arrive on stdin as JSON lines; we answer each with one JSON line on stdout:
    {"op": "step", "code": str, "outputBytes": int} -> {"op": "result", "stdout", "stderr", "exitCode",
        "ended": "done" | "died" | "output", "signal", "restarted", "extra"}
    {"op": "ping"} -> {"op": "pong"}
  "died": the REPL ended (killed from outside for a limit, or it exited): we kill every other process of the
  box and start a fresh REPL ("restarted": true, its state is lost). "output": the step wrote more than
  outputBytes to a stream; we killed everything and restarted the same way.
- Crucible enforces CPU and wall limits per step from outside (it SIGKILLs the sub-cgroup's tasks); we only
  notice the REPL is gone. Stdin EOF ends the agent, and with it (pid 1) the whole box.
"""
import json
import os
import select
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from crucible_harness import confine  # noqa: E402

PYTHON = "/usr/bin/python3.11"
HERE = os.path.dirname(os.path.abspath(__file__))
BASH_LOOP = (
    "__crucible_step_loop() { local __s; printf '{\"ready\": true}\\n' >&4; while IFS= read -r -d '' __s <&3; do eval \"$__s\" </dev/null;"
    " printf '{\"exitCode\": %d}\\n' \"$?\" >&4; done; }; cd /box; __crucible_step_loop"
)


def repl_argv(kind):
    if kind == "bash":
        return ["/usr/bin/bash", "--norc", "--noprofile", "-c", BASH_LOOP]
    if kind in ("python", "sqlite"):
        return [PYTHON, "-s", "-P", "-B", os.path.join(HERE, "repl.py"), kind]
    raise SystemExit(f"unknown environment {kind!r}")


def place_fds(wanted):
    """Make the fd table exactly {0: /dev/null} plus `wanted` (target -> current fd), all inherited by exec."""
    moved = {target: os.dup(src) for target, src in wanted.items()}
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    for target, src in moved.items():
        os.dup2(src, target, inheritable=True)
    os.closerange(max(wanted) + 1, 65536)


class Repl:
    def __init__(self, kind, group):
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        code_r, code_w = os.pipe()
        res_r, res_w = os.pipe()
        go_r, go_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(go_w)
                os.read(go_r, 1)  # joined the group: only now may anything untrusted run
                os.setsid()
                place_fds({1: out_w, 2: err_w, 3: code_r, 4: res_w})
                os.chdir("/box")
                os.execve(repl_argv(kind)[0], repl_argv(kind), os.environ)
            finally:
                os._exit(127)
        for fd in (out_w, err_w, code_r, res_w, go_r):
            os.close(fd)
        if group is not None:
            group.join(pid)
        os.write(go_w, b"1")
        os.close(go_w)
        self.pid = pid
        self.out, self.err, self.code, self.res = out_r, err_r, code_w, res_r
        self.ready = wait_ready(res_r, pid)
        for fd in (out_r, err_r, res_r):
            os.set_blocking(fd, False)

    def close(self):
        for fd in (self.out, self.err, self.code, self.res):
            try:
                os.close(fd)
            except OSError:
                pass


def wait_ready(res_fd, pid, timeout_s=30.0):
    """Wait for the REPL's ready line, so that its start-up is not counted in the first step. False when it
    ended or stayed silent (the next step then reports it)."""
    ready, _, _ = select.select([res_fd], [], [], timeout_s)
    if not ready:
        return False
    try:
        line = os.read(res_fd, 4096)
    except OSError:
        return False
    return line.startswith(b'{"ready"')


def read_available(fd, limit):
    chunks = []
    while True:
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            break
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
        if sum(len(c) for c in chunks) > limit:
            break
    return b"".join(chunks)


def sweep():
    """Kill every process of the box but us and reap them (fork bombs included)."""
    confine.sweep_processes({1})


def frame(kind, code):
    """The step as the REPL reads it: NUL-terminated for the shell (`read -d ''`; a NUL cannot be in a shell
    word anyway), else an 8-byte little-endian length and the UTF-8 text."""
    data = code.encode("utf-8", "surrogatepass")
    if kind == "bash":
        return data.replace(b"\0", b"") + b"\0"
    return len(data).to_bytes(8, "little") + data


def run_step(repl, kind, code, cap):
    # Whatever the previous step's processes wrote after it ended (they are dead now) is not this step's.
    for fd in (repl.out, repl.err, repl.res):
        while read_available(fd, 1 << 20):
            pass
    try:
        view = memoryview(frame(kind, code))
        while view:
            n = os.write(repl.code, view)
            view = view[n:]
    except OSError:
        pass  # the REPL is gone; noticed below
    out, err, res = bytearray(), bytearray(), bytearray()
    ended = None
    status = None
    while ended is None:
        try:
            ready, _, _ = select.select([repl.out, repl.err, repl.res], [], [], 0.05)
        except InterruptedError:
            ready = []
        for fd in ready:
            if fd == repl.res:
                res += read_available(fd, 1 << 20)
                if b"\n" in res:
                    ended = "done"
            else:
                target = out if fd == repl.out else err
                target += read_available(fd, cap + 1)
                if len(target) > cap:
                    ended = "output"
        if ended is None:
            # As pid 1 we inherit every orphan: reap them all, and notice when the REPL itself ended.
            for pid, st in confine.reap_children().items():
                if pid == repl.pid:
                    status = st
                    ended = "died"
    # What the REPL wrote before it reported is already in the pipes.
    out += read_available(repl.out, cap + 1 - len(out)) if len(out) <= cap else b""
    err += read_available(repl.err, cap + 1 - len(err)) if len(err) <= cap else b""
    if ended == "done" and (len(out) > cap or len(err) > cap):
        ended = "output"
    reply = {"op": "result", "ended": ended, "exitCode": None, "signal": None, "restarted": False, "extra": None}
    if ended == "done":
        # Processes the step left running do not outlive it (they would burn CPU no step is charged for, and
        # write into later steps' output): everything but us and the REPL goes.
        leftovers = [pid for pid in confine.other_pids({1, repl.pid}) if (confine.read_stat(pid) or ("Z",))[0] not in ("Z", "X")]
        if leftovers:
            confine.sweep_processes({1, repl.pid})
            reply["killedProcesses"] = len(leftovers)
        try:
            report = json.loads(res.split(b"\n", 1)[0])
            reply["exitCode"] = int(report.get("exitCode", 0))
            reply["extra"] = report.get("extra")
        except (ValueError, AttributeError, TypeError):
            reply["exitCode"] = None
    else:
        if ended == "died" and status is not None:
            if os.WIFSIGNALED(status):
                reply["signal"] = signal.Signals(os.WTERMSIG(status)).name
            else:
                reply["exitCode"] = os.WEXITSTATUS(status)
        sweep()
        if ended == "output":
            # the REPL was among those killed: its status is not the step's
            pass
        reply["restarted"] = True
    reply["stdout"] = bytes(out[:cap]).decode("utf-8", "replace")
    reply["stderr"] = bytes(err[:cap]).decode("utf-8", "replace")
    reply["stdoutTruncated"] = len(out) > cap
    reply["stderrTruncated"] = len(err) > cap
    return reply


def main():
    if os.getpid() != 1:
        print(json.dumps({"op": "fatal", "reason": "the session agent must be pid 1 of its box"}), flush=True)
        sys.exit(2)
    kind = sys.argv[1]
    groups = confine.subgroups_from_env()
    group = groups.get("session")
    confine.drop_capabilities()
    confine.set_nondumpable()
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGPIPE", "SIGUSR1", "SIGUSR2"):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    os.environ.pop("CRUCIBLE_SUBGROUPS", None)
    os.environ["HOME"] = "/box"
    link_in = sys.stdin.buffer
    link_out = sys.stdout.buffer
    # Nothing else may inherit the host link.
    null = os.open(os.devnull, os.O_RDWR)
    link_in_fd, link_out_fd = os.dup(0), os.dup(1)
    os.set_inheritable(link_in_fd, False)
    os.set_inheritable(link_out_fd, False)
    os.dup2(null, 0)
    os.dup2(null, 1)
    link_in = os.fdopen(link_in_fd, "rb", 0)
    link_out = os.fdopen(link_out_fd, "wb", 0)
    repl = Repl(kind, group)

    def send(obj):
        link_out.write((json.dumps(obj) + "\n").encode())

    send({"op": "ready", "pid": repl.pid})
    while True:
        line = link_in.readline()
        if not line:
            return
        try:
            cmd = json.loads(line)
        except ValueError:
            send({"op": "error", "reason": "not JSON"})
            continue
        op = cmd.get("op")
        if op == "ping":
            send({"op": "pong"})
        elif op == "step":
            started = time.monotonic()
            reply = run_step(repl, kind, str(cmd.get("code", "")), int(cmd.get("outputBytes", 65536)))
            if reply["restarted"]:
                repl.close()
                repl = Repl(kind, group)
            reply["agentMs"] = round((time.monotonic() - started) * 1000, 3)
            send(reply)
        else:
            send({"op": "error", "reason": f"unknown op {op!r}"})


if __name__ == "__main__":
    main()
