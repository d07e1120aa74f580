# A judged function that splits its memory over two children, 700 MB each (each under a 1 GiB per-process limit,
# 1.4 GB together), and answers once both hold their memory.
import os


def f():
    children = []
    for _ in range(2):
        ready_r, ready_w = os.pipe()
        done_r, done_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            block = bytearray(700 * 1024 * 1024)
            for i in range(0, len(block), 4096):
                block[i] = 1
            os.write(ready_w, b"x")
            os.read(done_r, 1)  # hold the memory until the parent is done
            os._exit(0)
        if os.read(ready_r, 1) != b"x":
            return 0  # the child died before it held its memory
        children.append((pid, done_w))
    for pid, done_w in children:
        os.write(done_w, b"x")
        os.waitpid(pid, 0)
    return 1
