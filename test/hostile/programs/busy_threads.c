/* Eight threads spinning: CPU time grows faster than wall time, the tree-wide CPU bound must still hold. */
#include <pthread.h>
static void *spin(void *arg) { volatile unsigned long x = 0; for (;;) x++; return arg; }
int main(void) {
  pthread_t t[8];
  for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, spin, 0);
  pthread_join(t[0], 0);
  return 0;
}
