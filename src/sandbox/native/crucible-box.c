/*
 * crucible-box: the privileged launcher of one sandboxed execution. Runs as root, started by Crucible's
 * Node process; everything it enforces is enforced from outside the program.
 *
 * Theory of operation (one execution):
 *   node ──spawn──> crucible-box ──fork──> [child] setsid, PDEATHSIG, join slot cgroups, setns(netns),
 *                                                  drop to the slot's uid/gid, rlimits, exec bwrap
 *                                                  ──> bwrap (user/pid/uts/ipc/mount namespaces, --as-pid-1)
 *                                                      ──> box-init (pid 1: the run's writable space, reaps,
 *                                                          reports exact status) ──> program (seccomp)
 *   The parent stays outside: it waits for the child on a pidfd, and enforces the wall-clock bound and the
 *   CPU-time bound of the whole tree (cgroup cpuacct, read only when the remaining budget could have been
 *   spent, never by busy polling). On a limit, or on SIGTERM from Node (output limit, cancellation), it
 *   SIGKILLs the tree: the bwrap process (whose pid-namespace init then dies, taking every process of the
 *   namespace with it, double forks and setsid included) and every task still in the slot's cgroups, and it
 *   waits until the cgroups are empty before it reports, so no process of the run survives the verdict.
 *   Finally it writes one JSON object to fd 3 (the report) and exits 0; a non-zero exit means crucible-box
 *   itself failed and the report says why.
 *   Descriptors handed into the box, opened here as root (the box could not open them): --seccomp-fd N gets a
 *   pipe holding the seccomp program of seccomp.h (for bwrap --seccomp N, when the program is the box's pid 1);
 *   --pass-wfd N=PATH (write-only) and --pass-dfd N=PATH (a directory, read-only) give a long-lived box the
 *   cgroup.procs files and directories of its sub-cgroups (see src/sandbox/slots.ts), which --drain-cgroup
 *   also empties at the end.
 *   A prepared workspace (--workspace-dir DIR, --workspace-lower PATH top first, --workspace-size BYTES, and
 *   --workspace-ro 1 or a kept --workspace-upper/--workspace-work pair) is laid out by the child as root in a
 *   mount namespace of its own before it drops to the slot's uid (layers.h); bubblewrap binds DIR/merged.
 *
 * Steps that fail leave through the report's "error" field (Crucible's own failure, never the program's).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "layers.h"
#include "seccomp.h"
#include "supervise.h"

#define REPORT_FD 3
#define MAX_CGROUPS 4
#define MAX_DRAIN 8
#define MAX_PASSED 64
/* Descriptors handed into the box use numbers 5..63; ours are moved above that first. */
#define PASSED_FD_MAX 63
#define OWN_FD_MIN 64

struct options {
  uid_t uid;
  gid_t gid;
  int drop_privileges;
  const char *cgroups[MAX_CGROUPS];
  int cgroup_count;
  const char *cpuacct_dir; /* one of cgroups, for CPU accounting */
  const char *memory_dir;  /* one of cgroups, for peak memory and OOM */
  const char *netns;
  const char *drain[MAX_DRAIN];
  int drain_count;
  int seccomp_fd;                   /* target number, or -1 */
  struct { int target; const char *path; int directory; int fd; } passed[MAX_PASSED];
  int passed_count;
  long long cpu_ms;
  long long wall_ms;
  long long rlimit_as;
  long long rlimit_cpu;
  long long rlimit_nproc;
  long long rlimit_fsize;
  long long rlimit_nofile;
  long long rlimit_stack;
  long long memory_limit;
  int no_status;
  long long pids_max;
  const char *pids_dir;
  struct layers workspace;
  char **argv;
};

static void fail_child(int err_fd, const char *step) {
  char msg[256];
  int len = snprintf(msg, sizeof msg, "%s: %s", step, strerror(errno));
  if (write(err_fd, msg, (size_t)len) < 0) { /* parent reports exec failure without text */ }
  _exit(126);
}

static void set_limit(int err_fd, int resource, long long value, const char *name) {
  if (value < 0) return;
  struct rlimit rl = {(rlim_t)value, (rlim_t)value};
  if (setrlimit(resource, &rl) != 0) fail_child(err_fd, name);
}

