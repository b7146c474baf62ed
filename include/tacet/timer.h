/* SPDX-License-Identifier: MIT */
/*
 * Software timers: one-shot or periodic, a callback per expiry (Ahn et al., fig. 12).
 *
 * Time. An active timer is an entry of the kernel's delta list, the one thread timeouts use:
 * a tick that expires nothing costs O(1) whatever the number of timers, and a port that
 * suppresses idle ticks (the sim port, a tickless target) sleeps until the next timer.
 * Activating is O(n) in the pending timeouts (the list is walked to insert); an expiry costs
 * O(1) in the tick interrupt plus the re-insertion of a periodic timer.
 *
 * Periods do not drift. A periodic timer is re-armed in the tick that expires it, `period`
 * ticks after that expiry -- not after its callback ran -- so expiry k is at tick
 * `activation + initial + k * period` however late callbacks run.
 *
 * Callback context. Callbacks do not run in the tick interrupt: the tick only queues the
 * expired timer and activates the timers' system HISR (tacet/hisr.h), which calls the
 * callbacks in expiry order, one call per expiry, with interrupts enabled and before any
 * thread runs. So a callback adds nothing to interrupt latency, yet runs ahead of every
 * thread as in ThreadX's timer thread. It is an HISR's context: it cannot block (a blocking
 * service returns TC_CALLER_ERROR, TC_NO_WAIT calls work), tc_thread_self() and
 * tc_hisr_self() are NULL, and like an HISR it creates and deletes no other object. A
 * callback may create, activate, deactivate, change or delete timers, its own included.
 *
 * The system HISR is created by the first tc_timer_create() of a run, with the HISR priority
 * TC_TIMER_HISR_PRIORITY and a static stack of TC_TIMER_STACK_SIZE bytes (both overridable
 * as compile definitions or in tacet_app_config.h).
 */
#ifndef TACET_TIMER_H
#define TACET_TIMER_H

#include "tacet/port.h"
#include "tacet/types.h"

/* HISR priority (0..2) of the timers' callbacks: below device HISRs of priorities 0 and 1. */
#ifndef TC_TIMER_HISR_PRIORITY
#define TC_TIMER_HISR_PRIORITY 2u
#endif

/* Stack of the timers' system HISR, in bytes: what the deepest callback needs. */
#ifndef TC_TIMER_STACK_SIZE
#define TC_TIMER_STACK_SIZE (TC_PORT_STACK_MIN + 1024u)
#endif

/* tc_timer_create() options. */
#define TC_AUTO_ACTIVATE 0x1u

/* The timer control block. Allocated by the application; all fields are private. */
typedef struct tc_timer {
  tc_timeout timeout; /* in the kernel's delta list while active */
  uint32_t magic;
  const char *name;
  tc_node created_node; /* in the kernel's list of created timers */
  tc_node due_node;     /* in the list of timers whose callbacks are due, while due != 0 */
  void (*fn)(void *arg);
  void *arg;
  uint32_t initial, period;
  uint32_t due;         /* expiries whose callback has not run yet */
  uint64_t expirations; /* expiries since creation */
  uint64_t callbacks;   /* callbacks run since creation */
} tc_timer;

typedef struct {
  const char *name;
  bool active;          /* armed: it will expire */
  uint32_t remaining;   /* ticks to its next expiry (0 when inactive) */
  uint32_t initial, period;
  uint32_t due;         /* expiries whose callback has not run yet */
  uint64_t expirations; /* since creation */
  uint64_t callbacks;   /* since creation */
} tc_timer_info_t;

/* Create a timer that calls fn(arg) `initial` ticks after activation, then (period != 0)
 * every `period` ticks; TC_AUTO_ACTIVATE activates it at once.
 * Context: thread, timer callback or startup. Does not reschedule.
 * Returns TC_OK; TC_INVALID (tm or fn NULL, initial == 0, unknown option bit, tm already
 * created); TC_CALLER_ERROR (from a LISR or an HISR). */
tc_status tc_timer_create(tc_timer *tm, const char *name, void (*fn)(void *arg), void *arg,
                          uint32_t initial, uint32_t period, unsigned options);

/* Arm an inactive timer: it expires `initial` ticks from now (as set by create or change).
 * Context: any. Does not reschedule.
 * Returns TC_OK; TC_INVALID (not a timer); TC_STATE_ERROR (already active). */
tc_status tc_timer_activate(tc_timer *tm);

/* Disarm a timer, and cancel the callbacks of expiries that have not run yet. Deactivating
 * an inactive timer succeeds and changes nothing. Context: any. Does not reschedule.
 * Returns TC_OK; TC_INVALID (not a timer). */
tc_status tc_timer_deactivate(tc_timer *tm);

/* Set the initial ticks and the period the next activation uses. As in ThreadX the timer
 * must be inactive (deactivate, change, activate): changing a running timer could mean
 * "from now" or "keep the phase", so the caller says which by what it does next.
 * Context: any. Does not reschedule.
 * Returns TC_OK; TC_INVALID (not a timer, initial == 0); TC_STATE_ERROR (active). */
tc_status tc_timer_change(tc_timer *tm, uint32_t initial, uint32_t period);

/* Deactivate (as above) and remove a timer from the kernel; its memory may then be reused.
 * A callback may delete its own timer. Context: thread, timer callback or startup. Does not
 * reschedule. Returns TC_OK; TC_INVALID (not a timer); TC_CALLER_ERROR (from a LISR or an HISR). */
tc_status tc_timer_delete(tc_timer *tm);

/* A snapshot of a timer. `remaining` is found by walking the delta list (O(n)).
 * Context: any. Returns TC_OK; TC_INVALID (not a timer, out NULL). */
tc_status tc_timer_info(const tc_timer *tm, tc_timer_info_t *out);

#endif /* TACET_TIMER_H */
