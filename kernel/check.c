/* SPDX-License-Identifier: MIT */
/*
 * tc_check(): every internal invariant of the kernel, executable. Tests call it after every
 * step; it is linear in the number of objects and masks interrupts while it runs.
 */
#include "internal.h"

#define FAIL_IF(cond, msg) \
  do {                     \
    if (cond) return (msg); \
  } while (0)

static bool map_bit(const uint32_t *map, unsigned p) { return (map[p / 32u] << (p % 32u)) & TC__TOP_BIT; }

static bool group_bit(uint32_t group, unsigned w) { return (group << w) & TC__TOP_BIT; }

/* An object type's invariant checker (internal.h): NULL when all hold. */
typedef const char *object_check(void);

/* A context the kernel may run: a thread's, or an HISR's (flagged as one). */
static bool is_context(const tc_thread *t)
{
  return t->magic == TC_MAGIC_THREAD ? !(t->flags & TC_TF_HISR)
                                     : t->magic == TC_MAGIC_HISR_CTX && (t->flags & TC_TF_HISR);
}

/* Links of a circular list are mutually consistent; counts its nodes into *n. The walk needs
 * no bound: with next->prev == x for every node passed, no node has two predecessors, so the
 * walk comes back to the head before it could visit a node twice. */
static const char *check_links(const tc_list *l, size_t *n)
{
  *n = 0;
  const tc_node *h = l->head;
  if (h == NULL) return NULL;
  const tc_node *x = h;
  do {
    FAIL_IF(x->next == NULL || x->prev == NULL, "list node with a NULL link");
    FAIL_IF(x->next->prev != x, "list links disagree (next->prev)");
    x = x->next;
    (*n)++;
  } while (x != h);
  return NULL;
}

static const char *check_ready(size_t *ready_total, size_t *flagged_total)
{
  *ready_total = 0;
  *flagged_total = 0;
  for (unsigned p = 0; p < TC_PRIORITIES; p++) {
    const tc_list *l = &tc__k.ready[p];
    size_t n;
    const char *e = check_links(l, &n);
    if (e != NULL) return e;
    FAIL_IF((l->head != NULL) != map_bit(tc__k.ready_map, p), "ready_map bit disagrees with its ready list");
    if (l->head == NULL) continue;
    bool seen_unflagged = false;
    const tc_node *x = l->head;
    do {
      const tc_thread *t = TC_CONST_THREAD_OF(x);
      FAIL_IF(t->magic != TC_MAGIC_THREAD, "ready list holds something that is not a thread");
      FAIL_IF(t->state != TC_READY, "thread in a ready list is not in the ready state");
      FAIL_IF(t->priority != p, "thread in the ready list of another priority");
      bool flagged = (t->flags & TC_TF_PREEMPTED) != 0;
      FAIL_IF(flagged && seen_unflagged, "preempted thread behind a non-preempted one");
      FAIL_IF(flagged && t->threshold >= t->priority, "thread flagged preempted without a threshold in force");
      FAIL_IF(flagged && t == tc__k.chosen, "the chosen thread is flagged preempted");
      seen_unflagged |= !flagged;
      *flagged_total += flagged;
      x = x->next;
    } while (x != l->head);
    *ready_total += n;
  }
  if (TC_MAP_WORDS > 1) {
    for (unsigned w = 0; w < TC_MAP_WORDS; w++) {
      FAIL_IF((tc__k.ready_map[w] != 0) != group_bit(tc__k.ready_group, w), "ready_group disagrees with ready_map");
    }
    /* Shifted in 64 bits: with 1,024 priorities the shift is 32, undefined on 32 bits. */
    const unsigned words = TC_MAP_WORDS; /* an unsigned shift count */
    FAIL_IF((uint32_t)((uint64_t)tc__k.ready_group << words) != 0, "ready_group bit beyond the map");
  } else {
    FAIL_IF(tc__k.ready_group != 0, "ready_group kept with a one-word map");
  }
  return NULL;
}

