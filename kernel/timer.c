/* SPDX-License-Identifier: MIT */
/*
 * Software timers (tacet/timer.h).
 *
 * An active timer's tc_timeout sits in the kernel's delta list with timer_expired() as its
 * expiry function, which runs in the tick interrupt with the kernel locked. It does no user
 * work there: it re-arms a periodic timer (relative to this expiry, so periods never drift),
 * counts the expiry in `due`, queues the timer on tc__k.timers_due if it was not queued, and
 * activates the system HISR when that list becomes non-empty. The HISR (timers_hisr_fn)
 * drains the list with interrupts enabled, one callback per expiry, rotating a timer that
 * still owes callbacks to the back so that callbacks keep the order of expiries.
 *
 * Invariants (tc__timer_check): active <=> linked in the delta list; due != 0 <=> queued on
 * the due list; a non-empty due list has the system HISR activated; a created timer has a
 * callback and initial ticks; the counts of expiries, callbacks and dues agree.
 */
#include "internal.h"
#include "tacet/hisr.h"
#include "tacet/timer.h"

/* Trace wrappers (TC_TRACE=1; nothing otherwise): each service below is recorded when it
 * returns (kernel/internal.h, TC_TRACED). */
TC_TRACED(tc_timer_create, (tc_timer *tm, const char *name, void (*fn)(void *arg), void *arg, uint32_t initial, uint32_t period, unsigned options), (tm, name, fn, arg, initial, period, options),
          TC_TRACE_SVC_TIMER_CREATE, tm, initial, period, (void)0)
TC_TRACED(tc_timer_activate, (tc_timer *tm), (tm),
          TC_TRACE_SVC_TIMER_ACTIVATE, tm, 0, 0, (void)0)
TC_TRACED(tc_timer_deactivate, (tc_timer *tm), (tm),
          TC_TRACE_SVC_TIMER_DEACTIVATE, tm, 0, 0, (void)0)
TC_TRACED(tc_timer_change, (tc_timer *tm, uint32_t initial, uint32_t period), (tm, initial, period),
          TC_TRACE_SVC_TIMER_CHANGE, tm, initial, period, (void)0)
TC_TRACED(tc_timer_delete, (tc_timer *tm), (tm),
          TC_TRACE_SVC_TIMER_DELETE, tm, 0, 0, TC_TRACE_FORGET(tm))

#if TC_TIMER_STACK_SIZE < TC_PORT_STACK_MIN
#error "TC_TIMER_STACK_SIZE is below the port's TC_PORT_STACK_MIN"
#endif
#if TC_TIMER_HISR_PRIORITY > 2
#error "TC_TIMER_HISR_PRIORITY must be an HISR priority, 0..2"
#endif

#define TIMER_OF_TIMEOUT(to) TC_CONTAINER_OF(to, tc_timer, timeout)
#define TIMER_OF_DUE(n)      TC_CONTAINER_OF(n, tc_timer, due_node)
#define CONST_TIMER_OF_DUE(n) TC_CONST_CONTAINER_OF(n, tc_timer, due_node)

static tc_hisr timers_hisr;
#if TC_MPU_STACK_GUARD
/* TC_TIMER_STACK_SIZE usable bytes above the guard region, aligned so that no byte is lost. */
static uint8_t timers_stack[TC_PORT_STACK_GUARD + TC_TIMER_STACK_SIZE]
    __attribute__((aligned(TC_PORT_STACK_GUARD)));
#else
static uint8_t timers_stack[TC_TIMER_STACK_SIZE] __attribute__((aligned(TC_PORT_STACK_ALIGN)));
#endif

static inline bool timer_valid(const tc_timer *tm) { return tm != NULL && tm->magic == TC_MAGIC_TIMER; }

/* Timers are created and deleted where other objects are (thread, startup), and also by
 * timer callbacks, which manage timers (chain, re-arm or end their own); not by a LISR or
 * another HISR. */
static inline bool may_create_timers(void) { return !tc__in_handler() || tc__in_timer_callback(); }

/* In the tick interrupt, kernel locked. */
static void timer_expired(tc_timeout *to)
{
  tc_timer *tm = TIMER_OF_TIMEOUT(to);
  TC_TRACE_EVENT(TC_TRACE_EV_TIMER_EXPIRE, tm, tm->period, 0);
  if (tm->period != 0) tc__timeout_add(&tm->timeout, tm->period);
  tm->expirations++;
  if (tm->due++ == 0) {
    bool was_empty = tc__list_empty(&tc__k.timers_due);
    tc__list_push_back(&tc__k.timers_due, &tm->due_node);
    if (was_empty) tc__hisr_activate_locked(&timers_hisr);
  }
}

