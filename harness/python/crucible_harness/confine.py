"""Small confinement steps used by the harness processes, each failing loudly or being explicitly best-effort,
plus the kernel's accounting of a job (the box's sub-cgroups, or /proc without them), the end-of-job sweep and
the clean-up of what a candidate may leave in the box (files, SysV IPC objects)."""
import ctypes
import json
import os
import resource
import select
import signal
import stat
import time

PR_SET_DUMPABLE = 4
PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
_LINUX_CAPABILITY_VERSION_3 = 0x20080522

_libc = ctypes.CDLL(None, use_errno=True)
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024
_devnull_path = os.devnull


class ConfinementError(Exception):
    pass


# ----- sub-cgroups (made, limited and read from outside the box by Crucible: src/sandbox/subgroups.ts) -----

SUBGROUPS_ENV = "CRUCIBLE_SUBGROUPS"


class Subgroup:
    """One cgroup (memory, pids, cpuacct) for an untrusted part of the box's tree. Crucible, outside the box, made
    it, sets its limits and handed us descriptors: cgroup.procs of each controller, write-only (writing a pid
    moves that task there, and everything it forks stays), and the three directories, read-only (usage, OOM
    kills, peak). The kernel counts every process that ever joined, orphans and double forks included."""

    def __init__(self, spec):
        self.procs = [int(fd) for fd in spec["procs"]]   # memory, pids, cpuacct
        self.memory, self.pids_dir, self.cpuacct = int(spec["memory"]), int(spec["pids"]), int(spec["cpuacct"])
        for fd in self.procs + [self.memory, self.pids_dir, self.cpuacct]:
            os.set_inheritable(fd, False)
        # Counter files kept open and re-read from offset 0 (a cgroup file regenerates its text on a read at
        # offset 0): Z reads the CPU and OOM counters after every generated test, and an open and a close per
        # read were two of its three system calls there. Close-on-exec, and every process Z forks closes them
        # (arrange_fds), like the directory descriptors they come from.
        self._open = {}

    def join(self, pid):
        """Move `pid` (a child that waits for our go-ahead before it runs anything untrusted) into the group.
        Raises OSError on failure."""
        join_from_parent(self.procs, pid)

    def _read(self, dir_fd, name):
        fd = self._open.get(name)
        if fd is None:
            fd = os.open(name, os.O_RDONLY | os.O_CLOEXEC, dir_fd=dir_fd)
            self._open[name] = fd
        return os.pread(fd, 1 << 16, 0)

    def cpu_ns(self):
        return int(self._read(self.cpuacct, "cpuacct.usage"))

    def oom_kills(self):
        for line in self._read(self.memory, "memory.oom_control").split(b"\n"):
            if line.startswith(b"oom_kill "):
                return int(line.split()[1])
        return 0

    def peak_kib(self):
        return int(self._read(self.memory, "memory.max_usage_in_bytes")) // 1024



PR_SET_DUMPABLE_ON = 1


def prefer_for_oom_kill():
    """Raise our oom_score_adj to 1000 (always allowed), so that an OOM kill in a cgroup we share with the spawner
    takes us and what we fork, never it. /proc/self files of a non-dumpable process belong to root: the flag is
    lifted for the write and set again."""
    if _libc.prctl(PR_SET_DUMPABLE, PR_SET_DUMPABLE_ON, 0, 0, 0) != 0:
        raise ConfinementError(f"prctl(PR_SET_DUMPABLE) failed: errno {ctypes.get_errno()}")
    try:
        # os.open/os.write, not open(): no buffered text stack built (and faulted in) on a candidate's start.
        fd = os.open("/proc/self/oom_score_adj", os.O_WRONLY | os.O_CLOEXEC)
        try:
            os.write(fd, b"1000")
        finally:
            os.close(fd)
    finally:
        set_nondumpable()


def join_from_parent(procs_fds, pid):
    """Write `pid` to every cgroup.procs descriptor of `procs_fds` (the kernel lets a process move a task of its
    own uid through a descriptor opened by root)."""
    text = str(pid).encode()
    for fd in procs_fds:
        os.write(fd, text)


def subgroups_from_env():
    """The sub-groups Crucible gave this box ({name: Subgroup}), removed from the environment so that no child
    sees it. Empty without them (a host without cgroups, or a box started by hand)."""
    spec = os.environ.pop(SUBGROUPS_ENV, None)
    if not spec:
        return {}
    return {name: Subgroup(desc) for name, desc in json.loads(spec).items()}