static void run_child(const struct options *o, int err_fd, int status_fd) {
  if (setsid() < 0) fail_child(err_fd, "setsid");
  if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) fail_child(err_fd, "prctl(PDEATHSIG)");
  for (int i = 0; i < o->cgroup_count; i++) {
    if (write_file(o->cgroups[i], "cgroup.procs", "0") != 0) fail_child(err_fd, "join cgroup");
  }
  if (o->workspace.dir != NULL) {
    /* As root, before the uid drop: the layers' clones, the writable layer, the overlay (layers.h). */
    const char *step = "workspace";
    if (!o->drop_privileges) { errno = EPERM; fail_child(err_fd, "a workspace needs a slot uid (root)"); }
    if (layers_make(&o->workspace, o->uid, o->gid, &step) != 0) fail_child(err_fd, step);
  }
  if (o->netns) {
    int fd = open(o->netns, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || setns(fd, CLONE_NEWNET) != 0) fail_child(err_fd, "setns(net)");
    close(fd);
  }
  if (o->drop_privileges) {
    if (setgroups(0, NULL) != 0) fail_child(err_fd, "setgroups");
    if (setresgid(o->gid, o->gid, o->gid) != 0) fail_child(err_fd, "setresgid");
    if (setresuid(o->uid, o->uid, o->uid) != 0) fail_child(err_fd, "setresuid");
    /* PDEATHSIG is cleared by a credential change: set it again. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) fail_child(err_fd, "prctl(PDEATHSIG)");
  }
  set_limit(err_fd, RLIMIT_AS, o->rlimit_as, "setrlimit(AS)");
  set_limit(err_fd, RLIMIT_CPU, o->rlimit_cpu, "setrlimit(CPU)");
  set_limit(err_fd, RLIMIT_NPROC, o->rlimit_nproc, "setrlimit(NPROC)");
  set_limit(err_fd, RLIMIT_FSIZE, o->rlimit_fsize, "setrlimit(FSIZE)");
  set_limit(err_fd, RLIMIT_NOFILE, o->rlimit_nofile, "setrlimit(NOFILE)");
  set_limit(err_fd, RLIMIT_STACK, o->rlimit_stack, "setrlimit(STACK)");
  set_limit(err_fd, RLIMIT_CORE, 0, "setrlimit(CORE)");
  /* The box-init status pipe must survive exec; everything else of ours is close-on-exec. */
  if (!o->no_status && dup2(status_fd, 4) < 0) fail_child(err_fd, "dup2(status)");
  for (int i = 0; i < o->passed_count; i++) {
    if (dup2(o->passed[i].fd, o->passed[i].target) < 0) fail_child(err_fd, "dup2(passed descriptor)");
  }
  close(REPORT_FD);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  execv(o->argv[0], o->argv);
  fail_child(err_fd, "exec sandbox");
}

