/* SPDX-License-Identifier: MIT */
/*
 * Threads: creation, the life-cycle services, priorities and preemption thresholds.
 *
 * Preemption threshold: a thread of priority p and threshold t (t <= p; t == p means fully
 * preemptive) may, while it runs, be preempted only by a ready thread whose priority is
 * numerically lower than t. The threshold is in force from the moment the thread is
 * dispatched until it blocks, suspends, yields or completes; if it is preempted (by a thread
 * above its threshold) it competes again with its threshold, not its priority, when the
 * preempting threads are done. Time slicing rotates a thread only when its threshold lets an
 * equal-priority thread in, i.e. a thread whose threshold is in force is not time-sliced.
 *
 * Calling context is given per function: "thread" means from a thread only; "any" also from
 * interrupt handlers at a kernel priority (tacet/kernel.h, "Interrupt handlers"), HISRs and
 * timer callbacks. The whole table is in docs/services.md ("Calling contexts"). Every function may reschedule
 * unless it says otherwise.
 */
#ifndef TACET_THREAD_H
#define TACET_THREAD_H

#include "tacet/port.h"
#include "tacet/types.h"

/* Thread states (tc_thread_info_t.state). */
enum {
  TC_READY = 0,  /* ready to run, waiting for the CPU */
  TC_RUNNING,    /* reported for the thread that holds the CPU (internally it is READY) */
  TC_SUSPENDED,  /* tc_thread_suspend(), or created without TC_AUTO_START */
  TC_SLEEPING,   /* tc_thread_sleep() */
  TC_PENDING,    /* waiting on an object, with or without a timeout */
  TC_COMPLETED,  /* its entry function returned */
  TC_TERMINATED, /* tc_thread_terminate() */
};

/* tc_thread_create() options. */
#define TC_AUTO_START 0x1u

/* The thread control block. Allocated by the application; all fields are private. */
typedef struct tc_thread {
  TC_PORT_CONTEXT ctx; /* first: port assembly finds the saved context at offset 0 */
  uint32_t magic;
  const char *name;
  tc_node sched_node;   /* in one ready list, or in one wait queue */
  tc_node created_node; /* in the kernel's list of created threads */
  tc_node preempt_node; /* in the kernel's list of preempted threads, while preempted */
  tc_timeout timeout;   /* sleep and wait timeouts */
  void (*entry)(void *arg);
  void *arg;
  uint8_t *stack_base;
  size_t stack_size;
  uint16_t priority, threshold;           /* effective (inheritance included) */
  tc_list *ready_list;                    /* the ready list of `priority`, kept with it */
  /* Its bit in the ready map, kept with `priority` too, so that joining and leaving the ready
   * set costs loads and no shifts: the map word, the bit in it, and (more than 32 priorities)
   * the word's bit in the group. */
  uint32_t *ready_word;
  uint32_t ready_bit;
#if TC_PRIORITIES > 32
  uint32_t ready_group_bit;
#endif
  uint16_t user_priority, user_threshold; /* as set by the application */
  uint8_t state;
  uint8_t flags;
  tc_waitq *wait_q;      /* the queue the thread pends on, if any */
  tc_status wait_status; /* how the last wait ended */
  uint32_t wait_seq;     /* when its wait began, in waits: FIFO among equal-priority waiters */
  uintptr_t wait_info[2]; /* per-object wait data (requested flags, message pointer ...) */
  uint32_t time_slice, slice_left;
  tc_list mutexes;         /* mutexes this thread owns (priority inheritance, release on exit) */
  uint32_t port_word;      /* task port: the word posted to this thread */
  bool port_full;          /* task port: a word is waiting to be received */
  tc_waitq port_waiters;   /* task port: posters waiting for the slot to empty, or, while
                              it is empty, the thread itself waiting for a word */
  uint32_t signals;        /* signals sent and not yet handled */
  void (*signal_handler)(uint32_t signals);
  uint8_t signal_state;    /* signal.c: handler running, it interrupted a wait, abort asked */
  /* Counters (TC_STATS), kept as cheaply as a switch allows: a switch away from the thread
   * adds to the two low words (adjacent: one load and one store of the pair), a carry to the
   * high words is the rare case, and the rest is derived when asked (kernel/stats.c). With
   * TC_POWER there is a set per operating point, and a switch adds to the set of the point in
   * force; the thread's counts are the sums. */
  struct tc_counts {
    uint32_t switches_out, cycles_lo; /* times switched away from; time run (tc_cycles units) */
    uint32_t switches_out_hi, cycles_hi;
  } counts[TC_POWER ? TC_POWER_POINTS : 1];
  uint64_t left;                      /* switches away while not ready, or at the end of a run */
  struct tc_thread *last_preempted_by;
#if TC_POWER
  /* Energy (kernel/power.c): the load class and, for a task declared periodic, its timing
   * and the state of the cycle-conserving DVS. */
  uint8_t power_class;
  tc_node power_node;      /* in the kernel's list of declared tasks */
  uint32_t power_period;   /* ticks; 0: not a declared task */
  uint32_t power_deadline; /* the tick its current job's deadline falls on */
  bool power_released;     /* a job has been released since it was declared */
  uint64_t power_wcet;     /* cycles */
  uint64_t power_left;     /* the current job's work not yet done, at most (c_left) */
  uint64_t power_alloc;    /* of that, the work allocated before the next deadline (d) */
  uint64_t power_mark;     /* its cycles run when these were last brought up to date */
#endif
#if TC_TRACE
  uint32_t trace_stack_used;     /* the stack high water the trace last reported (bytes) */
  const uint32_t *trace_stack_mark; /* the word below it, compared at each switch away */
#endif
} tc_thread;

