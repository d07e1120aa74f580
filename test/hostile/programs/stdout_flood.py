# Print 200 MB to stdout as fast as possible.
import sys
block = "x" * (1 << 20)
for _ in range(200):
    sys.stdout.write(block)
