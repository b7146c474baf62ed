/* SPDX-License-Identifier: MIT */
/*
 * Task ports (tacet/taskport.h): a one-word mailbox in each thread's control block.
 *
 * The slot is t->port_word, valid while t->port_full. The thread's own wait queue
 * t->port_waiters holds, while the slot is full, the threads waiting to post (each with its
 * word in wait_info[0]) and, while it is empty, at most the thread itself waiting in
 * tc_thread_receive() -- never both, so "t waits for a word" is simply
 * t->wait_q == &t->port_waiters and a post can hand the word over in O(1).
 */
#include "internal.h"
#include "tacet/taskport.h"

/* Trace wrappers (TC_TRACE=1; nothing otherwise): each service below is recorded when it
 * returns (kernel/internal.h, TC_TRACED). */
TC_TRACED(tc_thread_post, (tc_thread *to, uint32_t word, uint32_t timeout), (to, word, timeout),
          TC_TRACE_SVC_THREAD_POST, to, word, timeout, (void)0)
TC_TRACED(tc_thread_receive, (uint32_t *word, uint32_t timeout), (word, timeout),
          TC_TRACE_SVC_THREAD_RECEIVE, 0, (st_ == TC_OK && word != NULL ? (uintptr_t)*word : 0), timeout, (void)0)

tc_status TC_BODY(tc_thread_post)(tc_thread *to, uint32_t word, uint32_t timeout)
{
  TC_ISR_CHECK("tc_thread_post");
  TC_ARG_CHECK(to != NULL && to->magic == TC_MAGIC_THREAD, TC_INVALID);
  TC_ARG_CHECK(timeout == TC_NO_WAIT || tc__may_block(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
  tc_status st = TC_OK;
  if (to->state == TC_COMPLETED || to->state == TC_TERMINATED) {
    tc__unlock(k);
    return TC_STATE_ERROR;
  }
  for (;;) {
    if (to->wait_q == &to->port_waiters) {
      /* The receiver waits: the word goes straight to it. */
      to->wait_info[0] = word;
      tc__thread_wake(to, TC_OK);
      tc__sched_dispatch();
      break;
    }
    if (!to->port_full) {
      to->port_word = word;
      to->port_full = true;
      break;
    }
    if (timeout == TC_NO_WAIT || to == tc__k.current) {
      /* Full; a thread waiting for its own slot to empty would wait for itself. */
      st = TC_FULL;
      break;
    }
    tc__k.current->wait_info[0] = word;
    st = tc__thread_wait(&to->port_waiters, TC_PENDING | TC__WAIT_RESTARTABLE, timeout, k);
    if (st != TC__WAIT_RESTART) return st;
    /* A signal handler ran meanwhile (signal.c): look again, for the time left, deciding the
     * status afresh (a slot found free is TC_OK). The receiver may have ended: its port is
     * gone as for the posters that were waiting then. */
    st = TC_OK;
    timeout = tc__wait_left();
    k = tc__lock();
    if (to->magic != TC_MAGIC_THREAD || to->state == TC_COMPLETED || to->state == TC_TERMINATED) {
      st = TC_DELETED;
      break;
    }
  }
  tc__unlock(k);
  return st;
}

tc_status TC_BODY(tc_thread_receive)(uint32_t *word, uint32_t timeout)
{
  TC_ISR_CHECK("tc_thread_receive");
  TC_ARG_CHECK(word != NULL, TC_INVALID);
  TC_ARG_CHECK(tc__in_thread(), TC_CALLER_ERROR);
  TC_ARG_CHECK(timeout == TC_NO_WAIT || tc__k.lock_nesting == 0, TC_CALLER_ERROR);
  unsigned k = tc__lock();
  tc_thread *self = tc__k.current;
  for (;;) {
    if (self->port_full) {
      *word = self->port_word;
      tc_node *w = self->port_waiters.threads.head;
      if (w != NULL) {
        /* The first waiting poster's word takes the place of the one just taken. */
        tc_thread *poster = TC_THREAD_OF(w);
        self->port_word = (uint32_t)poster->wait_info[0];
        tc__thread_wake(poster, TC_OK);
        tc__sched_dispatch();
      } else {
        self->port_full = false;
      }
      tc__unlock(k);
      return TC_OK;
    }
    if (timeout == TC_NO_WAIT) {
      tc__unlock(k);
      return TC_NO_INSTANCE;
    }
    tc_status st = tc__thread_wait(&self->port_waiters, TC_PENDING | TC__WAIT_RESTARTABLE, timeout, k);
    /* Written by the poster before it woke us; nobody touches it while we run. */
    if (st == TC_OK) *word = (uint32_t)self->wait_info[0];
    if (st != TC__WAIT_RESTART) return st;
    /* A signal handler ran meanwhile (signal.c): look again, for the time left. */
    timeout = tc__wait_left();
    k = tc__lock();
  }
}

/* Called by thread.c when `t` completes or is terminated, after it left every list: its
 * port is gone, so the threads waiting to post to it return TC_DELETED. */
void tc__taskport_thread_exit(tc_thread *t)
{
  tc_list *posters = &t->port_waiters.threads;
  while (posters->head != NULL) tc__thread_wake(TC_THREAD_OF(posters->head), TC_DELETED);
  t->port_full = false;
}

/* ---- invariants (tc_check) -------------------------------------------------------------- */

const char *tc__taskport_check(void)
{
  const tc_node *n = tc__k.threads.head;
  if (n == NULL) return NULL;
  do {
    const tc_thread *t = TC_CONST_CONTAINER_OF(n, tc_thread, created_node);
    size_t waiting;
    const char *e = tc__waitq_check(&t->port_waiters, &waiting);
    if (e != NULL) return e;
    if (t->port_waiters.reprioritized != NULL) return "task port wait queue has a hook";
    bool self_waits = t->wait_q == &t->port_waiters;
    if (self_waits && (t->port_full || waiting != 1)) return "thread waits for a word beside a word or posters";
    if (!self_waits && waiting != 0 && !t->port_full) return "posters wait for an empty task port slot";
    /* (Posters waiting at an empty slot were refused just above.) */
    if ((t->state == TC_COMPLETED || t->state == TC_TERMINATED) && t->port_full)
      return "an ended thread's task port is still in use";
    n = n->next;
  } while (n != tc__k.threads.head);
  return NULL;
}
