# A judged function that tries the system calls the seccomp filter denies (through ctypes, harmless arguments)
# and answers what the kernel said for each, then checks fork and threads still work.
import ctypes
import errno
import os
import threading

NUMBERS = {"add_key": 248, "keyctl": 250, "request_key": 249, "io_uring_setup": 425, "userfaultfd": 323,
           "bpf": 321, "perf_event_open": 298, "ptrace": 101, "mount": 165, "setns": 308,
           "unshare_user": 272, "clone3": 435, "kexec_load": 246, "init_module": 175}


def f():
    libc = ctypes.CDLL(None, use_errno=True)
    buf = ctypes.create_string_buffer(128)
    answers = []
    for name, nr in NUMBERS.items():
        if name == "unshare_user":
            rc = libc.syscall(nr, 0x10000000)
        elif name in ("add_key", "request_key"):
            rc = libc.syscall(nr, b"user", b"crucible", b"x", 1, -4)
        else:
            rc = libc.syscall(nr, 0, buf, 0, 0, 0)
        answers.append(f"{name} {'ok' if rc >= 0 else errno.errorcode[ctypes.get_errno()]}")
    pid = os.fork()
    if pid == 0:
        os._exit(3)
    answers.append(f"fork {os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])}")
    box = []
    thread = threading.Thread(target=lambda: box.append("thread"))
    thread.start()
    thread.join()
    answers.extend(box)
    return "\n".join(answers)
