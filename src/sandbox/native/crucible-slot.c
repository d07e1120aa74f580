/*
 * crucible-slot: the privileged supervisor of one slot's long-lived box. Runs as root outside the box, started
 * once per slot by Crucible's Node process; everything it enforces is enforced from outside the program.
 *
 * Theory of operation:
 *   node ──frames──> crucible-slot ──fork──> [child] PDEATHSIG, setns(slot netns), drop to the slot's uid/gid,
 *                                                    exec bwrap (user/pid/uts/ipc/mount namespaces, read-only
 *                                                    system, CAP_SYS_ADMIN + CAP_SETPCAP in the box's user
 *                                                    namespace only) ──> box-server (pid 1 of the box)
 *   box-server gives each run its own pid, mount and IPC namespaces and puts the program's tree in the slot's
 *   run cgroups (memory, pids, cpuacct) through cgroup.procs descriptors opened here, as root, and passed down
 *   (fds 5.., named to box-server by --cgroup-fd). For every run request from Node this process sets the memory
 *   and process limits, forwards the request, relays the program's output frames, and enforces the wall-clock
 *   bound and the CPU-time bound of the whole tree (cgroup cpuacct, read only when the remaining budget could
 *   have been spent). On a limit or a cancel frame from Node it SIGKILLs every task of the run cgroups, keeps
 *   relaying until box-server reports the run's end, waits until the run cgroups are empty, and sends one report
 *   frame (the same JSON as crucible-box's report). Nothing of a run outlives its report.
 *
 * Frames (u8 type, u32 little-endian length, payload):
 *   Node -> here: 'R' run (u32 seq, u32 token bytes, tokens "key\0value\0"..., stdin bytes; keys read here:
 *                 cpu-ms, wall-ms, memory-limit, pids-max; the frame is forwarded to box-server unchanged),
 *                 'C' cancel (u32 seq; ignored unless that run is in progress).
 *   here -> Node: 'O' / 'E' program output (relayed), 'R' report (u32 seq, JSON).
 * If the box itself fails (box-server ends), the current run's report carries "error" and this process exits 1;
 * Node starts a new box for the next run. Closing fd 0 ends the box and this process.
 * Arguments: --uid N --gid N --cgroup DIR (run cgroups, repeated) --cpuacct DIR --memory DIR --pids DIR
 *            [--netns PATH] [--cpu N: run the box (and so every run) on core N] -- bwrap ARGS... (box-server's path last; --cgroup-fd arguments are appended here).
 */
#define _GNU_SOURCE
#include <grp.h>
#include <poll.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include "frames.h"
#include "supervise.h"

#define MAX_CGROUPS 4
#define FIRST_CGROUP_FD 5

struct options {
  uid_t uid;
  gid_t gid;
  const char *cgroups[MAX_CGROUPS];
  int cgroup_count;
  const char *cpuacct_dir, *memory_dir, *pids_dir, *netns;
  int cpu; /* -1: no placement */
  char **bwrap_argv;
  int bwrap_argc;
};

static int node_in = 0, node_out = 1;
static int box_in = -1, box_out = -1;
static pid_t box_pid = -1;
static int signal_fd = -1;
static long ncpu = 1;

static void fatal(const char *what) {
  fprintf(stderr, "crucible-slot: %s: %s\n", what, strerror(errno));
  exit(1);
}

static void send_to_node(unsigned char type, const void *a, uint32_t alen, const void *b, uint32_t blen) {
  if (write_frame(node_out, type, a, alen, b, blen) != 0) {
    exit(0); /* Node is gone; PDEATHSIG/--die-with-parent take the box down. */
  }
}

