/*
 * A run's writable space: ONE size-limited tmpfs per run, made by the run's init inside the run's own mount
 * namespace (box-server's C1 in a slot box, box-init in a per-run box), holding three directories bound at
 * /box, /tmp and /dev/shm. One quota covers all three (`size=`; `nr_inodes=` bounds empty files too); a
 * program that exceeds it gets ENOSPC, and the host's disk is never touched: the tmpfs dies with the run's
 * mount namespace, whatever tree the program built in it (depth, names, modes). Its pages are memory, so they
 * also count towards the run's memory limit (the program's cgroup is charged for what it writes).
 *
 * The request's files (written by Crucible into the run's host work directory: regular files, in directories
 * when a request names nested paths) are copied in before the program starts. A run whose work directory is kept (a compilation: its artifacts are mounted
 * read-only into later runs) gets the tree under /box copied back to the host work directory after every
 * process of the run is dead: directories and regular files only, names of printable ASCII, at most
 * WORKSPACE_MAX_DEPTH levels and WORKSPACE_MAX_ENTRIES entries, modes normalised to 0755/0644, so that the
 * host only ever holds a tree Crucible can list and remove; anything else is skipped and counted.
 * Header-only (static functions): each program is one statically linked binary.
 */
#ifndef CRUCIBLE_WORKSPACE_H
#define CRUCIBLE_WORKSPACE_H
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define WORKSPACE_MAX_DEPTH 16
#define WORKSPACE_MAX_ENTRIES 10000
/* Below this much free space the quota counts as exhausted (a write that failed with ENOSPC left less). */
#define WORKSPACE_FULL_SLACK_BYTES (256 * 1024)

/* Remount a bind mount with its current flags plus `extra`: flags a box's mounts carry are locked, and a
 * remount that omits one (nodev, an atime mode) is refused. */
static inline int remount_adding(const char *path, unsigned long extra) {
  struct statvfs st;
  if (statvfs(path, &st) != 0) return -1;
  static const struct { unsigned long st, ms; } map[] = {
      {ST_RDONLY, MS_RDONLY}, {ST_NOSUID, MS_NOSUID}, {ST_NODEV, MS_NODEV}, {ST_NOEXEC, MS_NOEXEC},
      {ST_NOATIME, MS_NOATIME}, {ST_NODIRATIME, MS_NODIRATIME}, {ST_RELATIME, MS_RELATIME}};
  unsigned long flags = MS_REMOUNT | MS_BIND | extra;
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) if (st.f_flag & map[i].st) flags |= map[i].ms;
  return mount(NULL, path, NULL, flags, NULL);
}

static inline int workspace_copy_file(int src_dir, const char *name, int dst_dir, mode_t mode) {
  int in = openat(src_dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (in < 0) return -1;
  struct stat st;
  if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) { close(in); errno = EINVAL; return -1; }
  int out = openat(dst_dir, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode);
  if (out < 0) { close(in); return -1; }
  static char buf[65536];
  int rc = 0;
  for (;;) {
    ssize_t got = read(in, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) { rc = -1; break; }
    if (got == 0) break;
    for (ssize_t done = 0; done < got;) {
      ssize_t wrote = write(out, buf + done, (size_t)(got - done));
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote <= 0) { rc = -1; break; }
      done += wrote;
    }
    if (rc != 0) break;
  }
  int saved = errno;
  if (fchmod(out, mode) != 0 && rc == 0) { rc = -1; saved = errno; }
  close(in);
  close(out);
  errno = saved;
  return rc;
}

/*
 * Copy the request's files: the tree of `src_fd` (the host work directory Crucible wrote: directories and regular
 * files, names not starting with '.') into `dst_fd` (the box directory of the run's tmpfs), at most
 * WORKSPACE_MAX_DEPTH levels deep. Iterative (an explicit stack), never follows a symbolic link (there are none:
 * nothing of the program has run yet, but the rule costs nothing); other entries are ignored. Returns 0, or -1
 * with errno set.
 */
