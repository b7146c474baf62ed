/* SPDX-License-Identifier: MIT */
/*
 * Message queues: fixed-size messages copied into a ring in the caller's buffer, and copied
 * out again (Ahn et al.: "message delivery is done through copy, not through pointers").
 *
 * Order. Messages leave in the order they were sent; tc_queue_send_front() puts an urgent
 * message ahead of all others (two urgent messages: the later one first).
 *
 * Waiting. A receiver waits while the queue is empty, a sender while it is full; waiters are
 * served in priority order, FIFO among equal priorities. A message sent while a receiver
 * waits is copied straight into that receiver's buffer (one copy, the ring is not touched).
 * A receive from a full queue with senders waiting moves the first waiting sender's message
 * into the room it made (to the back, or to the front if that sender called
 * tc_queue_send_front), so a waiting sender is never overtaken by a later one.
 *
 * Flush. tc_queue_flush() discards the messages in the ring. Senders waiting on the full
 * queue are not thrown away with them: their messages move into the emptied ring, in priority
 * order, and their calls return TC_OK. A flush therefore never discards a message whose
 * sender is still waiting, and never tells a sender TC_OK for a message that was discarded.
 * Receivers are not affected (a queue with waiting receivers is already empty).
 *
 * Calling context, per function: "thread" means from a thread only; "any" also from an
 * interrupt handler at a kernel priority (tacet/kernel.h) and before tc_kernel_start() (e.g.
 * to fill a queue before the threads run). See docs/services.md for the waiting rules common to every object.
 */
#ifndef TACET_QUEUE_H
#define TACET_QUEUE_H

#include "tacet/types.h"

/* The queue control block. Allocated by the application; all fields are private. */
typedef struct tc_queue {
  uint32_t magic;
  const char *name;
  tc_node created_node; /* in the kernel's list of queues */
  tc_waitq waiters;     /* receivers while the ring is empty, senders while it is full */
  uint8_t *start, *end; /* the ring: `capacity` slots of `msg_size` bytes */
  uint8_t *read;         /* the oldest message */
  uint8_t *write;        /* the slot after the newest message */
  size_t msg_size;
  size_t capacity;
  size_t count;          /* messages in the ring */
  size_t words;           /* msg_size / 4 when it is a whole number of 32-bit words, else 0 */
} tc_queue;

/* Create an empty queue of messages of `msg_size` bytes in `buf`, which holds
 * buf_size / msg_size of them (the remainder is unused).
 * Context: thread or startup. Does not block or reschedule.
 * Returns TC_OK; TC_INVALID (q or buf NULL, q already created, msg_size 0,
 * buf_size < msg_size); TC_CALLER_ERROR (from a LISR, an HISR or a timer callback). */
tc_status tc_queue_create(tc_queue *q, const char *name, size_t msg_size, void *buf, size_t buf_size);

/* Copy `msg_size` bytes from `msg` to the back of the queue, or to a waiting receiver; wait
 * up to `timeout` ticks for room when the queue is full.
 * Context: any with TC_NO_WAIT; otherwise thread with the scheduler unlocked. May block.
 * Returns TC_OK; TC_FULL (TC_NO_WAIT and the queue is full); TC_TIMEOUT; TC_DELETED;
 * TC_WAIT_ABORTED; TC_INVALID (not a queue, msg NULL); TC_CALLER_ERROR (a waiting call from
 * an interrupt, before the kernel runs, or with the scheduler locked). */
tc_status tc_queue_send(tc_queue *q, const void *msg, uint32_t timeout);

/* As tc_queue_send(), but the message goes to the front: it is the next one received.
 * Context and blocking as tc_queue_send(). Returns as tc_queue_send(). */
tc_status tc_queue_send_front(tc_queue *q, const void *msg, uint32_t timeout);

/* Copy the oldest message to `msg` (msg_size bytes); wait up to `timeout` ticks for one when
 * the queue is empty.
 * Context: any with TC_NO_WAIT; otherwise thread with the scheduler unlocked. May block.
 * Returns TC_OK; TC_NO_INSTANCE (TC_NO_WAIT and the queue is empty); TC_TIMEOUT; TC_DELETED;
 * TC_WAIT_ABORTED; TC_INVALID (not a queue, msg NULL); TC_CALLER_ERROR (as tc_queue_send). */
tc_status tc_queue_receive(tc_queue *q, void *msg, uint32_t timeout);

/* Discard every message in the queue; waiting senders then fill the room (see above).
 * Context: any. Does not block; may reschedule (a released sender may preempt the caller).
 * Returns TC_OK; TC_INVALID. */
tc_status tc_queue_flush(tc_queue *q);

/* Delete a queue: every waiter returns TC_DELETED; the buffer and the control block may then
 * be reused. Context: thread or startup. Does not block; may reschedule.
 * Returns TC_OK; TC_INVALID; TC_CALLER_ERROR (from a LISR, an HISR or a timer callback). */
tc_status tc_queue_delete(tc_queue *q);

#endif /* TACET_QUEUE_H */