static void start_box(const struct options *o) {
  int to_box[2], from_box[2];
  if (pipe2(to_box, O_CLOEXEC) != 0 || pipe2(from_box, O_CLOEXEC) != 0) fatal("pipe");
  int cgroup_fds[MAX_CGROUPS];
  for (int i = 0; i < o->cgroup_count; i++) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/cgroup.procs", o->cgroups[i]);
    cgroup_fds[i] = open(path, O_WRONLY | O_CLOEXEC);
    if (cgroup_fds[i] < 0) fatal("open cgroup.procs");
  }
  box_pid = fork();
  if (box_pid < 0) fatal("fork");
  if (box_pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (setsid() < 0) fatal("setsid");
    if (o->netns) {
      int fd = open(o->netns, O_RDONLY | O_CLOEXEC);
      if (fd < 0 || setns(fd, CLONE_NEWNET) != 0) fatal("setns(net)");
      close(fd);
    }
    if (dup2(to_box[0], 0) < 0 || dup2(from_box[1], 1) < 0) fatal("dup2");
    for (int i = 0; i < o->cgroup_count; i++) {
      if (dup2(cgroup_fds[i], FIRST_CGROUP_FD + i) < 0) fatal("dup2(cgroup)");
    }
    if (setgroups(0, NULL) != 0 || setresgid(o->gid, o->gid, o->gid) != 0 || setresuid(o->uid, o->uid, o->uid) != 0) {
      fatal("drop privileges");
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    char **argv = calloc((size_t)o->bwrap_argc + 2 * MAX_CGROUPS + 1, sizeof *argv);
    char numbers[MAX_CGROUPS][16];
    int n = 0;
    for (int i = 0; i < o->bwrap_argc; i++) argv[n++] = o->bwrap_argv[i];
    for (int i = 0; i < o->cgroup_count; i++) {
      snprintf(numbers[i], sizeof numbers[i], "%d", FIRST_CGROUP_FD + i);
      argv[n++] = "--cgroup-fd";
      argv[n++] = numbers[i];
    }
    argv[n] = NULL;
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execv(argv[0], argv);
    fatal("exec bwrap");
  }
  for (int i = 0; i < o->cgroup_count; i++) close(cgroup_fds[i]);
  close(to_box[0]);
  close(from_box[1]);
  box_in = to_box[1];
  box_out = from_box[0];
  /* Wait for box-server's ready frame, so that no run's wall time includes the box's start. */
  struct frame ready;
  if (read_frame(box_out, &ready) != 0 || ready.type != 'H') {
    fprintf(stderr, "crucible-slot: the box did not start\n");
    exit(1);
  }
  free(ready.payload);
}

static long long token_number(const unsigned char *payload, uint32_t len, const char *key) {
  if (len < 8) return -1;
  uint32_t token_bytes = u32_at(payload + 4);
  if (token_bytes > len - 8) return -1;
  const char *p = (const char *)payload + 8, *end = p + token_bytes;
  while (p < end) {
    const char *k = p;
    p += strnlen(p, (size_t)(end - p)) + 1;
    if (p >= end) break;
    const char *v = p;
    p += strnlen(p, (size_t)(end - p)) + 1;
    if (strcmp(k, key) == 0) return atoll(v);
  }
  return -1;
}

/* Kill every task of the run cgroups until they are empty (bounded); 1 when empty. */
static int drain_run(const struct options *o) {
  for (int round = 0; round < 4000; round++) {
    int left = 0;
    for (int i = 0; i < o->cgroup_count; i++) left += kill_cgroup(o->cgroups[i]);
    if (left == 0) return 1;
    struct timespec ts = {0, 250000};
    nanosleep(&ts, NULL);
  }
  return 0;
}

static void report_error(uint32_t seq, const char *message) {
  char text[512];
  int len = snprintf(text, sizeof text, "{\"error\":\"%s\"}", message);
  unsigned char s[4];
  put_u32(s, seq);
  send_to_node('R', s, 4, text, (uint32_t)len);
}

