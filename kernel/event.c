/* SPDX-License-Identifier: MIT */
/*
 * Event flags (tacet/event.h).
 *
 * A waiter keeps its request in wait_info: [0] the requested flags, [1] the mode. A set
 * that satisfies it replaces [0] with the flags at that moment, which the waiter returns
 * through `actual`. Invariant (tc_check): no waiter's condition is met by the current flags
 * -- a set releases every waiter the flags it leaves satisfy, and the clears that follow
 * (CLEAR waiters, tc_event_clear) only remove flags.
 */
#include "internal.h"
#include "tacet/event.h"

/* Trace wrappers (TC_TRACE=1; nothing otherwise): each service below is recorded when it
 * returns (kernel/internal.h, TC_TRACED). */
TC_TRACED(tc_event_create, (tc_event *e, const char *name), (e, name),
          TC_TRACE_SVC_EVENT_CREATE, e, 0, 0, (void)0)
TC_TRACED(tc_event_set, (tc_event *e, uint32_t flags), (e, flags),
          TC_TRACE_SVC_EVENT_SET, e, flags, 0, (void)0)
TC_TRACED(tc_event_clear, (tc_event *e, uint32_t flags), (e, flags),
          TC_TRACE_SVC_EVENT_CLEAR, e, flags, 0, (void)0)
TC_TRACED(tc_event_wait, (tc_event *e, uint32_t flags, unsigned mode, uint32_t *actual, uint32_t timeout), (e, flags, mode, actual, timeout),
          TC_TRACE_SVC_EVENT_WAIT, e, flags, timeout, (void)0)
TC_TRACED(tc_event_delete, (tc_event *e), (e),
          TC_TRACE_SVC_EVENT_DELETE, e, 0, 0, TC_TRACE_FORGET(e))

static inline bool event_valid(const tc_event *e) { return e != NULL && e->magic == TC_MAGIC_EVENT; }

static inline bool mode_valid(unsigned mode)
{
  unsigned kind = mode & ~TC_EVENT_CLEAR;
  return kind == TC_EVENT_ANY || kind == TC_EVENT_ALL;
}

static inline bool satisfied(uint32_t current, uint32_t requested, unsigned mode)
{
  return (mode & TC_EVENT_ALL) ? (current & requested) == requested : (current & requested) != 0;
}