/* The system HISR: the callbacks of every expiry so far, in expiry order. */
static void timers_hisr_fn(void)
{
  unsigned s = tc__lock();
  tc_node *n;
  while ((n = tc__k.timers_due.head) != NULL) {
    tc_timer *tm = TIMER_OF_DUE(n);
    tc__list_remove(&tc__k.timers_due, n);
    if (--tm->due != 0) tc__list_push_back(&tc__k.timers_due, n); /* its next expiry, later */
    tm->callbacks++;
    void (*fn)(void *) = tm->fn;
    void *arg = tm->arg;
    tc__unlock(s);
    fn(arg); /* may deactivate, change or delete any timer, this one included */
    s = tc__lock();
  }
  tc__unlock(s);
}

static void disarm(tc_timer *tm)
{
  if (tm->timeout.linked) tc__timeout_remove(&tm->timeout);
  if (tm->due != 0) {
    tc__list_remove(&tc__k.timers_due, &tm->due_node);
    tm->due = 0;
  }
}

tc_status TC_BODY(tc_timer_create)(tc_timer *tm, const char *name, void (*fn)(void *arg), void *arg,
                          uint32_t initial, uint32_t period, unsigned options)
{
  TC_ISR_CHECK("tc_timer_create");
  TC_ARG_CHECK(tm != NULL && fn != NULL && initial != 0, TC_INVALID);
  TC_ARG_CHECK((options & ~TC_AUTO_ACTIVATE) == 0, TC_INVALID);
  TC_ARG_CHECK(may_create_timers(), TC_CALLER_ERROR);
#if TC_CHECKS
  unsigned s = tc__lock();
  bool created = tm->magic == TC_MAGIC_TIMER && tc__list_contains(&tc__k.timers, &tm->created_node);
  tc__unlock(s);
  if (created) return TC_INVALID;
#endif
  /* The first timer of a run brings the system HISR (its control block and stack are
   * static: they exist only when the application uses timers). The scheduler lock makes the
   * test and the creation one step against another thread creating a timer (tc_hisr_create
   * paints the stack: too long to mask interrupts); nothing else can reach the new HISR
   * before it exists, so its flag is set without the kernel lock. The creation cannot fail:
   * its arguments are the kernel's own, and the caller is a thread or start-up code (a timer
   * callback, the other caller allowed here, finds the HISR made). */
  tc_sched_lock();
  if (!tc__hisr_created(&timers_hisr)) {
    (void)tc_hisr_create(&timers_hisr, "timers", timers_hisr_fn, TC_TIMER_HISR_PRIORITY, timers_stack,
                         sizeof timers_stack);
    timers_hisr.ctx.flags |= TC_TF_SYSTEM; /* its runs are timer callbacks */
  }
  tc_sched_unlock();

  (void)memset(tm, 0, sizeof *tm); /* counters, links, not due (and not a timer yet) */
  tm->name = name;
  tm->fn = fn;
  tm->arg = arg;
  tm->initial = initial;
  tm->period = period;
  tm->timeout.expire = timer_expired;
  unsigned k = tc__lock();
  tm->magic = TC_MAGIC_TIMER;
  TC_TRACE_OBJECT(TC_TRACE_OBJ_TIMER, tm, name, 0);
  tc__list_push_back(&tc__k.timers, &tm->created_node);
  if ((options & TC_AUTO_ACTIVATE) != 0u) tc__timeout_add(&tm->timeout, initial);
  tc__unlock(k);
  return TC_OK;
}

tc_status TC_BODY(tc_timer_activate)(tc_timer *tm)
{
  TC_ISR_CHECK("tc_timer_activate");
  TC_ARG_CHECK(timer_valid(tm), TC_INVALID);
  unsigned s = tc__lock();
  tc_status st = TC_STATE_ERROR;
  if (!tm->timeout.linked) {
    tc__timeout_add(&tm->timeout, tm->initial);
    st = TC_OK;
  }
  tc__unlock(s);
  return st;
}

tc_status TC_BODY(tc_timer_deactivate)(tc_timer *tm)
{
  TC_ISR_CHECK("tc_timer_deactivate");
  TC_ARG_CHECK(timer_valid(tm), TC_INVALID);
  unsigned s = tc__lock();
  disarm(tm);
  tc__unlock(s);
  return TC_OK;
}

