/* SPDX-License-Identifier: MIT */
/* RISC-V part of the test harness (QEMU virt, -icount shift=0: a tc_cycles() unit is an
 * instruction). */
#include "tacet/riscv.h"
#include "tct.h"

uint64_t tct_cycles_to_instructions(uint64_t cycles) { return tc_rv_cycles_to_instructions(cycles); }

void tct_end(int code) { tc_rv_stop(code); }

/* `cycles` of tc_cycles() time spent by the calling thread alone, preemptibly (tc_rv_spin), so
 * that under -icount, where one tc_cycles() unit is one instruction, the thread executes
 * `cycles` instructions of its own whatever preempts it -- the sim port's tc_sim_consume() on
 * QEMU. */
void tct_work(uint64_t cycles)
{
  uint64_t n = tc_rv_cycles_to_instructions(cycles);
  while (n != 0) {
    uint32_t part = n > 0x80000000u ? 0x80000000u : (uint32_t)n;
    n -= part;
    tc_rv_spin(part);
  }
}

/* tct_interrupt: the machine software interrupt, which nothing else uses in the tests. Every
 * interrupt is at the kernel's level on this port. The handler is a plain one, without
 * tc_isr_enter/tc_isr_exit, as the port allows (the kernel sees mscratch; the trap's end
 * commits the switch): the tests that call it cover that way, the sim port the bracket. */
static void (*irq_fn)(void *);
static void *irq_arg;

void tc_rv_software_handler(void) { irq_fn(irq_arg); }

/* test_riscv: the handler of the software interrupts a test raises itself. */
void tct_rv_software_handler_set(void (*fn)(void *), void *arg);
void tct_rv_software_handler_set(void (*fn)(void *), void *arg)
{
  irq_fn = fn;
  irq_arg = arg;
}

void tct_interrupt(void (*fn)(void *), void *arg)
{
  tct_rv_software_handler_set(fn, arg);
  tc_rv_software_interrupt(); /* taken before the next instruction when unmasked */
}
