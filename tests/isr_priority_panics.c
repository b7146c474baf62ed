/* SPDX-License-Identifier: MIT */
/* The default reaction to a service called from an interrupt above the kernel's mask
 * (Cortex-M): the mistake as it is usually made -- a device line enabled without setting its
 * priority, so that its handler runs at the reset priority 0, and the handler gives a
 * semaphore. tc_isr_priority_hook, weak in the kernel, stops the system naming the service and
 * the interrupt; ctest passes on that message (ports/cortex-m/tests.cmake), and fails on
 * "not stopped", which the program prints if the give returned. test_context and
 * test_cortex_m replace the hook with their own and check every service and context. */
#include <stdio.h>

#include "tacet/cortex_m.h"
#include "tct.h"

#define LINE 5u /* UARTTX2_Handler on mps2, nothing drives it under QEMU */

static tc_thread t;
static tc_sem sem;

void UARTTX2_Handler(void)
{
  (void)tc_sem_give(&sem); /* does not return: the default hook panics */
  printf("not stopped\n");
}

static void enabler(void *arg)
{
  (void)arg;
  tc_cm_irq_enable(LINE); /* no tc_cm_irq_priority(): still 0, above TC_CM_BASEPRI */
  tc_cm_irq_trigger(LINE);
  printf("not stopped\n");
}

int main(void)
{
  tct_begin();
  if (tc_sem_create(&sem, "sem", 0, 1) != TC_OK) return 2;
  if (tc_thread_create(&t, "enabler", enabler, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START) != TC_OK) return 2;
  (void)tct_run_kernel();
  printf("not stopped\n");
  return 0;
}
