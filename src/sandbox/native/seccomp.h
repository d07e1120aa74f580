/*
 * The seccomp filter of every untrusted program Crucible runs: a short classic-BPF program, written here by
 * hand (no libseccomp), that denies the system calls judged programs never need and that widen the kernel's
 * attack surface or let state outlive a run. Shared by box-server (each run's program in a slot box), box-init
 * (the program of a per-run box) and crucible-box (which hands the same program to bubblewrap's --seccomp for
 * boxes whose pid 1 is the program itself: the Python judge harness, so its candidates and testers too).
 *
 * Policy (docs/SECURITY.md "System calls" has the table):
 *   - foreign architectures (i386 through int 0x80, ...) and the x32 ABI: the process is killed (SIGSYS): no
 *     program we run uses them, and the numbers below only mean something in the native table;
 *   - clone3: ENOSYS, so that libc falls back to clone, whose flags a classic filter can read (clone3 passes
 *     them in memory, which seccomp cannot inspect);
 *   - clone and unshare with any namespace flag: EPERM (threads, fork and vfork stay allowed);
 *   - the deny list below: EPERM, the answer a program already gets for many of them without capabilities, so
 *     a program that merely probes (a runtime checking for io_uring, a library trying perf counters) degrades
 *     the way it would on a locked-down host instead of crashing;
 *   - everything else: allowed.
 * Header-only (static functions): each program is one statically linked binary.
 */
#ifndef CRUCIBLE_SECCOMP_H
#define CRUCIBLE_SECCOMP_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* CLONE_NEW* from <sched.h> */
#endif
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define CRUCIBLE_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define CRUCIBLE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "seccomp.h: add this architecture's AUDIT_ARCH"
#endif

#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000U
#endif
#define CRUCIBLE_X32_SYSCALL_BIT 0x40000000U

/* Namespace flags of clone(2) and unshare(2). CLONE_NEWTIME shares its bit with clone's exit-signal byte, so it
 * is only checked for unshare. */
#define CRUCIBLE_CLONE_NS_FLAGS (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | \
                                 CLONE_NEWPID | CLONE_NEWNET)
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#define CRUCIBLE_UNSHARE_NS_FLAGS (CRUCIBLE_CLONE_NS_FLAGS | CLONE_NEWTIME)

