/*
 * crucible box-server: the long-lived process inside a slot's box (bubblewrap --as-pid-1) that gives every
 * execution a sandbox of its own without paying for a new bubblewrap each time.
 *
 * Theory of operation. crucible-slot (root, outside) starts one bubblewrap box per slot: new user, pid, uts and
 * mount namespaces, the slot's network namespace, a read-only system, and this program as its pid 1 with
 * CAP_SYS_ADMIN and CAP_SETPCAP in the box's user namespace (nothing else; no capability outside it). For each
 * run request read from fd 0 it
 *   1. clones the run's init (C1) into NEW pid, mount and IPC namespaces;
 *   2. C1, in its private mount namespace: makes every mount private, remounts /dev read-only, makes the run's
 *      writable space (workspace.h: one tmpfs of the run's disk quota bound at /box, /tmp and /dev/shm, the
 *      request's files copied in from its host work directory), binds any artifact directory read-only at its
 *      mount point, mounts a /proc that shows only the run's pid namespace, and covers the directory of all
 *      work directories with an empty read-only tmpfs, so the run sees no other run's files;
 *   3. C1 forks the program (C2), which joins the slot's run cgroups through descriptors crucible-slot opened
 *      (so limits and accounting cover exactly the program's tree), starts a new session, sets its rlimits,
 *      drops every capability for good (bounding set, ambient set, securebits locked, no_new_privs), installs
 *      the seccomp filter (seccomp.h) and execs;
 *   4. C1 reaps every process of the namespace until the program ends, then kills and reaps the rest, copies
 *      /box back to the host work directory when the request keeps it, writes the run's exact end (exit code
 *      or signal, CPU time and peak RSS of every process of the run, the writable space's use) to a status
 *      pipe and exits (run-init.h);
 *   5. meanwhile this server feeds the program's stdin and relays its stdout and stderr to fd 1 as frames, and
 *      when both reach end of file and C1 is reaped it sends the status frame. A run's processes live only in
 *      the run's pid namespace, so nothing of a run can reach the server (it is not in their namespace, and it
 *      and C1 are non-dumpable), and nothing survives into the next run.
 * Limits that need an outside view (CPU and wall time, memory, process count, tree kill) are crucible-slot's.
 *
 * Frames on fd 0 and fd 1: u8 type, u32 little-endian payload length, payload.
 *   in  'R': u32 seq, u32 token bytes, tokens ("key\0value\0"...), then the program's stdin bytes.
 *            keys: disk (bytes of the run's writable space), work (optional: the host work directory under
 *            /crucible/runs holding the request's files), keep ("1": copy /box back into it at the end),
 *            mount-src + mount-dst (pairs), arg, env ("K=V"), rlimit-cpu, rlimit-nproc, rlimit-fsize,
 *            rlimit-nofile (numbers); unknown keys are ignored.
 *   out 'H' (empty) once, when the server is ready. 'O' / 'E': stdout / stderr bytes. 'X': the status JSON of C1 (same shape as box-init's), or empty when
 *            C1 wrote none. Fatal errors of the server itself: message on stderr, exit 1.
 * Arguments: --cgroup-fd N (repeated): open cgroup.procs descriptors of the run cgroups.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "frames.h"
#include "run-init.h"

#define RUNS_DIR "/crucible/runs"
#define STAGE "/crucible/rw"
#define MAX_CGROUP_FDS 4
#define MAX_ITEMS 4096

static int cgroup_fds[MAX_CGROUP_FDS];
static int cgroup_fd_count;

static void die(const char *what) {
  fprintf(stderr, "box-server: %s: %s\n", what, strerror(errno));
  exit(1);
}

static void send_frame(char type, const void *data, uint32_t len) {
  if (write_frame(1, (unsigned char)type, data, len, NULL, 0) != 0) die("write frame");
}

/* One parsed run request; every string points into the request buffer. */
struct request {
  const char *work;
  long long disk;
  int keep;
  const char *mount_src[8], *mount_dst[8];
  int mounts;
  char *argv[MAX_ITEMS];
  int argc;
  char *envp[MAX_ITEMS];
  int envc;
  long long rlimit_cpu, rlimit_nproc, rlimit_fsize, rlimit_nofile;
  const unsigned char *stdin_data;
  size_t stdin_len;
};

