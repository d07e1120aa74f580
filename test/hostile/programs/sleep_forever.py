# Use no CPU at all: only the wall-clock bound can stop it.
import time
time.sleep(10**6)
