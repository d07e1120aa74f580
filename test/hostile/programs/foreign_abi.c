/* Enter the kernel through a system call table the seccomp filter does not describe: the i386 table through
 * int 0x80 (stdin "i386") or the x32 table (stdin "x32"; the syscall number with bit 30 set). The filter kills
 * the process (SIGSYS) instead of letting the call through; reaching the last line means it did not. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void) {
  char abi[16] = {0};
  if (fgets(abi, sizeof abi, stdin) == NULL) return 2;
  long rc = -1;
  if (strncmp(abi, "i386", 4) == 0) {
    long nr = 20; /* getpid in the i386 table */
    __asm__ volatile("int $0x80" : "=a"(rc) : "a"(nr) : "memory");
  } else {
    rc = syscall(0x40000000L | SYS_getpid);
  }
  printf("the call returned %ld\n", rc);
  return 0;
}
