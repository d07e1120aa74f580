/*
 * The end of a run as its init reports it: shared by box-init (pid 1 of a per-run bubblewrap box) and the run's
 * init in a slot box (box-server.c). The status line is parsed by `initSchema` in src/sandbox/classify.ts.
 * Header-only (static inline): each program is one statically linked binary.
 */
#ifndef CRUCIBLE_RUN_INIT_H
#define CRUCIBLE_RUN_INIT_H
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>

/*
 * As the run's pid 1: reap every process until `program` ends, then write one JSON line to `status_fd`:
 * {"exitCode"|"signal", "cpuUs" (user + system of everything reaped), "maxRssKiB"}, or {"error"} when exec
 * failed (`exec_errno` > 0; `name` is the program's path) or waiting failed. Returns 0, or 125 after an error.
 */
static inline int reap_and_report(int status_fd, pid_t program, const char *name, int exec_errno) {
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
  struct rusage usage;
  getrusage(RUSAGE_CHILDREN, &usage);
  long long cpu_us = (long long)usage.ru_utime.tv_sec * 1000000LL + usage.ru_utime.tv_usec +
                     (long long)usage.ru_stime.tv_sec * 1000000LL + usage.ru_stime.tv_usec;
  if (WIFSIGNALED(status)) {
    dprintf(status_fd, "{\"signal\":%d,\"cpuUs\":%lld,\"maxRssKiB\":%ld}\n", WTERMSIG(status), cpu_us, usage.ru_maxrss);
  } else {
    dprintf(status_fd, "{\"exitCode\":%d,\"cpuUs\":%lld,\"maxRssKiB\":%ld}\n", WEXITSTATUS(status), cpu_us,
            usage.ru_maxrss);
  }
  return 0;
}
#endif