static int parse_request(unsigned char *payload, uint32_t len, struct request *r) {
  memset(r, 0, sizeof *r);
  r->rlimit_cpu = r->rlimit_nproc = r->rlimit_fsize = r->rlimit_nofile = r->disk = -1;
  if (len < 8) return -1;
  uint32_t token_bytes = u32_at(payload + 4);
  if (token_bytes > len - 8) return -1;
  char *p = (char *)payload + 8, *end = p + token_bytes;
  if (token_bytes > 0 && end[-1] != 0) return -1;
  while (p < end) {
    char *key = p;
    p += strlen(p) + 1;
    if (p >= end) return -1;
    char *value = p;
    p += strlen(p) + 1;
    if (strcmp(key, "work") == 0) r->work = value;
    else if (strcmp(key, "disk") == 0) r->disk = atoll(value);
    else if (strcmp(key, "keep") == 0) r->keep = strcmp(value, "1") == 0;
    else if (strcmp(key, "mount-src") == 0 && r->mounts < 8) r->mount_src[r->mounts] = value;
    else if (strcmp(key, "mount-dst") == 0 && r->mounts < 8) r->mount_dst[r->mounts++] = value;
    else if (strcmp(key, "arg") == 0 && r->argc < MAX_ITEMS - 1) r->argv[r->argc++] = value;
    else if (strcmp(key, "env") == 0 && r->envc < MAX_ITEMS - 1) r->envp[r->envc++] = value;
    else if (strcmp(key, "rlimit-cpu") == 0) r->rlimit_cpu = atoll(value);
    else if (strcmp(key, "rlimit-nproc") == 0) r->rlimit_nproc = atoll(value);
    else if (strcmp(key, "rlimit-fsize") == 0) r->rlimit_fsize = atoll(value);
    else if (strcmp(key, "rlimit-nofile") == 0) r->rlimit_nofile = atoll(value);
  }
  if (r->disk <= 0 || r->argc == 0 || (r->keep && r->work == NULL)) return -1;
  for (int i = 0; i < r->mounts; i++) if (r->mount_src[i] == NULL) return -1;
  r->stdin_data = payload + 8 + token_bytes;
  r->stdin_len = len - 8 - token_bytes;
  return 0;
}

/* C1's failure before the program started: Crucible's failure, reported through the status pipe. */
static void init_fail(int status_fd, const char *step) {
  dprintf(status_fd, "{\"error\":\"run setup: %s: %s\"}\n", step, strerror(errno));
  _exit(125);
}

static void child_fail(int exec_fd, int err) {
  if (write(exec_fd, &err, sizeof err) < 0) { /* C1 reports a silent exit */ }
  _exit(127);
}

static void set_limit(int exec_fd, int resource, long long value) {
  if (value < 0) return;
  struct rlimit rl = {(rlim_t)value, (rlim_t)value};
  if (setrlimit(resource, &rl) != 0) child_fail(exec_fd, errno);
}

