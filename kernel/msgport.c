/* SPDX-License-Identifier: MIT */
/*
 * Message ports (tacet/msgport.h): a ring of pointers. Nothing is copied but the pointer, so
 * every operation is constant time whatever the size of the message.
 *
 * As for queues, one wait queue serves both directions (receivers only while the port is
 * empty, senders only while it is full). A waiting receiver's wait_info[0] is where its
 * pointer goes (its `msg` argument); a waiting sender's wait_info[0] is the pointer it sends,
 * wait_info[1] says which of the two it is.
 */
#include "internal.h"
#include "tacet/msgport.h"

/* Trace wrappers (TC_TRACE=1; nothing otherwise): each service below is recorded when it
 * returns (kernel/internal.h, TC_TRACED). */
TC_TRACED(tc_port_create, (tc_port *p, const char *name, void **slots, size_t n_slots), (p, name, slots, n_slots),
          TC_TRACE_SVC_PORT_CREATE, p, n_slots, 0, (void)0)
TC_TRACED(tc_port_send, (tc_port *p, void *msg, uint32_t timeout), (p, msg, timeout),
          TC_TRACE_SVC_PORT_SEND, p, msg, timeout, (void)0)
TC_TRACED(tc_port_receive, (tc_port *p, void **msg, uint32_t timeout), (p, msg, timeout),
          TC_TRACE_SVC_PORT_RECEIVE, p, (st_ == TC_OK && msg != NULL ? (uintptr_t)*msg : 0), timeout, (void)0)
TC_TRACED(tc_port_delete, (tc_port *p), (p),
          TC_TRACE_SVC_PORT_DELETE, p, 0, 0, TC_TRACE_FORGET(p))

enum { RECEIVER, SENDER };

static inline bool port_valid(const tc_port *p) { return p != NULL && p->magic == TC_MAGIC_PORT; }

static void ring_put(tc_port *p, void *msg)
{
  size_t i = p->out + p->count;
  if (i >= p->n_slots) i -= p->n_slots;
  p->slots[i] = msg;
  p->count++;
}

