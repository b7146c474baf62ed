/* SPDX-License-Identifier: MIT */
/*
 * Thread services. Each public function starts with its argument checks (the front layer,
 * dropped with TC_CHECKS=0), then does its work under the kernel lock. State checks that
 * depend on what other threads or interrupts may do stay under the lock in every build.
 */
#include <string.h>

#include "internal.h"
#include "tacet/hisr.h"

/* Trace wrappers (TC_TRACE=1; nothing otherwise): each service below is recorded when it
 * returns (kernel/internal.h, TC_TRACED). */
TC_TRACED(tc_thread_create, (tc_thread *t, const char *name, void (*entry)(void *arg), void *arg, void *stack, size_t stack_size, unsigned priority, unsigned preempt_threshold, uint32_t time_slice, unsigned options), (t, name, entry, arg, stack, stack_size, priority, preempt_threshold, time_slice, options),
          TC_TRACE_SVC_THREAD_CREATE, t, priority, preempt_threshold, (void)0)
TC_TRACED(tc_thread_delete, (tc_thread *t), (t),
          TC_TRACE_SVC_THREAD_DELETE, t, 0, 0, TC_TRACE_FORGET(t))
TC_TRACED(tc_thread_terminate, (tc_thread *t), (t),
          TC_TRACE_SVC_THREAD_TERMINATE, t, 0, 0, (void)0)
TC_TRACED(tc_thread_suspend, (tc_thread *t), (t),
          TC_TRACE_SVC_THREAD_SUSPEND, t, 0, 0, (void)0)
TC_TRACED(tc_thread_resume, (tc_thread *t), (t),
          TC_TRACE_SVC_THREAD_RESUME, t, 0, 0, (void)0)
TC_TRACED(tc_thread_sleep, (uint32_t ticks), (ticks),
          TC_TRACE_SVC_THREAD_SLEEP, 0, ticks, 0, (void)0)
TC_TRACED(tc_thread_priority_change, (tc_thread *t, unsigned new_priority, unsigned *old), (t, new_priority, old),
          TC_TRACE_SVC_THREAD_PRIORITY_CHANGE, t, new_priority, (st_ == TC_OK && old != NULL ? (uintptr_t)*old : 0), (void)0)
TC_TRACED(tc_thread_threshold_change, (tc_thread *t, unsigned new_threshold, unsigned *old), (t, new_threshold, old),
          TC_TRACE_SVC_THREAD_THRESHOLD_CHANGE, t, new_threshold, (st_ == TC_OK && old != NULL ? (uintptr_t)*old : 0), (void)0)
TC_TRACED(tc_thread_wait_abort, (tc_thread *t), (t),
          TC_TRACE_SVC_THREAD_WAIT_ABORT, t, 0, 0, (void)0)

static inline bool thread_valid(const tc_thread *t) { return t != NULL && t->magic == TC_MAGIC_THREAD; }

static void make_ready(tc_thread *t)
{
  t->state = TC_READY;
  t->slice_left = t->time_slice;
  tc__ready_append(t);
  TC_TRACE_READY(t, 0, TC_OK);
  tc__sched_made_ready(t);
}

/* Take `t` out of whatever list its state puts it in. */
static void unlink_thread(tc_thread *t)
{
  switch (t->state) {
  case TC_READY:
    tc__ready_remove(t);
    break;
  case TC_SLEEPING:
  case TC_PENDING:
    if (t->wait_q != NULL) {
      tc_waitq *q = t->wait_q;
      tc__list_remove(&q->threads, &t->sched_node);
      t->wait_q = NULL;
      if (q->reprioritized != NULL) q->reprioritized(q, t); /* the object is told */
    }
    if (t->timeout.linked) tc__timeout_remove(&t->timeout);
    break;
  default:
    break;
  }
  t->flags = 0;
}

