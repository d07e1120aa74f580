# Session step (python): write `n_bytes` (set by the test) of control bytes to stdout, the worst case for JSON
# escaping (each byte becomes six characters). The server keeps a step's output at its own size.
import os

chunk = bytes(range(1, 32)) * 2048
left = n_bytes
while left > 0:
    part = chunk[:left]
    os.write(1, part)
    left -= len(part)