def release_free_heap():
    """Give the C heap's free memory back to the kernel (glibc malloc_trim(0)): called once by the spawner after
    start-up, whose imports leave ~0.9 MB of freed heap resident; every page still mapped is a page table entry
    each fork copies and write-protects. Best effort (other C libraries lack the call)."""
    try:
        _libc.malloc_trim(0)
    except AttributeError:
        pass


def set_nondumpable():
    """PR_SET_DUMPABLE 0: processes without CAP_SYS_PTRACE can no longer ptrace us or open /proc/<pid>/mem,
    /fd/*, /environ. Must hold, so it raises."""
    if _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        raise ConfinementError(f"prctl(PR_SET_DUMPABLE) failed: errno {ctypes.get_errno()}")


def drop_capabilities():
    """Drop every capability (bounding, ambient, effective, permitted, inheritable) and set no_new_privs.
    A box entered as root keeps a full capability set otherwise, and CAP_SYS_PTRACE would defeat the
    non-dumpable flag. Bounding-set drops need CAP_SETPCAP and are skipped when already gone."""
    _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    _libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    for cap in range(64):
        _libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()
    if _libc.capset(header, data) != 0:
        raise ConfinementError(f"capset failed: errno {ctypes.get_errno()}")
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("CapEff:") and int(line.split()[1], 16) != 0:
                raise ConfinementError("capabilities still effective after capset")


def ensure_no_capabilities():
    """For processes forked from one that ran `drop_capabilities` (capability sets, the bounding set and
    no_new_privs are inherited across fork and kept across exec): check from /proc/self/status that nothing
    came back and drop everything again only if something did. One /proc read instead of ~70 system calls
    (~0.4 ms per process on the per-job path)."""
    wanted = {"CapInh:": 0, "CapPrm:": 0, "CapEff:": 0, "CapBnd:": 0, "CapAmb:": 0, "NoNewPrivs:": 1}
    seen = {}
    for line in read_small("/proc/self/status").decode().splitlines():
        key, _, value = line.partition("\t")
        if key in wanted:
            seen[key] = int(value.strip(), 16 if key.startswith("Cap") else 10)
    if seen != wanted:
        drop_capabilities()


def set_limits(memory_kib, cpu_sec, fsize_bytes=16 * 1024 * 1024):
    if memory_kib:
        resource.setrlimit(resource.RLIMIT_AS, (memory_kib * 1024, memory_kib * 1024))
    if cpu_sec:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_sec, cpu_sec))
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize_bytes, fsize_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def set_cpu_soft_limit(more_sec):
    """Allow `more_sec` more seconds of CPU from now: the soft RLIMIT_CPU (SIGXCPU, which ends the process) is
    set to the CPU used so far plus `more_sec`, under the unchanged hard limit (a warm tester's per-judgement
    backstop; the zygote's wall deadline is the bound it relies on)."""
    t = os.times()
    soft = int(t.user + t.system) + 1 + more_sec
    _soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def arrange_fds(wanted):
    """Make the process's fd table exactly {0: /dev/null} plus `wanted` (target fd -> current fd), closing
    everything else. Targets must be 0.. len-1 dense above 0 or explicit small numbers."""
    null = os.open(_devnull_path, os.O_RDWR)
    # move sources out of the way first so dup2 onto a target never clobbers a pending source
    moved = {}
    for target, src in wanted.items():
        moved[target] = os.dup(src)
    os.dup2(null, 0)
    for target in (1, 2):
        if target not in moved:
            os.dup2(null, target)
    for target, src in moved.items():
        os.dup2(src, target, inheritable=False)
    keep = {0, 1, 2} | set(wanted)
    top = max(keep) + 1
    os.closerange(top, _max_fd())
    for fd in range(3, top):
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def _max_fd():
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if 0 < soft < 1 << 20 else 65536


def ignore_signals():
    """Tester: a candidate may signal us; anything but SIGKILL/SIGSTOP is ignored (so no stray
    KeyboardInterrupt can land inside test code)."""
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGQUIT", "SIGTSTP",
                 "SIGTTIN", "SIGTTOU", "SIGPIPE", "SIGVTALRM", "SIGPROF", "SIGXFSZ"):
        sig = getattr(signal, name, None)
        if sig is not None:
            signal.signal(sig, signal.SIG_IGN)


