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

/* Until tick `ticks` (modulo 2^32): a tick now or past, or more than 2^31 ticks ahead, is a
 * parameter error (a deadline that cannot be told from a past one). The tick is read and the
 * sleep begins under one kernel lock, as tc_thread_sleep() begins its own: a tick between
 * the two would wake the thread one tick late. */
osStatus_t osDelayUntil(uint32_t ticks)
{
  if (os2_refused("osDelayUntil") || os2_in_isr()) return osErrorISR;
  if (!tc__in_thread() || tc__k.lock_nesting != 0) return osError;
  unsigned k = os2_lock();
  uint32_t delay = ticks - tc__k.tick;
  if (delay == 0u || delay > 0x7FFFFFFFu) {
    os2_unlock(k);
    return osErrorParameter;
  }
  tc_status st = tc__thread_wait(NULL, TC_SLEEPING, delay, k);
  return st == TC_WAIT_ABORTED ? osOK : os2_status(st);
}