/* One run: limits, forward, relay, enforce, drain, report. */
static void run_one(const struct options *o, const struct frame *request) {
  uint32_t seq = request->len >= 4 ? u32_at(request->payload) : 0;
  long long cpu_ms = token_number(request->payload, request->len, "cpu-ms");
  long long wall_ms = token_number(request->payload, request->len, "wall-ms");
  long long memory_limit = token_number(request->payload, request->len, "memory-limit");
  long long pids_max = token_number(request->payload, request->len, "pids-max");
  /* The slot's cgroups are ours alone: write a limit only when it differs from the last run's. */
  static long long memory_limit_set = -1, pids_max_set = -1;
  char number[32];
  if (o->memory_dir && memory_limit > 0 && memory_limit != memory_limit_set) {
    snprintf(number, sizeof number, "%lld", memory_limit);
    if (write_file(o->memory_dir, "memory.limit_in_bytes", number) != 0) { report_error(seq, "cannot set memory.limit_in_bytes"); return; }
    memory_limit_set = memory_limit;
  }
  if (o->pids_dir && pids_max > 0 && pids_max != pids_max_set) {
    snprintf(number, sizeof number, "%lld", pids_max);
    if (write_file(o->pids_dir, "pids.max", number) != 0) { report_error(seq, "cannot set pids.max"); return; }
    pids_max_set = pids_max;
  }
  if (o->memory_dir) {
    write_file(o->memory_dir, "memory.max_usage_in_bytes", "0");
    write_file(o->memory_dir, "memory.failcnt", "0");
  }
  long long cpu_start_ns = o->cpuacct_dir ? read_number(o->cpuacct_dir, "cpuacct.usage") : -1;
  long long oom_start = o->memory_dir ? read_oom_kills(o->memory_dir) : -1;
  long long start_us = now_us();

  if (write_frame(box_in, 'R', request->payload, request->len, NULL, 0) != 0) {
    report_error(seq, "the slot's box is gone");
    exit(1);
  }
  const char *limit_hit = NULL;
  char *init_text = NULL;
  int box_failed = 0;
  long long end_us = 0;
  int killing = 0;
  long long kill_deadline_us = 0;
  while (init_text == NULL && !box_failed) {
    long long timeout_ms = -1;
    if (!killing) {
      long long elapsed_ms = (now_us() - start_us) / 1000;
      if (wall_ms >= 0) {
        if (elapsed_ms >= wall_ms) limit_hit = "wall";
        timeout_ms = wall_ms - elapsed_ms;
      }
      if (!limit_hit && cpu_ms >= 0 && cpu_start_ns >= 0) {
        long long used_ms = (read_number(o->cpuacct_dir, "cpuacct.usage") - cpu_start_ns) / 1000000LL;
        if (used_ms > cpu_ms) limit_hit = "cpu";
        long long next = (cpu_ms - used_ms) / ncpu + 1;
        if (timeout_ms < 0 || next < timeout_ms) timeout_ms = next;
      }
    } else {
      /* Killed: the run's end must follow at once; keep killing (a fork racing the kill) until it does. */
      for (int i = 0; i < o->cgroup_count; i++) kill_cgroup(o->cgroups[i]);
      if (now_us() > kill_deadline_us) { box_failed = 1; break; }
      timeout_ms = 5;
    }
    if (limit_hit && !killing) {
      end_us = now_us();
      killing = 1;
      kill_deadline_us = end_us + 10000000LL;
      continue;
    }
    struct pollfd fds[3] = {{box_out, POLLIN, 0}, {node_in, POLLIN, 0}, {signal_fd, POLLIN, 0}};
    int ready = poll(fds, 3, (int)timeout_ms);
    if (ready < 0 && errno != EINTR) fatal("poll");
    if (ready <= 0) continue;
    if (fds[2].revents & POLLIN) {
      struct signalfd_siginfo info;
      if (read(signal_fd, &info, sizeof info) > 0 && !limit_hit) limit_hit = "killed";
      drain_run(o);
      exit(0);
    }
    if (fds[1].revents & (POLLIN | POLLHUP)) {
      struct frame f;
      if (read_frame(node_in, &f) != 0) { drain_run(o); exit(0); }
      if (f.type == 'C' && f.len >= 4 && u32_at(f.payload) == seq && !limit_hit) limit_hit = "killed";
      free(f.payload);
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      struct frame f;
      if (read_frame(box_out, &f) != 0) { box_failed = 1; break; }
      if (f.type == 'O' || f.type == 'E') send_to_node(f.type, f.payload, f.len, NULL, 0);
      if (f.type == 'X') init_text = (char *)f.payload;
      else free(f.payload);
    }
  }
  if (!end_us) end_us = now_us();
  if (box_failed) {
    /* Report only once bubblewrap is reaped and the run cgroups are empty: nothing of the box outlives it. */
    kill(box_pid, SIGKILL);
    waitpid(box_pid, NULL, 0);
    drain_run(o);
    report_error(seq, "the slot's box ended during the run");
    exit(1);
  }
  int tree_clean = drain_run(o);
  long long cpu_ns = cpu_start_ns >= 0 ? read_number(o->cpuacct_dir, "cpuacct.usage") - cpu_start_ns : -1;
  long long peak = o->memory_dir ? read_number(o->memory_dir, "memory.max_usage_in_bytes") : -1;
  long long oom_end = o->memory_dir ? read_oom_kills(o->memory_dir) : -1;
  long long failcnt = o->memory_dir ? read_number(o->memory_dir, "memory.failcnt") : -1;
  /* As in crucible-box: reclaim a run's page cache only when it is large. */
  if (o->memory_dir && tree_clean && read_number(o->memory_dir, "memory.usage_in_bytes") > (64LL << 20)) {
    write_file(o->memory_dir, "memory.force_empty", "0");
  }
  char *json = NULL;
  size_t json_len = 0;
  FILE *out = open_memstream(&json, &json_len);
  if (!out) fatal("open_memstream");
  fprintf(out, "{\"wallUs\":%lld,\"cpuNs\":%lld,\"memoryPeakBytes\":%lld,\"oomKills\":%lld,\"memoryFailcnt\":%lld,"
          "\"limit\":", end_us - start_us, cpu_ns, peak,
          (oom_start >= 0 && oom_end >= 0) ? oom_end - oom_start : -1, failcnt);
  if (limit_hit) json_string(out, limit_hit); else fputs("null", out);
  fprintf(out, ",\"treeClean\":%s,\"launcherExit\":0,\"setupError\":null,\"init\":", tree_clean ? "true" : "false");
  /* C1's status is one JSON object written by our own code; anything else means it wrote none. */
  if (init_text[0] == '{' && strchr(init_text, '\n') == NULL) fputs(init_text, out); else fputs("null", out);
  fputs("}", out);
  fclose(out);
  unsigned char s[4];
  put_u32(s, seq);
  send_to_node('R', s, 4, json, (uint32_t)json_len);
  free(json);
  free(init_text);
}

