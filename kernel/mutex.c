/* SPDX-License-Identifier: MIT */
/*
 * Mutexes with ownership transfer, recursion and transitive priority inheritance
 * (tacet/mutex.h states the rules).
 *
 * Inheritance is not accumulated step by step: a thread's effective pair is always
 * recomputed from its user pair and the waiters of the inheritance mutexes it owns
 * (tc__mutex_effective), so raising, lowering and releasing one of several mutexes are the
 * same operation and cannot drift. The cost is linear in the mutexes the thread owns.
 *
 * A change travels along a chain of owners through the wait-queue hook: changing the
 * priority of an owner that itself waits for a mutex re-queues it there (sched.c), and the
 * hook of that mutex recomputes the next owner. The hook is re-entered once per link; to keep
 * the stack flat, a nested call only records the next owner and the outermost call loops.
 * Everything runs with the kernel locked, so the two statics below are never shared.
 */
#include "internal.h"
#include "tacet/mutex.h"

/* Trace wrappers (TC_TRACE=1; nothing otherwise): each service below is recorded when it
 * returns (kernel/internal.h, TC_TRACED). */
TC_TRACED(tc_mutex_create, (tc_mutex *m, const char *name, unsigned options), (m, name, options),
          TC_TRACE_SVC_MUTEX_CREATE, m, options, 0, (void)0)
TC_TRACED(tc_mutex_lock, (tc_mutex *m, uint32_t timeout), (m, timeout),
          TC_TRACE_SVC_MUTEX_LOCK, m, timeout, 0, (void)0)
TC_TRACED(tc_mutex_unlock, (tc_mutex *m), (m),
          TC_TRACE_SVC_MUTEX_UNLOCK, m, 0, 0, (void)0)
TC_TRACED(tc_mutex_delete, (tc_mutex *m), (m),
          TC_TRACE_SVC_MUTEX_DELETE, m, 0, 0, TC_TRACE_FORGET(m))

#define MUTEX_OF_OWNER_NODE(n) TC_CONTAINER_OF(n, tc_mutex, owner_node)
#define CONST_MUTEX_OF_OWNER_NODE(n) TC_CONST_CONTAINER_OF(n, tc_mutex, owner_node)

static struct {
  bool active;        /* update_effective() is walking a chain */
  tc_thread *next;    /* the next owner in the chain, recorded by the hook */
} chain;

static inline bool mutex_valid(const tc_mutex *m) { return m != NULL && m->magic == TC_MAGIC_MUTEX; }

void tc__mutex_effective(const tc_thread *t, unsigned *priority, unsigned *threshold)
{
  const tc_node *n = t->mutexes.head;
  if (n != NULL) {
    do {
      const tc_mutex *m = CONST_MUTEX_OF_OWNER_NODE(n);
      const tc_node *w = m->waiters.threads.head;
      if ((m->options & TC_INHERIT) && w != NULL && TC_CONST_THREAD_OF(w)->priority < *priority)
        *priority = TC_CONST_THREAD_OF(w)->priority;
      n = n->next;
    } while (n != t->mutexes.head);
  }
  /* A threshold is never weaker than the priority (ThreadX's rule for inheritance, too). */
  if (*threshold > *priority) *threshold = *priority;
}

/* Give `t` (may be NULL) the pair the inheritance rule says, and then each owner down the
 * chain whose pair that changes. */
static void update_effective(tc_thread *t)
{
  if (chain.active) {
    chain.next = t;
    return;
  }
  chain.active = true;
  while (t != NULL) {
    unsigned p = t->user_priority, th = t->user_threshold;
    tc__mutex_effective(t, &p, &th);
    chain.next = NULL;
    if (p != t->priority || th != t->threshold) tc__sched_set_effective(t, p, th);
    t = chain.next;
  }
  chain.active = false;
}

/* Wait-queue hook of a TC_INHERIT mutex: a waiter's priority changed, or it left by timeout,
 * abort or termination: its owner's inherited priority follows at once. */
static void waiters_changed(tc_waitq *q, tc_thread *t)
{
  (void)t;
  update_effective(TC_CONTAINER_OF(q, tc_mutex, waiters)->owner);
}

static void take(tc_mutex *m, tc_thread *t)
{
  m->owner = t;
  m->count = 1;
  tc__list_push_back(&t->mutexes, &m->owner_node);
}