/* The preempted list: every flagged ready thread, in order of threshold. */
static const char *check_preempted(size_t flagged)
{
  size_t n;
  const char *e = check_links(&tc__k.preempted, &n);
  if (e != NULL) return e;
  FAIL_IF(n != flagged, "preempted list and flagged threads differ in number");
  const tc_node *x = tc__k.preempted.head;
  unsigned last = 0;
  for (size_t i = 0; i < n; i++, x = x->next) {
    const tc_thread *t = TC_CONST_CONTAINER_OF(x, tc_thread, preempt_node);
    FAIL_IF(t->magic != TC_MAGIC_THREAD || t->state != TC_READY || !(t->flags & TC_TF_PREEMPTED),
            "preempted list holds a thread that is not a ready, preempted thread");
    FAIL_IF(t->threshold < last, "preempted list out of threshold order");
    last = t->threshold;
  }
  return NULL;
}

static const char *check_waitq(const tc_waitq *q)
{
  size_t n;
  const char *e = check_links(&q->threads, &n);
  if (e != NULL) return e;
  const tc_node *x = q->threads.head;
  unsigned last = 0;
  for (size_t i = 0; i < n; i++, x = x->next) {
    const tc_thread *t = TC_CONST_THREAD_OF(x);
    FAIL_IF(t->magic != TC_MAGIC_THREAD, "wait queue holds something that is not a thread");
    FAIL_IF(t->state != TC_PENDING, "thread in a wait queue is not pending");
    FAIL_IF(t->wait_q != q, "thread in a wait queue it does not wait on");
    FAIL_IF(t->priority < last, "wait queue out of priority order");
    last = t->priority;
  }
  return NULL;
}

/* The ready-map bits a thread keeps with its priority (tc__set_priority). */
static bool map_bits_agree(const tc_thread *t)
{
  unsigned p = t->priority;
#if TC_PRIORITIES > 32
  if (t->ready_group_bit != TC__TOP_BIT >> (p / 32u)) return false;
#endif
  return t->ready_word == &tc__k.ready_map[p / 32u] && t->ready_bit == TC__TOP_BIT >> (p % 32u);
}

static const char *check_thread(const tc_thread *t, size_t *ready, size_t *timeouts)
{
  FAIL_IF(t->magic != TC_MAGIC_THREAD, "created thread list holds an invalid thread");
  FAIL_IF(t->state > TC_TERMINATED || t->state == TC_RUNNING, "thread in an unknown state");
  FAIL_IF(t->priority >= TC_PRIORITIES || t->user_priority >= TC_PRIORITIES, "priority out of range");
  FAIL_IF(t->threshold > t->priority || t->user_threshold > t->user_priority, "threshold above priority");
  FAIL_IF(t->ready_list != &tc__k.ready[t->priority], "ready list pointer disagrees with the priority");
  FAIL_IF(!map_bits_agree(t), "ready map bits disagree with the priority");
  FAIL_IF(t->priority > t->user_priority || t->threshold > t->user_threshold,
          "effective priority or threshold weaker than the user's");
  FAIL_IF(t->time_slice != 0 && (t->slice_left == 0 || t->slice_left > t->time_slice),
          "time slice counter out of range");
  if (t->timeout.linked) (*timeouts)++;
  switch (t->state) {
  case TC_READY:
    (*ready)++;
    FAIL_IF(t->wait_q != NULL || t->timeout.linked, "ready thread still waiting");
    FAIL_IF((t->flags & TC_TF_SUSPEND_AFTER) != 0u, "ready thread with a delayed suspension");
    break;
  case TC_SLEEPING:
    FAIL_IF(t->wait_q != NULL, "sleeping thread in a wait queue");
    break;
  case TC_PENDING: {
    FAIL_IF(t->wait_q == NULL, "pending thread without a wait queue");
    FAIL_IF(!tc__list_contains(&t->wait_q->threads, &t->sched_node), "pending thread missing from its wait queue");
    const char *e = check_waitq(t->wait_q);
    if (e != NULL) return e;
    break;
  }
  default:
    FAIL_IF(t->wait_q != NULL || t->timeout.linked, "stopped or suspended thread still waiting");
    FAIL_IF(t->flags != 0, "stopped or suspended thread with scheduling flags");
    break;
  }
#if TC_STACK_PAINT_GUARD
  FAIL_IF(!tc__stack_guard_intact(t), "stack guard overwritten");
#endif
  /* Every switch away that was no preemption is one of the switches away. */
  FAIL_IF(t->left > tc__switches_out(t), "more switches away while not ready than switches away");
  return NULL;
}