/* Denied with EPERM. Each entry is guarded: a syscall this architecture lacks is simply absent. */
static const int crucible_denied_syscalls[] = {
    /* kernel keyrings: a key stored by one run would be read by the next run of the same uid */
#ifdef __NR_add_key
    __NR_add_key,
#endif
#ifdef __NR_keyctl
    __NR_keyctl,
#endif
#ifdef __NR_request_key
    __NR_request_key,
#endif
    /* large kernel attack surface no judged program needs */
#ifdef __NR_io_uring_setup
    __NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register,
#endif
#ifdef __NR_userfaultfd
    __NR_userfaultfd,
#endif
#ifdef __NR_bpf
    __NR_bpf,
#endif
#ifdef __NR_perf_event_open
    __NR_perf_event_open,
#endif
    /* namespaces and mounts (the box's own set-up is done before the filter is installed) */
#ifdef __NR_setns
    __NR_setns,
#endif
#ifdef __NR_mount
    __NR_mount,
#endif
#ifdef __NR_umount2
    __NR_umount2,
#endif
#ifdef __NR_pivot_root
    __NR_pivot_root,
#endif
#ifdef __NR_chroot
    __NR_chroot,
#endif
#ifdef __NR_open_tree
    __NR_open_tree, __NR_move_mount, __NR_fsopen, __NR_fsconfig, __NR_fsmount, __NR_fspick,
#endif
#ifdef __NR_mount_setattr
    __NR_mount_setattr,
#endif
    /* other processes' memory */
#ifdef __NR_ptrace
    __NR_ptrace,
#endif
#ifdef __NR_process_vm_readv
    __NR_process_vm_readv, __NR_process_vm_writev,
#endif
#ifdef __NR_process_madvise
    __NR_process_madvise,
#endif
#ifdef __NR_pidfd_getfd
    __NR_pidfd_getfd,
#endif
#ifdef __NR_kcmp
    __NR_kcmp,
#endif
    /* the machine itself */
#ifdef __NR_kexec_load
    __NR_kexec_load,
#endif
#ifdef __NR_kexec_file_load
    __NR_kexec_file_load,
#endif
#ifdef __NR_init_module
    __NR_init_module,
#endif
#ifdef __NR_finit_module
    __NR_finit_module,
#endif
#ifdef __NR_delete_module
    __NR_delete_module,
#endif
#ifdef __NR_swapon
    __NR_swapon, __NR_swapoff,
#endif
#ifdef __NR_reboot
    __NR_reboot,
#endif
#ifdef __NR_acct
    __NR_acct,
#endif
#ifdef __NR_quotactl
    __NR_quotactl,
#endif
#ifdef __NR_quotactl_fd
    __NR_quotactl_fd,
#endif
#ifdef __NR_syslog
    __NR_syslog,
#endif
#ifdef __NR_settimeofday
    __NR_settimeofday,
#endif
#ifdef __NR_clock_settime
    __NR_clock_settime,
#endif
#ifdef __NR_clock_adjtime
    __NR_clock_adjtime,
#endif
#ifdef __NR_sethostname
    __NR_sethostname,
#endif
#ifdef __NR_setdomainname
    __NR_setdomainname,
#endif
#ifdef __NR_vhangup
    __NR_vhangup,
#endif
#ifdef __NR_iopl
    __NR_iopl,
#endif
#ifdef __NR_ioperm
    __NR_ioperm,
#endif
#ifdef __NR_uselib
    __NR_uselib,
#endif
#ifdef __NR_lookup_dcookie
    __NR_lookup_dcookie,
#endif
#ifdef __NR_fanotify_init
    __NR_fanotify_init,
#endif
    /* files by handle (bypass path-based confinement) */
#ifdef __NR_open_by_handle_at
    __NR_open_by_handle_at,
#endif
#ifdef __NR_name_to_handle_at
    __NR_name_to_handle_at,
#endif
    /* POSIX message queues: named objects of the IPC namespace that no clean-up can list */
#ifdef __NR_mq_open
    __NR_mq_open, __NR_mq_unlink,
#endif
};

#define CRUCIBLE_DENIED_COUNT (sizeof crucible_denied_syscalls / sizeof crucible_denied_syscalls[0])
/* Instructions: 4 (arch, nr, x32) + 4 (clone3, clone, unshare dispatch) + one per denied syscall + 1 (allow)
 * + 6 (the two flag checks) + 3 (the returns). */
#define CRUCIBLE_FILTER_MAX (CRUCIBLE_DENIED_COUNT + 24)

#define CRUCIBLE_STMT(code, k) ((struct sock_filter){(unsigned short)(code), 0, 0, (unsigned int)(k)})
#define CRUCIBLE_JUMP(code, k, jt, jf) ((struct sock_filter){(unsigned short)(code), (unsigned char)(jt), (unsigned char)(jf), (unsigned int)(k)})

/*
 * Write the filter into `prog` (at least CRUCIBLE_FILTER_MAX entries); returns the number of instructions.
 * Layout: checks, then a chain of `nr == X -> deny` tests, then ALLOW, then the flag checks of clone and
 * unshare, then the shared returns (KILL, ENOSYS, EPERM) that every jump targets by a forward offset.
 */
