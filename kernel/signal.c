/* SPDX-License-Identifier: MIT */
/*
 * Signals (tacet/signal.h).
 *
 * Where a handler runs. Always in the target thread's own context, from one of three places:
 *   - tc_signal_send() itself, when a thread signals itself;
 *   - the port, when it resumes a thread with signals pending (tc__signal_deliver, see
 *     tacet/port.h): after a switch to it, when an interrupt returns to it, before its entry
 *     (a port that needs telling sees to->signals in TC_PORT_SWITCH, or is told by
 *     TC_PORT_SIGNAL_PENDING about every thread signalled by another);
 *   - the end of tc__thread_wait() (sched.c), when the thread's wait ends with signals
 *     pending or was ended by a signal.
 * To run the handler of a sleeping thread, or of one waiting in a service that can restart
 * (TC__WAIT_RESTARTABLE, kernel/internal.h), tc_signal_send() ends the wait with the internal
 * status TC__WAIT_SIGNALED; the thread becomes ready and runs the handler as soon as it gets
 * the CPU. Then tc__signal_wait_end() decides: a sleep continues until its original
 * deadline, a service starts over with the ticks left (the object may have changed while the
 * handler ran), unless the handler called tc_signal_abort_wait().
 *
 * The handler may itself wait and block; the interrupted service's wait outcome and wait
 * data (wait_status, wait_info) are saved around it so that the service still finds what
 * was handed to it. Handlers do not nest: t->signal_state marks a running handler, during
 * which signals only accumulate (no wake-up either) and are handled when it returns.
 */
#include "internal.h"
#include "tacet/signal.h"

/* Trace wrappers (TC_TRACE=1; nothing otherwise): each service below is recorded when it
 * returns (kernel/internal.h, TC_TRACED). */
TC_TRACED(tc_signal_handler_set, (tc_thread *t, void (*handler)(uint32_t signals)), (t, handler),
          TC_TRACE_SVC_SIGNAL_HANDLER_SET, t, 0, 0, (void)0)
TC_TRACED(tc_signal_send, (tc_thread *t, uint32_t signals), (t, signals),
          TC_TRACE_SVC_SIGNAL_SEND, t, signals, 0, (void)0)
TC_TRACED(tc_signal_abort_wait, (void), (),
          TC_TRACE_SVC_SIGNAL_ABORT_WAIT, 0, 0, 0, (void)0)

#define SIG_RUNNING     0x01u /* the handler is running */
#define SIG_INTERRUPTED 0x02u /* ... and it ran because a signal ended a wait */
#define SIG_ABORT       0x04u /* ... which tc_signal_abort_wait() asked to end for good */

/* An HISR's context has a magic of its own (TC_MAGIC_HISR_CTX): no flag test is needed. */
static inline bool thread_valid(const tc_thread *t) { return t != NULL && t->magic == TC_MAGIC_THREAD; }

static inline bool finished(const tc_thread *t) { return t->state == TC_COMPLETED || t->state == TC_TERMINATED; }

tc_status TC_BODY(tc_signal_handler_set)(tc_thread *t, void (*handler)(uint32_t signals))
{
  TC_ISR_CHECK("tc_signal_handler_set");
  TC_ARG_CHECK(thread_valid(t), TC_INVALID);
  unsigned s = tc__lock();
  tc_status st = TC_STATE_ERROR;
  if (!finished(t)) {
    t->signal_handler = handler;
    if (handler == NULL) t->signals = 0;
    st = TC_OK;
  }
  tc__unlock(s);
  return st;
}