static const char *check_timeouts(size_t expected)
{
  size_t n;
  const char *e = check_links(&tc__k.timeouts, &n);
  if (e != NULL) return e;
  FAIL_IF(n != expected, "delta list length disagrees with the linked timeouts");
  const tc_node *x = tc__k.timeouts.head;
  for (size_t i = 0; i < n; i++, x = x->next) {
    const tc_timeout *to = TC_CONST_CONTAINER_OF(x, tc_timeout, node);
    FAIL_IF(!to->linked, "delta list entry not marked linked");
    FAIL_IF(to->expire == NULL, "delta list entry without an expiry function");
    FAIL_IF(i == 0 && to->delta == 0, "delta list head already expired");
  }
  return NULL;
}

static const char *check_all(void)
{
  size_t ready_in_lists, flagged, ready_threads = 0, timeouts = 0, n_threads;
  const char *e = check_ready(&ready_in_lists, &flagged);
  if (e != NULL) return e;
  e = check_preempted(flagged);
  if (e != NULL) return e;

  e = check_links(&tc__k.threads, &n_threads);
  if (e != NULL) return e;
  const tc_node *x = tc__k.threads.head;
  for (size_t i = 0; i < n_threads; i++, x = x->next) {
    const tc_thread *t = TC_CONST_CONTAINER_OF(x, tc_thread, created_node);
    e = check_thread(t, &ready_threads, &timeouts);
    if (e != NULL) return e;
  }
  FAIL_IF(ready_threads != ready_in_lists, "ready threads and ready-list entries differ in number");
  if (tc__timer_linked != NULL) timeouts += tc__timer_linked();
  e = check_timeouts(timeouts);
  if (e != NULL) return e;

  /* (Through a typedef: cppcheck 2.10 misreads the bare declarator as an uninitialised array.) */
  object_check *const object_checks[] = {
      tc__sem_check,   tc__mutex_check,      tc__queue_check,     tc__port_check, tc__event_check,
      tc__timer_check, tc__block_pool_check, tc__byte_pool_check, tc__hisr_check, tc__taskport_check,
  };
  for (size_t i = 0; i < sizeof object_checks / sizeof object_checks[0]; i++) {
    if (object_checks[i] != NULL && (e = object_checks[i]()) != NULL) return e;
  }

  FAIL_IF(tc__k.current != NULL && !is_context(tc__k.current), "current is neither a thread nor an HISR");
  FAIL_IF(tc__k.next != NULL && (!is_context(tc__k.next) || tc__k.next->state != TC_READY),
          "next is not a ready thread or HISR");
  const tc_thread *r = tc__k.chosen;
  FAIL_IF(r != NULL && (r->magic != TC_MAGIC_THREAD || r->state != TC_READY || (r->flags & TC_TF_HISR)),
          "the chosen thread is not a ready thread");
  /* Before the start nothing is decided (after a run the last decision stays). */
  if (tc__k.started) {
    FAIL_IF(r == NULL && tc__sched_any_ready(), "threads are ready and none is chosen");
    FAIL_IF(tc__k.next != (tc__k.hisr_top != NULL ? tc__k.hisr_top : r),
            "next is neither the first HISR nor the chosen thread");
    FAIL_IF(tc__k.next != tc__sched_choose(true), "the chosen thread is not the one the scheduling rules choose");
    /* The rule itself, independently of how choose() implements it: no ready thread may be
     * above the chosen thread's threshold. */
    FAIL_IF(r != NULL && tc__sched_highest_ready() < r->threshold,
            "a ready thread above the running thread's threshold is not running");
  }
  if (tc__k.started && tc__k.lock_nesting == 0 && !tc__in_isr())
    FAIL_IF(tc__k.next != tc__k.current, "a switch is pending outside an interrupt with the scheduler unlocked");
  return NULL;
}

const char *tc_check(void)
{
  unsigned s = tc__lock();
  const char *e = check_all();
  tc__unlock(s);
  return e;
}
