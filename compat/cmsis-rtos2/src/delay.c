/* SPDX-License-Identifier: MIT */
/* CMSIS-RTOS2 generic wait functions: Tacet's sleep. */
#include "os2.h"

osStatus_t osDelay(uint32_t ticks)
{
  if (os2_refused("osDelay") || os2_in_isr()) return osErrorISR;
  if (ticks == 0u) return osOK;
  /* osThreadResume() ends a delay early: a delay that ended is osOK, however it ended. */
  tc_status st = tc_thread_sleep(ticks);
  return st == TC_WAIT_ABORTED ? osOK : os2_status(st);
}

/* osDelayUntil is the sleep tc_thread_sleep() begins, not a call of it: the event trace
 * records it as that service, its ticks those to the deadline, as the service's wrapper
 * records its own (kernel/internal.h, TC_TRACED). */
#if TC_TRACE
#define OS2_TRACE_SLEEP(ticks, status) TC_TRACE_CALL(TC_TRACE_SVC_THREAD_SLEEP, 0, ticks, 0, status)
#else
#define OS2_TRACE_SLEEP(ticks, status) ((void)0)
#endif

/* Until tick `ticks` (modulo 2^32): a tick now or past, or more than 2^31 ticks ahead, is a
 * parameter error (a deadline that cannot be told from a past one). The tick is read and the
 * sleep begins under one kernel lock, as tc_thread_sleep() begins its own: a tick between
 * the two would wake the thread one tick late. */
osStatus_t osDelayUntil(uint32_t ticks)
{
  if (os2_refused("osDelayUntil") || os2_in_isr()) return osErrorISR;
  if (!tc__in_thread() || tc__k.lock_nesting != 0) {
    OS2_TRACE_SLEEP(ticks - tc__k.tick, TC_CALLER_ERROR); /* as tc_thread_sleep refuses it */
    return osError;
  }
  unsigned k = os2_lock();
  uint32_t delay = ticks - tc__k.tick;
  if (delay == 0u || delay > 0x7FFFFFFFu) {
    os2_unlock(k);
    return osErrorParameter;
  }
  tc_status st = tc__thread_wait(NULL, TC_SLEEPING, delay, k);
  OS2_TRACE_SLEEP(delay, st);
  return st == TC_WAIT_ABORTED ? osOK : os2_status(st);
}