def pin_to_cpu(cpu):
    """Best effort: run on one CPU. T and C ping-pong on the call channel; on the same CPU a round trip
    costs ~15 us instead of ~70-480 us across CPUs (measured on a 2-core VM)."""
    if cpu is None:
        return
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError:
        pass


def current_cpu():
    """The CPU this process last ran on (/proc/self/stat field 39), if it is one we may use."""
    try:
        data = read_small("/proc/self/stat")
        cpu = int(data[data.rfind(b")") + 2:].split()[36])
    except (OSError, ValueError, IndexError):
        return None
    return cpu if cpu in os.sched_getaffinity(0) else None


# ----- /proc readers -----

def read_small(path):
    """The bytes of a small /proc (or cgroup) file in three system calls (open, read, close), where a Python file
    object costs eight (fstat, ioctl, two lseeks, a second read); these readers run several times per job. Raises
    OSError."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        return os.read(fd, 1 << 16)
    finally:
        os.close(fd)


def read_stat(pid):
    """(state, ppid, cpu_ms incl. waited-for children, rss_kib) from /proc/<pid>/stat, or None."""
    try:
        data = read_small(f"/proc/{pid}/stat")
    except OSError:
        return None
    rest = data[data.rfind(b")") + 2:].split()
    ticks = int(rest[11]) + int(rest[12]) + int(rest[13]) + int(rest[14])
    return rest[0].decode(), int(rest[1]), ticks * 1000 // CLK_TCK, int(rest[21]) * PAGE_KIB


def open_schedstat(pid):
    """A close-on-exec descriptor of /proc/<pid>/schedstat for `schedstat_ns_at`, or None (no pid, or it is gone)."""
    if not pid:
        return None
    try:
        return os.open(f"/proc/{pid}/schedstat", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None


def schedstat_ns_at(fd):
    """CPU time (ns) the process of an `open_schedstat` descriptor has run so far, or None (no descriptor, or the
    process is gone: the descriptor stays bound to it, never to a later process with its pid)."""
    if fd is None:
        return None
    try:
        return int(os.pread(fd, 256, 0).split()[0])
    except (OSError, ValueError, IndexError):
        return None


def cpu_ms(pid):
    """CPU time of a live process, ms: the larger of the tick-resolution total over all threads (and reaped
    children) and the ns-resolution main-thread figure of /proc/<pid>/schedstat."""
    st = read_stat(pid)
    if st is None:
        return None
    best = st[2]
    try:
        best = max(best, int(read_small(f"/proc/{pid}/schedstat").split()[0]) // 1_000_000)
    except (OSError, ValueError, IndexError):
        pass
    return best


def other_pids(keep):
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            pid = int(name)
            if pid not in keep:
                out.append(pid)
    return out


def reap_children():
    """Reap every exited child of ours (as pid 1 we inherit every orphan). Returns {pid: wait status}."""
    reaped = {}
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            break
        reaped[pid] = status
    return reaped


# How long a sweep waits for killed processes to be gone. A SIGKILLed process is not gone at once: one freeing
# a large address space, or in uninterruptible sleep, takes milliseconds; counting rounds of sched_yield (as this
# once did) lost that race on an idle machine ("processes still alive after the sweep").
SWEEP_DEADLINE_S = 10.0


def sweep_processes(keep, deadline_s=SWEEP_DEADLINE_S):
    """SIGKILL every process of the box but `keep` until none is left alive; reap what is ours. Returns reaped
    statuses. Loops because a fork bomb keeps creating processes between the scan and the kill; yields first,
    then sleeps a millisecond per round, until `deadline_s`. Every task of the box's sub-groups is a process of
    the box's pid namespace (nothing in it can make another: seccomp), so when none is alive the groups hold no
    live task and their CPU figures are final."""
    reaped = {}
    end = time.monotonic() + deadline_s
    rounds = 0
    while True:
        killed = []
        for pid in other_pids(keep):
            st = read_stat(pid)
            if st is None:
                continue
            if st[0] not in ("Z", "X"):
                killed.append(pid)
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        reaped.update(reap_children())
        if not killed:
            # Zombies left are dead children of the spawner (it reaps and reports them); orphans were
            # re-parented to us and reaped above.
            return reaped
        if time.monotonic() > end:
            raise ConfinementError(f"processes still alive after the sweep ({deadline_s:.0f} s)")
        rounds += 1
        if not await_exits(killed, min(end, time.monotonic() + SWEEP_WAIT_S)):
            # No pidfds: wait the old way (a yield, then a millisecond per round) before scanning again.
            if rounds < 100:
                os.sched_yield()
            else:
                time.sleep(0.001)
        reaped.update(reap_children())


# The longest a sweep round blocks on the killed processes' pidfds before it scans /proc again (a process that
# forked between the scan and the kill is found by the next scan; the sweep's deadline bounds the whole).
SWEEP_WAIT_S = 0.05


def await_exits(pids, until):
    """Block until every process of `pids` has exited (zombie or gone) or `until` (time.monotonic()) passes, by
    polling their pidfds (pidfd_open(2): readable once the process has exited, after its memory is released).
    Replaces rescanning /proc in a loop while a killed process is dying, which cost the zygote ~getdents of /proc
    and a stat read per round per job. Returns False when pidfds are unavailable (the caller then yields and
    rescans); a pid already gone counts as exited."""
    fds = []
    try:
        for pid in pids:
            try:
                fds.append(os.pidfd_open(pid))
            except ProcessLookupError:
                continue
            except (OSError, AttributeError):
                return False
        poller = select.poll()
        for fd in fds:
            poller.register(fd, select.POLLIN)
        left = len(fds)
        while left:
            wait_ms = (until - time.monotonic()) * 1000
            if wait_ms <= 0:
                break
            for fd, _events in poller.poll(wait_ms):
                poller.unregister(fd)
                left -= 1
        return True
    finally:
        for fd in fds:
            os.close(fd)


def empty_dir(path):
    """Remove everything inside `path`, however deep and whatever its names and modes, never following a symbolic
    link. The walk moves the working directory (chdir into a directory, `..` back), so no path it uses is longer
    than one name: a 3000-level tree of 50-character names (150,000 characters, far past PATH_MAX) goes like any
    other. Entries that cannot be removed are skipped (so the walk ends) and returned as names under `path`.
    Restores the working directory to `/`. Must only run when nothing else writes in `path` (after the sweep)."""
    left = []
    try:
        os.chdir(path)
    except OSError:
        return left
    stack = []          # names of the directories we are in, below `path`
    skipped = set()     # (st_dev, st_ino) of entries that could not be entered or removed
    try:
        while True:
            descended = False
            try:
                names = os.listdir(".")
            except OSError:
                names = []
            for name in names:
                try:
                    st = os.lstat(name)
                except OSError:
                    continue
                if (st.st_dev, st.st_ino) in skipped:
                    continue
                if stat.S_ISDIR(st.st_mode):
                    try:
                        if st.st_mode & 0o700 != 0o700:
                            os.chmod(name, 0o700)
                        os.chdir(name)
                    except OSError:
                        skipped.add((st.st_dev, st.st_ino))
                        if not stack:
                            left.append(os.path.join(path, name))
                        continue
                    stack.append((name, st.st_dev, st.st_ino))
                    descended = True
                    break
                try:
                    os.unlink(name)
                except OSError:
                    skipped.add((st.st_dev, st.st_ino))
                    if not stack:
                        left.append(os.path.join(path, name))
            if descended:
                continue
            if not stack:
                return left
            name, dev, ino = stack.pop()
            os.chdir("..")
            try:
                os.rmdir(name)
            except OSError:
                skipped.add((dev, ino))
                if not stack:
                    left.append(os.path.join(path, name))
    except OSError:
        left.append(path)
        return left
    finally:
        os.chdir("/")


_IPC_RMID = 0


def clean_ipc():
    """Remove every SysV IPC object of the box's IPC namespace (shared memory, message queues, semaphores): a
    candidate's segment must not reach the next candidate of this long-lived box. Best effort; returns how many
    could not be removed."""
    left = 0
    for kind, remove in (("shm", lambda i: _libc.shmctl(i, _IPC_RMID, None)),
                         ("msg", lambda i: _libc.msgctl(i, _IPC_RMID, None)),
                         ("sem", lambda i: _libc.semctl(i, 0, _IPC_RMID))):
        try:
            with open(f"/proc/sysvipc/{kind}") as f:
                lines = f.read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 1 and remove(int(fields[1])) != 0:
                left += 1
    return left
