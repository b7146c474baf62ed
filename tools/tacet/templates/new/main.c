/* SPDX-License-Identifier: MIT */
/*
 * @NAME@: one thread, released every PERIOD_TICKS by a timer through a semaphore. This is the
 * system app.yaml describes (`tacet analyze app.yaml` says whether the thread meets its
 * deadline): keep the two in step.
 *
 * After JOBS jobs the thread stops the timer and returns; with nothing left to run, the kernel
 * returns to main, which checks the kernel's invariants. Exit status 0 when every job ran and
 * the invariants hold.
 */
#include <inttypes.h>
#include <stdio.h>

#include "tacet/tacet.h"

#define WORKER_STACK    16384u /* app.yaml: threads: worker: stack */
#define WORKER_PRIORITY 1u     /* app.yaml: threads: worker: priority */
#define PERIOD_TICKS    10u    /* app.yaml: timers: release_timer: period (ticks of 1 ms) */
#define JOBS            5u

static tc_thread worker;
static tc_sem release;
static tc_timer release_timer;
static uint8_t worker_stack[WORKER_STACK] __attribute__((aligned(16)));
static unsigned jobs;

/* Timer callback, in the timers' HISR: it may not block, and giving does not. */
static void release_worker(void *arg)
{
  (void)arg;
  (void)tc_sem_give(&release); /* at its max (1) when the worker is late: that release is lost */
}

static void worker_main(void *arg)
{
  (void)arg;
  while (jobs < JOBS && tc_sem_take(&release, TC_WAIT_FOREVER) == TC_OK) {
    jobs++;
    printf("@NAME@: job %u at tick %" PRIu32 "\n", jobs, tc_tick_get());
  }
  (void)tc_timer_deactivate(&release_timer); /* no timer left: the kernel can return */
}

int main(void)
{
  tc_kernel_init();
  if (tc_sem_create(&release, "release", 0, 1) != TC_OK ||
      tc_timer_create(&release_timer, "release_timer", release_worker, NULL, PERIOD_TICKS, PERIOD_TICKS,
                      TC_AUTO_ACTIVATE) != TC_OK ||
      tc_thread_create(&worker, "worker", worker_main, NULL, worker_stack, sizeof worker_stack,
                       WORKER_PRIORITY, WORKER_PRIORITY, 0, TC_AUTO_START) != TC_OK) {
    printf("@NAME@: creating the semaphore, the timer or the thread failed\n");
    return 1;
  }
  int code = tc_kernel_start(); /* returns when the worker has completed */
  const char *why = tc_check();
  printf("@NAME@: %u of %u jobs on the %s port, kernel invariants %s\n", jobs, JOBS, TC_PORT_NAME,
         why == NULL ? "hold" : why);
  return code != 0 || why != NULL || jobs != JOBS;
}
