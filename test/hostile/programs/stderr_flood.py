# Print 200 MB to stderr.
import sys
block = "e" * (1 << 20)
for _ in range(200):
    sys.stderr.write(block)
