/* SPDX-License-Identifier: MIT */
/*
 * Event flags: a group of 32 flags. Threads wait for ANY of a set of flags (disjunctive
 * synchronisation) or for ALL of them (conjunctive), Ahn et al. fig. 11.
 *
 * A set may release several waiters. tc_event_set() ORs the flags in, then visits the
 * waiters once, in priority order (FIFO among equal priorities), and releases every one
 * whose condition those flags meet: all the waiters of one set are tested against the same
 * flags, and each released waiter's `actual` receives them. With TC_EVENT_CLEAR the flags that
 * satisfied a waiter (its requested flags that were set) are cleared after that pass, so a
 * set is seen by every thread that was waiting for it, whatever the priorities of the others
 * (ThreadX and FreeRTOS do the same; a flag to be taken by one waiter only is a semaphore).
 * Without TC_EVENT_CLEAR the flags stay set. Because the clears only remove flags, no waiter
 * left waiting is satisfied once a set returns.
 *
 * Calling context, per function: "thread" means from a thread only; "any" also from an
 * interrupt handler at a kernel priority (tacet/kernel.h) and before tc_kernel_start(). See docs/services.md for the waiting rules
 * common to every object.
 */
#ifndef TACET_EVENT_H
#define TACET_EVENT_H

#include "tacet/types.h"

/* tc_event_wait() modes: exactly one of ANY and ALL, optionally with CLEAR. */
#define TC_EVENT_ANY   0x1u /* any of the requested flags */
#define TC_EVENT_ALL   0x2u /* all of the requested flags */
#define TC_EVENT_CLEAR 0x4u /* clear the flags that satisfied the wait */

/* The event flag group control block. Allocated by the application; all fields are private. */
typedef struct tc_event {
  uint32_t magic;
  const char *name;
  tc_node created_node; /* in the kernel's list of event groups */
  tc_waitq waiters;     /* threads in tc_event_wait(), none of them satisfied by `flags` */
  uint32_t flags;
} tc_event;

/* Create an event flag group with every flag clear.
 * Context: thread or startup. Does not block or reschedule.
 * Returns TC_OK; TC_INVALID (e NULL, e already created); TC_CALLER_ERROR (from a LISR, an HISR or a timer callback). */
tc_status tc_event_create(tc_event *e, const char *name);

/* Set `flags` (OR) and release the waiters they satisfy (see above). flags 0 changes nothing.
 * Context: any. Does not block; may reschedule.
 * Returns TC_OK; TC_INVALID. */
tc_status tc_event_set(tc_event *e, uint32_t flags);

/* Clear `flags`. Releases no one. Context: any. Does not block or reschedule.
 * Returns TC_OK; TC_INVALID. */
tc_status tc_event_clear(tc_event *e, uint32_t flags);

/* Wait until ANY or ALL (mode) of `flags` are set, for up to `timeout` ticks. `actual` (may be
 * NULL) receives the group's flags at the moment the condition was met (before any clear);
 * with TC_EVENT_CLEAR the requested flags that were set are then cleared.
 * Context: any with TC_NO_WAIT; otherwise thread with the scheduler unlocked. May block.
 * Returns TC_OK; TC_NO_INSTANCE (TC_NO_WAIT and the condition is not met); TC_TIMEOUT;
 * TC_DELETED; TC_WAIT_ABORTED; TC_INVALID (not an event group, flags 0, mode not exactly
 * one of TC_EVENT_ANY / TC_EVENT_ALL plus optionally TC_EVENT_CLEAR); TC_CALLER_ERROR (a
 * waiting call from an interrupt, before the kernel runs, or with the scheduler locked).
 * `actual` is written only on TC_OK. */
tc_status tc_event_wait(tc_event *e, uint32_t flags, unsigned mode, uint32_t *actual, uint32_t timeout);

/* Delete an event flag group: every waiter returns TC_DELETED.
 * Context: thread or startup. Does not block; may reschedule.
 * Returns TC_OK; TC_INVALID; TC_CALLER_ERROR (from a LISR, an HISR or a timer callback). */
tc_status tc_event_delete(tc_event *e);

#endif /* TACET_EVENT_H */
