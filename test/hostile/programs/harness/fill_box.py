# A judged function that writes 3 GiB to /box in 8 MiB files (RLIMIT_FSIZE bounds one file only) and answers
# how far it got.
import errno


def f():
    written = 0
    chunk = b"d" * (1 << 20)
    try:
        while written < 3 << 30:
            with open(f"/box/big{written >> 23}", "wb") as out:
                for _ in range(8):
                    out.write(chunk)
                    written += len(chunk)
    except OSError as e:
        return f"{errno.errorcode.get(e.errno, e.errno)} after {written >> 20} MiB"
    return f"wrote {written >> 20} MiB"
