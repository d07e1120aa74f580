# Session step (python): close stdout, stderr and the report socket, then sleep (the step ends at its wall
# limit). Pipes at EOF must not make the agent spin: it waits in poll() on the descriptors still open.
import os
import time

os.close(1)
os.close(2)
os.close(4)
time.sleep(3600)
