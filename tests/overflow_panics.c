/* SPDX-License-Identifier: MIT */
/* The default reaction to a stack overflow (sim port): tc_stack_overflow_hook, weak in the
 * kernel, stops the system naming the thread. A thread overwrites its stack guard and sleeps;
 * ctest passes when the panic message names it (tests/CMakeLists.txt); the port's panic
 * aborts, which ends the program quietly here so that ctest judges by the message alone.
 * test_thread replaces the hook with its own and checks the calls. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "tct.h"

static tc_thread t;

static void smasher(void *arg)
{
  (void)arg;
  tct_stacks[0][13] = 0; /* the guard's top word, which every switch compares */
  (void)tc_thread_sleep(1); /* switch out: the check runs, the hook panics */
  printf("not stopped\n");
}

/* exit(), not _exit(): the program's exit handlers run (a coverage build writes its counts
 * there). Safe enough here: abort() was called synchronously, from the panic. */
static void aborted(int sig)
{
  (void)sig;
  exit(0);
}

int main(void)
{
  signal(SIGABRT, aborted);
  tct_begin();
  if (tc_thread_create(&t, "smasher", smasher, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START) != TC_OK) return 2;
  (void)tct_run_kernel();
  return 0;
}
