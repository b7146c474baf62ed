/*
 * Counters and the one place where a context switch is committed: switches, preemptions,
 * run time per thread and idle time are accounted here, and the outgoing thread's stack is
 * checked, before the port is asked to switch.
 */
#include "internal.h"

uint64_t tc_cycles(void) { return TC_PORT_CYCLES(); }

uint32_t tc_cycles_hz(void) { return TC_PORT_CYCLES_HZ(); }

void tc__switch_commit(void)
{
  tc_thread *from = tc__k.current;
  tc_thread *to = tc__k.next;
  tc__k.real_switch = to != NULL && to != tc__k.last_ran;
#if TC_STATS
  uint64_t now = TC_PORT_CYCLES();
  if (from != NULL)
    from->cycles += now - tc__k.stamp;
  else
    tc__k.stats.idle_cycles += now - tc__k.stamp;
  tc__k.stamp = now;
  /* An HISR's context (TC_TF_HISR) is not a thread: entering it is counted only in its own
   * switches_in, and its preemption by a higher HISR only in its own `preempted`; a thread
   * that resumes after an HISR ran was switched to and counts (the CPU last held another
   * context). */
  if (tc__k.real_switch) {
    if (!(to->flags & TC_TF_HISR)) tc__k.stats.context_switches++;
    to->switches_in++;
  }
  if (from != NULL && from->state == TC_READY) {
    if (!(from->flags & TC_TF_HISR)) tc__k.stats.preemptions++;
    from->preempted++;
    from->last_preempted_by = to;
  }
#endif
  if (from != NULL) tc__stack_check(from);
  if (to != NULL) {
    /* Dispatched: its threshold is in force again, no longer a preempted claim. */
    if (to->flags & TC_TF_PREEMPTED) {
      tc__ready_remove(to);
      tc__ready_insert(to, true);
    }
    tc__k.last_ran = to;
  }
  tc__k.current = to;
  TC_PORT_SWITCH(from, to);
  /* Signals sent while it was not running: its handlers run first when it resumes. */
  if (to != NULL && to->signals != 0) TC_PORT_SIGNAL_RESUME(to);
}

void tc__account_switch_cycles(uint64_t cycles)
{
#if TC_STATS
  tc__k.stats.switch_cycles += cycles;
  tc__k.stamp += cycles;
#else
  (void)cycles;
#endif
}

void tc_kernel_stats(tc_kernel_stats_t *out)
{
  if (out == NULL) return;
  unsigned s = tc__lock();
  *out = tc__k.stats;
#if TC_STATS
  if (tc__k.started && tc__k.current == NULL) out->idle_cycles += TC_PORT_CYCLES() - tc__k.stamp;
#endif
  tc__unlock(s);
}

/* ---- stacks ----------------------------------------------------------------------------- */

__attribute__((weak)) void tc_stack_overflow_hook(tc_thread *t)
{
  TC_PORT_PANIC("stack overflow in thread", t->name);
}

void tc__stack_check(tc_thread *t)
{
#if TC_STACK_CHECK
  const uint8_t *p = t->stack_base;
  for (unsigned i = 0; i < TC_STACK_GUARD; i++) {
    if (p[i] != TC_STACK_PATTERN) {
      tc_stack_overflow_hook(t);
      return;
    }
  }
#else
  (void)t;
#endif
}

size_t tc__stack_high_water(const tc_thread *t)
{
#if TC_STACK_CHECK
  size_t unused = 0;
  while (unused < t->stack_size && t->stack_base[unused] == TC_STACK_PATTERN) unused++;
  return t->stack_size - unused;
#else
  (void)t;
  return 0;
#endif
}
