/*
 * crucible box-init: process 1 of a per-run sandbox's pid namespace (bubblewrap --as-pid-1).
 *
 * Theory of operation. bubblewrap execs us as pid 1 of a fresh pid namespace, holding CAP_SYS_ADMIN and
 * CAP_SETPCAP in the box's user namespace only (bwrap --cap-add). With --workspace we first enter a mount
 * namespace of our own (bubblewrap's belongs to the user namespace it made before nesting ours) and make the run's
 * writable space (workspace.h: one tmpfs of the run's disk quota bound at /box, /tmp and /dev/shm, the request's
 * files copied in from the host work directory bound at --work), remount /dev read-only and cover the host work
 * directory with an empty read-only tmpfs, so the program can reach no host path it could write. Then we fork
 * the program (pid 2), which drops every capability for good and installs the seccomp filter (seccomp.h) before
 * exec. We reap every process of the namespace while waiting for it; when it ends we kill and reap the rest,
 * copy /box back to the work directory if it is kept (--keep), and write its exact termination (exit code or
 * signal number), the CPU time and peak RSS of everything we reaped and the writable space's use to the status
 * descriptor given by the environment variable CRUCIBLE_STATUS_FD (run-init.h). Then we exit.
 *
 * Why a process of our own: bubblewrap folds "killed by signal N" into exit code 128+N, which would make
 * exit(137) and SIGKILL the same verdict. Being pid 1 also means that signals sent from inside the namespace
 * to us are ignored (the kernel protects a namespace's init from its own processes), so a program cannot kill
 * its judge; and we are made non-dumpable so it cannot ptrace us or read our memory.
 *
 * Without --workspace (the explicit unsafe mode, no bubblewrap) only the seccomp filter is applied.
 * With --outbox the run's tmpfs also has an out/ directory at /crucible/out (workspace.h WORKSPACE_OUTBOX) for
 * files the program leaves for Crucible (a test reporter's file): once every process of the run is dead it is
 * copied, sanitised like a kept /box, into the host work directory's .outbox/ (made by Crucible; hidden, so never copied in).
 * Usage: box-init [--workspace BYTES] [--work DIR] [--keep] [--outbox] -- PROGRAM [ARGS...]
 * The program never sees the status descriptor: it is closed in the child before exec.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "run-init.h"

#define STAGE "/crucible/rw"

static int status_fd = -1;

static void setup_fail(const char *step) {
  dprintf(status_fd, "{\"error\":\"run setup: %s: %s\"}\n", step, strerror(errno));
  exit(125);
}

int main(int argc, char **argv) {
  long long workspace_bytes = -1;
  const char *work = NULL;
  int keep = 0, outbox = 0;
  int i = 1;
  for (; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0) { i++; break; }
    if (strcmp(argv[i], "--keep") == 0) keep = 1;
    else if (strcmp(argv[i], "--outbox") == 0) outbox = 1;
    else if (strcmp(argv[i], "--workspace") == 0 && i + 1 < argc) workspace_bytes = atoll(argv[++i]);
    else if (strcmp(argv[i], "--work") == 0 && i + 1 < argc) work = argv[++i];
    else break;
  }
  if (i >= argc || (outbox && (work == NULL || workspace_bytes <= 0))) {
    fprintf(stderr, "box-init: usage: box-init [--workspace BYTES] [--work DIR] [--keep] [--outbox] -- PROGRAM [ARGS...]\n");
    return 125;
  }
  char **program_argv = argv + i;
  const char *fd_text = getenv("CRUCIBLE_STATUS_FD");
  status_fd = fd_text ? atoi(fd_text) : -1;
  unsetenv("CRUCIBLE_STATUS_FD");
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);

  int work_fd = -1, outbox_fd = -1;
  if (workspace_bytes > 0) {
    const char *step = NULL;
    /* bubblewrap's mounts belong to the user namespace it made first; our capabilities are in the one it nests
     * for --cap-add. A mount namespace of our own is ours to change (as box-server's runs do). */
    if (unshare(CLONE_NEWNS) != 0) setup_fail("a mount namespace of the run");
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) setup_fail("private mounts");
    if (work != NULL && (work_fd = open(work, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) setup_fail("open the work directory");
    if (remount_adding("/dev", MS_RDONLY | MS_NOSUID) != 0) setup_fail("read-only /dev");
    if (outbox && (outbox_fd = openat(work_fd, ".outbox", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) setup_fail("open the outbox's host directory");
    if (workspace_make_with(STAGE, workspace_bytes, work_fd, outbox, &step) != 0) setup_fail(step);
    if (work != NULL && mount("tmpfs", work, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=000") != 0) {
      setup_fail("cover the work directory");
    }
    if (!keep && work_fd >= 0) {
      close(work_fd);
      work_fd = -1;
    }
  }

  int exec_pipe[2];
  if (pipe2(exec_pipe, O_CLOEXEC) != 0) return 125;
  pid_t child = fork();
  if (child < 0) {
    dprintf(status_fd, "{\"error\":\"fork failed: %s\"}\n", strerror(errno));
    return 125;
  }
  if (child == 0) {
    close(exec_pipe[0]);
    if (status_fd >= 0) close(status_fd);
    if (work_fd >= 0) close(work_fd);
    if (outbox_fd >= 0) close(outbox_fd);
    int err = 0;
    if (workspace_bytes > 0 && (chdir("/box") != 0 || drop_capabilities_for_good() != 0)) err = errno;
    if (err == 0 && crucible_install_seccomp() != 0) err = errno;
    if (err == 0) {
      /* Restore default dispositions: pid 1's ignore-unhandled rule must not leak into the program. */
      for (int s = 1; s < NSIG; s++) signal(s, SIG_DFL);
      sigset_t none;
      sigemptyset(&none);
      sigprocmask(SIG_SETMASK, &none, NULL);
      execvp(program_argv[0], program_argv);
      err = errno;
    }
    if (write(exec_pipe[1], &err, sizeof err) < 0) { /* nothing else to do */ }
    _exit(127);
  }
  close(exec_pipe[1]);
  if (workspace_bytes > 0) drop_own_capabilities();
  int exec_errno = 0;
  ssize_t got = read(exec_pipe[0], &exec_errno, sizeof exec_errno);
  close(exec_pipe[0]);
  return finish_run(status_fd, child, program_argv[0], got == (ssize_t)sizeof exec_errno ? exec_errno : 0,
                    workspace_bytes > 0, work_fd, outbox_fd);
}
