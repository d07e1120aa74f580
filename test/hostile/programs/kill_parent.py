# Try to kill the parent, pid 1 of the box, and every other process in sight, then report survival.
import os, signal
for pid in {os.getppid(), 1}:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
for name in os.listdir("/proc"):
    if name.isdigit() and int(name) != os.getpid():
        try:
            os.kill(int(name), signal.SIGKILL)
        except OSError:
            pass
print("still here")
