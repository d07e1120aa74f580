"""The spawner S: a clean process that forks every candidate process C.

S is started by exec (not fork) from the zygote, so its memory never contains a request: no test code, no
expected value and no other sample's program can be scraped from a C's inherited heap. The zygote hands it
the fds of one job over a SOCK_SEQPACKET control socket (fd 3); S forks C, reports C's pid, waits for C and
reports its exit status and rusage.

  zygote -> S: {"memoryKiB", "cpuSec", "dir"} + fds [channel, stdout_w, stderr_w]
  S -> zygote: {"pid": n}, later {"pid": n, "status": wait_status, "cpuMs": n, "maxrssKiB": n}
"""
import json
import os
import socket

from . import candidate, confine

CONTROL_FD = 3


def main():
    confine.set_nondumpable()
    confine.drop_capabilities()
    confine.ignore_signals()
    ctl = socket.socket(fileno=CONTROL_FD)
    while True:
        try:
            msg, fds, _flags, _addr = socket.recv_fds(ctl, 65536, 3)
        except OSError:
            return
        if not msg:
            return
        params = json.loads(msg)
        pid = os.fork()
        if pid == 0:
            try:
                ctl.close()
            finally:
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