static int parse_options(int argc, char **argv, struct options *o) {
  memset(o, 0, sizeof *o);
  o->cpu = -1;
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) { i++; break; }
    if (i + 1 >= argc) return -1;
    const char *v = argv[++i];
    if (strcmp(a, "--uid") == 0) o->uid = (uid_t)atol(v);
    else if (strcmp(a, "--gid") == 0) o->gid = (gid_t)atol(v);
    else if (strcmp(a, "--cgroup") == 0) { if (o->cgroup_count == MAX_CGROUPS) return -1; o->cgroups[o->cgroup_count++] = v; }
    else if (strcmp(a, "--cpuacct") == 0) o->cpuacct_dir = v;
    else if (strcmp(a, "--memory") == 0) o->memory_dir = v;
    else if (strcmp(a, "--pids") == 0) o->pids_dir = v;
    else if (strcmp(a, "--netns") == 0) o->netns = v;
    else if (strcmp(a, "--cpu") == 0) o->cpu = atoi(v);
    else return -1;
  }
  if (i >= argc || o->uid == 0) return -1;
  o->bwrap_argv = argv + i;
  o->bwrap_argc = argc - i;
  return 0;
}

int main(int argc, char **argv) {
  struct options o;
  if (parse_options(argc, argv, &o) != 0) {
    fprintf(stderr, "crucible-slot: bad arguments\n");
    return 2;
  }
  /* If Crucible dies we get SIGTERM: kill the run in progress and leave (the box dies with us). */
  prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
  ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  if (ncpu < 1) ncpu = 1;
  signal(SIGPIPE, SIG_IGN);
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  sigaddset(&mask, SIGHUP);
  sigprocmask(SIG_BLOCK, &mask, NULL);
  signal_fd = signalfd(-1, &mask, SFD_CLOEXEC);
  if (o.cpu >= 0) {
    /* Placement, not a limit (a program may widen its own affinity): the slot's runs start on a warm core. */
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(o.cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) fprintf(stderr, "crucible-slot: sched_setaffinity: %s\n", strerror(errno));
  }
  start_box(&o);
  for (;;) {
    struct pollfd fds[3] = {{node_in, POLLIN, 0}, {signal_fd, POLLIN, 0}, {box_out, POLLIN, 0}};
    if (poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      fatal("poll");
    }
    if (fds[1].revents & POLLIN) break;
    if (fds[2].revents & (POLLIN | POLLHUP | POLLERR)) {
      fprintf(stderr, "crucible-slot: the box ended while idle\n");
      break;
    }
    if (!(fds[0].revents & (POLLIN | POLLHUP))) continue;
    struct frame f;
    if (read_frame(node_in, &f) != 0) break;
    if (f.type == 'R') run_one(&o, &f);
    free(f.payload);
  }
  drain_run(&o);
  kill(box_pid, SIGKILL);
  waitpid(box_pid, NULL, 0);
  return 0;
}