/* Stop `t` for good, in `final_state` (completed or terminated). */
static void finish_thread(tc_thread *t, unsigned final_state)
{
  unlink_thread(t);
  /* Out of every list: from now on no wake-up by the hooks below may treat it as ready. */
  t->state = (uint8_t)final_state;
  if (tc__mutex_thread_exit != NULL) tc__mutex_thread_exit(t); /* linked only with mutex.c */
  if (tc__taskport_thread_exit != NULL) tc__taskport_thread_exit(t); /* with taskport.c */
  /* Another thread's end leaves the running thread its CPU and its threshold; its own end
   * lets the preempted threads compete (tc__sched_reschedule). */
  tc__sched_reschedule(true);
}

tc_status TC_BODY(tc_thread_create)(tc_thread *t, const char *name, void (*entry)(void *arg), void *arg,
                           void *stack, size_t stack_size, unsigned priority,
                           unsigned preempt_threshold, uint32_t time_slice, unsigned options)
{
  TC_ISR_CHECK("tc_thread_create");
  TC_ARG_CHECK(t != NULL && entry != NULL && stack != NULL, TC_INVALID);
  TC_ARG_CHECK(stack_size >= TC_PORT_STACK_MIN, TC_INVALID);
#if TC_MPU_STACK_GUARD
  TC_ARG_CHECK(tc__stack_holds_guard(stack, stack_size), TC_INVALID);
#endif
  TC_ARG_CHECK((options & ~TC_AUTO_START) == 0, TC_INVALID);
  TC_ARG_CHECK(priority < TC_PRIORITIES, TC_PRIORITY_ERROR);
  TC_ARG_CHECK(preempt_threshold <= priority, TC_PRIORITY_ERROR);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
#if TC_CHECKS
  {
    unsigned s = tc__lock();
    /* Already a thread, or the context of an HISR (the API hands those out). */
    bool dup = t->magic == TC_MAGIC_THREAD ? tc__list_contains(&tc__k.threads, &t->created_node)
               : t->magic == TC_MAGIC_HISR_CTX &&
                     tc__list_contains(&tc__k.hisrs, &TC_CONTAINER_OF(t, tc_hisr, ctx)->created_node);
    tc__unlock(s);
    if (dup) return TC_INVALID;
  }
#endif

  /* Keep only whole, aligned stack: the port builds the first frame at the aligned top
   * (and, with TC_MPU_STACK_GUARD, finds the guard region right below the bottom). */
  uintptr_t lo = tc__stack_bottom(stack);
  uintptr_t hi = tc__stack_top(stack, stack_size);
  (void)memset(t, 0, sizeof *t);
#if TC_POWER
  t->power_class = TC_LOAD_NORMAL; /* an HISR's context stays in TC_LOAD_HIGH (0) */
#endif
  t->name = name;
  t->entry = entry;
  t->arg = arg;
  t->stack_base = (uint8_t *)lo;
  t->stack_size = (size_t)(hi - lo);
  t->user_priority = (uint16_t)priority;
  tc__set_priority(t, priority);
  t->threshold = t->user_threshold = (uint16_t)preempt_threshold;
  t->time_slice = t->slice_left = time_slice;
  t->state = TC_SUSPENDED;
  tc__stack_prepare(t->stack_base, t->stack_size);
  TC_PORT_STACK_INIT(t);

  unsigned s = tc__lock();
  t->magic = TC_MAGIC_THREAD;
  TC_TRACE_OBJECT(TC_TRACE_OBJ_THREAD, t, name, priority);
  TC_TRACE_WAITQ(&t->port_waiters, t);
  tc__list_push_back(&tc__k.threads, &t->created_node);
  if ((options & TC_AUTO_START) != 0u) {
    make_ready(t);
    tc__sched_dispatch();
  }
  tc__unlock(s);
  return TC_OK;
}