static inline int workspace_copy_in(int src_fd, int dst_fd) {
  struct level { DIR *src; int dst; } stack[WORKSPACE_MAX_DEPTH + 1];
  int depth = 0, rc = 0;
  int list = dup(src_fd);
  DIR *top = list >= 0 ? fdopendir(list) : NULL;
  if (top == NULL) { if (list >= 0) close(list); return -1; }
  rewinddir(top);
  stack[0].src = top;
  stack[0].dst = dup(dst_fd);
  if (stack[0].dst < 0) { closedir(top); return -1; }
  while (depth >= 0) {
    struct level *lv = &stack[depth];
    struct dirent *e = rc == 0 ? readdir(lv->src) : NULL;
    if (e == NULL) {
      int saved = errno;
      closedir(lv->src);
      close(lv->dst);
      errno = saved;
      depth--;
      continue;
    }
    if (e->d_name[0] == '.') continue;
    int from = dirfd(lv->src);
    struct stat st;
    if (fstatat(from, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) { rc = -1; continue; }
    if (S_ISREG(st.st_mode)) {
      rc = workspace_copy_file(from, e->d_name, lv->dst, (st.st_mode & 0111) ? 0755 : 0644);
    } else if (S_ISDIR(st.st_mode)) {
      if (depth >= WORKSPACE_MAX_DEPTH) { rc = -1; errno = ELOOP; continue; }
      if (mkdirat(lv->dst, e->d_name, 0755) != 0) { rc = -1; continue; }
      int s = openat(from, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      int d = openat(lv->dst, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      DIR *sd = s >= 0 ? fdopendir(s) : NULL;
      if (sd == NULL || d < 0) {
        int saved = errno;
        if (sd) closedir(sd); else if (s >= 0) close(s);
        if (d >= 0) close(d);
        errno = saved;
        rc = -1;
        continue;
      }
      depth++;
      stack[depth].src = sd;
      stack[depth].dst = d;
    }
  }
  return rc;
}

/* Where a run with an outbox finds it: a directory of the run's tmpfs, copied out when the run ends. */
#define WORKSPACE_OUTBOX "/crucible/out"

/*
 * Mount the run's tmpfs at `stage` (an empty directory of the box), copy the files of `src_fd` (the host work
 * directory, or -1 for none; see workspace_copy_in) into its box/ directory, bind box/, tmp/ and shm/ at /box, /tmp and
 * /dev/shm (and, with `outbox`, out/ at WORKSPACE_OUTBOX, a mount point the box has), and detach the stage. Needs
 * CAP_SYS_ADMIN in the mount namespace's user namespace. Returns 0, or -1 with errno set and `*step` naming what
 * failed.
 */
static inline int workspace_make_with(const char *stage, long long disk_bytes, int src_fd, int outbox, const char **step) {
  char options[128], path[256];
  long long inodes = disk_bytes / 4096;
  if (inodes < 1024) inodes = 1024;
  snprintf(options, sizeof options, "size=%lld,nr_inodes=%lld,mode=0755", disk_bytes, inodes);
  *step = "mount the run's tmpfs";
  if (mount("crucible-run", stage, "tmpfs", MS_NOSUID | MS_NODEV, options) != 0) return -1;
  static const struct { const char *name, *target; mode_t mode; } dirs[] = {
      {"box", "/box", 0755}, {"tmp", "/tmp", 01777}, {"shm", "/dev/shm", 01777}, {"out", WORKSPACE_OUTBOX, 0755}};
  size_t count = sizeof dirs / sizeof dirs[0] - (outbox ? 0 : 1);
  for (size_t i = 0; i < count; i++) {
    snprintf(path, sizeof path, "%s/%s", stage, dirs[i].name);
    *step = "make the run's directories";
    if (mkdir(path, dirs[i].mode) != 0 || chmod(path, dirs[i].mode) != 0) return -1;
  }
  if (src_fd >= 0) {
    snprintf(path, sizeof path, "%s/box", stage);
    *step = "copy the request's files";
    int dst = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dst < 0) return -1;
    int rc = workspace_copy_in(src_fd, dst);
    int saved = errno;
    close(dst);
    errno = saved;
    if (rc != 0) return -1;
  }
  for (size_t i = 0; i < count; i++) {
    snprintf(path, sizeof path, "%s/%s", stage, dirs[i].name);
    *step = "bind the run's directories";
    if (mount(path, dirs[i].target, NULL, MS_BIND, NULL) != 0) return -1;
  }
  *step = "detach the run's tmpfs";
  if (umount2(stage, MNT_DETACH) != 0) return -1;
  return 0;
}

/* The run's tmpfs without an outbox (see workspace_make_with). */
static inline int workspace_make(const char *stage, long long disk_bytes, int src_fd, const char **step) {
  return workspace_make_with(stage, disk_bytes, src_fd, 0, step);
}

/* Used and free bytes of the run's tmpfs (seen through /box); -1 when unknown. */
static inline void workspace_usage(long long *used_bytes, int *full) {
  struct statvfs st;
  if (statvfs("/box", &st) != 0) { *used_bytes = -1; *full = 0; return; }
  *used_bytes = (long long)(st.f_blocks - st.f_bfree) * (long long)st.f_frsize;
  *full = (long long)st.f_bavail * (long long)st.f_frsize < WORKSPACE_FULL_SLACK_BYTES || st.f_favail == 0;
}

static inline int workspace_plain_name(const char *name) {
  if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) return 0;
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
    if (*p < 0x20 || *p > 0x7e) return 0;
  }
  return 1;
}

