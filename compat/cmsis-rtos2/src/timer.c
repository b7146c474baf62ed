/* SPDX-License-Identifier: MIT */
/*
 * CMSIS-RTOS2 timers on Tacet timers (tacet/timer.h). The callback runs in Tacet's timers'
 * HISR, ahead of every thread, not in a timer thread: it may call what a timer callback may
 * (no waiting; docs/cmsis-rtos2.md). A Tacet timer needs its first expiry when it is
 * created; osTimerStart() sets both before it activates it.
 */
#include "os2.h"

static tc_os2_timer *timer(osTimerId_t id)
{
  tc_os2_timer *tm = id;
  return tm != NULL && tm->magic == OS2_MAGIC_TIMER ? tm : NULL;
}

static void timer_fire(void *arg)
{
  tc_os2_timer *tm = arg;
  tm->func(tm->argument);
}

osTimerId_t osTimerNew(osTimerFunc_t func, osTimerType_t type, void *argument, const osTimerAttr_t *attr)
{
  if (os2_refused("osTimerNew") || os2_in_isr()) return NULL;
  if (func == NULL || (type != osTimerOnce && type != osTimerPeriodic) || os2.state == osKernelInactive)
    return NULL;
  uint8_t flags;
  tc_os2_timer *tm = OS2_CB_ALLOC(attr, sizeof *tm, &flags);
  if (tm == NULL) return NULL;
  tm->flags = flags;
  tm->periodic = type == osTimerPeriodic;
  tm->func = func;
  tm->argument = argument;
  if (tc_timer_create(&tm->timer, OS2_ATTR_NAME(attr), timer_fire, tm, 1u, 0u, 0u) != TC_OK) {
    os2_release(tm, flags, NULL);
    return NULL;
  }
  tm->magic = OS2_MAGIC_TIMER;
  return tm;
}

const char *osTimerGetName(osTimerId_t timer_id)
{
  if (os2_refused("osTimerGetName")) return NULL;
  tc_os2_timer *tm = timer(timer_id);
  return tm != NULL ? tm->timer.name : NULL;
}

osStatus_t osTimerStart(osTimerId_t timer_id, uint32_t ticks)
{
  if (os2_refused("osTimerStart") || os2_in_isr()) return osErrorISR;
  tc_os2_timer *tm = timer(timer_id);
  if (tm == NULL || ticks == 0u) return osErrorParameter;
  /* A running timer starts over from now (the specification's restart). */
  (void)tc_timer_deactivate(&tm->timer);
  tc_status st = tc_timer_change(&tm->timer, ticks, tm->periodic ? ticks : 0u);
  if (st == TC_OK) st = tc_timer_activate(&tm->timer);
  return os2_status(st);
}

osStatus_t osTimerStop(osTimerId_t timer_id)
{
  if (os2_refused("osTimerStop") || os2_in_isr()) return osErrorISR;
  tc_os2_timer *tm = timer(timer_id);
  if (tm == NULL) return osErrorParameter;
  tc_timer_info_t info;
  if (tc_timer_info(&tm->timer, &info) != TC_OK) return osErrorParameter;
  if (!info.active) return osErrorResource;
  return os2_status(tc_timer_deactivate(&tm->timer));
}

uint32_t osTimerIsRunning(osTimerId_t timer_id)
{
  if (os2_refused("osTimerIsRunning") || os2_in_isr()) return 0u;
  tc_os2_timer *tm = timer(timer_id);
  tc_timer_info_t info;
  if (tm == NULL || tc_timer_info(&tm->timer, &info) != TC_OK) return 0u;
  return info.active ? 1u : 0u;
}

osStatus_t osTimerDelete(osTimerId_t timer_id)
{
  if (os2_refused("osTimerDelete") || os2_in_isr()) return osErrorISR;
  tc_os2_timer *tm = timer(timer_id);
  if (tm == NULL) return osErrorParameter;
  tc_status st = tc_timer_delete(&tm->timer);
  if (st != TC_OK) return os2_status(st);
  tm->magic = 0;
  os2_release(tm, tm->flags, NULL);
  return osOK;
}