tc_status TC_BODY(tc_timer_change)(tc_timer *tm, uint32_t initial, uint32_t period)
{
  TC_ISR_CHECK("tc_timer_change");
  TC_ARG_CHECK(timer_valid(tm) && initial != 0, TC_INVALID);
  unsigned s = tc__lock();
  tc_status st = TC_STATE_ERROR;
  if (!tm->timeout.linked) {
    tm->initial = initial;
    tm->period = period;
    st = TC_OK;
  }
  tc__unlock(s);
  return st;
}

tc_status TC_BODY(tc_timer_delete)(tc_timer *tm)
{
  TC_ISR_CHECK("tc_timer_delete");
  TC_ARG_CHECK(timer_valid(tm), TC_INVALID);
  TC_ARG_CHECK(may_create_timers(), TC_CALLER_ERROR);
  unsigned s = tc__lock();
  disarm(tm);
  tm->magic = 0;
  tc__list_remove(&tc__k.timers, &tm->created_node);
  tc__unlock(s);
  return TC_OK;
}

tc_status tc_timer_info(const tc_timer *tm, tc_timer_info_t *out)
{
  TC_ISR_CHECK("tc_timer_info");
  TC_ARG_CHECK(timer_valid(tm) && out != NULL, TC_INVALID);
  unsigned s = tc__lock();
  out->name = tm->name;
  out->active = tm->timeout.linked;
  out->remaining = 0;
  if (tm->timeout.linked) {
    /* Its expiry tick is the sum of the deltas up to and including its own entry. */
    const tc_node *n = tc__k.timeouts.head;
    uint32_t sum = 0;
    for (;;) {
      const tc_timeout *to = TC_CONST_CONTAINER_OF(n, tc_timeout, node);
      sum += to->delta;
      if (to == &tm->timeout) break;
      n = n->next;
    }
    out->remaining = sum;
  }
  out->initial = tm->initial;
  out->period = tm->period;
  out->due = tm->due;
  out->expirations = tm->expirations;
  out->callbacks = tm->callbacks;
  tc__unlock(s);
  return TC_OK;
}

/* ---- invariants (tc_check) -------------------------------------------------------------- */

size_t tc__timer_linked(void)
{
  size_t linked = 0;
  const tc_node *n = tc__k.timers.head;
  if (n != NULL) {
    do {
      linked += TC_CONST_CONTAINER_OF(n, tc_timer, created_node)->timeout.linked;
      n = n->next;
    } while (n != tc__k.timers.head);
  }
  return linked;
}

const char *tc__timer_check(void)
{
  size_t owing = 0;
  const tc_node *n = tc__k.timers.head;
  if (n != NULL) {
    do {
      const tc_timer *tm = TC_CONST_CONTAINER_OF(n, tc_timer, created_node);
      if (tm->magic != TC_MAGIC_TIMER) return "timer list holds something that is not a timer";
      if (tm->fn == NULL || tm->initial == 0) return "timer without a callback or initial ticks";
      if (tm->timeout.expire != timer_expired) return "timer timeout with a foreign expiry function";
      if (tm->timeout.linked && !tc__list_contains(&tc__k.timeouts, &tm->timeout.node))
        return "active timer missing from the delta list";
      if ((tm->due != 0) != tc__list_contains(&tc__k.timers_due, &tm->due_node))
        return "timer due count disagrees with the due list";
      if (tm->callbacks + tm->due > tm->expirations) return "timer owes more callbacks than it expired";
      if (tm->due != 0u) owing++;
      n = n->next;
    } while (n != tc__k.timers.head);
  }
  size_t queued = 0;
  n = tc__k.timers_due.head;
  if (n != NULL) {
    do {
      const tc_timer *tm = CONST_TIMER_OF_DUE(n);
      if (tm->magic != TC_MAGIC_TIMER || tm->due == 0) return "due list holds a timer that owes nothing";
      if (n->next == NULL || n->next->prev != n) return "due list links disagree";
      if (++queued > owing) return "due list holds a timer twice, or a deleted one";
      n = n->next;
    } while (n != tc__k.timers_due.head);
  }
  /* queued == owing here: each owing timer is in the due list (checked above) and the walk
   * counted every node of it without passing owing. */
  if (queued != 0 && timers_hisr.ctx.state != TC_READY) return "timer callbacks due and the timers' HISR not activated";
  return NULL;
}
