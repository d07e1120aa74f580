/*
 * crucible-reaper: what `crucible serve` and `crucible worker` run under when they find themselves pid 1 of a pid
 * namespace (a container started without an init, `docker run` without `--init`). Orphans reparent to pid 1, and
 * Node reaps only the children it spawned itself, so bubblewrap's and the boxes' leftovers would pile up as
 * zombies. This program is a child subreaper (prctl PR_SET_CHILD_SUBREAPER, Linux 3.4): every orphan below it
 * reparents to it instead, and it reaps them all.
 *
 * Usage: crucible-reaper <program> [args...]. Runs the program as its child, forwards SIGTERM, SIGINT, SIGHUP,
 * SIGQUIT, SIGUSR1 and SIGUSR2 to it, reaps every process that ends below it, and exits with the program's status
 * (128 + N when a signal N ended it) once the program has ended. Written for Crucible (the role tini plays for
 * `docker run --init`), in C because Node cannot wait for processes it did not spawn.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile pid_t child = -1;

static void forward(int sig) {
    if (child > 0) kill(child, sig);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: crucible-reaper <program> [args...]\n");
        return 2;
    }
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
        fprintf(stderr, "crucible-reaper: PR_SET_CHILD_SUBREAPER: %s\n", strerror(errno));
        return 2;
    }
    int forwarded[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = forward;
    sigemptyset(&action.sa_mask);
    /* Signals arriving before the child exists are held until then. */
    sigset_t held, before;
    sigemptyset(&held);
    for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++) {
        sigaction(forwarded[i], &action, NULL);
        sigaddset(&held, forwarded[i]);
    }
    sigprocmask(SIG_BLOCK, &held, &before);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "crucible-reaper: fork: %s\n", strerror(errno));
        return 2;
    }
    if (pid == 0) {
        sigprocmask(SIG_SETMASK, &before, NULL);
        for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++) signal(forwarded[i], SIG_DFL);
        execvp(argv[1], argv + 1);
        fprintf(stderr, "crucible-reaper: %s: %s\n", argv[1], strerror(errno));
        _exit(127);
    }
    child = pid;
    sigprocmask(SIG_SETMASK, &before, NULL);
    for (;;) {
        int status;
        pid_t ended = waitpid(-1, &status, 0);
        if (ended < 0) {
            if (errno == EINTR) continue;
            return 2; /* ECHILD: nothing left, which cannot happen before the program itself ended */
        }
        if (ended != pid) continue; /* an orphan reaped */
        /* The program ended: reap what already ended below it, then leave (the namespace's pid 1 takes the rest). */
        while (waitpid(-1, NULL, WNOHANG) > 0) {
        }
        if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    }
}
