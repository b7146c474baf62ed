/* SPDX-License-Identifier: MIT */
/*
 * HISRs (tacet/hisr.h): deferred interrupt handlers with a context of their own.
 *
 * An HISR embeds a tc_thread that serves only as an execution context: the port saves and
 * restores it exactly as a thread's, so a port needs nothing for HISRs. The context carries
 * TC_TF_HISR and is never in a thread ready list. Activated HISRs are queued instead, FIFO,
 * in tc__k.hisr_ready[priority], and tc__k.hisr_top names the context of the first HISR of
 * the highest non-empty list; tc__sched_choose() returns it before it looks at the thread
 * bitmap. The ordinary reschedule / dispatch machinery therefore does the rest: the switch
 * to an HISR happens at the outermost tc_isr_exit() after a LISR activated it, or at once
 * when a thread or a lower HISR activated it, and a running HISR cannot lose the CPU to a
 * thread (it stays the choice) nor to an HISR of its own or a lower priority (they queue
 * behind it). Choosing is O(1): three list heads.
 *
 * An activated HISR stays at the head of its list (its context TC_READY) until its function
 * has run once per activation; then it leaves the list (context TC_SUSPENDED) and gives the
 * CPU away from inside hisr_entry(), where the next activation resumes it.
 */
#include <string.h>

#include "internal.h"
#include "tacet/hisr.h"

/* Trace wrappers (TC_TRACE=1; nothing otherwise): each service below is recorded when it
 * returns (kernel/internal.h, TC_TRACED). */
TC_TRACED(tc_hisr_create, (tc_hisr *h, const char *name, void (*fn)(void), unsigned hisr_priority, void *stack, size_t stack_size), (h, name, fn, hisr_priority, stack, stack_size),
          TC_TRACE_SVC_HISR_CREATE, h, hisr_priority, 0, (void)0)
TC_TRACED(tc_hisr_activate, (tc_hisr *h), (h),
          TC_TRACE_SVC_HISR_ACTIVATE, h, 0, 0, (void)0)
TC_TRACED(tc_hisr_delete, (tc_hisr *h), (h),
          TC_TRACE_SVC_HISR_DELETE, h, 0, 0, TC_TRACE_FORGET(h))

static inline bool hisr_valid(const tc_hisr *h) { return h != NULL && h->magic == TC_MAGIC_HISR; }

bool tc__hisr_created(const tc_hisr *h)
{
  return h->magic == TC_MAGIC_HISR && tc__list_contains(&tc__k.hisrs, &h->created_node);
}

/* The HISR to run: the first of the highest non-empty list. */
static void update_top(void)
{
  tc__k.hisr_top = NULL;
  for (unsigned p = 0; p < TC_HISR_PRIORITIES; p++) {
    tc_node *n = tc__k.hisr_ready[p].head;
    if (n != NULL) {
      tc__k.hisr_top = TC_THREAD_OF(n);
      return;
    }
  }
}

void tc__hisr_activate_locked(tc_hisr *h)
{
  h->pending++;
  h->activations++;
  if (h->ctx.state == TC_READY) return; /* already queued or running: one more run */
  h->ctx.state = TC_READY;
  tc__list_push_back(&tc__k.hisr_ready[h->priority], &h->ctx.sched_node);
  update_top();
  /* The HISR runs next; the chosen thread keeps its claim and its threshold, as under an
   * interrupt handler. */
  tc__sched_reschedule(true);
}

/* The body of every HISR's context: run fn once per activation, then step aside. */
static void hisr_entry(void *arg)
{
  tc_hisr *h = arg;
  unsigned s = tc__lock();
  for (;;) {
    if (h->pending == 0) {
      tc__list_remove(&tc__k.hisr_ready[h->priority], &h->ctx.sched_node);
      h->ctx.state = TC_SUSPENDED;
      update_top();
      tc__sched_reschedule(true);
      tc__sched_dispatch();
      tc__unlock(s); /* a port that switches in an exception (PendSV) switches here */
      s = tc__lock(); /* activated again */
      continue;
    }
    h->pending--;
    h->runs++;
    TC_TRACE_EVENT(TC_TRACE_EV_HISR_RUN, h, 0, 0);
    tc__unlock(s);
    h->fn();
    s = tc__lock();
  }
}

tc_status TC_BODY(tc_hisr_create)(tc_hisr *h, const char *name, void (*fn)(void), unsigned hisr_priority,
                         void *stack, size_t stack_size)
{
  TC_ISR_CHECK("tc_hisr_create");
  TC_ARG_CHECK(h != NULL && fn != NULL && stack != NULL, TC_INVALID);
  TC_ARG_CHECK(stack_size >= TC_PORT_STACK_MIN, TC_INVALID);
#if TC_MPU_STACK_GUARD
  TC_ARG_CHECK(tc__stack_holds_guard(stack, stack_size), TC_INVALID);
#endif
  TC_ARG_CHECK(hisr_priority < TC_HISR_PRIORITIES, TC_PRIORITY_ERROR);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
#if TC_CHECKS
  {
    unsigned s = tc__lock();
    bool dup = tc__hisr_created(h);
    tc__unlock(s);
    if (dup) return TC_INVALID;
  }
#endif

  /* The context is built as tc_thread_create() builds a thread's: whole aligned stack,
   * painted, guarded like a thread's, first frame entering hisr_entry(h) through
   * tc__thread_run(). */
  uintptr_t lo = tc__stack_bottom(stack);
  uintptr_t hi = tc__stack_top(stack, stack_size);
  (void)memset(h, 0, sizeof *h);
  tc_thread *c = &h->ctx;
  c->name = name;
  c->entry = hisr_entry;
  c->arg = h;
  c->stack_base = (uint8_t *)lo;
  c->stack_size = (size_t)(hi - lo);
  c->state = TC_SUSPENDED;
  c->flags = TC_TF_HISR;
  tc__stack_prepare(c->stack_base, c->stack_size);
  TC_PORT_STACK_INIT(c);
  h->fn = fn;
  h->priority = (uint8_t)hisr_priority;

  unsigned s = tc__lock();
  c->magic = TC_MAGIC_HISR_CTX; /* the scheduler and the port never look: a context is a context */
  h->magic = TC_MAGIC_HISR;
  TC_TRACE_OBJECT(TC_TRACE_OBJ_HISR, h, name, hisr_priority);
  tc__list_push_back(&tc__k.hisrs, &h->created_node);
  tc__unlock(s);
  return TC_OK;
}

