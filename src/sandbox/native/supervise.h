/*
 * Helpers shared by Crucible's two supervisors outside the box (crucible-box: one execution per process;
 * crucible-slot: a slot's long-lived box): monotonic time, cgroup v1 files (limits, accounting, OOM kills,
 * killing every task) and JSON string output for their reports.
 * Header-only (static functions): each supervisor is one statically linked program.
 */
#ifndef CRUCIBLE_SUPERVISE_H
#define CRUCIBLE_SUPERVISE_H
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline long long now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static inline int write_file(const char *dir, const char *name, const char *text) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t len = (ssize_t)strlen(text);
  ssize_t wrote = write(fd, text, (size_t)len);
  close(fd);
  return wrote == len ? 0 : -1;
}

static inline long long read_number(const char *dir, const char *name) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[64];
  ssize_t got = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (got <= 0) return -1;
  buf[got] = 0;
  return atoll(buf);
}

/* oom_kill counter from memory.oom_control (cgroup v1, kernel >= 4.13). */
static inline long long read_oom_kills(const char *dir) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/memory.oom_control", dir);
  FILE *f = fopen(path, "re");
  if (!f) return -1;
  char key[64];
  long long value = -1, result = -1;
  while (fscanf(f, "%63s %lld", key, &value) == 2) {
    if (strcmp(key, "oom_kill") == 0) result = value;
  }
  fclose(f);
  return result;
}

/* SIGKILL every task of a cgroup; returns how many were still there. */
static inline int kill_cgroup(const char *dir) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/cgroup.procs", dir);
  FILE *f = fopen(path, "re");
  if (!f) return 0;
  int count = 0;
  long pid;
  while (fscanf(f, "%ld", &pid) == 1) {
    kill((pid_t)pid, SIGKILL);
    count++;
  }
  fclose(f);
  return count;
}


static inline void json_string(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
    else if (c < 0x20) fprintf(out, "\\u%04x", c);
    else fputc(c, out);
  }
  fputc('"', out);
}

#endif
