/* SPDX-License-Identifier: MIT */
/*
 * Task ports: one 32-bit word passed to a thread through a slot in its own control block
 * (Ahn et al.: "a task port is implemented using a field of the task control block rather than
 * a separate data structure"). No object to create: every thread has a port.
 *
 * Synchronous. The slot holds one word. tc_thread_receive() takes the word or waits for one;
 * tc_thread_post() puts a word in the slot, hands it straight to the receiver when it waits,
 * or waits while the slot is still full. Waiting posters are served in priority order (FIFO
 * among equal priorities): when the receiver takes the word, the first waiting poster's word
 * takes its place in the slot and that poster returns TC_OK.
 *
 * A thread that completes or is terminated releases the threads waiting to post to it with
 * TC_DELETED (its port is gone); posting to it afterwards returns TC_STATE_ERROR.
 * A thread posting to itself never waits (it alone could empty the slot): TC_FULL when full.
 *
 * See docs/services.md for the waiting rules common to every object.
 */
#ifndef TACET_TASKPORT_H
#define TACET_TASKPORT_H

#include "tacet/thread.h"

/* Post `word` to thread `to`; wait up to `timeout` ticks while its slot is full.
 * Context: any with TC_NO_WAIT; otherwise thread with the scheduler unlocked. May block; may
 * reschedule (a receiver waiting for the word may preempt the caller).
 * Returns TC_OK; TC_FULL (the slot is full and either TC_NO_WAIT or `to` is the caller, who
 * would wait for itself);
 * TC_TIMEOUT; TC_DELETED (`to` completed or was terminated while the caller waited);
 * TC_WAIT_ABORTED; TC_INVALID (`to` is not a thread); TC_STATE_ERROR (`to` has completed or
 * was terminated); TC_CALLER_ERROR (a waiting call from an interrupt, before the kernel
 * runs, or with the scheduler locked). */
tc_status tc_thread_post(tc_thread *to, uint32_t word, uint32_t timeout);

/* Take the word posted to the calling thread into *word; wait up to `timeout` ticks for one.
 * Context: thread (the port is the caller's own); with a timeout other than TC_NO_WAIT,
 * scheduler unlocked. May block; may reschedule (a waiting poster may preempt the caller).
 * Returns TC_OK; TC_NO_INSTANCE (TC_NO_WAIT and no word); TC_TIMEOUT; TC_WAIT_ABORTED;
 * TC_INVALID (word NULL); TC_CALLER_ERROR (from an interrupt or before the kernel runs; a
 * waiting call with the scheduler locked). */
tc_status tc_thread_receive(uint32_t *word, uint32_t timeout);

#endif /* TACET_TASKPORT_H */
