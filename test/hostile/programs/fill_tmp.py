# Fill /tmp with files until something stops us.
import os
i = 0
block = b"t" * (8 * 1024 * 1024)
while True:
    with open(f"/tmp/fill{i}", "wb") as f:
        f.write(block)
    i += 1
