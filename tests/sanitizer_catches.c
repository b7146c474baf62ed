/* SPDX-License-Identifier: MIT */
/* Run only in a sanitizer build (TACET_SANITIZE): a thread does something wrong on purpose and
 * the sanitizer must say so -- ctest passes when the report names it. This is the evidence
 * that the sanitizers follow the sim port into its threads' stacks, so that the clean runs of
 * the kernel tests in the same build are worth something. */
#include <stdio.h>
#include <string.h>

#include "tct.h"

static volatile int index_past_end = 8;
static volatile int big = 0x7fffffff;

static void __attribute__((noinline)) overflow(void *arg)
{
  (void)arg;
  char local[8];
  memset(local, 0, sizeof local);
  char *p = local;
  p[index_past_end] = 1; /* one past the end of a local in a thread's frame */
  printf("not reported: %d\n", local[0]);
}

static void undefined(void *arg)
{
  (void)arg;
  int x = big;
  x += 1; /* signed overflow */
  printf("not reported: %d\n", x);
}

static tc_thread t;

int main(int argc, char **argv)
{
  if (argc != 2) return 2;
  void (*entry)(void *) = strcmp(argv[1], "stack-overflow") == 0 ? overflow : undefined;
  tct_begin();
  if (tc_thread_create(&t, "culprit", entry, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START) != TC_OK) return 2;
  (void)tct_run_kernel();
  return 0;
}
