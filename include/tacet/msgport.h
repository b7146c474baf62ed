/* SPDX-License-Identifier: MIT */
/*
 * Message ports: zero-copy messages. A port carries pointers, not the messages they point to
 * (Ahn et al.: "the message port delivers a message pointer instead of copying the message"),
 * so the cost of a send does not depend on the size of the message. The message memory
 * belongs to the application: by convention the sender stops touching it after the send and
 * the receiver owns it from the receive on (a block pool is the usual source).
 *
 * A port holds up to `n_slots` pointers in the caller's `slots` array, first in, first out.
 * A receiver waits while the port is empty, a sender while it is full; waiters are served in
 * priority order, FIFO among equal priorities. A pointer sent while a receiver waits goes
 * straight to that receiver; a receive from a full port with senders waiting moves the first
 * waiting sender's pointer into the slot it freed.
 *
 * Calling context: as for message queues (tacet/queue.h): sends and receives from an
 * interrupt handler with TC_NO_WAIT only. See docs/services.md for the common waiting rules.
 */
#ifndef TACET_MSGPORT_H
#define TACET_MSGPORT_H

#include "tacet/types.h"

/* The message port control block. Allocated by the application; all fields are private. */
typedef struct tc_port {
  uint32_t magic;
  const char *name;
  tc_node created_node; /* in the kernel's list of message ports */
  tc_waitq waiters;     /* receivers while the port is empty, senders while it is full */
  void **slots;         /* ring of n_slots pointers */
  size_t n_slots;
  size_t count; /* pointers in the ring */
  size_t out;   /* slot of the oldest pointer */
} tc_port;

/* Create an empty port holding up to `n_slots` pointers in `slots`.
 * Context: thread or startup. Does not block or reschedule.
 * Returns TC_OK; TC_INVALID (p or slots NULL, p already created, n_slots 0);
 * TC_CALLER_ERROR (from an interrupt). */
tc_status tc_port_create(tc_port *p, const char *name, void **slots, size_t n_slots);

/* Send the pointer `msg` (any value, NULL included); wait up to `timeout` ticks for a free
 * slot when the port is full.
 * Context: any with TC_NO_WAIT; otherwise thread with the scheduler unlocked. May block.
 * Returns TC_OK; TC_FULL (TC_NO_WAIT and the port is full); TC_TIMEOUT; TC_DELETED;
 * TC_WAIT_ABORTED; TC_INVALID (not a port); TC_CALLER_ERROR (a waiting call from an
 * interrupt, before the kernel runs, or with the scheduler locked). */
tc_status tc_port_send(tc_port *p, void *msg, uint32_t timeout);

/* Receive the oldest pointer into *msg; wait up to `timeout` ticks for one when the port is
 * empty. Context: as tc_port_send(). May block.
 * Returns TC_OK; TC_NO_INSTANCE (TC_NO_WAIT and the port is empty); TC_TIMEOUT; TC_DELETED;
 * TC_WAIT_ABORTED; TC_INVALID (not a port, msg NULL); TC_CALLER_ERROR (as tc_port_send). */
tc_status tc_port_receive(tc_port *p, void **msg, uint32_t timeout);

/* Delete a port: every waiter returns TC_DELETED. Pointers still in it are dropped (the
 * memory they point to is the application's). Context: thread or startup. Does not block;
 * may reschedule. Returns TC_OK; TC_INVALID; TC_CALLER_ERROR (from an interrupt). */
tc_status tc_port_delete(tc_port *p);

#endif /* TACET_MSGPORT_H */
