/* SPDX-License-Identifier: MIT */
/*
 * consumer: the smallest program a project outside the Tacet tree builds against tacet::kernel
 * (tools/tests/test_package.py). A thread waits on a semaphore that main's second thread gives
 * three times; when both have completed the kernel returns to main, which checks the kernel's
 * invariants. Exit status 0 when the three hand-overs happened and the invariants hold.
 */
#include <stdio.h>

#include "tacet/tacet.h"

#define STACK_SIZE (TC_PORT_STACK_MIN > 4096u ? 4u * TC_PORT_STACK_MIN : 2048u)
#define ROUNDS     3u

static tc_thread waiter, giver;
static tc_sem handed;
static uint8_t stacks[2][STACK_SIZE] __attribute__((aligned(16)));
static unsigned taken;

static void waiter_entry(void *arg)
{
  (void)arg;
  while (taken < ROUNDS && tc_sem_take(&handed, TC_WAIT_FOREVER) == TC_OK)
    taken++;
}

static void giver_entry(void *arg)
{
  (void)arg;
  for (unsigned i = 0; i < ROUNDS; i++) {
    tc_sem_give(&handed); /* the waiter has the higher priority: it runs at once */
    tc_thread_sleep(1);
  }
}

int main(void)
{
  tc_kernel_init();
  tc_sem_create(&handed, "handed", 0, 1);
  tc_thread_create(&waiter, "waiter", waiter_entry, NULL, stacks[0], STACK_SIZE, 1, 1, 0, TC_AUTO_START);
  tc_thread_create(&giver, "giver", giver_entry, NULL, stacks[1], STACK_SIZE, 2, 2, 0, TC_AUTO_START);
  int code = tc_kernel_start(); /* returns when both threads have completed */
  const char *why = tc_check();
  printf("consumer on the %s port: %u of %u hand-overs, kernel invariants %s\n", TC_PORT_NAME, taken,
         ROUNDS, why == NULL ? "hold" : why);
  return code != 0 || why != NULL || taken != ROUNDS;
}
