/* Spin on one core forever. */
int main(void) {
  volatile unsigned long x = 0;
  for (;;) x++;
}