static inline size_t crucible_seccomp_program(struct sock_filter *prog) {
  size_t n = 0;
  const size_t denied = CRUCIBLE_DENIED_COUNT;
  /* Indexes of the fixed tail, known in advance so that every jump is forward. */
  const size_t chain = 8;                       /* first deny test */
  const size_t allow = chain + denied;          /* RET ALLOW */
  const size_t clone_check = allow + 1;         /* 3 instructions */
  const size_t unshare_check = clone_check + 3; /* 3 instructions */
  const size_t ret_kill = unshare_check + 3;
  const size_t ret_enosys = ret_kill + 1;
  const size_t ret_eperm = ret_enosys + 1;
#define CRUCIBLE_TO(target) ((target) - n - 1)
  prog[n] = CRUCIBLE_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)); n++;
  prog[n] = CRUCIBLE_JUMP(BPF_JMP | BPF_JEQ | BPF_K, CRUCIBLE_AUDIT_ARCH, 0, CRUCIBLE_TO(ret_kill)); n++;
  prog[n] = CRUCIBLE_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)); n++;
#if defined(__x86_64__)
  prog[n] = CRUCIBLE_JUMP(BPF_JMP | BPF_JGE | BPF_K, CRUCIBLE_X32_SYSCALL_BIT, CRUCIBLE_TO(ret_kill), 0); n++;
#else
  prog[n] = CRUCIBLE_JUMP(BPF_JMP | BPF_JA, 0, 0, 0); n++; /* keeps the layout */
#endif
#ifdef __NR_clone3
  prog[n] = CRUCIBLE_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, CRUCIBLE_TO(ret_enosys), 0); n++;
#else
  prog[n] = CRUCIBLE_JUMP(BPF_JMP | BPF_JA, 0, 0, 0); n++;
#endif
  prog[n] = CRUCIBLE_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, CRUCIBLE_TO(clone_check), 0); n++;
  prog[n] = CRUCIBLE_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_unshare, CRUCIBLE_TO(unshare_check), 0); n++;
  prog[n] = CRUCIBLE_JUMP(BPF_JMP | BPF_JA, 0, 0, 0); n++;
  for (size_t i = 0; i < denied; i++) {
    prog[n] = CRUCIBLE_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)crucible_denied_syscalls[i], CRUCIBLE_TO(ret_eperm), 0);
    n++;
  }
  prog[n] = CRUCIBLE_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW); n++;
  /* clone(flags, ...): x86_64 and arm64 both pass the flags first; the low 32 bits hold every flag. */
  prog[n] = CRUCIBLE_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])); n++;
  prog[n] = CRUCIBLE_JUMP(BPF_JMP | BPF_JSET | BPF_K, CRUCIBLE_CLONE_NS_FLAGS, CRUCIBLE_TO(ret_eperm), 0); n++;
  prog[n] = CRUCIBLE_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW); n++;
  prog[n] = CRUCIBLE_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])); n++;
  prog[n] = CRUCIBLE_JUMP(BPF_JMP | BPF_JSET | BPF_K, CRUCIBLE_UNSHARE_NS_FLAGS, CRUCIBLE_TO(ret_eperm), 0); n++;
  prog[n] = CRUCIBLE_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW); n++;
  prog[n] = CRUCIBLE_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS); n++;
  prog[n] = CRUCIBLE_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)); n++;
  prog[n] = CRUCIBLE_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)); n++;
#undef CRUCIBLE_TO
  return n;
}

/* Install the filter on the calling thread (and everything it execs or forks). Sets no_new_privs, which an
 * unprivileged filter requires. Returns 0, or -1 with errno set. */
static inline int crucible_install_seccomp(void) {
  struct sock_filter prog[CRUCIBLE_FILTER_MAX];
  struct sock_fprog fprog = {(unsigned short)crucible_seccomp_program(prog), prog};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
  return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog);
}

/* Write the filter's instructions to `fd` (bubblewrap's --seccomp reads them until end of file). Returns 0 or -1. */
static inline int crucible_write_seccomp(int fd) {
  struct sock_filter prog[CRUCIBLE_FILTER_MAX];
  size_t n = crucible_seccomp_program(prog);
  const char *p = (const char *)prog;
  size_t left = n * sizeof prog[0];
  while (left > 0) {
    ssize_t wrote = write(fd, p, left);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return -1;
    p += wrote;
    left -= (size_t)wrote;
  }
  return 0;
}
#endif
