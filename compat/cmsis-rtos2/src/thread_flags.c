/* SPDX-License-Identifier: MIT */
/*
 * CMSIS-RTOS2 thread flags: each CMSIS thread's own event group (tacet_os2.h), set by
 * anyone, cleared and waited on by the thread itself (event_flags.c has the operations).
 */
#include "os2.h"

/* From a handler above the kernel's mask the set is the kernel's to refuse (os2_flags_set):
 * what the layer does before it only reads. */
uint32_t osThreadFlagsSet(osThreadId_t thread_id, uint32_t flags)
{
  tc_os2_thread *t = os2_thread(thread_id);
  if (t == NULL || (t->flags & OS2_ENDED))
    return os2_refused("osThreadFlagsSet") ? osFlagsErrorISR : osFlagsErrorParameter;
  return os2_flags_set(&t->thread_flags, flags);
}

uint32_t osThreadFlagsClear(uint32_t flags)
{
  if (os2_refused("osThreadFlagsClear") || os2_in_isr()) return osFlagsErrorISR;
  tc_os2_thread *self = os2_self();
  if (self == NULL) return osFlagsErrorUnknown;
  return os2_flags_clear(&self->thread_flags, flags);
}

uint32_t osThreadFlagsGet(void)
{
  if (os2_refused("osThreadFlagsGet") || os2_in_isr()) return 0u;
  tc_os2_thread *self = os2_self();
  return self != NULL ? os2_event_flags(&self->thread_flags) : 0u;
}

uint32_t osThreadFlagsWait(uint32_t flags, uint32_t options, uint32_t timeout)
{
  tc_os2_thread *self = os2_running();
  if (self == NULL) {
    if (os2_refused("osThreadFlagsWait") || os2_in_isr()) return osFlagsErrorISR;
    return osFlagsErrorUnknown;
  }
  return os2_flags_wait(&self->thread_flags, flags, options, timeout);
}
