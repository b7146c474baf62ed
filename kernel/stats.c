/*
 * Counters and the one place where a context switch is committed: switches, preemptions,
 * run time per thread and idle time are accounted here, and the outgoing thread's stack is
 * checked, before the port is asked to switch.
 */
#include <string.h>

#include "internal.h"

uint64_t tc_cycles(void) { return TC_PORT_CYCLES(); }

uint32_t tc_cycles_hz(void) { return TC_PORT_CYCLES_HZ(); }

/* ---- stacks ----------------------------------------------------------------------------- */

__attribute__((weak)) void tc_stack_overflow_hook(tc_thread *t)
{
  TC_PORT_PANIC("stack overflow in thread", t->name);
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

#if TC_STACK_CHECK
/* A word of the stack at `p`, which need not be word-aligned (the application gives the
 * stack): memcpy compiles to one load where the core allows unaligned loads. */
static inline uint32_t stack_word(const uint8_t *p)
{
  uint32_t w;
  memcpy(&w, p, sizeof w);
  return w;
}

_Static_assert(TC_STACK_GUARD == 16, "the guard is compared as four words");

/* Four word compares instead of sixteen byte compares: this runs at every switch. */
static inline bool guard_intact(const tc_thread *t)
{
  const uint8_t *p = t->stack_base;
  const uint32_t pattern = TC_STACK_PATTERN * 0x01010101u;
  return ((stack_word(p) ^ pattern) | (stack_word(p + 4) ^ pattern) | (stack_word(p + 8) ^ pattern) |
          (stack_word(p + 12) ^ pattern)) == 0;
}

bool tc__stack_guard_intact(const tc_thread *t) { return guard_intact(t); }
#endif

/* ---- switches and counters --------------------------------------------------------------- */

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
#if TC_STACK_CHECK
  if (from != NULL && !guard_intact(from)) tc_stack_overflow_hook(from);
#endif
  /* `to` is never a preempted thread: tc__sched_reschedule() unflags the thread it chooses. */
  if (to != NULL) tc__k.last_ran = to;
  tc__k.current = to;
  TC_PORT_SWITCH(from, to);
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
