/* SPDX-License-Identifier: MIT */
/*
 * Mutexes: an owner, recursive locking, optional priority inheritance.
 *
 * Ownership. The thread that locks a free mutex owns it; the owner may lock it again
 * (each lock needs its unlock); only the owner unlocks. When the owner's last unlock releases
 * it, the mutex passes directly to the highest-priority waiter (FIFO among equal priorities),
 * which returns from tc_mutex_lock() as the new owner: a thread that was not waiting cannot
 * take the mutex in between. A thread that completes or is terminated releases every mutex it
 * owns in the same way.
 *
 * Priority inheritance (TC_INHERIT). While threads wait for an inheritance mutex, its owner
 * runs at the priority of the highest of them when that is higher than its own. The rule is
 * one formula, kept true at every moment the kernel is unlocked (tc_check verifies it):
 *
 *   effective priority  = min(user priority, priority of the highest waiter of every
 *                             TC_INHERIT mutex the thread owns)
 *   effective threshold = min(user threshold, effective priority)
 *
 * (numerically smaller is higher). Consequences:
 *  - Transitive: H waits for M1 owned by M, M waits for M2 owned by L: M runs at H's priority,
 *    so as a waiter of M2 it raises L to H's priority too. The chain is followed iteratively.
 *  - Undone exactly: releasing one of several owned mutexes lowers the owner only to what the
 *    mutexes it still owns impose; a waiter that leaves early (timeout, tc_thread_wait_abort,
 *    termination) or whose priority changes updates the chain at once, not when it next runs.
 *  - Preemption threshold (as in ThreadX): an inherited priority also raises the threshold, so
 *    a boosted owner is never preempted by a thread that the waiter it stands for would not
 *    allow; its user threshold stays in force when that is stricter.
 *  - tc_thread_priority_change() on an owner changes its user priority; an inherited priority
 *    stays in force until the mutexes that impose it are released.
 * A mutex created without TC_INHERIT never changes its owner's priority. Deadlocks (a cycle
 * of owners each waiting for the next) are not detected; a timeout breaks them.
 *
 * Calling context: thread only (a mutex belongs to a thread); see docs/services.md for the
 * waiting rules common to every object.
 */
#ifndef TACET_MUTEX_H
#define TACET_MUTEX_H

#include "tacet/types.h"

/* tc_mutex_create() options. */
#define TC_INHERIT 0x1u /* priority inheritance */

/* The mutex control block. Allocated by the application; all fields are private. */
typedef struct tc_mutex {
  uint32_t magic;
  const char *name;
  tc_node created_node;    /* in the kernel's list of mutexes */
  tc_waitq waiters;        /* threads in tc_mutex_lock(); only while owned */
  struct tc_thread *owner; /* NULL when free */
  tc_node owner_node;      /* in owner->mutexes while owned */
  uint32_t count;          /* recursion depth; 0 when free */
  unsigned options;
} tc_mutex;

/* Create a free mutex. `options`: 0 or TC_INHERIT.
 * Context: thread or startup. Does not block or reschedule.
 * Returns TC_OK; TC_INVALID (m NULL, m already created, unknown option bit);
 * TC_CALLER_ERROR (from a LISR, an HISR or a timer callback). */
tc_status tc_mutex_create(tc_mutex *m, const char *name, unsigned options);

/* Lock: take the mutex if free, lock it once more if the caller owns it, else wait up to
 * `timeout` ticks for the owner to hand it over (TC_NO_WAIT: do not wait). While the caller
 * waits for a TC_INHERIT mutex, the owner (and transitively the owners it waits for) run at
 * least at the caller's priority.
 * Context: thread; with a timeout other than TC_NO_WAIT, scheduler unlocked. May block.
 * Returns TC_OK; TC_NO_INSTANCE (TC_NO_WAIT and owned by another thread); TC_TIMEOUT;
 * TC_DELETED; TC_WAIT_ABORTED; TC_INVALID (not a mutex); TC_CALLER_ERROR (from an interrupt
 * or before the kernel runs; a waiting call with the scheduler locked). */
tc_status tc_mutex_lock(tc_mutex *m, uint32_t timeout);

/* Unlock once; the last unlock releases the mutex to the highest-priority waiter, and drops
 * any priority the caller inherited through it.
 * Context: thread. Does not block; may reschedule (the new owner, or a thread the caller no
 * longer holds off, may preempt it).
 * Returns TC_OK; TC_NOT_OWNER (the caller does not own it, or it is free; nothing changes);
 * TC_INVALID; TC_CALLER_ERROR (from an interrupt or before the kernel runs). */
tc_status tc_mutex_unlock(tc_mutex *m);

/* Delete a mutex, owned or not: every waiter returns TC_DELETED and the owner drops the
 * priority it inherited through it. Later calls on it by the former owner return TC_INVALID.
 * Context: thread or startup. Does not block; may reschedule.
 * Returns TC_OK; TC_INVALID; TC_CALLER_ERROR (from a LISR, an HISR or a timer callback). */
tc_status tc_mutex_delete(tc_mutex *m);

#endif /* TACET_MUTEX_H */