/* C2: become the program. Never returns. */
static void run_program(const struct request *r, int in_fd, int out_fd, int err_fd, int exec_fd) {
  for (int i = 0; i < cgroup_fd_count; i++) {
    if (write(cgroup_fds[i], "0", 1) != 1) child_fail(exec_fd, errno);
  }
  if (setsid() < 0) child_fail(exec_fd, errno);
  set_limit(exec_fd, RLIMIT_CPU, r->rlimit_cpu);
  set_limit(exec_fd, RLIMIT_NPROC, r->rlimit_nproc);
  set_limit(exec_fd, RLIMIT_FSIZE, r->rlimit_fsize);
  set_limit(exec_fd, RLIMIT_NOFILE, r->rlimit_nofile);
  set_limit(exec_fd, RLIMIT_CORE, 0);
  if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0) child_fail(exec_fd, errno);
  /* Keep only 0-2 and the exec-error pipe (close-on-exec) as fd 3. */
  if (dup3(exec_fd, 3, O_CLOEXEC) < 0) child_fail(exec_fd, errno);
  exec_fd = 3;
  if (syscall(SYS_close_range, 4, ~0U, 0) != 0) child_fail(exec_fd, errno);
  /* Drop every capability for good, then the seccomp filter: nothing the program execs can regain either. */
  if (drop_capabilities_for_good() != 0) child_fail(exec_fd, errno);
  if (crucible_install_seccomp() != 0) child_fail(exec_fd, errno);
  if (chdir("/box") != 0) child_fail(exec_fd, errno);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  for (int s = 1; s < NSIG; s++) signal(s, SIG_DFL);
  environ = (char **)r->envp;
  execvp(r->argv[0], r->argv);
  child_fail(exec_fd, errno);
}

static void bind_at(int status_fd, const char *src, const char *dst, unsigned long extra, const char *step) {
  if (mount(src, dst, NULL, MS_BIND | MS_REC, NULL) != 0) init_fail(status_fd, step);
  if (remount_adding(dst, MS_NOSUID | MS_NODEV | extra) != 0) init_fail(status_fd, step);
}

/* C1: pid 1 of the run's namespaces. Never returns. */
static void run_init(const struct request *r, int in_fd, int out_fd, int err_fd, int status_fd) {
  char path[4096];
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) init_fail(status_fd, "private mounts");
  if (remount_adding("/dev", MS_RDONLY | MS_NOSUID) != 0) init_fail(status_fd, "read-only /dev");
  int work_fd = -1;
  if (r->work != NULL) {
    if (snprintf(path, sizeof path, RUNS_DIR "/%s", r->work) >= (int)sizeof path || strstr(r->work, "..")) {
      errno = EINVAL;
      init_fail(status_fd, "work path");
    }
    work_fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (work_fd < 0) init_fail(status_fd, "open the work directory");
  }
  const char *step = NULL;
  if (workspace_make(STAGE, r->disk, work_fd, &step) != 0) init_fail(status_fd, step);
  if (!r->keep && work_fd >= 0) {
    close(work_fd);
    work_fd = -1;
  }
  for (int i = 0; i < r->mounts; i++) {
    if (snprintf(path, sizeof path, RUNS_DIR "/%s", r->mount_src[i]) >= (int)sizeof path || strstr(r->mount_src[i], "..")) {
      errno = EINVAL;
      init_fail(status_fd, "mount path");
    }
    bind_at(status_fd, path, r->mount_dst[i], MS_RDONLY, "bind a read-only mount");
  }
  if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) init_fail(status_fd, "mount /proc");
  if (mount("tmpfs", RUNS_DIR, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=000") != 0) {
    init_fail(status_fd, "cover the work directories");
  }
  int exec_pipe[2];
  if (pipe2(exec_pipe, O_CLOEXEC) != 0) init_fail(status_fd, "pipe");
  pid_t program = fork();
  if (program < 0) init_fail(status_fd, "fork");
  if (program == 0) {
    close(exec_pipe[0]);
    close(status_fd);
    run_program(r, in_fd, out_fd, err_fd, exec_pipe[1]);
  }
  close(exec_pipe[1]);
  close(in_fd);
  close(out_fd);
  close(err_fd);
  for (int i = 0; i < cgroup_fd_count; i++) close(cgroup_fds[i]);
  /* C1 needs no capability any more: copying a kept /box out needs only ownership. */
  drop_own_capabilities();
  int exec_errno = 0;
  ssize_t got = read(exec_pipe[0], &exec_errno, sizeof exec_errno);
  close(exec_pipe[0]);
  _exit(finish_run(status_fd, program, r->argv[0], got == (ssize_t)sizeof exec_errno ? exec_errno : 0, 1, work_fd, -1));
}

