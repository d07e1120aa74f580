/* Try every class of system call the seccomp filter denies, with harmless arguments, and print what the
 * kernel answered: "<name> <errno name>" per line ("ok" if a call succeeded). Then check that what programs do
 * need still works: fork, a thread (glibc tries clone3 first and falls back to clone), a plain clone. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void report(const char *name, long rc) {
  if (rc >= 0) printf("%s ok\n", name);
  else printf("%s %s\n", name, errno == EPERM ? "EPERM" : errno == ENOSYS ? "ENOSYS" : strerrorname_np(errno));
}

#define TRY(name, ...) do { errno = 0; report(name, syscall(__VA_ARGS__)); } while (0)

static void *thread_main(void *arg) { return arg; }

int main(void) {
  char buf[64] = {0};
  TRY("add_key", SYS_add_key, "user", "crucible-secret", "s3cret", 6, -4 /* KEY_SPEC_USER_KEYRING */);
  TRY("keyctl", SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -4, 0);
  TRY("request_key", SYS_request_key, "user", "crucible-secret", NULL, 0);
  TRY("io_uring_setup", SYS_io_uring_setup, 1, buf);
  TRY("userfaultfd", SYS_userfaultfd, 0);
  TRY("bpf", SYS_bpf, 0, buf, 0);
  TRY("perf_event_open", SYS_perf_event_open, buf, 0, -1, -1, 0);
  TRY("unshare_user", SYS_unshare, CLONE_NEWUSER);
  TRY("unshare_mount", SYS_unshare, CLONE_NEWNS);
  TRY("unshare_net", SYS_unshare, CLONE_NEWNET);
  TRY("clone_newuser", SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
  TRY("clone_newpid", SYS_clone, CLONE_NEWPID | SIGCHLD, 0, 0, 0, 0);
  TRY("clone3", SYS_clone3, buf, 64);
  TRY("setns", SYS_setns, 0, 0);
  TRY("mount", SYS_mount, "none", "/tmp", "tmpfs", 0, NULL);
  TRY("umount2", SYS_umount2, "/tmp", 0);
  TRY("pivot_root", SYS_pivot_root, "/tmp", "/tmp");
  TRY("ptrace", SYS_ptrace, 0 /* PTRACE_TRACEME */, 0, 0, 0);
  TRY("process_vm_readv", SYS_process_vm_readv, 1, NULL, 0, NULL, 0, 0);
  TRY("process_vm_writev", SYS_process_vm_writev, 1, NULL, 0, NULL, 0, 0);
  TRY("kexec_load", SYS_kexec_load, 0, 0, NULL, 0);
  TRY("init_module", SYS_init_module, NULL, 0, "");
  TRY("finit_module", SYS_finit_module, -1, "", 0);
  TRY("delete_module", SYS_delete_module, "crucible", 0);
  TRY("swapon", SYS_swapon, "/tmp/swap", 0);
  TRY("reboot", SYS_reboot, 0, 0, 0, NULL);
  TRY("acct", SYS_acct, NULL);
  TRY("quotactl", SYS_quotactl, 0, NULL, 0, NULL);
  TRY("open_by_handle_at", SYS_open_by_handle_at, -1, NULL, 0);
  TRY("name_to_handle_at", SYS_name_to_handle_at, -1, "/", NULL, NULL, 0);
  TRY("mq_open", SYS_mq_open, "/crucible", 0, 0, NULL);
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) _exit(7);
  int status = 0;
  waitpid(child, &status, 0);
  printf("fork %s\n", WIFEXITED(status) && WEXITSTATUS(status) == 7 ? "works" : "broken");
  pthread_t thread;
  void *out = NULL;
  int made = pthread_create(&thread, NULL, thread_main, (void *)42) == 0 && pthread_join(thread, &out) == 0;
  printf("thread %s\n", made && out == (void *)42 ? "works" : "broken");
  fflush(stdout);
  long plain = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
  if (plain == 0) _exit(9);
  status = 0;
  waitpid((pid_t)plain, &status, 0);
  printf("clone %s\n", plain > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 9 ? "works" : "broken");
  return 0;
}
