# A judged function that hands its work to a double-forked, orphaned grandchild: the grandchild burns 1.5 s of
# CPU and passes the answer back through a pipe; the candidate process itself stays almost idle.
import os
import time


def f():
    r, w = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            start = time.process_time()
            while time.process_time() - start < 1.5:
                pass
            os.write(w, b"1")
            os._exit(0)
        os._exit(0)
    os.wait()
    return int(os.read(r, 1))
