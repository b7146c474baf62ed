/* SPDX-License-Identifier: MIT */
/*
 * Interrupt-latency measurement build (TC_IRQ_OFF_MEASURE=1): the kernel lock becomes a pair
 * of functions that time every stretch during which the kernel keeps interrupts masked, from
 * the lock that masks them to the unlock that unmasks them, with TC_PORT_CYCLES(). The
 * longest goes to tc__k.stats.max_irq_off (tc_kernel_stats), in tc_cycles() units.
 *
 * A stretch begins at a tc__lock() that found interrupts unmasked and ends at the
 * tc__unlock() that restores that state; nested locks are inside it. It may begin in one
 * thread and end in another: on a port that switches inside the critical section (sim) the
 * switch is part of the stretch, as it is of the time interrupts wait. The measurement's own
 * clock reads are partly inside the stretch, so figures are slight overestimates; stretches
 * that ports mask by themselves (their idle loop, the first entry into a thread) are not
 * measured. tc__irq_off_from / tc__irq_off_to hold the code addresses of the lock and unlock
 * calls that bounded the longest stretch, to find it in the program (addr2line).
 *
 * Both ports return 0 from TC_PORT_IRQ_DISABLE() when interrupts were unmasked (the sim's
 * flag, Cortex-M's BASEPRI); a port where that differs defines TC_PORT_IRQ_UNMASKED.
 */
#include "internal.h"

#if TC_IRQ_OFF_MEASURE

#ifndef TC_PORT_IRQ_UNMASKED
#define TC_PORT_IRQ_UNMASKED 0u
#endif

static uint64_t masked_at;
static uintptr_t masked_from;
uintptr_t tc__irq_off_from, tc__irq_off_to;

__attribute__((noinline)) unsigned tc__lock(void)
{
  unsigned s = TC_PORT_IRQ_DISABLE();
  if (s == TC_PORT_IRQ_UNMASKED) {
    masked_from = (uintptr_t)__builtin_return_address(0);
    masked_at = TC_PORT_CYCLES();
  }
  return s;
}

__attribute__((noinline)) void tc__unlock(unsigned s)
{
  if (s == TC_PORT_IRQ_UNMASKED) {
    uint64_t d = TC_PORT_CYCLES() - masked_at;
    if (d > tc__k.stats.max_irq_off) {
      tc__k.stats.max_irq_off = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
      tc__irq_off_from = masked_from;
      tc__irq_off_to = (uintptr_t)__builtin_return_address(0);
    }
  }
  TC_PORT_IRQ_RESTORE(s);
}

#else

/* ISO C wants at least one declaration in a translation unit. */
typedef int tc__irq_measure_unused;

#endif
