/* SPDX-License-Identifier: MIT */
/*
 * @NAME@: the functions of the system app.yaml describes. tacet_app.h and tacet_app.c are
 * generated from it at build time (tacet_add_app in CMakeLists.txt): the header declares every
 * object and every function named there, tacet_app_create() creates them. A thread added to
 * app.yaml needs its entry function here; without it the link fails naming the function.
 *
 * The worker is released every 10 ms by the timer release_timer through the semaphore
 * release. After JOBS jobs it stops the timer and returns; with nothing left to run, the
 * kernel returns to main, which checks the kernel's invariants. Exit status 0 when every job
 * ran and the invariants hold.
 */
#include <inttypes.h>
#include <stdio.h>

#include "tacet_app.h"

#define JOBS 5u

static unsigned jobs;

/* app.yaml: timers: release_timer: callback. In the timers' HISR: it may not block, and
 * giving does not. At its max (1) when the worker is late: that release is lost. */
void release_worker(void *arg)
{
  (void)arg;
  (void)tc_sem_give(&release);
}

/* app.yaml: threads: worker: entry. */
void worker_main(void *arg)
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
  if (tacet_app_create() != TC_OK) {
    printf("@NAME@: creating %s failed\n", tacet_app_failed);
    return 1;
  }
  int code = tc_kernel_start(); /* returns when every thread has completed */
  const char *why = tc_check();
  printf("@NAME@: %u of %u jobs on the %s port, kernel invariants %s\n", jobs, JOBS, TC_PORT_NAME,
         why == NULL ? "hold" : why);
  return code != 0 || why != NULL || jobs != JOBS;
}