static int parse_options(int argc, char **argv, struct options *o) {
  memset(o, 0, sizeof *o);
  o->cpu_ms = o->wall_ms = -1;
  o->rlimit_as = o->rlimit_cpu = o->rlimit_nproc = o->rlimit_fsize = o->rlimit_nofile = o->rlimit_stack = -1;
  o->memory_limit = o->pids_max = -1;
  o->seccomp_fd = -1;
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) { i++; break; }
    if (i + 1 >= argc) return -1;
    const char *v = argv[++i];
    if (strcmp(a, "--uid") == 0) { o->uid = (uid_t)atol(v); o->drop_privileges = 1; }
    else if (strcmp(a, "--gid") == 0) o->gid = (gid_t)atol(v);
    else if (strcmp(a, "--cgroup") == 0) { if (o->cgroup_count == MAX_CGROUPS) return -1; o->cgroups[o->cgroup_count++] = v; }
    else if (strcmp(a, "--cpuacct") == 0) o->cpuacct_dir = v;
    else if (strcmp(a, "--memory") == 0) o->memory_dir = v;
    else if (strcmp(a, "--netns") == 0) o->netns = v;
    else if (strcmp(a, "--drain-cgroup") == 0) { if (o->drain_count == MAX_DRAIN) return -1; o->drain[o->drain_count++] = v; }
    else if (strcmp(a, "--seccomp-fd") == 0) o->seccomp_fd = atoi(v);
    else if (strcmp(a, "--pass-wfd") == 0 || strcmp(a, "--pass-dfd") == 0) {
      const char *eq = strchr(v, '=');
      if (o->passed_count == MAX_PASSED || eq == NULL) return -1;
      o->passed[o->passed_count].target = atoi(v);
      o->passed[o->passed_count].path = eq + 1;
      o->passed[o->passed_count].directory = strcmp(a, "--pass-dfd") == 0;
      o->passed_count++;
    }
    else if (strcmp(a, "--cpu-ms") == 0) o->cpu_ms = atoll(v);
    else if (strcmp(a, "--wall-ms") == 0) o->wall_ms = atoll(v);
    else if (strcmp(a, "--rlimit-as") == 0) o->rlimit_as = atoll(v);
    else if (strcmp(a, "--rlimit-cpu") == 0) o->rlimit_cpu = atoll(v);
    else if (strcmp(a, "--rlimit-nproc") == 0) o->rlimit_nproc = atoll(v);
    else if (strcmp(a, "--rlimit-fsize") == 0) o->rlimit_fsize = atoll(v);
    else if (strcmp(a, "--rlimit-nofile") == 0) o->rlimit_nofile = atoll(v);
    else if (strcmp(a, "--rlimit-stack") == 0) o->rlimit_stack = atoll(v);
    else if (strcmp(a, "--memory-limit") == 0) o->memory_limit = atoll(v);
    else if (strcmp(a, "--no-status") == 0) o->no_status = atoi(v);
    else if (strcmp(a, "--pids") == 0) o->pids_dir = v;
    else if (strcmp(a, "--pids-max") == 0) o->pids_max = atoll(v);
    else if (strcmp(a, "--workspace-dir") == 0) o->workspace.dir = v;
    else if (strcmp(a, "--workspace-lower") == 0) {
      if (o->workspace.lower_count == LAYERS_MAX) return -1;
      o->workspace.lower[o->workspace.lower_count++] = v;
    }
    else if (strcmp(a, "--workspace-upper") == 0) o->workspace.upper = v;
    else if (strcmp(a, "--workspace-work") == 0) o->workspace.upper_work = v;
    else if (strcmp(a, "--workspace-size") == 0) o->workspace.size = atoll(v);
    else if (strcmp(a, "--workspace-ro") == 0) o->workspace.read_only = atoi(v);
    else return -1;
  }
  if (i >= argc) return -1;
  if (o->workspace.dir != NULL && (o->workspace.lower_count == 0 ||
      (o->workspace.upper == NULL) != (o->workspace.upper_work == NULL) ||
      (o->workspace.read_only && o->workspace.upper != NULL))) return -1;
  for (int k = 0; k < o->passed_count; k++) {
    if (o->passed[k].target < 5 || o->passed[k].target > PASSED_FD_MAX) return -1;
  }
  if (o->seccomp_fd != -1 && (o->seccomp_fd < 5 || o->seccomp_fd > PASSED_FD_MAX)) return -1;
  o->argv = argv + i;
  return 0;
}

