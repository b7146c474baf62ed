/* SPDX-License-Identifier: MIT */
/*
 * Counting and binary semaphores (tacet/sem.h).
 *
 * A give with a thread waiting hands the unit to that thread directly, without passing
 * through the count: the count stays 0 while threads wait, so the waiter cannot be overtaken
 * by a thread that calls tc_sem_take() before it runs (tc_check verifies that waiters exist
 * only at count 0).
 */
#include "internal.h"
#include "tacet/sem.h"

/* Trace wrappers (TC_TRACE=1; nothing otherwise): each service below is recorded when it
 * returns (kernel/internal.h, TC_TRACED). */
TC_TRACED(tc_sem_create, (tc_sem *s, const char *name, uint32_t initial, uint32_t max), (s, name, initial, max),
          TC_TRACE_SVC_SEM_CREATE, s, initial, max, (void)0)
TC_TRACED(tc_sem_take, (tc_sem *s, uint32_t timeout), (s, timeout),
          TC_TRACE_SVC_SEM_TAKE, s, timeout, 0, (void)0)
TC_TRACED(tc_sem_give, (tc_sem *s), (s),
          TC_TRACE_SVC_SEM_GIVE, s, 0, 0, (void)0)
TC_TRACED(tc_sem_delete, (tc_sem *s), (s),
          TC_TRACE_SVC_SEM_DELETE, s, 0, 0, TC_TRACE_FORGET(s))

static inline bool sem_valid(const tc_sem *s) { return s != NULL && s->magic == TC_MAGIC_SEM; }

tc_status TC_BODY(tc_sem_create)(tc_sem *s, const char *name, uint32_t initial, uint32_t max)
{
  TC_ISR_CHECK("tc_sem_create");
  TC_ARG_CHECK(s != NULL && max != 0 && initial <= max, TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
#if TC_CHECKS
  if (s->magic == TC_MAGIC_SEM && tc__list_contains(&tc__k.sems, &s->created_node)) {
    tc__unlock(k);
    return TC_INVALID;
  }
#endif
  s->name = name;
  s->waiters.threads.head = NULL;
  s->waiters.reprioritized = NULL;
  TC_TRACE_WAITQ(&s->waiters, s);
  s->count = initial;
  s->max = max;
  s->magic = TC_MAGIC_SEM;
  TC_TRACE_OBJECT(TC_TRACE_OBJ_SEM, s, name, 0);
  tc__list_push_back(&tc__k.sems, &s->created_node);
  tc__unlock(k);
  return TC_OK;
}

/* The rest of a take that found the count at 0, with the lock taken as `k`: wait, or start
 * over after a signal handler ran. Out of line: the common take never gets here. */
static tc_status __attribute__((noinline)) take_slow(tc_sem *s, uint32_t timeout, unsigned k)
{
  for (;;) {
    if (timeout == TC_NO_WAIT) {
      tc__unlock(k);
      return TC_NO_INSTANCE;
    }
    /* TC_OK means the giver handed us its unit. */
    tc_status st = tc__thread_wait(&s->waiters, TC_PENDING | TC__WAIT_RESTARTABLE, timeout, k);
    if (st != TC__WAIT_RESTART) return st;
    /* A signal handler ran meanwhile (signal.c): look again, for the time left. */
    if (!tc__wait_restart(&s->magic, TC_MAGIC_SEM, &timeout, &k)) return TC_DELETED;
    if (s->count != 0) {
      s->count--;
      tc__unlock(k);
      return TC_OK;
    }
  }
}

tc_status TC_BODY(tc_sem_take)(tc_sem *s, uint32_t timeout)
{
  TC_ISR_CHECK("tc_sem_take");
  TC_ARG_CHECK(sem_valid(s), TC_INVALID);
  TC_ARG_CHECK(timeout == TC_NO_WAIT || tc__may_block(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
  if (s->count == 0) return take_slow(s, timeout, k);
  s->count--;
  tc__unlock_quiet(k);
  return TC_OK;
}

/* A give that wakes the first waiter. Out of line, so that a give without waiters needs no
 * stack frame. */
static tc_status __attribute__((noinline)) give_to_waiter(tc_node *w, unsigned k)
{
  tc__thread_wake(TC_THREAD_OF(w), TC_OK);
  tc__sched_dispatch();
  tc__unlock(k);
  return TC_OK;
}

tc_status TC_BODY(tc_sem_give)(tc_sem *s)
{
  TC_ISR_CHECK("tc_sem_give");
  TC_ARG_CHECK(sem_valid(s), TC_INVALID);
  unsigned k = tc__lock();
  tc_status st = TC_OK;
  tc_node *w = s->waiters.threads.head;
  if (w != NULL) return give_to_waiter(w, k);
  if (s->count < s->max)
    s->count++;
  else
    st = TC_FULL;
  tc__unlock_quiet(k);
  return st;
}

tc_status TC_BODY(tc_sem_delete)(tc_sem *s)
{
  TC_ISR_CHECK("tc_sem_delete");
  TC_ARG_CHECK(sem_valid(s), TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
  tc__object_delete(&s->waiters, &s->magic, &tc__k.sems, &s->created_node);
  tc__unlock(k);
  return TC_OK;
}

/* ---- invariants (tc_check) -------------------------------------------------------------- */

const char *tc__sem_check(void)
{
  const tc_node *n = tc__k.sems.head;
  if (n == NULL) return NULL;
  do {
    const tc_sem *s = TC_CONST_CONTAINER_OF(n, tc_sem, created_node);
    if (s->magic != TC_MAGIC_SEM) return "semaphore list holds something that is not a semaphore";
    if (s->max == 0 || s->count > s->max) return "semaphore count above its maximum";
    size_t waiting;
    const char *e = tc__waitq_check(&s->waiters, &waiting);
    if (e != NULL) return e;
    if (waiting != 0 && s->count != 0) return "semaphore has waiters and a non-zero count";
    n = n->next;
  } while (n != tc__k.sems.head);
  return NULL;
}