typedef struct {
  const char *name;
  unsigned state;                         /* TC_READY ... TC_TERMINATED */
  unsigned priority, threshold;           /* effective values (inheritance included) */
  unsigned user_priority, user_threshold; /* as set by the application */
  uint64_t switches_in;                   /* times this thread was switched to */
  uint64_t preempted;                     /* times it was switched away from while still ready */
  const tc_thread *last_preempted_by;     /* who took the CPU the last time (NULL: never) */
  uint64_t cycles;                        /* time it ran (tc_cycles units) */
  size_t stack_size, stack_high_water;    /* bytes; high water = most ever used */
  uint32_t time_slice;                    /* ticks, 0 = no time slicing */
} tc_thread_info_t;

/* Create a thread on the caller's stack memory. It starts ready (TC_AUTO_START) or
 * suspended; tc_thread_resume() starts a suspended one. The stack is painted with a pattern
 * to measure its high-water mark. With TC_MPU_STACK_GUARD the stack's lowest
 * TC_PORT_STACK_GUARD bytes at an address aligned to that size become its guard region (and
 * the bytes below that address are not used): the usable stack, which tc_thread_info()
 * reports, starts above it.
 * Context: thread or startup (before tc_kernel_start()). May reschedule (auto-start, higher priority).
 * Returns TC_OK; TC_INVALID (t, entry or stack NULL, t already created, stack smaller than
 * TC_PORT_STACK_MIN, with TC_MPU_STACK_GUARD a stack that cannot hold the guard region and
 * TC_PORT_STACK_MIN bytes above it, unknown option bit); TC_PRIORITY_ERROR (priority >=
 * TC_PRIORITIES, threshold > priority); TC_CALLER_ERROR (from a LISR, an HISR or a timer
 * callback). */
tc_status tc_thread_create(tc_thread *t, const char *name, void (*entry)(void *arg), void *arg,
                           void *stack, size_t stack_size, unsigned priority,
                           unsigned preempt_threshold, uint32_t time_slice, unsigned options);

/* Remove a completed or terminated thread from the kernel; its memory may then be reused.
 * Context: thread or startup. Does not reschedule.
 * Returns TC_OK; TC_INVALID (not a thread); TC_STATE_ERROR (not completed or terminated);
 * TC_CALLER_ERROR (from a LISR, an HISR or a timer callback). */
tc_status tc_thread_delete(tc_thread *t);

/* Stop a thread for good, whatever it is doing (it leaves any wait). Terminating the calling
 * thread does not return. Terminating an already terminated or completed thread is a no-op.
 * Context: thread, HISR, timer callback or startup (not a LISR).
 * Returns TC_OK; TC_INVALID (not a thread); TC_CALLER_ERROR (from a LISR; terminating the
 * calling thread while it holds the scheduler lock, which would stay held). */
tc_status tc_thread_terminate(tc_thread *t);