int main(int argc, char **argv) {
  struct options o;
  FILE *report = fdopen(REPORT_FD, "w");
  if (!report) report = stderr;
  if (parse_options(argc, argv, &o) != 0) {
    fprintf(report, "{\"error\":\"crucible-box: bad arguments\"}\n");
    return 2;
  }
  /* Orphans of the run (bwrap's children once bwrap is killed) are re-parented to us, so we can reap them. */
  prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  /* If Crucible dies, we get SIGTERM (taken by the signalfd below) and kill the run like any cancellation. */
  prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  if (ncpu < 1) ncpu = 1;

  /* SIGTERM/SIGINT/SIGHUP from Node mean "kill the run now"; take them through a signalfd. */
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  sigaddset(&mask, SIGHUP);
  sigprocmask(SIG_BLOCK, &mask, NULL);
  int sfd = signalfd(-1, &mask, SFD_CLOEXEC);

  char number[32];
  if (o.memory_dir && o.memory_limit > 0) {
    snprintf(number, sizeof number, "%lld", o.memory_limit);
    if (write_file(o.memory_dir, "memory.limit_in_bytes", number) != 0) {
      fprintf(report, "{\"error\":\"cannot set memory.limit_in_bytes: %s\"}\n", strerror(errno));
      return 1;
    }
  }
  if (o.pids_dir && o.pids_max > 0) {
    snprintf(number, sizeof number, "%lld", o.pids_max);
    if (write_file(o.pids_dir, "pids.max", number) != 0) {
      fprintf(report, "{\"error\":\"cannot set pids.max: %s\"}\n", strerror(errno));
      return 1;
    }
  }
  if (o.memory_dir) {
    write_file(o.memory_dir, "memory.max_usage_in_bytes", "0");
    write_file(o.memory_dir, "memory.failcnt", "0");
  }
  long long cpu_start_ns = o.cpuacct_dir ? read_number(o.cpuacct_dir, "cpuacct.usage") : -1;
  long long oom_start = o.memory_dir ? read_oom_kills(o.memory_dir) : -1;

  for (int k = 0; k < o.passed_count; k++) {
    int fd = open(o.passed[k].path, (o.passed[k].directory ? O_RDONLY | O_DIRECTORY : O_WRONLY) | O_CLOEXEC);
    int high = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, OWN_FD_MIN) : -1;
    if (fd >= 0) close(fd);
    if (high < 0) {
      fprintf(report, "{\"error\":\"open a descriptor for the box: %s\"}\n", strerror(errno));
      return 1;
    }
    o.passed[k].fd = high;
  }
  if (o.seccomp_fd >= 0) {
    int sp[2];
    if (pipe2(sp, O_CLOEXEC) != 0 || crucible_write_seccomp(sp[1]) != 0) {
      fprintf(report, "{\"error\":\"seccomp program: %s\"}\n", strerror(errno));
      return 1;
    }
    close(sp[1]);
    int high = fcntl(sp[0], F_DUPFD_CLOEXEC, OWN_FD_MIN);
    close(sp[0]);
    if (o.passed_count == MAX_PASSED || high < 0) {
      fprintf(report, "{\"error\":\"seccomp program: too many descriptors\"}\n");
      return 1;
    }
    o.passed[o.passed_count].target = o.seccomp_fd;
    o.passed[o.passed_count].fd = high;
    o.passed[o.passed_count].path = "seccomp";
    o.passed_count++;
  }
  int err_pipe[2], status_pipe[2];
  if (pipe2(err_pipe, O_CLOEXEC) != 0 || pipe2(status_pipe, O_CLOEXEC) != 0) {
    fprintf(report, "{\"error\":\"pipe: %s\"}\n", strerror(errno));
    return 1;
  }
  long long start_us = now_us();
  pid_t child = fork();
  if (child < 0) {
    fprintf(report, "{\"error\":\"fork: %s\"}\n", strerror(errno));
    return 1;
  }
  if (child == 0) {
    close(err_pipe[0]);
    close(status_pipe[0]);
    run_child(&o, err_pipe[1], status_pipe[1]);
  }
  close(err_pipe[1]);
  close(status_pipe[1]);
  for (int k = 0; k < o.passed_count; k++) close(o.passed[k].fd);
  int pidfd = (int)syscall(SYS_pidfd_open, child, 0);

  const char *limit_hit = NULL;
  int status = 0;
  int exited = 0;
  for (;;) {
    long long elapsed_ms = (now_us() - start_us) / 1000;
    long long timeout_ms = -1;
    if (o.wall_ms >= 0) {
      if (elapsed_ms >= o.wall_ms) { limit_hit = "wall"; break; }
      timeout_ms = o.wall_ms - elapsed_ms;
    }
    if (o.cpu_ms >= 0 && cpu_start_ns >= 0) {
      long long used_ms = (read_number(o.cpuacct_dir, "cpuacct.usage") - cpu_start_ns) / 1000000LL;
      if (used_ms > o.cpu_ms) { limit_hit = "cpu"; break; }
      /* The tree cannot spend its remaining budget faster than ncpu milliseconds per millisecond. */
      long long next = (o.cpu_ms - used_ms) / ncpu + 1;
      if (timeout_ms < 0 || next < timeout_ms) timeout_ms = next;
    }
    struct pollfd fds[2] = {{pidfd, POLLIN, 0}, {sfd, POLLIN, 0}};
    int ready = poll(fds, 2, (int)timeout_ms);
    if (ready < 0 && errno != EINTR) break;
    if (ready > 0 && (fds[1].revents & POLLIN)) { limit_hit = "killed"; break; }
    if (ready > 0 && (fds[0].revents & POLLIN)) {
      if (waitpid(child, &status, 0) == child) exited = 1;
      break;
    }
  }
  long long end_us = now_us();
  if (!exited) {
    kill(child, SIGKILL);
    kill(-child, SIGKILL);
  }
  /* Kill and drain whatever is still in the slot's cgroups, and reap every descendant (we are their
   * subreaper); the verdict waits until no process of the run is left, zombies included. */
  int tree_clean = 0;
  for (int round = 0; round < 4000; round++) {
    int left = 0;
    for (int i = 0; i < o.cgroup_count; i++) left += kill_cgroup(o.cgroups[i]);
    for (int i = 0; i < o.drain_count; i++) left += kill_cgroup(o.drain[i]);
    int no_children = 0;
    for (;;) {
      int st = 0;
      pid_t pid = waitpid(-1, &st, WNOHANG | __WALL);
      if (pid > 0) {
        if (pid == child && !exited) { status = st; exited = 1; }
        continue;
      }
      if (pid < 0 && errno == ECHILD) no_children = 1;
      break;
    }
    if (left == 0 && no_children) { tree_clean = 1; break; }
    struct timespec ts = {0, 250000};
    nanosleep(&ts, NULL);
  }

  char err_text[300] = {0};
  ssize_t err_len = read(err_pipe[0], err_text, sizeof err_text - 1);
  if (err_len < 0) err_len = 0;
  err_text[err_len] = 0;
  char status_text[512] = {0};
  ssize_t st_len = read(status_pipe[0], status_text, sizeof status_text - 1);
  if (st_len < 0) st_len = 0;
  status_text[st_len] = 0;
  char *nl = strchr(status_text, '\n');
  if (nl) *nl = 0;

  long long cpu_ns = cpu_start_ns >= 0 ? read_number(o.cpuacct_dir, "cpuacct.usage") - cpu_start_ns : -1;
  long long peak = o.memory_dir ? read_number(o.memory_dir, "memory.max_usage_in_bytes") : -1;
  long long oom_end = o.memory_dir ? read_oom_kills(o.memory_dir) : -1;
  long long failcnt = o.memory_dir ? read_number(o.memory_dir, "memory.failcnt") : -1;

  /* Page cache a run left charged to the slot counts in the next run's usage; reclaiming it costs ~4 ms and
   * evicts the toolchains' pages, so only do it when it is large (it is reclaimable before any OOM kill). */
  if (o.memory_dir && tree_clean && read_number(o.memory_dir, "memory.usage_in_bytes") > (64LL << 20)) {
    write_file(o.memory_dir, "memory.force_empty", "0");
  }
  fprintf(report, "{\"wallUs\":%lld,\"cpuNs\":%lld,\"memoryPeakBytes\":%lld,\"oomKills\":%lld,\"memoryFailcnt\":%lld,"
          "\"limit\":", end_us - start_us, cpu_ns, peak,
          (oom_start >= 0 && oom_end >= 0) ? oom_end - oom_start : -1, failcnt);
  if (limit_hit) json_string(report, limit_hit); else fputs("null", report);
  fprintf(report, ",\"treeClean\":%s,\"launcherExit\":", tree_clean ? "true" : "false");
  if (exited && WIFEXITED(status)) fprintf(report, "%d", WEXITSTATUS(status));
  else if (exited && WIFSIGNALED(status)) fprintf(report, "%d", 128 + WTERMSIG(status));
  else fputs("null", report);
  fputs(",\"setupError\":", report);
  if (err_len > 0) json_string(report, err_text); else fputs("null", report);
  fputs(",\"init\":", report);
  if (st_len > 0 && status_text[0] == '{') fputs(status_text, report); else fputs("null", report);
  fputs("}\n", report);
  fflush(report);
  return 0;
}
