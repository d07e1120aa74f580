# A judged function that looks for what an earlier candidate of the same harness box may have left.
import ctypes
import os


def f():
    found = []
    for path in ("/box/trace", "/tmp/trace", "/dev/shm/trace", "/dev/trace", "/box/locked"):
        if os.path.lexists(path):
            found.append(path)
    for top in ("/box", "/tmp", "/dev/shm"):
        for name in os.listdir(top):
            if name != "crucible-job":
                found.append(f"{top}/{name}")
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.shmget(0x5EED, 0, 0) >= 0:
        found.append("shm")
    others = [p for p in os.listdir("/proc") if p.isdigit()]
    return f"found {found}; {len(others)} processes visible"
