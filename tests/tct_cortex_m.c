/* SPDX-License-Identifier: MIT */
/* Cortex-M part of the test harness (QEMU mps2 boards, -icount shift=5). */
#include "tacet/cortex_m.h"
#include "tct.h"

uint64_t tct_cycles_to_instructions(uint64_t cycles) { return tc_cm_cycles_to_instructions(cycles); }

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
