/*
 * crucible box-init: process 1 of a sandbox's pid namespace (bubblewrap --as-pid-1).
 *
 * Theory of operation. bubblewrap execs us as pid 1 of a fresh pid namespace. We fork the program (pid 2),
 * reap every process of the namespace while waiting for it, and when the program ends we write its exact
 * termination (exit code or signal number) and the CPU time and peak RSS of everything we reaped to the
 * status descriptor given by the environment variable CRUCIBLE_STATUS_FD. Then we exit, and the kernel kills
 * every process left in the namespace, so nothing the program started outlives it.
 *
 * Why a process of our own: bubblewrap folds "killed by signal N" into exit code 128+N, which would make
 * exit(137) and SIGKILL the same verdict. Being pid 1 also means that signals sent from inside the namespace
 * to us are ignored (the kernel protects a namespace's init from its own processes), so a program cannot kill
 * its judge; and we are made non-dumpable so it cannot ptrace us or read our memory.
 *
 * The program never sees the status descriptor: it is closed in the child before exec.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "run-init.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "box-init: usage: box-init PROGRAM [ARGS...]\n");
    return 125;
  }
  const char *fd_text = getenv("CRUCIBLE_STATUS_FD");
  int status_fd = fd_text ? atoi(fd_text) : -1;
  unsetenv("CRUCIBLE_STATUS_FD");
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);

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
    /* Restore default dispositions: pid 1's ignore-unhandled rule must not leak into the program. */
    for (int s = 1; s < NSIG; s++) signal(s, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execvp(argv[1], argv + 1);
    int err = errno;
    if (write(exec_pipe[1], &err, sizeof err) < 0) { /* nothing else to do */ }
    _exit(127);
  }
  close(exec_pipe[1]);
  int exec_errno = 0;
  ssize_t got = read(exec_pipe[0], &exec_errno, sizeof exec_errno);
  close(exec_pipe[0]);
  return reap_and_report(status_fd, child, argv[1], got == (ssize_t)sizeof exec_errno ? exec_errno : 0);
}