tc_status TC_BODY(tc_hisr_activate)(tc_hisr *h)
{
  TC_ISR_CHECK("tc_hisr_activate");
  TC_ARG_CHECK(hisr_valid(h), TC_INVALID);
  unsigned s = tc__lock();
  tc_status st = TC_OK;
  if (h->pending == UINT32_MAX) {
    st = TC_FULL;
  } else {
    tc__hisr_activate_locked(h);
    tc__sched_dispatch();
  }
  tc__unlock(s);
  return st;
}

tc_status TC_BODY(tc_hisr_delete)(tc_hisr *h)
{
  TC_ISR_CHECK("tc_hisr_delete");
  TC_ARG_CHECK(hisr_valid(h), TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned s = tc__lock();
  if (h->ctx.state == TC_READY) {
    tc__unlock(s);
    return TC_STATE_ERROR;
  }
  tc__list_remove(&tc__k.hisrs, &h->created_node);
  h->magic = 0;
  h->ctx.magic = 0;
#if TC_POWER
  tc__power_forget(&h->ctx);
#endif
  tc__unlock(s);
  return TC_OK;
}

tc_hisr *tc_hisr_self(void)
{
  /* A timer callback runs in the timers' HISR, which is the kernel's, not the caller's. */
  return tc__in_hisr() && !tc__in_timer_callback() ? TC_CONTAINER_OF(tc__k.current, tc_hisr, ctx) : NULL;
}

tc_status tc_hisr_info(const tc_hisr *h, tc_hisr_info_t *out)
{
  TC_ISR_CHECK("tc_hisr_info");
  TC_ARG_CHECK(hisr_valid(h) && out != NULL, TC_INVALID);
  unsigned s = tc__lock();
  out->name = h->ctx.name;
  out->priority = h->priority;
  out->active = h->ctx.state == TC_READY;
  out->pending = h->pending;
  out->activations = h->activations;
  out->runs = h->runs;
  uint64_t preempted;
  tc__thread_counters(&h->ctx, &out->switches_in, &preempted, &out->cycles);
  out->stack_size = h->ctx.stack_size;
  tc__unlock(s);
  out->stack_high_water = tc__stack_high_water(&h->ctx);
  return TC_OK;
}

/* ---- invariants (tc_check) -------------------------------------------------------------- */

const char *tc__hisr_check(void)
{
  size_t active = 0;
  const tc_node *n = tc__k.hisrs.head;
  if (n != NULL) {
    do {
      const tc_hisr *h = TC_CONST_CONTAINER_OF(n, tc_hisr, created_node);
      const tc_thread *c = &h->ctx;
      if (h->magic != TC_MAGIC_HISR || c->magic != TC_MAGIC_HISR_CTX || (c->flags & ~TC_TF_SYSTEM) != TC_TF_HISR)
        return "HISR list holds something that is not an HISR";
      if (h->priority >= TC_HISR_PRIORITIES) return "HISR priority out of range";
      bool queued = tc__list_contains(&tc__k.hisr_ready[h->priority], &c->sched_node);
      if ((c->state == TC_READY) != queued) return "HISR activated state disagrees with its list";
      if (c->state != TC_READY && c->state != TC_SUSPENDED) return "HISR context in a thread state";
      if (h->pending != 0 && c->state != TC_READY) return "HISR with pending activations is not queued";
      if (h->runs + h->pending != h->activations) return "HISR runs and pending disagree with activations";
#if TC_STACK_PAINT_GUARD
      if (!tc__stack_guard_intact(c)) return "HISR stack guard overwritten";
#endif
      if (c->state == TC_READY) active++;
      n = n->next;
    } while (n != tc__k.hisrs.head);
  }

  size_t queued = 0;
  const tc_thread *top = NULL;
  for (unsigned p = 0; p < TC_HISR_PRIORITIES; p++) {
    const tc_node *x = tc__k.hisr_ready[p].head;
    if (x == NULL) continue;
    if (top == NULL) top = TC_CONST_THREAD_OF(x);
    do {
      const tc_hisr *h = TC_CONST_CONTAINER_OF(TC_CONST_THREAD_OF(x), tc_hisr, ctx);
      if (x->next == NULL || x->next->prev != x) return "HISR list links disagree";
      if (h->magic != TC_MAGIC_HISR || h->priority != p) return "HISR queued in the wrong list";
      queued++; /* no bound needed: see check_links() in check.c */
      x = x->next;
    } while (x != tc__k.hisr_ready[p].head);
  }
  if (queued != active) return "queued HISRs and activated HISRs differ in number";
  if (tc__k.hisr_top != top) return "hisr_top is not the first HISR of the highest list";
  const tc_thread *cur = tc__k.current;
  if (cur != NULL && (cur->flags & TC_TF_HISR) && cur->state != TC_READY && !tc__in_isr())
    return "a finished HISR holds the CPU";
  return NULL;
}
