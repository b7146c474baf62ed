/* SPDX-License-Identifier: MIT */
/*
 * System time: the tick counter and the delta list of timeouts (Ahn et al., fig. 12).
 *
 * Each entry stores the ticks between its predecessor's expiry and its own, so a tick only
 * decrements the head: a tick that expires nothing costs O(1) whatever the number of
 * sleeping or waiting threads. Insertion walks the list (O(n) in pending timeouts); entries
 * with the same expiry tick expire in the order they were added.
 */
#include "internal.h"

#define TIMEOUT_OF(n) TC_CONTAINER_OF(n, tc_timeout, node)

void tc__time_init(void)
{
  tc__k.tick = 0;
  tc__k.timeouts.head = NULL;
}

uint32_t tc_tick_get(void) { return tc__k.tick; }

void tc__timeout_add(tc_timeout *to, uint32_t ticks)
{
  tc_list *l = &tc__k.timeouts;
  tc_node *n = l->head;
  uint32_t remaining = ticks;
  /* Walk to the first entry that expires later; it keeps only what remains after `to`. */
  while (n != NULL && remaining >= TIMEOUT_OF(n)->delta) {
    remaining -= TIMEOUT_OF(n)->delta;
    n = n->next == l->head ? NULL : n->next;
  }
  if (n != NULL) TIMEOUT_OF(n)->delta -= remaining;
  to->delta = remaining;
  tc__list_insert(l, n, &to->node);
  to->linked = true;
}

void tc__timeout_remove(tc_timeout *to)
{
  tc_list *l = &tc__k.timeouts;
  tc_node *succ = to->node.next;
  if (succ != l->head) TIMEOUT_OF(succ)->delta += to->delta;
  tc__list_remove(l, &to->node);
  to->linked = false;
}

uint32_t tc__time_ticks_to_expiry(void)
{
  tc_node *h = tc__k.timeouts.head;
  return h == NULL ? UINT32_MAX : TIMEOUT_OF(h)->delta;
}

void tc__time_skip(uint32_t n)
{
  tc__k.tick += n;
  tc_node *h = tc__k.timeouts.head;
  if (h != NULL) TIMEOUT_OF(h)->delta -= n;
}

/* One tick, with the kernel locked. In the body of each caller: a port calls one of them. */
static inline __attribute__((always_inline)) void tick(void)
{
  tc__k.tick++;
#if TC_STATS
  tc__account_run_time(); /* at least once a tick: the 32-bit run-time delta never wraps */
#endif
#if TC_TRACE
  if (tc__k.trace != NULL) tc__trace_tick();
#endif
  /* The slice belongs to the tick that just ended, so it is charged before expiries make
   * other threads ready. Only a time-sliced thread that is running has one to charge (a build
   * for size lets tc__sched_tick() find that out). */
#ifdef __OPTIMIZE_SIZE__
  tc__sched_tick();
#else
  tc_thread *r = tc__k.current;
  if (r != NULL && r->time_slice != 0) tc__sched_tick();
#endif
  tc_node *h = tc__k.timeouts.head;
  if (h != NULL && --TIMEOUT_OF(h)->delta == 0) {
    do {
      tc_timeout *to = TIMEOUT_OF(h);
      tc__list_remove(&tc__k.timeouts, h);
      to->linked = false;
      to->expire(to);
      h = tc__k.timeouts.head;
    } while (h != NULL && TIMEOUT_OF(h)->delta == 0);
  }
}

void tc__tick_announce(void)
{
  unsigned s = tc__lock();
  tick();
  tc__unlock(s);
}

#ifdef TC_PORT_IN_ISR
/* The bracket would add a critical section on each side and a dispatch that the port makes
 * anyway in a handler (tc__sched_dispatch: TC_PORT_SWITCH_LATER); a handler needs none of it
 * where the hardware tells handler mode. The interrupt is counted as the bracket counts it. */
void tc__tick_interrupt(void)
{
#if TC_TRACE
  if (tc__k.trace != NULL) { /* a trace records the interrupt and its nesting: the bracket */
    tc__isr_enter();
    tc__tick_announce();
    tc__isr_exit();
    return;
  }
#endif
  unsigned s = tc__lock();
#if TC_STATS
  tc__k.stats.interrupts++;
#endif
  tick();
  tc__sched_dispatch(); /* what the bracket's exit does: in a handler, TC_PORT_SWITCH_LATER */
  tc__unlock_quiet(s);  /* in a handler: a switch waits for its end whatever the ISB does */
}
#endif