tc_status TC_BODY(tc_port_create)(tc_port *p, const char *name, void **slots, size_t n_slots)
{
  TC_ISR_CHECK("tc_port_create");
  TC_ARG_CHECK(p != NULL && slots != NULL && n_slots != 0, TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
#if TC_CHECKS
  if (p->magic == TC_MAGIC_PORT && tc__list_contains(&tc__k.ports, &p->created_node)) {
    tc__unlock(k);
    return TC_INVALID;
  }
#endif
  p->name = name;
  p->waiters.threads.head = NULL;
  p->waiters.reprioritized = NULL;
  TC_TRACE_WAITQ(&p->waiters, p);
  p->slots = slots;
  p->n_slots = n_slots;
  p->count = 0;
  p->out = 0;
  p->magic = TC_MAGIC_PORT;
  TC_TRACE_OBJECT(TC_TRACE_OBJ_PORT, p, name, 0);
  tc__list_push_back(&tc__k.ports, &p->created_node);
  tc__unlock(k);
  return TC_OK;
}

tc_status TC_BODY(tc_port_send)(tc_port *p, void *msg, uint32_t timeout)
{
  TC_ISR_CHECK("tc_port_send");
  TC_ARG_CHECK(port_valid(p), TC_INVALID);
  TC_ARG_CHECK(timeout == TC_NO_WAIT || tc__may_block(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
  for (;;) {
    tc_node *w = p->waiters.threads.head;
    if (p->count == 0 && w != NULL) {
      tc_thread *r = TC_THREAD_OF(w);
      *(void **)r->wait_info[0] = msg;
      tc__thread_wake(r, TC_OK);
      tc__sched_dispatch();
      break;
    }
    if (p->count < p->n_slots) {
      ring_put(p, msg);
      break;
    }
    if (timeout == TC_NO_WAIT) {
      tc__unlock(k);
      return TC_FULL;
    }
    tc_thread *self = tc__k.current;
    self->wait_info[0] = (uintptr_t)msg;
    self->wait_info[1] = SENDER;
    tc_status st = tc__thread_wait(&p->waiters, TC_PENDING | TC__WAIT_RESTARTABLE, timeout, k);
    if (st != TC__WAIT_RESTART) return st;
    /* A signal handler ran meanwhile (signal.c): look again, for the time left. */
    if (!tc__wait_restart(&p->magic, TC_MAGIC_PORT, &timeout, &k)) return TC_DELETED;
  }
  tc__unlock(k);
  return TC_OK;
}

tc_status TC_BODY(tc_port_receive)(tc_port *p, void **msg, uint32_t timeout)
{
  TC_ISR_CHECK("tc_port_receive");
  TC_ARG_CHECK(port_valid(p) && msg != NULL, TC_INVALID);
  TC_ARG_CHECK(timeout == TC_NO_WAIT || tc__may_block(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
  for (;;) {
    if (p->count != 0) {
      *msg = p->slots[p->out];
      if (++p->out == p->n_slots) p->out = 0;
      p->count--;
      tc_node *w = p->waiters.threads.head;
      if (w != NULL) {
        /* Senders wait only on a full port: the slot just freed goes to the first of them. */
        tc_thread *s = TC_THREAD_OF(w);
        ring_put(p, (void *)s->wait_info[0]);
        tc__thread_wake(s, TC_OK);
        tc__sched_dispatch();
      }
      tc__unlock(k);
      return TC_OK;
    }
    if (timeout == TC_NO_WAIT) {
      tc__unlock(k);
      return TC_NO_INSTANCE;
    }
    tc_thread *self = tc__k.current;
    self->wait_info[0] = (uintptr_t)msg;
    self->wait_info[1] = RECEIVER;
    /* TC_OK means a sender has already stored the pointer in *msg. */
    tc_status st = tc__thread_wait(&p->waiters, TC_PENDING | TC__WAIT_RESTARTABLE, timeout, k);
    if (st != TC__WAIT_RESTART) return st;
    /* A signal handler ran meanwhile (signal.c): look again, for the time left. */
    if (!tc__wait_restart(&p->magic, TC_MAGIC_PORT, &timeout, &k)) return TC_DELETED;
  }
}

tc_status TC_BODY(tc_port_delete)(tc_port *p)
{
  TC_ISR_CHECK("tc_port_delete");
  TC_ARG_CHECK(port_valid(p), TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned k = tc__lock();
  tc__object_delete(&p->waiters, &p->magic, &tc__k.ports, &p->created_node);
  tc__unlock(k);
  return TC_OK;
}

/* ---- invariants (tc_check) -------------------------------------------------------------- */

static const char *check_port(const tc_port *p)
{
  if (p->magic != TC_MAGIC_PORT) return "message port list holds something that is not a port";
  if (p->slots == NULL || p->n_slots == 0) return "message port geometry invalid";
  if (p->count > p->n_slots || p->out >= p->n_slots) return "message port count or index out of range";
  size_t waiting;
  const char *e = tc__waitq_check(&p->waiters, &waiting);
  if (e != NULL) return e;
  if (waiting == 0) return NULL;
  if (p->count != 0 && p->count != p->n_slots) return "message port has waiters while neither empty nor full";
  const tc_node *x = p->waiters.threads.head;
  do {
    const tc_thread *t = TC_CONST_THREAD_OF(x);
    if (p->count == 0 && (t->wait_info[1] != RECEIVER || t->wait_info[0] == 0))
      return "sender waits on an empty message port";
    if (p->count != 0 && t->wait_info[1] != SENDER) return "receiver waits on a full message port";
    x = x->next;
  } while (x != p->waiters.threads.head);
  return NULL;
}

const char *tc__port_check(void)
{
  const tc_node *n = tc__k.ports.head;
  if (n == NULL) return NULL;
  do {
    const char *e = check_port(TC_CONST_CONTAINER_OF(n, tc_port, created_node));
    if (e != NULL) return e;
    n = n->next;
  } while (n != tc__k.ports.head);
  return NULL;
}
