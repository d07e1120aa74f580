"""Crucible's in-box Python judge harness. Runs as `/usr/bin/python3.11 -s -P -S -B harness.py [--once]`
with PYTHONHASHSEED=0 in an otherwise empty environment.

Modes: default = zygote (NDJSON requests on fd 0, one NDJSON response per request on fd 1);
`--once` = answer one request and exit; `--spawner [--join FDS]` = internal (the clean process that forks
candidates; FDS are the candidate sub-cgroup's cgroup.procs descriptors each candidate joins).
Theory of operation: crucible_harness/zygote.py. Standard library only.
"""
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from crucible_harness import confine, spawner, zygote  # noqa: E402  (after the path insertion, by design)


def _main(argv):
    if "--spawner" in argv:
        sys.set_int_max_str_digits(0)
        zygote.preload()
        confine.release_free_heap()
        join = argv[argv.index("--join") + 1] if "--join" in argv else ""
        spawner.main(tuple(int(fd) for fd in join.split(",") if fd))
        return 0
    return zygote.main(os.path.abspath(__file__), once="--once" in argv)


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