tc_status TC_BODY(tc_event_create)(tc_event *e, const char *name)
{
  TC_ISR_CHECK("tc_event_create");
  TC_ARG_CHECK(e != NULL, TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
#if TC_CHECKS
  if (e->magic == TC_MAGIC_EVENT && tc__list_contains(&tc__k.events, &e->created_node)) {
    tc__unlock(k);
    return TC_INVALID;
  }
#endif
  e->name = name;
  e->waiters.threads.head = NULL;
  e->waiters.reprioritized = NULL;
  TC_TRACE_WAITQ(&e->waiters, e);
  e->flags = 0;
  e->magic = TC_MAGIC_EVENT;
  TC_TRACE_OBJECT(TC_TRACE_OBJ_EVENT, e, name, 0);
  tc__list_push_back(&tc__k.events, &e->created_node);
  tc__unlock(k);
  return TC_OK;
}

tc_status TC_BODY(tc_event_set)(tc_event *e, uint32_t flags)
{
  TC_ISR_CHECK("tc_event_set");
  TC_ARG_CHECK(event_valid(e), TC_INVALID);
  unsigned k = tc__lock();
  e->flags |= flags;
  /* Every waiter is tested against the flags as this set left them, in the order of the
   * queue; the flags of the CLEAR waiters it releases are cleared after the pass. */
  uint32_t seen = e->flags, consumed = 0;
  tc_node *n = e->waiters.threads.head;
  bool woke = false;
  while (n != NULL) {
    tc_thread *t = TC_THREAD_OF(n);
    tc_node *next = n->next == e->waiters.threads.head ? NULL : n->next;
    uint32_t requested = (uint32_t)t->wait_info[0];
    unsigned mode = (unsigned)t->wait_info[1];
    if (satisfied(seen, requested, mode)) {
      t->wait_info[0] = seen;
      if ((mode & TC_EVENT_CLEAR) != 0u) consumed |= requested;
      tc__thread_wake(t, TC_OK);
      woke = true;
    }
    n = next;
  }
  e->flags &= ~consumed;
  if (woke) tc__sched_dispatch();
  tc__unlock(k);
  return TC_OK;
}

tc_status TC_BODY(tc_event_clear)(tc_event *e, uint32_t flags)
{
  TC_ISR_CHECK("tc_event_clear");
  TC_ARG_CHECK(event_valid(e), TC_INVALID);
  unsigned k = tc__lock();
  e->flags &= ~flags;
  tc__unlock(k);
  return TC_OK;
}

tc_status TC_BODY(tc_event_wait)(tc_event *e, uint32_t flags, unsigned mode, uint32_t *actual, uint32_t timeout)
{
  TC_ISR_CHECK("tc_event_wait");
  TC_ARG_CHECK(event_valid(e) && flags != 0 && mode_valid(mode), TC_INVALID);
  TC_ARG_CHECK(timeout == TC_NO_WAIT || tc__may_block(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
  for (;;) {
    if (satisfied(e->flags, flags, mode)) {
      if (actual != NULL) *actual = e->flags;
      if ((mode & TC_EVENT_CLEAR) != 0u) e->flags &= ~flags;
      tc__unlock(k);
      return TC_OK;
    }
    if (timeout == TC_NO_WAIT) {
      tc__unlock(k);
      return TC_NO_INSTANCE;
    }
    tc_thread *self = tc__k.current;
    self->wait_info[0] = flags;
    self->wait_info[1] = mode;
    tc_status st = tc__thread_wait(&e->waiters, TC_PENDING | TC__WAIT_RESTARTABLE, timeout, k);
    /* Written by the set that released us; nobody touches it while we run. */
    if (st == TC_OK && actual != NULL) *actual = (uint32_t)self->wait_info[0];
    if (st != TC__WAIT_RESTART) return st;
    /* A signal handler ran meanwhile (signal.c): look again, for the time left. */
    if (!tc__wait_restart(&e->magic, TC_MAGIC_EVENT, &timeout, &k)) return TC_DELETED;
  }
}

tc_status TC_BODY(tc_event_delete)(tc_event *e)
{
  TC_ISR_CHECK("tc_event_delete");
  TC_ARG_CHECK(event_valid(e), TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
  tc__object_delete(&e->waiters, &e->magic, &tc__k.events, &e->created_node);
  tc__unlock(k);
  return TC_OK;
}

/* ---- invariants (tc_check) -------------------------------------------------------------- */

static const char *check_event(const tc_event *e)
{
  if (e->magic != TC_MAGIC_EVENT) return "event list holds something that is not an event group";
  size_t waiting;
  const char *err = tc__waitq_check(&e->waiters, &waiting);
  if (err != NULL || waiting == 0) return err;
  const tc_node *x = e->waiters.threads.head;
  do {
    const tc_thread *t = TC_CONST_THREAD_OF(x);
    if (t->wait_info[0] == 0 || !mode_valid((unsigned)t->wait_info[1]))
      return "event waiter with an invalid request";
    if (satisfied(e->flags, (uint32_t)t->wait_info[0], (unsigned)t->wait_info[1]))
      return "event waiter still waits although the flags satisfy it";
    x = x->next;
  } while (x != e->waiters.threads.head);
  return NULL;
}

const char *tc__event_check(void)
{
  const tc_node *n = tc__k.events.head;
  if (n == NULL) return NULL;
  do {
    const char *e = check_event(TC_CONST_CONTAINER_OF(n, tc_event, created_node));
    if (e != NULL) return e;
    n = n->next;
  } while (n != tc__k.events.head);
  return NULL;
}
