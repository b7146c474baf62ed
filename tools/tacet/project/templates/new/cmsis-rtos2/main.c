/* SPDX-License-Identifier: MIT */
/*
 * @NAME@: a CMSIS-RTOS2 application (cmsis_os2.h), on Tacet's kernel through tacet::cmsis_os2.
 *
 * The worker is released every 10 ms by a periodic timer through a semaphore. After JOBS jobs
 * it stops the timer and returns; with nothing left to run, osKernelStart() returns to main
 * (on the sim port and QEMU's mps2 boards: on a chip it does not return). Exit status 0 when
 * every job ran, each a period after the last.
 */
#include <inttypes.h>
#include <stdio.h>

#include "cmsis_os2.h"

#define JOBS      5u
#define PERIOD_MS 10u

static osSemaphoreId_t release;
static osTimerId_t release_timer;
static unsigned jobs, late;

/* The timer's callback: it may not wait, and releasing does not. At its maximum (1) when the
 * worker is late: that release is lost. */
static void release_worker(void *arg)
{
  (void)arg;
  (void)osSemaphoreRelease(release);
}

static void worker(void *arg)
{
  (void)arg;
  uint32_t period = PERIOD_MS * osKernelGetTickFreq() / 1000u;
  uint32_t last = osKernelGetTickCount();
  while (jobs < JOBS && osSemaphoreAcquire(release, osWaitForever) == osOK) {
    uint32_t now = osKernelGetTickCount();
    if (now - last != period) late++;
    last = now;
    jobs++;
    printf("@NAME@: job %u at tick %" PRIu32 "\n", jobs, now);
  }
  (void)osTimerStop(release_timer); /* no timer left: the kernel can return */
}

int main(void)
{
  if (osKernelInitialize() != osOK) return 1;
  release = osSemaphoreNew(1, 0, &(osSemaphoreAttr_t){.name = "release"});
  release_timer = osTimerNew(release_worker, osTimerPeriodic, NULL, &(osTimerAttr_t){.name = "release_timer"});
  const osThreadAttr_t attr = {.name = "worker", .priority = osPriorityNormal};
  if (release == NULL || release_timer == NULL || osThreadNew(worker, NULL, &attr) == NULL ||
      osTimerStart(release_timer, PERIOD_MS * osKernelGetTickFreq() / 1000u) != osOK) {
    printf("@NAME@: creating the objects failed\n");
    return 1;
  }
  osStatus_t st = osKernelStart(); /* returns when nothing is left to run */
  char id[32];
  (void)osKernelGetInfo(NULL, id, sizeof id);
  printf("@NAME@: %u of %u jobs on %s through CMSIS-RTOS2, %u late\n", jobs, JOBS, id, late);
  return st != osOK || jobs != JOBS || late != 0;
}
