/* SPDX-License-Identifier: MIT */
/*
 * Types shared by every kernel object: the status codes, the wait constants, and the intrusive
 * list and timeout nodes that control blocks embed. Control blocks are allocated by the
 * application (the kernel never allocates), so their layout is public; their fields are not
 * part of the API and may change between releases.
 */
#ifndef TACET_TYPES_H
#define TACET_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tacet/config.h"

struct tc_thread;

typedef enum {
  TC_OK = 0,
  TC_TIMEOUT,        /* wait ended by its timeout */
  TC_NO_INSTANCE,    /* TC_NO_WAIT and the object is empty / not available */
  TC_FULL,           /* TC_NO_WAIT and the queue / port is full */
  TC_DELETED,        /* the object was deleted while the caller waited */
  TC_WAIT_ABORTED,   /* tc_thread_wait_abort() ended the wait */
  TC_INVALID,        /* NULL or uninitialised object, bad size, bad option */
  TC_PRIORITY_ERROR, /* priority or threshold out of range, threshold numerically > priority */
  TC_CALLER_ERROR,   /* not allowed from this context (e.g. a blocking call from an ISR; any
                        service from an interrupt above the kernel's mask: tacet/kernel.h) */
  TC_NOT_OWNER,      /* mutex released by a thread that does not own it */
  TC_STATE_ERROR,    /* e.g. resuming a thread that is not suspended, deleting a running thread */
} tc_status;

#define TC_NO_WAIT      0u
#define TC_WAIT_FOREVER 0xFFFFFFFFu

/* Doubly linked, circular, headless: a list is a pointer to its first node (NULL when empty).
 * One pointer per list keeps the 256 ready lists at one word each. */
typedef struct tc_node {
  struct tc_node *next, *prev;
} tc_node;

typedef struct tc_list {
  tc_node *head;
} tc_list;

/* An entry of a delta list (Ahn et al., fig. 12): `delta` is the number of ticks after the
 * entry before it, so a tick only decrements the head. `expire` runs in the tick interrupt. */
typedef struct tc_timeout {
  tc_node node;
  uint32_t delta;
  bool linked;
  void (*expire)(struct tc_timeout *self);
} tc_timeout;

/* A queue of waiting threads, kept in priority order (FIFO among equal priorities).
 * `reprioritized` (may be NULL) is called, kernel locked, when the queue's waiters change
 * behind its object's back: after the priority of a waiting thread changed and the thread
 * was re-queued (t->wait_q == q), or after a thread left the queue because its wait ended by
 * timeout, tc_thread_wait_abort() or termination (t->wait_q == NULL). An object that releases
 * a waiter itself takes it off the queue first and is not called. A mutex uses it to keep
 * priority inheritance exact along a chain of owners. */
typedef struct tc_waitq {
  tc_list threads;
  void (*reprioritized)(struct tc_waitq *q, struct tc_thread *t);
#if TC_TRACE
  const void *trace_object; /* the object the queue belongs to, for the trace's BLOCK events */
#endif
} tc_waitq;

#endif /* TACET_TYPES_H */
