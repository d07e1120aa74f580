"""The spawner S: a clean process that forks every candidate process C.

S is started by exec (not fork) from the zygote, so its memory never contains a request: no test code, no
expected value and no other sample's program can be scraped from a C's inherited heap. The zygote hands it
the fds of one job over a SOCK_SEQPACKET control socket (fd 3); S forks C, reports C's pid, waits for C and
reports its exit status and rusage. When the box has a candidate sub-cgroup, S gets its cgroup.procs
descriptors (`--join MEMORY,PIDS,CPUACCT`). S joins the group's memory controller itself, once, after start-up
(moving a task between memory cgroups is the costly migration, ~0.4 ms; S's own pages stay charged where they
were, so only what C and its tree allocate counts), and puts each new C in the pids and cpuacct controllers
before C may go on: C waits on a pipe until S has written its pid there, so no instruction of a program runs
outside the group, and C raises its own oom_score_adj so that the memory limit never picks S. If a join fails,
C ends without running anything and S reports the failure (Crucible's, never the program's).

  zygote -> S: {"memoryKiB", "cpuSec", "dir"} + fds [channel, stdout_w, stderr_w]
  S -> zygote: {"pid": n} (or {"pid": n, "joinError": text}), later {"pid": n, "status": wait_status,
               "cpuMs": n, "maxrssKiB": n}
"""
import json
import os
import socket

from . import candidate, confine

CONTROL_FD = 3


def main(join_fds=()):
    confine.set_nondumpable()
    confine.drop_capabilities()
    confine.ignore_signals()
    ctl = socket.socket(fileno=CONTROL_FD)
    setup_error = None
    if join_fds:
        memory_fd, join_fds = join_fds[0], tuple(join_fds[1:])
        try:
            os.write(memory_fd, b"0")
        except OSError as e:
            setup_error = f"the spawner cannot join the candidate memory cgroup: {e}"
        os.close(memory_fd)
    while True:
        try:
            msg, fds, _flags, _addr = socket.recv_fds(ctl, 65536, 3)
        except OSError:
            return
        if not msg:
            return
        params = json.loads(msg)
        go_r, go_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                ctl.close()
                os.close(go_w)
                for fd in join_fds:
                    os.close(fd)
                if os.read(go_r, 1) != b"1":
                    os._exit(0)   # not in the sub-group: never run the program
                os.close(go_r)
                if join_fds:
                    confine.prefer_for_oom_kill()   # the group's OOM kills take C's tree, never S
            except BaseException:
                os._exit(0)
            candidate.run(fds, params)
        os.close(go_r)
        join_error = setup_error
        if join_error is None:
            try:
                confine.join_from_parent(join_fds, pid)
            except OSError as e:
                join_error = f"cannot put the candidate in its cgroup: {e}"
        os.write(go_w, b"1" if join_error is None else b"0")
        os.close(go_w)
        for fd in fds:
            os.close(fd)
        report = {"pid": pid}
        if join_error is not None:
            report["joinError"] = join_error
        ctl.send(json.dumps(report).encode())
        _, status, ru = os.wait4(pid, 0)
        ctl.send(json.dumps({
            "pid": pid,
            "status": status,
            "cpuMs": int((ru.ru_utime + ru.ru_stime) * 1000),
            "maxrssKiB": ru.ru_maxrss,
        }).encode())
