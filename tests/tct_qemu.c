/* SPDX-License-Identifier: MIT */
/*
 * The part of the test harness every port under QEMU shares (Cortex-M, RISC-V): running the
 * kernel, and the longest interrupt-masked stretch. tc_check(), the invariant checker the tests
 * call after every step, masks interrupts
 * for a time linear in the number of objects -- a test aid, not a kernel service. The test
 * programs are linked with --wrap=tc_check (the port's tests.cmake): the checker runs inside a
 * mask of its own, so the kernel's measurement (TC_IRQ_OFF_MEASURE) does not see it, and its
 * longest run is reported apart, at exit, in instructions (tct_cycles_to_instructions).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "tacet/port.h"
#include "tct.h"

const char *__real_tc_check(void);
const char *__wrap_tc_check(void);

#if TC_IRQ_OFF_MEASURE
extern uintptr_t tc__irq_off_from, tc__irq_off_to;
static uint32_t irq_off_max;
static uintptr_t irq_off_from, irq_off_to;
static uint64_t check_max;

static void report_irq_off(void)
{
  printf("tct: longest interrupt-masked stretch in the kernel: %lu cycles = %lu instructions "
         "(QEMU icount), from lock at 0x%lx to unlock at 0x%lx; tc_check (excluded): %lu "
         "instructions\n",
         (unsigned long)irq_off_max, (unsigned long)tct_cycles_to_instructions(irq_off_max),
         (unsigned long)irq_off_from, (unsigned long)irq_off_to,
         (unsigned long)tct_cycles_to_instructions(check_max));
}

const char *__wrap_tc_check(void)
{
  unsigned s = TC_PORT_IRQ_DISABLE(); /* the kernel's own lock inside is then nested */
  uint64_t t0 = tc_cycles();
  const char *e = __real_tc_check();
  uint64_t d = tc_cycles() - t0;
  if (d > check_max) check_max = d;
  TC_PORT_IRQ_RESTORE(s);
  return e;
}

static void irqoff_after_run(void)
{
  static bool registered;
  if (!registered) registered = atexit(report_irq_off) == 0;
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  if (k.max_irq_off > irq_off_max) {
    irq_off_max = k.max_irq_off;
    irq_off_from = tc__irq_off_from;
    irq_off_to = tc__irq_off_to;
  }
}
#else
const char *__wrap_tc_check(void) { return __real_tc_check(); }
#endif

int tct_run_kernel(void)
{
  int code = tc_kernel_start();
#if TC_IRQ_OFF_MEASURE
  irqoff_after_run();
#endif
  return code;
}