/*
 * Copy the tree under `source` (/box, or the outbox) to `dst_fd` (the kept host work directory, or its out/) once
 * every process of the run is dead.
 * Iterative (an explicit stack of directory pairs, at most WORKSPACE_MAX_DEPTH deep), never follows a symbolic
 * link, makes unreadable entries readable first (the init owns them). Returns how many entries were skipped
 * (not a directory or regular file, odd names, too deep, too many, or failed to copy).
 */
static inline int workspace_copy_out_from(const char *source, int dst_fd) {
  struct level { DIR *src; int dst; } stack[WORKSPACE_MAX_DEPTH + 1];
  int depth = 0, skipped = 0, entries = 0;
  chmod(source, 0755);
  int root = open(source, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  DIR *top = root >= 0 ? fdopendir(root) : NULL;
  if (top == NULL) return 1;
  stack[0].src = top;
  stack[0].dst = dup(dst_fd);
  while (depth >= 0) {
    struct level *lv = &stack[depth];
    struct dirent *e = readdir(lv->src);
    if (e == NULL) {
      closedir(lv->src);
      close(lv->dst);
      depth--;
      continue;
    }
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    int src_fd = dirfd(lv->src);
    struct stat st;
    if (!workspace_plain_name(e->d_name) || ++entries > WORKSPACE_MAX_ENTRIES ||
        fstatat(src_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
      skipped++;
      continue;
    }
    if (S_ISREG(st.st_mode)) {
      if (!(st.st_mode & S_IRUSR)) fchmodat(src_fd, e->d_name, (st.st_mode & 07777) | S_IRUSR, 0);
      if (workspace_copy_file(src_fd, e->d_name, lv->dst, (st.st_mode & 0111) ? 0755 : 0644) != 0) skipped++;
    } else if (S_ISDIR(st.st_mode) && depth < WORKSPACE_MAX_DEPTH) {
      fchmodat(src_fd, e->d_name, 0700, 0);
      if (mkdirat(lv->dst, e->d_name, 0755) != 0 && errno != EEXIST) { skipped++; continue; }
      int s = openat(src_fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      int d = openat(lv->dst, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      DIR *sd = s >= 0 ? fdopendir(s) : NULL;
      if (sd == NULL || d < 0) {
        if (sd) closedir(sd); else if (s >= 0) close(s);
        if (d >= 0) close(d);
        skipped++;
        continue;
      }
      depth++;
      stack[depth].src = sd;
      stack[depth].dst = d;
    } else {
      skipped++;
    }
  }
  return skipped;
}

/* Copy /box out (a kept run). */
static inline int workspace_copy_out(int dst_fd) {
  return workspace_copy_out_from("/box", dst_fd);
}
#endif
