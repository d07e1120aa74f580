# Write 3 GiB to the work directory as fast as possible, in 8 MiB files (RLIMIT_FSIZE bounds one file only):
# without a quota on the run's writable space this fills the host's disk.
import errno
chunk = b"d" * (1 << 20)
written = 0
try:
    while written < 3 << 30:
        with open(f"/box/big{written >> 23}", "wb") as f:
            for _ in range(8):
                f.write(chunk)
                written += len(chunk)
except OSError as e:
    print(f"{errno.errorcode.get(e.errno, e.errno)} after {written >> 20} MiB", flush=True)
    raise
print(f"wrote {written >> 20} MiB")