/* Off the queue before the wake: the hook is only for waits that end otherwise. */
static void release_waiter(tc_mutex *m, tc_thread *w, tc_status status)
{
  tc__list_remove(&m->waiters.threads, &w->sched_node);
  w->wait_q = NULL;
  tc__thread_wake(w, status);
}

/* The owner lets go of `m`: it passes to the highest waiter. The new owner's pair needs no
 * update: the waiters left behind are at its priority or below. The former owner's pair is
 * the caller's business. */
static void release(tc_mutex *m)
{
  tc__list_remove(&m->owner->mutexes, &m->owner_node);
  m->owner = NULL;
  m->count = 0;
  tc_node *n = m->waiters.threads.head;
  if (n == NULL) return;
  tc_thread *w = TC_THREAD_OF(n);
  take(m, w);
  release_waiter(m, w, TC_OK);
}

tc_status TC_BODY(tc_mutex_create)(tc_mutex *m, const char *name, unsigned options)
{
  TC_ISR_CHECK("tc_mutex_create");
  TC_ARG_CHECK(m != NULL && (options & ~TC_INHERIT) == 0, TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
#if TC_CHECKS
  if (m->magic == TC_MAGIC_MUTEX && tc__list_contains(&tc__k.mutexes, &m->created_node)) {
    tc__unlock(k);
    return TC_INVALID;
  }
#endif
  m->name = name;
  m->waiters.threads.head = NULL;
  m->waiters.reprioritized = (options & TC_INHERIT) ? waiters_changed : NULL;
  TC_TRACE_WAITQ(&m->waiters, m);
  m->owner = NULL;
  m->owner_node.next = m->owner_node.prev = NULL;
  m->count = 0;
  m->options = options;
  m->magic = TC_MAGIC_MUTEX;
  TC_TRACE_OBJECT(TC_TRACE_OBJ_MUTEX, m, name, 0);
  tc__list_push_back(&tc__k.mutexes, &m->created_node);
  tc__unlock(k);
  return TC_OK;
}

tc_status TC_BODY(tc_mutex_lock)(tc_mutex *m, uint32_t timeout)
{
  TC_ISR_CHECK("tc_mutex_lock");
  TC_ARG_CHECK(mutex_valid(m), TC_INVALID);
  TC_ARG_CHECK(tc__in_thread(), TC_CALLER_ERROR);
  TC_ARG_CHECK(timeout == TC_NO_WAIT || tc__k.lock_nesting == 0, TC_CALLER_ERROR);
  unsigned k = tc__lock();
  tc_thread *self = tc__k.current;
  for (;;) {
    tc_thread *owner = m->owner;
    if (owner == NULL || owner == self) {
      if (owner == NULL)
        take(m, self);
      else
        m->count++;
      tc__unlock(k);
      return TC_OK;
    }
    if (timeout == TC_NO_WAIT) {
      tc__unlock(k);
      return TC_NO_INSTANCE;
    }
    /* The caller is about to be the highest waiter, if it is higher than the owner: raise the
     * owner to it now (the rule with the caller queued), and the chain beyond through the
     * hook. */
    if ((m->options & TC_INHERIT) && self->priority < owner->priority) {
      unsigned p = self->priority;
      tc__sched_set_effective(owner, p, owner->threshold < p ? owner->threshold : p);
    }
    /* TC_OK means the former owner handed the mutex over: we own it now. A signal takes the
     * caller off the queue (the hook undoes what it imposed) until it starts over. */
    tc_status st = tc__thread_wait(&m->waiters, TC_PENDING | TC__WAIT_RESTARTABLE, timeout, k);
    if (st != TC__WAIT_RESTART) return st;
    /* A signal handler ran meanwhile (signal.c): look again, for the time left. */
    if (!tc__wait_restart(&m->magic, TC_MAGIC_MUTEX, &timeout, &k)) return TC_DELETED;
  }
}

tc_status TC_BODY(tc_mutex_unlock)(tc_mutex *m)
{
  TC_ISR_CHECK("tc_mutex_unlock");
  TC_ARG_CHECK(mutex_valid(m), TC_INVALID);
  TC_ARG_CHECK(tc__in_thread(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
  tc_thread *self = tc__k.current;
  if (m->owner != self) {
    tc__unlock(k);
    return TC_NOT_OWNER;
  }
  if (--m->count == 0) {
    release(m);
    update_effective(self);
    tc__sched_dispatch();
  }
  tc__unlock(k);
  return TC_OK;
}

tc_status TC_BODY(tc_mutex_delete)(tc_mutex *m)
{
  TC_ISR_CHECK("tc_mutex_delete");
  TC_ARG_CHECK(mutex_valid(m), TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
  while (m->waiters.threads.head != NULL) release_waiter(m, TC_THREAD_OF(m->waiters.threads.head), TC_DELETED);
  tc_thread *owner = m->owner;
  if (owner != NULL) {
    tc__list_remove(&owner->mutexes, &m->owner_node);
    m->owner = NULL;
    m->count = 0;
    update_effective(owner);
  }
  m->magic = 0;
  tc__list_remove(&tc__k.mutexes, &m->created_node);
  tc__sched_dispatch();
  tc__unlock(k);
  return TC_OK;
}

/* Called by thread.c when `t` completes or is terminated, after it left every list: each
 * mutex it owns goes to its highest waiter. */
void tc__mutex_thread_exit(tc_thread *t)
{
  while (t->mutexes.head != NULL) release(MUTEX_OF_OWNER_NODE(t->mutexes.head));
  /* In no ready list or wait queue any more: set directly, not through the scheduler. */
  tc__set_priority(t, t->user_priority);
  t->threshold = t->user_threshold;
}

/* ---- invariants (tc_check) -------------------------------------------------------------- */

static const char *check_mutex(const tc_mutex *m)
{
  if (m->magic != TC_MAGIC_MUTEX) return "mutex list holds something that is not a mutex";
  if ((m->options & ~TC_INHERIT) != 0) return "mutex with an unknown option";
  if (m->waiters.reprioritized != ((m->options & TC_INHERIT) ? waiters_changed : NULL))
    return "mutex wait-queue hook disagrees with its options";
  size_t waiting;
  const char *e = tc__waitq_check(&m->waiters, &waiting);
  if (e != NULL) return e;
  const tc_thread *o = m->owner;
  if (o == NULL) {
    if (m->count != 0) return "free mutex with a lock count";
    if (waiting != 0) return "free mutex has waiters";
    return NULL;
  }
  if (m->count == 0) return "owned mutex with a lock count of 0";
  if (o->magic != TC_MAGIC_THREAD) return "mutex owner is not a thread";
  if (o->state == TC_COMPLETED || o->state == TC_TERMINATED) return "mutex owned by a thread that has ended";
  if (!tc__list_contains(&o->mutexes, &m->owner_node)) return "mutex missing from its owner's list";
  if (o->wait_q == &m->waiters) return "mutex owner waits for its own mutex";
  return NULL;
}

const char *tc__mutex_check(void)
{
  const tc_node *n = tc__k.mutexes.head;
  if (n != NULL) {
    do {
      const char *e = check_mutex(TC_CONST_CONTAINER_OF(n, tc_mutex, created_node));
      if (e != NULL) return e;
      n = n->next;
    } while (n != tc__k.mutexes.head);
  }
  if (chain.active) return "priority inheritance chain walk left unfinished";
  /* Every thread's effective pair is what the rule gives: its user pair raised by the
   * waiters of the inheritance mutexes it owns, nothing more, nothing less. */
  n = tc__k.threads.head;
  if (n == NULL) return NULL;
  do {
    const tc_thread *t = TC_CONST_CONTAINER_OF(n, tc_thread, created_node);
    const tc_node *x = t->mutexes.head;
    if (x != NULL) {
      do {
        const tc_mutex *m = CONST_MUTEX_OF_OWNER_NODE(x);
        if (m->magic != TC_MAGIC_MUTEX || m->owner != t) return "thread lists a mutex it does not own";
        x = x->next;
      } while (x != t->mutexes.head);
    }
    unsigned p = t->user_priority, th = t->user_threshold;
    tc__mutex_effective(t, &p, &th);
    if (t->priority != p) return "effective priority disagrees with the inheritance rule";
    if (t->threshold != th) return "effective threshold disagrees with the inheritance rule";
    n = n->next;
  } while (n != tc__k.threads.head);
  return NULL;
}
