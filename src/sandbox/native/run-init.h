/*
 * What a run's init does around the program, shared by box-init (pid 1 of a per-run bubblewrap box) and the
 * run's init in a slot box (C1 in box-server.c): turn the program's process into an untrusted one for good
 * (no capability can come back, the seccomp filter of seccomp.h), and at the end reap it, kill and reap
 * everything else of the run, copy a kept work directory out (workspace.h), and report. The status line is
 * parsed by `initSchema` in src/sandbox/classify.ts.
 * Header-only (static inline): each program is one statically linked binary.
 */
#ifndef CRUCIBLE_RUN_INIT_H
#define CRUCIBLE_RUN_INIT_H
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "seccomp.h"
#include "workspace.h"

/*
 * Drop every capability for good (securebits locked, bounding and ambient sets emptied, no_new_privs, capset to
 * zero): nothing the program execs can regain one. Needs CAP_SETPCAP (held in the box's user namespace).
 * Returns 0, or -1 with errno set.
 */
static inline int drop_capabilities_for_good(void) {
  if (prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
            SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
            SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED, 0, 0, 0) != 0) return -1;
  for (int cap = 0; cap <= 63; cap++) {
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL) return -1;
  }
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0) return -1;
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[2];
  memset(data, 0, sizeof data);
  return (int)syscall(SYS_capset, &header, data);
}

/* Drop the init's own capabilities (it needs none once the program runs). */
static inline void drop_own_capabilities(void) {
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[2];
  memset(data, 0, sizeof data);
  syscall(SYS_capset, &header, data);
}

/* As pid 1 of the run's pid namespace: SIGKILL every other process of it and reap them all, so that their CPU
 * time reaches our RUSAGE_CHILDREN and nothing runs while a kept work directory is copied out. */
static inline void kill_and_reap_all(void) {
  if (getpid() != 1) return; /* never outside a pid namespace: kill(-1) would reach the host's processes */
  for (int round = 0; round < 100000; round++) {
    kill(-1, SIGKILL);
    int st;
    pid_t pid = waitpid(-1, &st, __WALL);
    if (pid < 0 && errno == ECHILD) return;
  }
}

/*
 * As the run's pid 1: reap every process until `program` ends; then kill and reap the rest, copy /box out to
 * `keep_fd` when it is >= 0 and the outbox (WORKSPACE_OUTBOX) to `outbox_fd` when it is >= 0, and write one JSON line to `status_fd`: {"exitCode"|"signal", "cpuUs" (user +
 * system of every process of the run), "maxRssKiB", "diskUsedBytes", "diskFull", "keptSkipped"}, or {"error"}
 * when exec failed (`exec_errno` > 0; `name` is the program's path) or waiting failed. `workspace` says whether
 * the run has its own writable space (workspace.h) to measure. Returns 0, or 125 after an error.
 */
static inline int finish_run(int status_fd, pid_t program, const char *name, int exec_errno, int workspace, int keep_fd,
                             int outbox_fd) {
  int status = 0;
  for (;;) {
    pid_t pid = waitpid(-1, &status, __WALL);
    if (pid == program) break;
    if (pid < 0 && errno != EINTR) {
      dprintf(status_fd, "{\"error\":\"waitpid: %s\"}\n", strerror(errno));
      return 125;
    }
  }
  if (exec_errno > 0) {
    dprintf(status_fd, "{\"error\":\"exec %s failed: %s\"}\n", name, strerror(exec_errno));
    return 125;
  }
  kill_and_reap_all();
  int skipped = keep_fd >= 0 ? workspace_copy_out(keep_fd) : 0;
  if (outbox_fd >= 0) skipped += workspace_copy_out_from(WORKSPACE_OUTBOX, outbox_fd);
  long long disk_used = -1;
  int disk_full = 0;
  if (workspace) workspace_usage(&disk_used, &disk_full);
  struct rusage usage;
  getrusage(RUSAGE_CHILDREN, &usage);
  long long cpu_us = (long long)usage.ru_utime.tv_sec * 1000000LL + usage.ru_utime.tv_usec +
                     (long long)usage.ru_stime.tv_sec * 1000000LL + usage.ru_stime.tv_usec;
  char line[320];
  int len = WIFSIGNALED(status) ? snprintf(line, sizeof line, "{\"signal\":%d", WTERMSIG(status))
                                : snprintf(line, sizeof line, "{\"exitCode\":%d", WEXITSTATUS(status));
  len += snprintf(line + len, sizeof line - (size_t)len,
                  ",\"cpuUs\":%lld,\"maxRssKiB\":%ld,\"diskUsedBytes\":%lld,\"diskFull\":%s,\"keptSkipped\":%d}\n",
                  cpu_us, usage.ru_maxrss, disk_used, disk_full ? "true" : "false", skipped);
  /* One write: readers take the status line from a single read of the pipe. */
  if (write(status_fd, line, (size_t)len) != len) return 125;
  return 0;
}
#endif
