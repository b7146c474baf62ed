/* SPDX-License-Identifier: MIT */
/*
 * consumer_os2: the consumer's hand-over written against CMSIS-RTOS2 alone (cmsis_os2.h,
 * tacet::cmsis_os2; tools/tests/test_package.py). A thread waits on a semaphore that a second,
 * less urgent thread releases three times; when both have returned, osKernelStart() returns
 * (the sim port, and mps2 once nothing is left to run). Exit status 0 when the three
 * hand-overs happened in order.
 */
#include <stdio.h>

#include "cmsis_os2.h"

#define ROUNDS 3u

static osSemaphoreId_t handed;
static unsigned taken, given;
static int out_of_order;

static void waiter(void *arg)
{
  (void)arg;
  while (taken < ROUNDS && osSemaphoreAcquire(handed, osWaitForever) == osOK) {
    taken++;
    out_of_order |= taken != given; /* it ran at once: the release made it the most urgent */
  }
}

static void giver(void *arg)
{
  (void)arg;
  for (unsigned i = 0; i < ROUNDS; i++) {
    given++;
    (void)osSemaphoreRelease(handed);
    (void)osDelay(1);
  }
}

int main(void)
{
  if (osKernelInitialize() != osOK) return 1;
  handed = osSemaphoreNew(1, 0, NULL);
  const osThreadAttr_t high = {.name = "waiter", .priority = osPriorityHigh};
  const osThreadAttr_t normal = {.name = "giver", .priority = osPriorityNormal};
  if (handed == NULL || osThreadNew(waiter, NULL, &high) == NULL ||
      osThreadNew(giver, NULL, &normal) == NULL)
    return 1;
  osStatus_t st = osKernelStart();
  char id[32];
  osVersion_t v;
  (void)osKernelGetInfo(&v, id, sizeof id);
  printf("consumer_os2 on %s: %u of %u hand-overs%s\n", id, taken, ROUNDS,
         out_of_order ? ", out of order" : "");
  return st != osOK || taken != ROUNDS || out_of_order;
}
