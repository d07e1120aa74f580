# A judged function that leaves traces for the next candidate of the same harness box: files in /box, /tmp and
# /dev/shm (and a try at /dev), a SysV shared-memory segment, a 3000-level directory tree of 50-character names
# in /tmp, a mode-000 directory in /box, and a sleeping orphan. Answers what it managed.
import ctypes
import os
import subprocess


def f():
    done = []
    for path in ("/box/trace", "/tmp/trace", "/dev/shm/trace", "/dev/trace"):
        try:
            with open(path, "w") as out:
                out.write("secret of the previous candidate")
            done.append(path)
        except OSError:
            pass
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.shmget(0x5EED, 4096, 0o1666) >= 0:
        done.append("shm")
    here = os.getcwd()
    os.chdir("/tmp")
    for i in range(3000):
        name = f"{i:05d}" + "t" * 45
        os.mkdir(name)
        os.chdir(name)
    os.chdir(here)
    os.mkdir("/box/locked")
    os.chmod("/box/locked", 0)
    subprocess.Popen(["/bin/sleep", "60"], start_new_session=True)
    return " ".join(done)
