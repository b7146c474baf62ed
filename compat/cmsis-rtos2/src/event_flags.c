/* SPDX-License-Identifier: MIT */
/*
 * CMSIS-RTOS2 event flags on Tacet event groups (tacet/event.h), and the flag operations that
 * thread flags share (thread_flags.c): a thread's flags are an event group of its own.
 *
 * Exact results. osEventFlagsSet() returns the flags after the set and after the waiters it
 * released cleared theirs; osEventFlagsClear() the flags before the clear. Each pairs its
 * service with a read of the flags under the kernel lock, and a thread also holds the
 * scheduler lock across the pair, so that a waiter the set releases cannot run in between.
 */
#include "os2.h"

uint32_t os2_flags_set(tc_event *e, uint32_t flags)
{
  if ((flags & osFlagsError) != 0u) return osFlagsErrorParameter;
  bool thread = tc__in_thread();
  if (thread) tc_sched_lock();
  unsigned k = os2_lock();
  tc_status st = tc_event_set(e, flags);
  uint32_t now = e->flags;
  os2_unlock(k);
  if (thread) tc_sched_unlock();
  if (st != TC_OK) return st == TC_CALLER_ERROR ? osFlagsErrorISR : osFlagsErrorParameter;
  return now;
}

uint32_t os2_flags_clear(tc_event *e, uint32_t flags)
{
  if ((flags & osFlagsError) != 0u) return osFlagsErrorParameter;
  unsigned k = os2_lock();
  uint32_t before = e->flags;
  tc_status st = tc_event_clear(e, flags); /* releases no one: no switch inside the lock */
  os2_unlock(k);
  if (st != TC_OK) return st == TC_CALLER_ERROR ? osFlagsErrorISR : osFlagsErrorParameter;
  return before;
}

uint32_t os2_flags_wait(tc_event *e, uint32_t flags, uint32_t options, uint32_t timeout)
{
  if ((flags & osFlagsError) != 0u || (options & ~(osFlagsWaitAll | osFlagsNoClear)) != 0u)
    return osFlagsErrorParameter;
  unsigned mode = (options & osFlagsWaitAll) ? TC_EVENT_ALL : TC_EVENT_ANY;
  if ((options & osFlagsNoClear) == 0u) mode |= TC_EVENT_CLEAR;
  uint32_t actual = 0;
  switch (tc_event_wait(e, flags, mode, &actual, timeout)) {
  case TC_OK:
    return actual;
  case TC_NO_INSTANCE:
    return osFlagsErrorResource;
  case TC_TIMEOUT:
  case TC_WAIT_ABORTED:
    return osFlagsErrorTimeout;
  case TC_DELETED:
    return osFlagsErrorResource;
  case TC_CALLER_ERROR:
    return os2_in_isr() ? osFlagsErrorISR : osFlagsErrorUnknown;
  default:
    return osFlagsErrorParameter;
  }
}

static tc_os2_event_flags *event_flags(osEventFlagsId_t id)
{
  tc_os2_event_flags *ef = id;
  return ef != NULL && ef->magic == OS2_MAGIC_EVENT ? ef : NULL;
}

osEventFlagsId_t osEventFlagsNew(const osEventFlagsAttr_t *attr)
{
  if (os2_refused("osEventFlagsNew") || os2_in_isr() || !os2_may_create()) return NULL;
  if (os2.state == osKernelInactive) return NULL;
  uint8_t flags;
  tc_os2_event_flags *ef = OS2_CB_ALLOC(attr, sizeof *ef, &flags);
  if (ef == NULL) return NULL;
  ef->flags = flags;
  if (tc_event_create(&ef->event, OS2_ATTR_NAME(attr)) != TC_OK) {
    os2_release(ef, flags, NULL);
    return NULL;
  }
  ef->magic = OS2_MAGIC_EVENT;
  return ef;
}

const char *osEventFlagsGetName(osEventFlagsId_t ef_id)
{
  if (os2_refused("osEventFlagsGetName")) return NULL;
  tc_os2_event_flags *ef = event_flags(ef_id);
  return ef != NULL ? ef->event.name : NULL;
}

uint32_t osEventFlagsSet(osEventFlagsId_t ef_id, uint32_t flags)
{
  if (os2_refused("osEventFlagsSet")) return osFlagsErrorISR;
  tc_os2_event_flags *ef = event_flags(ef_id);
  if (ef == NULL) return osFlagsErrorParameter;
  return os2_flags_set(&ef->event, flags);
}

uint32_t osEventFlagsClear(osEventFlagsId_t ef_id, uint32_t flags)
{
  if (os2_refused("osEventFlagsClear")) return osFlagsErrorISR;
  tc_os2_event_flags *ef = event_flags(ef_id);
  if (ef == NULL) return osFlagsErrorParameter;
  return os2_flags_clear(&ef->event, flags);
}

uint32_t osEventFlagsGet(osEventFlagsId_t ef_id)
{
  if (os2_refused("osEventFlagsGet")) return 0u;
  tc_os2_event_flags *ef = event_flags(ef_id);
  return ef != NULL ? os2_event_flags(&ef->event) : 0u;
}

uint32_t osEventFlagsWait(osEventFlagsId_t ef_id, uint32_t flags, uint32_t options, uint32_t timeout)
{
  if (os2_refused("osEventFlagsWait")) return osFlagsErrorISR;
  tc_os2_event_flags *ef = event_flags(ef_id);
  if (ef == NULL) return osFlagsErrorParameter;
  if (timeout != 0u && os2_in_isr()) return osFlagsErrorParameter;
  return os2_flags_wait(&ef->event, flags, options, timeout);
}

osStatus_t osEventFlagsDelete(osEventFlagsId_t ef_id)
{
  if (os2_refused("osEventFlagsDelete") || os2_in_isr()) return osErrorISR;
  tc_os2_event_flags *ef = event_flags(ef_id);
  if (ef == NULL) return osErrorParameter;
  tc_status st = tc_event_delete(&ef->event);
  if (st != TC_OK) return os2_status(st);
  ef->magic = 0;
  os2_release(ef, ef->flags, NULL);
  return osOK;
}