/* Run one request: start C1, pump stdin/stdout/stderr, collect the status, send 'X'. */
static void serve_one(const struct request *r) {
  int in_pipe[2], out_pipe[2], err_pipe[2], status_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) != 0 || pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0 ||
      pipe2(status_pipe, O_CLOEXEC) != 0) die("pipe");
  pid_t init = (pid_t)syscall(SYS_clone, CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | SIGCHLD, 0, 0, 0, 0);
  if (init < 0) die("clone");
  if (init == 0) {
    close(in_pipe[1]);
    close(out_pipe[0]);
    close(err_pipe[0]);
    close(status_pipe[0]);
    close(0);
    close(1);
    run_init(r, in_pipe[0], out_pipe[1], err_pipe[1], status_pipe[1]);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  close(status_pipe[1]);
  int in_fd = in_pipe[1];
  fcntl(in_fd, F_SETFL, O_NONBLOCK);
  size_t in_done = 0;
  if (r->stdin_len == 0) { close(in_fd); in_fd = -1; }
  int out_fd = out_pipe[0], err_fd = err_pipe[0], status_fd = status_pipe[0];
  char status_text[512];
  size_t status_len = 0;
  static char buf[65536];
  while (out_fd >= 0 || err_fd >= 0 || status_fd >= 0) {
    struct pollfd fds[4] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}, {status_fd, POLLIN, 0}, {in_fd, POLLOUT, 0}};
    if (poll(fds, 4, -1) < 0) {
      if (errno == EINTR) continue;
      die("poll");
    }
    for (int i = 0; i < 2; i++) {
      int *fd = i == 0 ? &out_fd : &err_fd;
      if (*fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t got = read(*fd, buf, sizeof buf);
      if (got > 0) send_frame(i == 0 ? 'O' : 'E', buf, (uint32_t)got);
      else if (got == 0 || errno != EINTR) { close(*fd); *fd = -1; }
    }
    if (status_fd >= 0 && (fds[2].revents & (POLLIN | POLLHUP | POLLERR))) {
      ssize_t got = read(status_fd, status_text + status_len, sizeof status_text - 1 - status_len);
      if (got > 0) status_len += (size_t)got;
      else if (got == 0 || errno != EINTR) { close(status_fd); status_fd = -1; }
      if (status_len == sizeof status_text - 1) { close(status_fd); status_fd = -1; }
    }
    if (in_fd >= 0 && (fds[3].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t wrote = write(in_fd, r->stdin_data + in_done, r->stdin_len - in_done);
      if (wrote > 0) in_done += (size_t)wrote;
      if ((wrote < 0 && errno != EAGAIN && errno != EINTR) || in_done == r->stdin_len) { close(in_fd); in_fd = -1; }
    }
  }
  if (in_fd >= 0) close(in_fd);
  int st;
  while (waitpid(init, &st, 0) < 0 && errno == EINTR) {}
  char *nl = memchr(status_text, '\n', status_len);
  if (nl) status_len = (size_t)(nl - status_text);
  send_frame('X', status_text, (uint32_t)status_len);
}

int main(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--cgroup-fd") == 0 && cgroup_fd_count < MAX_CGROUP_FDS) {
      int fd = atoi(argv[i + 1]);
      if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) die("cgroup descriptor");
      cgroup_fds[cgroup_fd_count++] = fd;
    } else {
      fprintf(stderr, "box-server: bad argument %s\n", argv[i]);
      return 2;
    }
  }
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  signal(SIGPIPE, SIG_IGN);
  send_frame('H', NULL, 0); /* ready: a run's wall time must not include the box's start */
  for (;;) {
    struct frame f;
    if (read_frame(0, &f) != 0) return 0; /* crucible-slot closed the channel */
    struct request r;
    if (f.type != 'R' || parse_request(f.payload, f.len, &r) != 0) {
      const char *bad = "{\"error\":\"box-server: malformed request\"}";
      send_frame('X', bad, (uint32_t)strlen(bad));
    } else {
      serve_one(&r);
    }
    free(f.payload);
  }
}
