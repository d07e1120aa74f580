/*
 * Crucible's bytecode counter for Java programs (issue #28 item 7; `src/engine/jvm-bytecodes.ts` runs it and reads
 * its count). A JVMTI agent (JVM Tool Interface, JDK 17: https://docs.oracle.com/en/java/javase/17/docs/specs/jvmti.html)
 * loaded with `java -Xint -agentpath:<this .so>`, compiled on the host at set-up by java.yaml's `prepare` step.
 *
 * What it counts: every bytecode the program's main thread executes from the JVM's VMInit event (the JVM's own
 * start-up is done; the launcher is about to load the main class) until the JVM dies, one SingleStep event per
 * bytecode. A bytecode count depends only on the program's control flow, not on where the JVM's tables sit in
 * memory or how its threads interleave (what makes callgrind's machine-instruction count of a JVM vary between
 * runs: docs/METRICS.md), so the same program on the same input gives the same count on every run.
 *
 * Every other thread that tries to execute a bytecode after VMInit is held in the event callback for good, so no
 * Java code runs anywhere but on the main thread's OS thread (which is also the thread that runs the JVM's
 * shutdown as "DestroyJavaVM"). That closes two ways around the count: work moved to another thread (a finalizer
 * on the Finalizer thread, a handler on the Signal Dispatcher's) would be uncounted, and such a thread could write
 * to stderr after the summary below. The JDK's own daemon threads hold no Java work a single-threaded program
 * waits for; a program that waits for one of its own threads never finishes and gets no count. New threads and
 * processes are refused anyway by the counted run's task limit (`JVM_COUNT_TASKS`).
 *
 * What it writes, on stderr (fd 2), with write(2) and no buffering:
 *   ==P== Crucible bytecode count (JVMTI SingleStep)      when loaded, before any Java code runs
 *   ==P== bytecodes: N                                    at VMDeath (System.exit, Runtime.halt, main returning)
 *   ==P== threads held: H
 * where P is the JVM's pid in its box. The trusted side accepts N only when the stream begins with the banner, holds
 * it once, and ends with the two summary lines (src/engine/jvm-bytecodes.ts, `parseBytecodeLog`).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jvmti.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile long main_tid = -1;                  /* OS thread id of the main thread, set at VMInit */
static unsigned long long bytecodes;                 /* written by that thread only */
static volatile int held;                            /* threads held in on_step (atomic increments) */

static long thread_id(void) { return syscall(SYS_gettid); }

/* Write all of buf to fd 2, retrying short writes and EINTR. */
static void say(const char *buf, size_t len) {
  while (len > 0) {
    ssize_t n = write(2, buf, len);
    if (n < 0) { if (errno == EINTR) continue; return; }
    buf += n;
    len -= (size_t)n;
  }
}

static void JNICALL on_step(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation location) {
  (void)jvmti; (void)jni; (void)thread; (void)method; (void)location;
  if (thread_id() == main_tid) { bytecodes++; return; }
  __atomic_add_fetch(&held, 1, __ATOMIC_SEQ_CST);
  for (;;) pause(); /* held for good: this thread runs no Java code while the program is counted */
}

static void JNICALL on_init(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread) {
  (void)jni; (void)thread;
  main_tid = thread_id();
  if ((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_SINGLE_STEP, NULL) != JVMTI_ERROR_NONE) {
    static const char msg[] = "crucible bytecode count: single-step events refused\n";
    say(msg, sizeof msg - 1);
    _exit(70);
  }
}

static void JNICALL on_death(jvmtiEnv *jvmti, JNIEnv *jni) {
  (void)jvmti; (void)jni;
  char buf[160];
  int pid = (int)getpid();
  int n = snprintf(buf, sizeof buf, "==%d== bytecodes: %llu\n==%d== threads held: %d\n", pid, bytecodes, pid,
                   __atomic_load_n(&held, __ATOMIC_SEQ_CST));
  if (n > 0) say(buf, (size_t)n);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
  (void)options; (void)reserved;
  jvmtiEnv *jvmti = NULL;
  if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_11) != JNI_OK) return JNI_ERR;
  jvmtiCapabilities caps;
  memset(&caps, 0, sizeof caps);
  caps.can_generate_single_step_events = 1;
  if ((*jvmti)->AddCapabilities(jvmti, &caps) != JVMTI_ERROR_NONE) return JNI_ERR;
  jvmtiEventCallbacks callbacks;
  memset(&callbacks, 0, sizeof callbacks);
  callbacks.SingleStep = on_step;
  callbacks.VMInit = on_init;
  callbacks.VMDeath = on_death;
  if ((*jvmti)->SetEventCallbacks(jvmti, &callbacks, (jint)sizeof callbacks) != JVMTI_ERROR_NONE) return JNI_ERR;
  if ((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL) != JVMTI_ERROR_NONE) return JNI_ERR;
  if ((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL) != JVMTI_ERROR_NONE) return JNI_ERR;
  char buf[96];
  int n = snprintf(buf, sizeof buf, "==%d== Crucible bytecode count (JVMTI SingleStep)\n", (int)getpid());
  if (n > 0) say(buf, (size_t)n);
  return JNI_OK;
}
