/* SPDX-License-Identifier: MIT */
/*
 * Interrupt entry and exit (the LISR bracket), the interrupt mask services, and the hook for a
 * handler above the kernel's mask (tacet/kernel.h, "Interrupt handlers").
 *
 * Services called inside a handler change the ready set at once but never switch: the
 * switch is made once, when the outermost handler exits, to whatever the scheduler chose last.
 */
#include "internal.h"

/* The bracket itself; a port's own handler at a kernel priority calls these directly (the tick:
 * no priority lookup on every tick, tacet/port.h), every other handler the checked ones below. */
void tc__isr_enter(void)
{
  unsigned s = tc__lock();
  tc__k.isr_nesting++;
  TC_TRACE_EVENT(TC_TRACE_EV_ISR_ENTER, tc__k.isr_nesting, 0, 0);
#if TC_STATS
  tc__k.stats.interrupts++;
#endif
  tc__unlock_quiet(s); /* nothing was made ready */
}

#ifndef __OPTIMIZE_SIZE__
/* The outermost exit's switch, out of line: an exit that switches nothing needs no stack
 * frame. */
static void __attribute__((noinline)) isr_exit_dispatch(unsigned s)
{
  tc__sched_dispatch();
  tc__unlock(s);
}
#endif

void tc__isr_exit(void)
{
  unsigned s = tc__lock();
#if TC_TRACE
  if (tc__k.isr_nesting != 0) TC_TRACE_EVENT(TC_TRACE_EV_ISR_EXIT, tc__k.isr_nesting - 1u, 0, 0);
#endif
#ifdef __OPTIMIZE_SIZE__
  /* A build for size: one path, the shortest code (tacet size). */
  if (tc__k.isr_nesting != 0 && --tc__k.isr_nesting == 0) tc__sched_dispatch();
  tc__unlock(s);
#else
  unsigned nesting = tc__k.isr_nesting;
  if (nesting != 0) {
    tc__k.isr_nesting = (uint16_t)(nesting - 1u);
    if (nesting == 1u && tc__k.next != tc__k.current) {
      isr_exit_dispatch(s);
      return;
    }
  }
  tc__unlock_quiet(s); /* no switch asked for */
#endif
}

void tc_isr_enter(void)
{
  TC_ISR_CHECK_VOID("tc_isr_enter");
  tc__isr_enter();
}

void tc_isr_exit(void)
{
  TC_ISR_CHECK_VOID("tc_isr_exit");
  tc__isr_exit();
}

unsigned tc_interrupt_disable(void) { return tc__lock(); }

void tc_interrupt_restore(unsigned old) { tc__unlock(old); }

#ifdef TC_PORT_IN_UNMASKED_ISR
/* The default stops the system: such a handler has been free to corrupt the kernel's lists
 * every time it ran, and a wrong priority is a bug to fix, not a condition to handle. */
__attribute__((weak)) void tc_isr_priority_hook(const char *service)
{
  TC_PORT_PANIC("kernel service called from an interrupt above the kernel's mask", service);
}

#if TC_CHECKS
tc_status tc__isr_refuse(const char *service)
{
  tc_isr_priority_hook(service);
  return TC_CALLER_ERROR;
}
#endif
#endif
