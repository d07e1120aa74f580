# Double fork + setsid: leave a grandchild that tries to outlive the verdict, then exit 0 at once.
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.closerange(0, 1024)
        time.sleep(60)
        os._exit(0)
    os._exit(0)
os.wait()
print("parent done")
