/* SPDX-License-Identifier: MIT */
/*
 * Counting and binary semaphores.
 *
 * A semaphore holds a count between 0 and its `max` (1 makes it binary). tc_sem_take()
 * takes one unit or waits for one; tc_sem_give() hands a unit straight to the
 * highest-priority waiter (FIFO among equal priorities) -- the count stays 0 and a thread
 * arriving later cannot overtake the waiter -- or adds it to the count.
 *
 * Waiting rules common to every Tacet object (timeouts, deletion, a release and a timeout in
 * the same tick) are in docs/services.md.
 *
 * Calling context, per function: "thread" means from a thread only; "any" also from an
 * interrupt handler at a kernel priority (tacet/kernel.h, "Interrupt handlers") and before
 * tc_kernel_start().
 */
#ifndef TACET_SEM_H
#define TACET_SEM_H

#include "tacet/types.h"

/* The semaphore control block. Allocated by the application; all fields are private. */
typedef struct tc_sem {
  uint32_t magic;
  const char *name;
  tc_node created_node; /* in the kernel's list of semaphores */
  tc_waitq waiters;     /* threads in tc_sem_take(); only while count == 0 */
  uint32_t count;
  uint32_t max;
} tc_sem;

/* Create a semaphore with `initial` units, at most `max` (1 = binary).
 * Context: thread or startup. Does not block or reschedule.
 * Returns TC_OK; TC_INVALID (s NULL, s already created, max 0, initial > max);
 * TC_CALLER_ERROR (from a LISR, an HISR or a timer callback). */
tc_status tc_sem_create(tc_sem *s, const char *name, uint32_t initial, uint32_t max);

/* Take one unit; wait up to `timeout` ticks for one when the count is 0 (TC_NO_WAIT: do not
 * wait; TC_WAIT_FOREVER: no limit).
 * Context: any with TC_NO_WAIT; otherwise thread with the scheduler unlocked. May block.
 * Returns TC_OK; TC_NO_INSTANCE (TC_NO_WAIT and the count is 0); TC_TIMEOUT; TC_DELETED;
 * TC_WAIT_ABORTED; TC_INVALID (not a semaphore); TC_CALLER_ERROR (a waiting call from an
 * interrupt, before the kernel runs, or with the scheduler locked). */
tc_status tc_sem_take(tc_sem *s, uint32_t timeout);

/* Give one unit: to the highest-priority waiter if any, else to the count.
 * Context: any. Does not block; may reschedule (the waiter may preempt the caller).
 * Returns TC_OK; TC_FULL (the count is already `max`; nothing changes); TC_INVALID. */
tc_status tc_sem_give(tc_sem *s);

/* Delete a semaphore: every waiter returns TC_DELETED; the memory may then be reused.
 * Context: thread or startup. Does not block; may reschedule (a released waiter may preempt).
 * Returns TC_OK; TC_INVALID; TC_CALLER_ERROR (from a LISR, an HISR or a timer callback). */
tc_status tc_sem_delete(tc_sem *s);

#endif /* TACET_SEM_H */