tc_status TC_BODY(tc_thread_delete)(tc_thread *t)
{
  TC_ISR_CHECK("tc_thread_delete");
  TC_ARG_CHECK(thread_valid(t), TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned s = tc__lock();
  if (t->state != TC_COMPLETED && t->state != TC_TERMINATED) {
    tc__unlock(s);
    return TC_STATE_ERROR;
  }
  tc__list_remove(&tc__k.threads, &t->created_node);
  t->magic = 0;
  uint64_t in, preempted, cycles;
  tc__thread_counters(t, &in, &preempted, &cycles);
  tc__k.deleted_switches_in += in;
  tc__k.deleted_preempted += preempted;
#if TC_POWER
  tc__power_forget(t);
#endif
  tc__unlock(s);
  return TC_OK;
}

tc_status TC_BODY(tc_thread_terminate)(tc_thread *t)
{
  TC_ISR_CHECK("tc_thread_terminate");
  TC_ARG_CHECK(thread_valid(t), TC_INVALID);
  TC_ARG_CHECK(!tc__in_isr(), TC_CALLER_ERROR);
  unsigned s = tc__lock();
  if (t->state == TC_COMPLETED || t->state == TC_TERMINATED) {
    tc__unlock(s);
    return TC_OK;
  }
  if (t == tc__k.current && tc__k.lock_nesting != 0) {
    tc__unlock(s);
    return TC_CALLER_ERROR;
  }
  finish_thread(t, TC_TERMINATED);
  tc__sched_dispatch();
  tc__unlock(s);
  return TC_OK;
}

#if TC_MPU_STACK_GUARD
/* The port's guard fault handler caught `t` writing into its stack guard region (tacet/port.h).
 * It runs as an interrupt handler that the kernel's mask holds back, so the kernel is
 * consistent; `t` may be the current thread (it faulted in its own code, or stacking an
 * exception frame) or the context the port was saving at a switch (then no longer current).
 * The thread ends as tc_thread_terminate() would end it; its scheduler lock, if it held
 * one, ends with it, as when a thread completes. */
void tc__stack_guard_hit(tc_thread *t)
{
  tc_stack_overflow_hook(t);
  if (t->flags & TC_TF_HISR) TC_PORT_PANIC("stack overflow in an HISR (it cannot be terminated)", t->name);
  unsigned s = tc__lock();
  if (t == tc__k.current) tc__k.lock_nesting = 0;
  if (t->state != TC_COMPLETED && t->state != TC_TERMINATED) finish_thread(t, TC_TERMINATED);
  tc__sched_dispatch();
  tc__unlock(s);
}
#endif

void tc__thread_run(tc_thread *t)
{
  t->entry(t->arg);
  unsigned s = tc__lock();
  tc__k.lock_nesting = 0; /* a thread that ends holding the scheduler lock releases it */
  finish_thread(t, TC_COMPLETED);
  tc__sched_dispatch();
  tc__unlock(s);
  TC_PORT_PANIC("a completed thread was resumed", t->name);
}

tc_status TC_BODY(tc_thread_suspend)(tc_thread *t)
{
  TC_ISR_CHECK("tc_thread_suspend");
  TC_ARG_CHECK(thread_valid(t), TC_INVALID);
  unsigned s = tc__lock();
  tc_status st = TC_OK;
  switch (t->state) {
  case TC_COMPLETED:
  case TC_TERMINATED:
    st = TC_STATE_ERROR;
    break;
  case TC_SLEEPING:
  case TC_PENDING:
    t->flags |= TC_TF_SUSPEND_AFTER;
    break;
  case TC_READY:
    if (t == tc__k.current && tc__k.lock_nesting != 0 && !tc__in_isr()) {
      st = TC_CALLER_ERROR;
      break;
    }
    tc__ready_unlink(t);
    t->state = TC_SUSPENDED;
    /* Another thread leaving the ready set changes no decision (rule 1 still holds). */
    if (t == tc__k.chosen) {
      tc__sched_chosen_left();
      tc__sched_dispatch();
    }
    break;
  default: /* already suspended */
    break;
  }
  tc__unlock(s);
  return st;
}

tc_status TC_BODY(tc_thread_resume)(tc_thread *t)
{
  TC_ISR_CHECK("tc_thread_resume");
  TC_ARG_CHECK(thread_valid(t), TC_INVALID);
  unsigned s = tc__lock();
  tc_status st = TC_OK;
  if (t->state == TC_SUSPENDED) {
    make_ready(t);
    tc__sched_dispatch();
  } else if ((t->state == TC_SLEEPING || t->state == TC_PENDING) && (t->flags & TC_TF_SUSPEND_AFTER)) {
    t->flags &= (uint8_t)~TC_TF_SUSPEND_AFTER;
  } else {
    st = TC_STATE_ERROR;
  }
  tc__unlock(s);
  return st;
}

tc_status TC_BODY(tc_thread_sleep)(uint32_t ticks)
{
  TC_ISR_CHECK("tc_thread_sleep");
  TC_ARG_CHECK(tc__in_thread() && tc__k.lock_nesting == 0, TC_CALLER_ERROR);
  if (ticks == 0) return TC_OK;
  unsigned s = tc__lock();
  return tc__thread_wait(NULL, TC_SLEEPING, ticks, s);
}

_Static_assert(offsetof(tc_thread, threshold) == offsetof(tc_thread, priority) + 2,
               "tc_thread_yield loads priority and threshold as one word");

/* A yield that a rotation does not settle: the full decision. Out of line, so that the common
 * yield needs no stack frame. */
static void __attribute__((noinline)) yield_general(tc_thread *r, unsigned s)
{
  r->slice_left = r->time_slice;
  tc__ready_rotate(r);
  tc__sched_reschedule(false);
  tc__sched_dispatch();
  tc__unlock(s);
}

#if TC_TRACE
static inline __attribute__((always_inline)) void tc_thread_yield__body(void);
void tc_thread_yield(void)
{
  tc_thread_yield__body();
  TC_TRACE_CALL(TC_TRACE_SVC_THREAD_YIELD, 0, 0, 0, TC_OK);
}
#endif

void TC_BODY(tc_thread_yield)(void)
{
  unsigned s = tc__lock();
  tc_thread *r = tc__k.current;
  /* A no-op with the scheduler locked, and outside a thread (TC_CHECKS=0 trusts the caller):
   * the may-block test says both at once, under the lock it needs anyway. Otherwise the
   * calling thread is the chosen one: ready, not preempted, no HISR active. */
#if TC_CHECKS
  bool held = !tc__may_block();
#else
  bool held = tc__k.lock_nesting != 0;
#endif
  if (held) {
    tc__unlock_quiet(s);
    return;
  }
  TC_TRACE_EVENT(TC_TRACE_EV_YIELD, 1, 0, 0);
  tc_list *l = r->ready_list;
  /* Priority and threshold in one load: equal when the two halves are (a rotation by 16
   * compares them in one instruction). */
  uint32_t pt;
  (void)memcpy(&pt, &r->priority, sizeof pt);
  if (l->head != &r->sched_node ||
      (pt != ((pt << 16) | (pt >> 16)) && tc__sched_highest_ready() != r->priority)) {
    yield_general(r, s);
    return;
  }
  r->slice_left = r->time_slice;
  /* Rule 2 settled by a rotation: r heads the highest ready list, so the head after the
   * rotation runs -- the next of its equals, or r itself when it is alone. Preempted threads
   * do not compete at a yield. */
  tc_node *n = r->sched_node.next;
  if (n == &r->sched_node) {
    tc__unlock_quiet(s);
    return;
  }
  l->head = n;
  tc_thread *to = TC_THREAD_OF(n);
  tc__k.chosen = tc__k.next = to;
  tc__commit_thread_to_thread(r, to);
  tc__unlock(s);
}

/* Shared tail of the two change functions: validate the pair under the lock and apply it. */
static tc_status change_user_pair(tc_thread *t, unsigned priority, unsigned threshold)
{
  if (t->state == TC_COMPLETED || t->state == TC_TERMINATED) return TC_STATE_ERROR;
  if (threshold > priority) return TC_PRIORITY_ERROR;
  t->user_priority = (uint16_t)priority;
  t->user_threshold = (uint16_t)threshold;
  /* A priority inherited through a mutex stays in force until the mutex is released. */
  if (tc__mutex_effective != NULL) tc__mutex_effective(t, &priority, &threshold);
  tc__sched_set_effective(t, priority, threshold);
  tc__sched_dispatch();
  return TC_OK;
}

tc_status TC_BODY(tc_thread_priority_change)(tc_thread *t, unsigned new_priority, unsigned *old)
{
  TC_ISR_CHECK("tc_thread_priority_change");
  TC_ARG_CHECK(thread_valid(t), TC_INVALID);
  TC_ARG_CHECK(new_priority < TC_PRIORITIES, TC_PRIORITY_ERROR);
  TC_ARG_CHECK(!tc__in_isr(), TC_CALLER_ERROR);
  unsigned s = tc__lock();
  unsigned before = t->user_priority;
  /* A fully preemptive thread stays fully preemptive; otherwise the threshold keeps its value
   * unless that would put it below the new priority. */
  unsigned threshold = t->user_threshold;
  if (threshold == t->user_priority || threshold > new_priority) threshold = new_priority;
  tc_status st = change_user_pair(t, new_priority, threshold);
  tc__unlock(s);
  if (st == TC_OK && old != NULL) *old = before;
  return st;
}

tc_status TC_BODY(tc_thread_threshold_change)(tc_thread *t, unsigned new_threshold, unsigned *old)
{
  TC_ISR_CHECK("tc_thread_threshold_change");
  TC_ARG_CHECK(thread_valid(t), TC_INVALID);
  TC_ARG_CHECK(new_threshold < TC_PRIORITIES, TC_PRIORITY_ERROR);
  TC_ARG_CHECK(!tc__in_isr(), TC_CALLER_ERROR);
  unsigned s = tc__lock();
  unsigned before = t->user_threshold;
  tc_status st = change_user_pair(t, t->user_priority, new_threshold);
  tc__unlock(s);
  if (st == TC_OK && old != NULL) *old = before;
  return st;
}

tc_status TC_BODY(tc_thread_wait_abort)(tc_thread *t)
{
  TC_ISR_CHECK("tc_thread_wait_abort");
  TC_ARG_CHECK(thread_valid(t), TC_INVALID);
  unsigned s = tc__lock();
  tc_status st = TC_STATE_ERROR;
  if (t->state == TC_SLEEPING || t->state == TC_PENDING) {
    tc__thread_wake(t, TC_WAIT_ABORTED);
    tc__sched_dispatch();
    st = TC_OK;
  } else if (t->state != TC_COMPLETED && t->state != TC_TERMINATED && tc__signal_wait_abort != NULL &&
             tc__signal_wait_abort(t)) {
    /* A wait a signal interrupted: it ends once the handler is done (signal.c); a thread
     * that ended before its handler ran has no wait left. */
    st = TC_OK;
  }
  tc__unlock(s);
  return st;
}

tc_thread *tc_thread_self(void) { return tc__in_thread() ? tc__k.current : NULL; }

tc_status tc_thread_info(const tc_thread *t, tc_thread_info_t *out)
{
  TC_ISR_CHECK("tc_thread_info");
  TC_ARG_CHECK(thread_valid(t) && out != NULL, TC_INVALID);
  unsigned s = tc__lock();
  out->name = t->name;
  out->state = t->state;
  if (t->state == TC_READY && t == tc__k.current) out->state = TC_RUNNING;
  out->priority = t->priority;
  out->threshold = t->threshold;
  out->user_priority = t->user_priority;
  out->user_threshold = t->user_threshold;
  tc__thread_counters(t, &out->switches_in, &out->preempted, &out->cycles);
  out->last_preempted_by = t->last_preempted_by;
  out->stack_size = t->stack_size;
  out->time_slice = t->time_slice;
  tc__unlock(s);
  out->stack_high_water = tc__stack_high_water(t);
  return TC_OK;
}