/* Suspend a thread until tc_thread_resume(). A sleeping or pending thread is suspended when
 * its wait ends ("delayed suspension", as in ThreadX); suspending an already suspended thread
 * succeeds and changes nothing (suspensions do not nest).
 * Context: any (suspending the calling thread: thread only, scheduler unlocked).
 * Returns TC_OK; TC_INVALID; TC_STATE_ERROR (completed or terminated);
 * TC_CALLER_ERROR (suspending oneself with the scheduler locked). */
tc_status tc_thread_suspend(tc_thread *t);

/* Make a suspended thread ready, or lift a delayed suspension.
 * Context: any. Returns TC_OK; TC_INVALID; TC_STATE_ERROR (not suspended). */
tc_status tc_thread_resume(tc_thread *t);

/* Sleep for `ticks` system ticks (0 returns at once; TC_WAIT_FOREVER until woken by
 * tc_thread_wait_abort()). Context: thread, scheduler unlocked. Blocks.
 * Returns TC_OK; TC_WAIT_ABORTED; TC_CALLER_ERROR (interrupt, no thread, scheduler locked). */
tc_status tc_thread_sleep(uint32_t ticks);

/* Move the calling thread behind the other ready threads of its priority and give up the
 * protection of its preemption threshold for this turn. Context: thread; elsewhere a no-op
 * (with TC_CHECKS=0 the kernel trusts its caller: a thread only). */
void tc_thread_yield(void);

/* Change a thread's priority. A fully preemptive thread (threshold == priority) stays fully
 * preemptive; otherwise the threshold keeps its value unless the new priority is numerically
 * below it, in which case it follows the priority (a threshold is never weaker than the
 * priority). ThreadX always resets the threshold to the new priority; Tacet keeps a
 * deliberately chosen threshold. `old` (may be NULL) receives the previous user priority.
 * Context: thread, HISR, timer callback or startup (not a LISR).
 * Returns TC_OK; TC_INVALID (not a thread); TC_PRIORITY_ERROR (out of range);
 * TC_STATE_ERROR (completed or terminated); TC_CALLER_ERROR (from a LISR). */
tc_status tc_thread_priority_change(tc_thread *t, unsigned new_priority, unsigned *old);

/* Change a thread's preemption threshold (TC_PRIORITY_ERROR when above its priority).
 * Works on running, ready and blocked threads; a preempted thread competes with the new value.
 * Context: as tc_thread_priority_change(). Returns as tc_thread_priority_change(). */
tc_status tc_thread_threshold_change(tc_thread *t, unsigned new_threshold, unsigned *old);

/* End a sleep or a wait of `t`; its service returns TC_WAIT_ABORTED.
 * Context: any. Returns TC_OK; TC_INVALID; TC_STATE_ERROR (not sleeping or pending). */
tc_status tc_thread_wait_abort(tc_thread *t);

/* The calling thread; NULL from an interrupt, the idle context or before the kernel starts.
 * Context: any. Does not reschedule. */
tc_thread *tc_thread_self(void);

/* A snapshot of a thread's state and counters. Context: any. Does not reschedule.
 * Returns TC_OK; TC_INVALID (not a thread, out NULL). */
tc_status tc_thread_info(const tc_thread *t, tc_thread_info_t *out);

/* Called when a thread (or an HISR's context: `t` is then its ctx) has overflowed its stack.
 * Without TC_MPU_STACK_GUARD: at a context switch, when the painted guard bytes at the bottom
 * of the stack being switched out were overwritten; when the hook returns the system goes on,
 * as after ThreadX's stack error notification.
 * With TC_MPU_STACK_GUARD (Cortex-M; docs/stack-guard.md): from the MemManage fault handler,
 * when `t` made its first write into its guard region -- a kernel interrupt handler's
 * context, so the hook may use what a LISR may. When it returns the thread is terminated as
 * by tc_thread_terminate(): it never runs again, the mutexes it owns go to their next owners
 * (or become free) -- the data they protect may be half updated --, it leaves any wait
 * queue, and its other resources (memory it allocated from pools, messages it was sending)
 * stay as they are, as after tc_thread_terminate(). Its stack memory is no longer used once
 * tc_thread_delete() has removed it. An HISR cannot be terminated, nor can a thread caught
 * with the kernel masked: then the system stops (TC_PORT_PANIC) after, or, with the kernel
 * masked, instead of the hook.
 * The default stops the system with TC_PORT_PANIC; an application may define its own. */
void tc_stack_overflow_hook(tc_thread *t);

#endif /* TACET_THREAD_H */
