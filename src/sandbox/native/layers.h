/*
 * A prepared workspace for one box: host directories Crucible made (a checked-out repository, its installed
 * dependencies) merged into one tree the box sees at one path, writable copy-on-write or read-only, made by
 * crucible-box as root before it drops to the slot's uid. Nothing of the host tree is ever writable by the box.
 *
 *   <dir>                 an empty host directory; a tmpfs of `size` bytes is mounted on it (mode 0755)
 *   <dir>/l0, l1, ...     each layer, cloned (open_tree) read-only, nosuid, nodev, and idmapped so that files
 *                         owned by Crucible's uid/gid (the layer's owner) are the slot's uid/gid: the program
 *                         owns the tree it works on and overlayfs can copy its files up
 *   <dir>/upper, work     the run's writable layer (on the tmpfs: its size is the quota; it dies with the
 *                         namespace), or host directories given by the caller when the writes must be kept
 *                         (a layer being built: a dependency install)
 *   <dir>/merged          overlayfs of them (lowerdir=l0:l1:..., top first), read-only when there is no upper
 *
 * All of it is done in a mount namespace of crucible-box's child (unshare(CLONE_NEWNS), mounts private), so the
 * host sees none of these mounts and they vanish with the run's last process; bubblewrap, started from that
 * namespace, binds <dir>/merged at the box path. Overlay over idmapped layers needs Linux 5.19.
 * Header-only (static functions): crucible-box is one statically linked binary.
 */
#ifndef CRUCIBLE_LAYERS_H
#define CRUCIBLE_LAYERS_H
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define LAYERS_MAX 8

struct layers {
  const char *dir;                 /* NULL: no workspace */
  const char *lower[LAYERS_MAX];   /* top first */
  int lower_count;
  const char *upper;               /* kept upper directory, or NULL for the tmpfs */
  const char *upper_work;          /* overlayfs work directory beside a kept upper */
  long long size;                  /* bytes of the tmpfs (the run's writable layer) */
  int read_only;
};

static int layers_write(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t len = (ssize_t)strlen(text);
  ssize_t wrote = write(fd, text, (size_t)len);
  int saved = errno;
  close(fd);
  errno = saved;
  return wrote == len ? 0 : -1;
}

/*
 * A user namespace whose only mapping is `owner` -> `uid` (and `owner_gid` -> `gid`): the idmapping of a layer's
 * mount. Made by a short-lived child that unshares and waits; returns a descriptor of it, or -1.
 */
static int layers_userns(uid_t owner, gid_t owner_gid, uid_t uid, gid_t gid) {
  int ready[2], go[2];
  if (pipe2(ready, O_CLOEXEC) != 0) return -1;
  if (pipe2(go, O_CLOEXEC) != 0) { close(ready[0]); close(ready[1]); return -1; }
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    close(ready[0]);
    close(go[1]);
    char c = unshare(CLONE_NEWUSER) == 0 ? 'y' : 'n';
    if (write(ready[1], &c, 1) != 1) _exit(1);
    if (read(go[0], &c, 1) < 0) _exit(1);
    _exit(0);
  }
  close(ready[1]);
  close(go[0]);
  char c = 'n';
  int fd = -1;
  if (read(ready[0], &c, 1) == 1 && c == 'y') {
    char path[64], map[96];
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)owner, (unsigned)uid);
    snprintf(path, sizeof path, "/proc/%d/uid_map", (int)pid);
    int ok = layers_write(path, map) == 0;
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)owner_gid, (unsigned)gid);
    snprintf(path, sizeof path, "/proc/%d/gid_map", (int)pid);
    ok = ok && layers_write(path, map) == 0;
    snprintf(path, sizeof path, "/proc/%d/ns/user", (int)pid);
    if (ok) fd = open(path, O_RDONLY | O_CLOEXEC);
  }
  int saved = errno;
  close(ready[0]);
  close(go[1]);
  while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
  errno = saved;
  return fd;
}

/* Attach a read-only, nosuid, nodev clone of `source` at `target`, idmapped through `userns`. */
static int layers_clone(const char *source, const char *target, int userns) {
  int tree = open_tree(AT_FDCWD, source, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
  if (tree < 0) return -1;
  struct mount_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_IDMAP;
  attr.userns_fd = (unsigned long long)userns;
  int rc = mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof attr);
  if (rc == 0) rc = move_mount(tree, "", AT_FDCWD, target, MOVE_MOUNT_F_EMPTY_PATH);
  int saved = errno;
  close(tree);
  errno = saved;
  return rc;
}

/*
 * Lay the workspace out (see the module comment) for a box run as `uid`/`gid`. Needs root (CAP_SYS_ADMIN in the
 * initial user namespace). Returns 0, or -1 with errno set and `*step` naming what failed.
 */
static int layers_make(const struct layers *l, uid_t uid, gid_t gid, const char **step) {
  char path[4096], options[4096];
  int len;
  *step = "a mount namespace for the workspace";
  if (unshare(CLONE_NEWNS) != 0) return -1;
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return -1;
  snprintf(options, sizeof options, "size=%lld,mode=0755", l->size > 0 ? l->size : 4096);
  *step = "the workspace's tmpfs";
  if (mount("crucible-workspace", l->dir, "tmpfs", MS_NOSUID | MS_NODEV, options) != 0) return -1;
  struct stat owner;
  /* Overlayfs wants two layers when none is writable: one read-only layer is its clone alone. */
  int single = l->read_only && l->lower_count == 1;
  *step = "the workspace's layers";
  len = snprintf(options, sizeof options, "lowerdir=");
  for (int i = 0; i < l->lower_count; i++) {
    if (stat(l->lower[i], &owner) != 0) return -1;
    int userns = layers_userns(owner.st_uid, owner.st_gid, uid, gid);
    if (userns < 0) return -1;
    if (single) snprintf(path, sizeof path, "%s/merged", l->dir);
    else snprintf(path, sizeof path, "%s/l%d", l->dir, i);
    int rc = mkdir(path, 0755) == 0 ? layers_clone(l->lower[i], path, userns) : -1;
    int saved = errno;
    close(userns);
    errno = saved;
    if (rc != 0) return -1;
    len += snprintf(options + len, sizeof options - (size_t)len, "%s%s", i == 0 ? "" : ":", path);
  }
  if (!l->read_only) {
    char upper[4096], work[4096];
    if (l->upper != NULL) {
      snprintf(upper, sizeof upper, "%s", l->upper);
      snprintf(work, sizeof work, "%s", l->upper_work);
    } else {
      snprintf(upper, sizeof upper, "%s/upper", l->dir);
      snprintf(work, sizeof work, "%s/work", l->dir);
      *step = "the workspace's writable layer";
      if (mkdir(upper, 0755) != 0 || mkdir(work, 0700) != 0) return -1;
    }
    /* The merged tree's root takes the upper root's owner: the program's. */
    *step = "the workspace's writable layer";
    if (chown(upper, uid, gid) != 0) return -1;
    len += snprintf(options + len, sizeof options - (size_t)len, ",upperdir=%s,workdir=%s", upper, work);
  }
  if (single) return 0;
  if (len >= (int)sizeof options - 1) { errno = ENAMETOOLONG; *step = "the workspace's mount options"; return -1; }
  snprintf(path, sizeof path, "%s/merged", l->dir);
  *step = "the workspace's overlay";
  if (mkdir(path, 0755) != 0) return -1;
  if (mount("crucible-workspace", path, "overlay", MS_NOSUID | MS_NODEV | (l->read_only ? MS_RDONLY : 0), options) != 0) return -1;
  return 0;
}
#endif
