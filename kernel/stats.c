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

#define PATTERN_WORD (TC_STACK_PATTERN * 0x01010101u)

bool tc__stack_guard_intact(const tc_thread *t)
{
  const uint8_t *p = t->stack_base;
  return ((stack_word(p) ^ PATTERN_WORD) | (stack_word(p + 4) ^ PATTERN_WORD) |
          (stack_word(p + 8) ^ PATTERN_WORD) | (stack_word(p + 12) ^ PATTERN_WORD)) == 0;
}

/* At a switch only the guard's top word is compared: a stack growing down into the guard
 * writes it first, and one load and compare is what a switch can afford. tc_check() and
 * the high-water mark look at every byte. */
static inline bool guard_top_intact(const tc_thread *t)
{
  return stack_word(t->stack_base + TC_STACK_GUARD - 4) == PATTERN_WORD;
}
#endif

/* ---- switches and counters --------------------------------------------------------------- */

/* Counting a switch costs a cheap clock read and three counters of the threads involved; the
 * kernel-wide totals are the sums of the per-thread counters, added up when asked for
 * (tc_kernel_stats). Run time is accumulated in 32-bit deltas of the clock (the tick adds the
 * running context's share every tick, so no delta can wrap). */
void tc__switch_commit(void)
{
  tc_thread *from = tc__k.current;
  tc_thread *to = tc__k.next;
  tc__k.real_switch = to != NULL && to != tc__k.last_ran;
#if TC_STATS
  tc__account_run_time();
  if (tc__k.real_switch) to->switches_in++;
  if (from != NULL && from->state == TC_READY) {
    from->preempted++;
    from->last_preempted_by = to;
  }
#endif
#if TC_STACK_CHECK
  if (from != NULL && !guard_top_intact(from)) tc_stack_overflow_hook(from);
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
  tc__k.stamp += (uint32_t)cycles;
#else
  (void)cycles;
#endif
}

void tc__account_idle_jump(uint64_t cycles)
{
#if TC_STATS
  tc__account_run_time();
  tc__k.stats.idle_cycles += cycles;
  tc__k.stamp += (uint32_t)cycles;
#else
  (void)cycles;
#endif
}

#if TC_STATS
void tc__account_run_time(void)
{
  uint32_t now = TC_PORT_CYCLES32();
  uint32_t ran = now - tc__k.stamp;
  tc__k.stamp = now;
  if (tc__k.current != NULL)
    tc__k.current->cycles += ran;
  else
    tc__k.stats.idle_cycles += ran;
}
#endif

void tc_kernel_stats(tc_kernel_stats_t *out)
{
  if (out == NULL) return;
  unsigned s = tc__lock();
#if TC_STATS
  if (tc__k.started) tc__account_run_time();
#endif
  *out = tc__k.stats;
  /* The totals are the sums of the per-thread counters (an HISR's context is not a thread
   * and is not in the list), with those of deleted threads. */
  out->context_switches = tc__k.deleted_switches_in;
  out->preemptions = tc__k.deleted_preempted;
  const tc_node *n = tc__k.threads.head;
  if (n != NULL) {
    do {
      const tc_thread *t = TC_CONTAINER_OF(n, tc_thread, created_node);
      out->context_switches += t->switches_in;
      out->preemptions += t->preempted;
      n = n->next;
    } while (n != tc__k.threads.head);
  }
  tc__unlock(s);
}
