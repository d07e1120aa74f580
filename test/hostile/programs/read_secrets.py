# Try to read host secrets and the project's own files; the project root comes on stdin.
import os, sys
root = sys.stdin.readline().strip()
for path in ["/etc/shadow", "/etc/passwd", "/root/.bashrc", "/root", os.path.join(root, "package.json"),
             os.path.join(root, "src"), "/home", "/work", "/proc/1/environ", "/sys/fs/cgroup"]:
    try:
        if os.path.isdir(path):
            print("listed", path, len(os.listdir(path)))
        else:
            with open(path) as f:
                f.read(100)
            print("read", path)
    except OSError:
        print("denied", path)
