# Try to write outside the work directory; writing inside /box and /tmp must work.
import os
for path in ["/usr/crucible-escape", "/etc/crucible-escape", "/crucible-escape", "/box/../crucible-escape",
             "/crucible/harness/crucible-escape", "/proc/sys/kernel/hostname"]:
    try:
        with open(path, "w") as f:
            f.write("x")
        print("wrote", path)
    except OSError:
        print("denied", path)
for path in ["/box/inside.txt", "/tmp/inside.txt"]:
    with open(path, "w") as f:
        f.write("ok")
    print("wrote", path)
