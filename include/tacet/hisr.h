/* SPDX-License-Identifier: MIT */
/*
 * High-level interrupt service routines (HISRs): the deferred half of Ahn et al.'s LISR / HISR
 * split.
 *
 * A low-level handler (LISR: an interrupt handler at a kernel priority, tacet/kernel.h) does
 * the urgent minimum and calls tc_hisr_activate(); the HISR's function then runs with interrupts enabled, on
 * its own stack, before any thread:
 *
 *   - three HISR priorities, 0 the highest; every HISR is above every thread priority;
 *   - activated HISRs run highest HISR priority first, FIFO within a priority;
 *   - each activation runs the function once (activations are counted, never merged);
 *   - an HISR is preempted only by LISRs and, at the LISR's exit, by an HISR of a higher
 *     HISR priority; never by a thread, never by an HISR of its own or a lower priority;
 *   - like every switch away from a thread, the start of an HISR waits while the running
 *     thread holds the scheduler lock (tc_sched_lock): the lock is a cheap critical section
 *     against HISRs too; against LISRs mask interrupts.
 *
 * An HISR has a context of its own (the kernel switches to it as to a thread, so a port needs
 * nothing special) but it is not a thread: tc_thread_self() returns NULL in it, it cannot
 * hold the scheduler lock, and a service that would block returns TC_CALLER_ERROR there. It
 * calls the services a LISR may call (context "any": give, set, send with TC_NO_WAIT,
 * resume, signal, activate ...), with interrupts enabled, and also terminates threads and
 * changes their priorities and thresholds; it creates and deletes nothing (docs/services.md,
 * "Calling contexts"). The threads it makes ready run once no HISR is activated.
 *
 * Counting. tc_kernel_stats.context_switches counts switches to threads only: entering an
 * HISR is counted in the HISR's own switches_in, and a thread that resumes after an HISR ran
 * counts as switched to (the CPU held another context); the thread an HISR interrupts counts
 * as preempted (tc_kernel_stats.preemptions, its tc_thread_info.preempted), and its
 * last_preempted_by then points to &h->ctx -- which identifies the HISR and nothing more:
 * every thread, task-port and signal service refuses it with TC_INVALID. The sim port charges its switch cost
 * (tc_sim_set_switch_cost) for switches into and out of HISRs as well: they cost as much.
 *
 * Software timers run their callbacks in a system HISR (tacet/timer.h).
 */
#ifndef TACET_HISR_H
#define TACET_HISR_H

#include "tacet/thread.h"
#include "tacet/types.h"

/* The HISR control block. Allocated by the application; all fields are private. */
typedef struct tc_hisr {
  tc_thread ctx; /* first: the context the port switches to, as for a thread; its sched_node
                    links the HISR into its priority's list while activated */
  uint32_t magic;
  tc_node created_node; /* in the kernel's list of created HISRs */
  void (*fn)(void);
  uint8_t priority;     /* 0..2 */
  uint32_t pending;     /* activations whose run has not begun */
  uint64_t activations; /* tc_hisr_activate() calls accepted */
  uint64_t runs;        /* runs of fn begun */
} tc_hisr;

typedef struct {
  const char *name;
  unsigned priority;           /* 0..2 */
  bool active;                 /* activated: running, preempted or waiting to run */
  uint32_t pending;            /* activations whose run has not begun */
  uint64_t activations, runs;  /* since creation */
  uint64_t switches_in;        /* times the CPU switched to its context */
  uint64_t cycles;             /* time it ran (tc_cycles units) */
  size_t stack_size, stack_high_water; /* bytes */
} tc_hisr_info_t;

/* Create an HISR running `fn` at HISR priority `hisr_priority` (0 highest .. 2) on the given
 * stack (painted, like a thread's, to measure its high-water mark; with TC_MPU_STACK_GUARD
 * guarded like a thread's, see tc_thread_create()). It starts inactive.
 * Context: thread or startup. Does not reschedule.
 * Returns TC_OK; TC_INVALID (h, fn or stack NULL, stack smaller than TC_PORT_STACK_MIN, with
 * TC_MPU_STACK_GUARD a stack that cannot hold the guard region and TC_PORT_STACK_MIN bytes
 * above it, h already created); TC_PRIORITY_ERROR (hisr_priority > 2); TC_CALLER_ERROR (from a LISR, an HISR or a timer callback). */
tc_status tc_hisr_create(tc_hisr *h, const char *name, void (*fn)(void), unsigned hisr_priority,
                         void *stack, size_t stack_size);

/* Ask for one run of h's function. From a LISR the HISR starts when the outermost LISR exits;
 * from a thread it preempts the caller at once (unless the scheduler is locked); from an
 * HISR of a lower priority it preempts that HISR at once, otherwise it runs after it.
 * Context: any. May reschedule.
 * Returns TC_OK; TC_INVALID (not a created HISR); TC_FULL (2^32 - 1 activations pending). */
tc_status tc_hisr_activate(tc_hisr *h);

/* Remove an inactive HISR from the kernel; its memory may then be reused.
 * Context: thread or startup. Does not reschedule.
 * Returns TC_OK; TC_INVALID (not a created HISR); TC_STATE_ERROR (activated: running or
 * waiting to run); TC_CALLER_ERROR (from a LISR, an HISR or a timer callback). */
tc_status tc_hisr_delete(tc_hisr *h);

/* The HISR whose function is running; NULL in a thread, a LISR, a timer callback (the timers'
 * HISR is the kernel's), idle or startup code. Context: any. */
tc_hisr *tc_hisr_self(void);

/* A snapshot of an HISR's state and counters. Context: any. Does not reschedule.
 * Returns TC_OK; TC_INVALID (not a created HISR, out NULL). */
tc_status tc_hisr_info(const tc_hisr *h, tc_hisr_info_t *out);

#endif /* TACET_HISR_H */
