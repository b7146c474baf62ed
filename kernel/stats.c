/* SPDX-License-Identifier: MIT */
/*
 * Counters and the one place where a context switch is committed: switches, preemptions,
 * run time per thread and idle time are accounted here, and the outgoing thread's stack is
 * checked, before the port is asked to switch.
 */
#include <string.h>

#include "internal.h"

#ifdef TC_ASAN
#include <sanitizer/asan_interface.h>
#endif

uint64_t tc_cycles(void) { return TC_PORT_CYCLES(); }

uint32_t tc_cycles_hz(void) { return TC_PORT_CYCLES_HZ(); }

/* ---- stacks ----------------------------------------------------------------------------- */

__attribute__((weak)) void tc_stack_overflow_hook(tc_thread *t)
{
  TC_PORT_PANIC("stack overflow", t->name); /* "tacet: panic: stack overflow: <thread>" */
}

#ifdef TC_ASAN
void tc__stack_prepare(void *stack, size_t size)
{
  __asan_unpoison_memory_region(stack, size);
#if TC_STACK_CHECK
  memset(stack, TC_STACK_PATTERN, size);
#endif
}
#endif

TC_NO_ASAN size_t tc__stack_high_water(const tc_thread *t)
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
static inline TC_NO_ASAN uint32_t stack_word(const uint8_t *p)
{
  uint32_t w;
  (void)memcpy(&w, p, sizeof w);
  return w;
}

_Static_assert(TC_STACK_GUARD == 16, "the guard is compared as four words");

TC_NO_ASAN bool tc__stack_guard_intact(const tc_thread *t)
{
  const uint8_t *p = t->stack_base;
  return ((stack_word(p) ^ TC__PATTERN_WORD) | (stack_word(p + 4) ^ TC__PATTERN_WORD) |
          (stack_word(p + 8) ^ TC__PATTERN_WORD) | (stack_word(p + 12) ^ TC__PATTERN_WORD)) == 0;
}

#endif

/* The external definitions of the inline switch commit (internal.h). */
extern inline bool tc__guard_top_intact(const tc_thread *t);
extern inline uint32_t tc__stamp_advance(void);
extern inline struct tc_counts *tc__counts(tc_thread *c);
extern inline void tc__add_cycles(tc_thread *c, uint32_t ran);
extern inline void tc__add_idle(uint32_t ran);
extern inline void tc__count_out(tc_thread *c, uint32_t ran);
extern inline void tc__account_run_time(void);
extern inline void tc__commit_state(tc_thread *from, tc_thread *to);
extern inline void tc__commit(void);
extern inline void tc__commit_thread_to_thread(tc_thread *from, tc_thread *to);

void tc__switch_commit(void) { tc__commit(); }

_Static_assert(offsetof(struct tc_counts, cycles_lo) == offsetof(struct tc_counts, switches_out) + 4,
               "tc__count_out stores the two counters of a switch as one pair");

void tc__uncount_out(tc_thread *c)
{
  /* It went idle not ready, so both counts of that switch away are taken back. (With TC_POWER
   * from the counters of the point in force, which may not be the point it went idle at: only
   * the sum over the points is reported, and it is exact modulo 2^64.) */
  struct tc_counts *k = tc__counts(c);
  if (k->switches_out-- == 0) k->switches_out_hi--;
  c->left--;
}

void tc__thread_counters(const tc_thread *c, uint64_t *switches_in, uint64_t *preempted,
                         uint64_t *cycles)
{
#if TC_STATS
  uint64_t out = tc__switches_out(c);
  *switches_in = out + (c == tc__k.current);
  *preempted = out - c->left;
  *cycles = 0;
  for (unsigned p = 0; p < sizeof c->counts / sizeof c->counts[0]; p++)
    *cycles += (uint64_t)c->counts[p].cycles_hi << 32 | c->counts[p].cycles_lo;
  /* The current context's run so far. */
  if (c == tc__k.current) *cycles += (uint32_t)(TC__STAMP - TC_PORT_CYCLES32_DOWN());
#else
  (void)c;
  *switches_in = *preempted = *cycles = 0; /* not counted */
#endif
}

void tc__account_end_of_run(void)
{
#if TC_STATS
  tc__account_run_time();
  tc_thread *c = tc__k.current;
  if (c != NULL) {
    tc__count_out(c, 0); /* a switch away, its time already counted */
    c->left++;           /* and no preemption: the run is over */
  }
  tc__k.last_ran = NULL;
#endif
}

void tc__account_switch_cycles(uint64_t cycles)
{
#if TC_STATS
  tc__k.stats.switch_cycles += cycles;
  TC__STAMP -= (uint32_t)cycles; /* not run time of any context */
#else
  (void)cycles;
#endif
}

void tc__account_idle_jump(uint64_t cycles)
{
#if TC_STATS
  tc__account_run_time();
  tc__k.stats.idle_cycles += cycles;
#if TC_POWER
  tc__k.power.idle[tc__k.power.point] += cycles;
#endif
  TC__STAMP -= (uint32_t)cycles;
#else
  (void)cycles;
#endif
#if TC_TRACE
  /* Events on either side of the gap may lie 2^32 units apart: a TIME event carries the
   * clock across (stamped with the time after the gap, when the next event will come). */
  if (tc__k.trace != NULL) tc__trace_time(TC_PORT_CYCLES() + cycles);
#endif
}

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
      const tc_thread *t = TC_CONST_CONTAINER_OF(n, tc_thread, created_node);
      uint64_t in, preempted, cycles;
      tc__thread_counters(t, &in, &preempted, &cycles);
      out->context_switches += in;
      out->preemptions += preempted;
      n = n->next;
    } while (n != tc__k.threads.head);
  }
  tc__unlock(s);
}
