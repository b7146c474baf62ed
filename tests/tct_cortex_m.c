/* SPDX-License-Identifier: MIT */
/* Cortex-M part of the test harness (QEMU mps2 boards, -icount shift=5). */
#include <stdio.h>
#include <stdlib.h>

#include "tacet/cortex_m.h"
#include "tct.h"

/* tc_check(), the invariant checker the tests call after every step, masks interrupts for a
 * time linear in the number of objects: a test aid, not a kernel service. The test programs
 * are linked with --wrap=tc_check (tests.cmake): the checker runs inside a mask of its own,
 * so the kernel's measurement does not see it, and its longest run is reported apart. */
const char *__real_tc_check(void);
const char *__wrap_tc_check(void);

#if TC_IRQ_OFF_MEASURE
/* The longest interrupt-masked stretch over every run of this program. */
extern uintptr_t tc__irq_off_from, tc__irq_off_to;
static uint32_t irq_off_max;
static uintptr_t irq_off_from, irq_off_to;
static uint64_t check_max;

static void report_irq_off(void)
{
  printf("tct: longest interrupt-masked stretch in the kernel: %lu cycles = %lu instructions "
         "(QEMU icount), from lock at 0x%lx to unlock at 0x%lx; tc_check (excluded): %lu "
         "instructions\n",
         (unsigned long)irq_off_max, (unsigned long)tc_cm_cycles_to_instructions(irq_off_max),
         (unsigned long)irq_off_from, (unsigned long)irq_off_to,
         (unsigned long)tc_cm_cycles_to_instructions(check_max));
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
#else
const char *__wrap_tc_check(void) { return __real_tc_check(); }
#endif

int tct_run_kernel(void)
{
  int code = tc_kernel_start();
#if TC_IRQ_OFF_MEASURE
  static bool registered;
  if (!registered) registered = atexit(report_irq_off) == 0;
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  if (k.max_irq_off > irq_off_max) {
    irq_off_max = k.max_irq_off;
    irq_off_from = tc__irq_off_from;
    irq_off_to = tc__irq_off_to;
  }
#endif
  return code;
}

void tct_end(int code) { tc_cm_stop(code); }

/* `cycles` of tc_cycles() time spent by the calling thread alone, preemptibly: a loop of
 * exactly 2 instructions per turn (subs, bne), so that under -icount, where one tc_cycles()
 * unit is 1.25 instructions, the thread executes cycles * 1.25 instructions of its own
 * whatever preempts it -- the sim port's tc_sim_consume() on QEMU. */
void tct_work(uint64_t cycles)
{
  uint64_t turns = tc_cm_cycles_to_instructions(cycles) / 2u;
  while (turns != 0) {
    uint32_t n = turns > 0x40000000u ? 0x40000000u : (uint32_t)turns;
    turns -= n;
    __asm volatile("1: subs %0, %0, #1\n\t"
                   "bne 1b"
                   : "+r"(n)
                   :
                   : "cc");
  }
}

/* tct_interrupt: an external interrupt line nothing drives under QEMU (GPIO 0 pin 4; the
 * tests use pins 4 to 7), at the kernel priority of ordinary device interrupts. The handler
 * is a plain one, without tc_isr_enter/tc_isr_exit, as this port allows (the kernel sees
 * IPSR; PendSV commits the switch): the tests that call it then cover that way, the sim port
 * the bracket. */
#define TCT_IRQ 28u

static void (*irq_fn)(void *);
static void *irq_arg;

void PORT0_4_Handler(void) { irq_fn(irq_arg); }

void tct_interrupt_at(unsigned priority, void (*fn)(void *), void *arg)
{
  irq_fn = fn;
  irq_arg = arg;
  tc_cm_irq_priority(TCT_IRQ, (uint8_t)priority);
  tc_cm_irq_enable(TCT_IRQ);
  tc_cm_irq_trigger(TCT_IRQ); /* taken before the next instruction */
}

void tct_interrupt(void (*fn)(void *), void *arg) { tct_interrupt_at(TCT_IRQ_PRIORITY, fn, arg); }