tc_status TC_BODY(tc_signal_send)(tc_thread *t, uint32_t signals)
{
  TC_ISR_CHECK("tc_signal_send");
  TC_ARG_CHECK(thread_valid(t) && signals != 0, TC_INVALID);
  unsigned s = tc__lock();
  if (t->signal_handler == NULL || finished(t)) {
    tc__unlock(s);
    return TC_STATE_ERROR;
  }
  t->signals |= signals;
  if (t == tc__k.current && tc__in_thread()) {
    tc__unlock(s);
    tc__signal_deliver(); /* to oneself: before returning (at once unless in the handler) */
    return TC_OK;
  }
  /* Before t goes on: when it next gets the CPU, or when the interrupt handler that sends
   * returns to it. */
  TC_PORT_SIGNAL_PENDING(t);
  /* Sleeping, or waiting in a service that can restart: end the wait so that the handler
   * runs now. A thread already in its handler is left alone: no nesting. */
  if ((t->flags & TC_TF_SIGNAL_WAKE) && !(t->signal_state & SIG_RUNNING)) {
    tc__thread_wake(t, TC__WAIT_SIGNALED);
    tc__sched_dispatch();
  }
  tc__unlock(s);
  return TC_OK;
}

void tc__signal_deliver(void)
{
  tc_thread *t = tc__k.current;
  unsigned s = tc__lock();
  /* (An HISR's context never has signals: tc_signal_send() refuses it.) */
  if (t == NULL || t->signals == 0 || (t->signal_state & SIG_RUNNING)) {
    tc__unlock(s);
    return;
  }
  tc_status saved_status = t->wait_status;
  const uintptr_t saved_info[2] = {t->wait_info[0], t->wait_info[1]};
  t->signal_state = SIG_RUNNING | (saved_status == TC__WAIT_SIGNALED ? SIG_INTERRUPTED : 0u);
  uint32_t signals;
  while ((signals = t->signals) != 0 && t->signal_handler != NULL) {
    void (*handler)(uint32_t) = t->signal_handler;
    t->signals = 0;
    tc__unlock(s);
    handler(signals);
    s = tc__lock();
  }
  if ((t->signal_state & SIG_ABORT) != 0u) saved_status = TC_WAIT_ABORTED;
  t->wait_status = saved_status;
  t->wait_info[0] = saved_info[0];
  t->wait_info[1] = saved_info[1];
  t->signal_state = 0;
  tc__unlock(s);
}

tc_status tc__signal_wait_end(bool sleeping, uint32_t start, uint32_t *timeout)
{
  tc_thread *t = tc__k.current;
  tc__signal_deliver();
  unsigned s = tc__lock();
  tc_status st = t->wait_status;
  if (st == TC__WAIT_SIGNALED) {
    uint32_t elapsed = tc__k.tick - start;
    if (*timeout == TC_WAIT_FOREVER) {
      st = TC__WAIT_RESTART;
    } else if (elapsed >= *timeout) {
      st = sleeping ? TC_OK : TC_TIMEOUT; /* the deadline passed while the handler ran */
    } else {
      *timeout -= elapsed;
      st = TC__WAIT_RESTART;
    }
    /* No stale internal status for a later handler to mistake for an interrupted wait. */
    t->wait_status = st == TC__WAIT_RESTART ? TC_OK : st;
  }
  tc__unlock(s);
  return st;
}

bool tc__signal_wait_abort(tc_thread *t)
{
  if ((t->signal_state & SIG_RUNNING) != 0u) {
    if (!(t->signal_state & SIG_INTERRUPTED)) return false;
    t->signal_state |= SIG_ABORT; /* as if the handler had asked */
    return true;
  }
  if (t->wait_status != TC__WAIT_SIGNALED) return false;
  t->wait_status = TC_WAIT_ABORTED; /* woken, handler not begun (or done): ends the wait */
  return true;
}

tc_status TC_BODY(tc_signal_abort_wait)(void)
{
  TC_ISR_CHECK("tc_signal_abort_wait");
  unsigned s = tc__lock();
  tc_thread *t = tc__k.current;
  tc_status st = TC_OK;
  if (!tc__in_thread() || !(t->signal_state & SIG_RUNNING))
    st = TC_CALLER_ERROR;
  else if (!(t->signal_state & SIG_INTERRUPTED))
    st = TC_STATE_ERROR;
  else
    t->signal_state |= SIG_ABORT;
  tc__unlock(s);
  return st;
}

uint32_t tc_signal_pending(const tc_thread *t)
{
  if (!thread_valid(t)) return 0;
  unsigned s = tc__lock();
  uint32_t pending = t->signals;
  tc__unlock(s);
  return pending;
}
