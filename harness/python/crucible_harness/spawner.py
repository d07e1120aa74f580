"""The spawner S: a clean process that forks every candidate process C.

S is started by exec (not fork) from the zygote, so its memory never contains a request: no test code, no
expected value and no other sample's program can be scraped from a C's inherited heap. The zygote hands it
the fds of one job over a SOCK_SEQPACKET control socket (fd 3); S forks C, reports C's pid, waits for C and
reports its exit status and rusage. When the box has a candidate sub-cgroup, S gets its cgroup.procs
descriptors (`--join MEMORY,PIDS,CPUACCT`) and joins the group itself, once, after start-up: every C is then born
in it (no instruction of a program ever runs outside it) and no job pays for a migration (moving a task between
cgroups waits for an RCU grace period: ~0.5 ms idle, ~6 ms on a loaded host, per job). S's own pages stay
charged where they were; its CPU while in the group (forking C, the reports) is the zygote's to subtract, which
it reads from /proc/<S>/schedstat; each C raises its oom_score_adj so that the group's OOM kills take C's tree,
never S. If S cannot join, it starts no C and reports why (Crucible's failure, never the program's).

  S -> zygote: {"ready": true} once, after start-up (and the join)
  zygote -> S: {"memoryKiB", "cpuSec", "dir"} + fds [channel, stdout_w, stderr_w]
  S -> zygote: {"pid": n} (or {"pid": 0, "joinError": text}), later {"pid": n, "status": wait_status,
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
    # Checked here once, not in every C: a forked process's credentials are a copy of its parent's (capability
    # sets, bounding set, no_new_privs), and S never regains any (it execs nothing, and no_new_privs with an
    # empty bounding set leaves nothing an exec could grant).
    confine.ensure_no_capabilities()
    confine.ignore_signals()
    ctl = socket.socket(fileno=CONTROL_FD)
    join_error = None
    for fd in join_fds:
        try:
            os.write(fd, b"0")
        except OSError as e:
            join_error = f"the spawner cannot join the candidate cgroup: {e}"
        os.close(fd)
    # Start-up is over: from here on, S's CPU in the group is only the judge's work per job, which Z subtracts.
    ctl.send(json.dumps({"ready": True}).encode())
    while True:
        try:
            msg, fds, _flags, _addr = socket.recv_fds(ctl, 65536, 3)
        except OSError:
            return
        if not msg:
            return
        params = json.loads(msg)
        if join_error is not None:
            for fd in fds:
                os.close(fd)
            ctl.send(json.dumps({"pid": 0, "joinError": join_error}).encode())
            continue
        pid = os.fork()
        if pid == 0:
            try:
                ctl.close()
                if join_fds:
                    confine.prefer_for_oom_kill()   # the group's OOM kills take C's tree, never S
            except BaseException:
                os._exit(0)
            candidate.run(fds, params)
        for fd in fds:
            os.close(fd)
        ctl.send(json.dumps({"pid": pid}).encode())
        _, status, ru = os.wait4(pid, 0)
        ctl.send(json.dumps({
            "pid": pid,
            "status": status,
            "cpuMs": int((ru.ru_utime + ru.ru_stime) * 1000),
            "maxrssKiB": ru.ru_maxrss,
        }).encode())
