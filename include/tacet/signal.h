/* SPDX-License-Identifier: MIT */
/*
 * Signals: 32 asynchronous flags per thread, and a handler that runs in the target thread's
 * context before the thread continues (Ahn et al.: exceptions and asynchronous events for
 * ready threads and for threads that are waiting).
 *
 * Delivery. tc_signal_send() ORs the bits into the target's pending set; the handler runs
 * later as the target itself, on its stack, with the pending bits as its argument (they are
 * cleared just before the call, so bits sent meanwhile make one more call afterwards):
 *
 *   - the target sends to itself from a thread: before tc_signal_send() returns;
 *   - the target is ready (preempted, or not yet started): when it next gets the CPU,
 *     before it continues where it was (before its entry function when it never ran);
 *   - an interrupt handler signals the thread it interrupted: when the interrupt returns;
 *   - the target sleeps (tc_thread_sleep): it is woken, runs the handler, and sleeps on
 *     until its original wake-up tick;
 *   - the target waits on an object (every kernel object's waiting services restart, see
 *     TC__WAIT_RESTARTABLE in kernel/internal.h): it is taken off the wait queue, runs the
 *     handler, then its service starts over -- the object may have become available or
 *     been deleted meanwhile -- and waits again, at the back of its priority, until the
 *     original timeout;
 *   - the target is suspended: the handler runs when it is resumed, before it continues.
 *
 * A handler ends the interrupted wait or sleep only if it asks: tc_signal_abort_wait() from
 * inside the handler makes the service return TC_WAIT_ABORTED (tc_thread_wait_abort() from
 * elsewhere, before or during the handler, does the same). Handlers do not nest: bits
 * sent while the handler runs are handled by another call once it returns. A handler may
 * call any service its thread may call, blocking ones included; the interrupted service's
 * own wait state is saved around it.
 *
 * A signal to a thread that has no handler is refused (TC_STATE_ERROR), so a sender learns at
 * once that nobody will handle it; removing the handler discards the bits still pending.
 */
#ifndef TACET_SIGNAL_H
#define TACET_SIGNAL_H

#include "tacet/thread.h"
#include "tacet/types.h"

/* Install (or, with NULL, remove) the signal handler of thread `t`. Removing it discards
 * the signals pending for t.
 * Context: any. Does not reschedule.
 * Returns TC_OK; TC_INVALID (not a thread); TC_STATE_ERROR (t completed or terminated). */
tc_status tc_signal_handler_set(tc_thread *t, void (*handler)(uint32_t signals));

/* Send `signals` (a non-zero set of bits) to thread `t`; see above for when the handler runs.
 * Context: any (ISR-safe). May reschedule: a sleeping or waiting target becomes ready to run
 * its handler; sending to oneself runs the handler before returning.
 * Returns TC_OK; TC_INVALID (not a thread, signals == 0); TC_STATE_ERROR (t has no handler,
 * or is completed or terminated). */
tc_status tc_signal_send(tc_thread *t, uint32_t signals);

/* From inside a signal handler: end the wait or sleep the handler interrupted; that service
 * returns TC_WAIT_ABORTED once the handler is done.
 * Context: a signal handler. Does not reschedule.
 * Returns TC_OK; TC_STATE_ERROR (the handler did not interrupt a wait, e.g. its thread was
 * ready, or its wait had already ended); TC_CALLER_ERROR (not in a signal handler). */
tc_status tc_signal_abort_wait(void);

/* The signals sent to `t` whose handler has not run yet.
 * Context: any. Returns 0 for something that is not a thread. */
uint32_t tc_signal_pending(const tc_thread *t);

#endif /* TACET_SIGNAL_H */
