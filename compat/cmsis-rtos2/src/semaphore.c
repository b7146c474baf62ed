/* SPDX-License-Identifier: MIT */
/* CMSIS-RTOS2 semaphores on Tacet semaphores (tacet/sem.h). */
#include "os2.h"

static tc_os2_semaphore *semaphore(osSemaphoreId_t id)
{
  tc_os2_semaphore *s = id;
  return s != NULL && s->magic == OS2_MAGIC_SEM ? s : NULL;
}

osSemaphoreId_t osSemaphoreNew(uint32_t max_count, uint32_t initial_count, const osSemaphoreAttr_t *attr)
{
  if (os2_refused("osSemaphoreNew") || os2_in_isr() || !os2_may_create()) return NULL;
  if (os2.state == osKernelInactive || max_count == 0u || initial_count > max_count) return NULL;
  uint8_t flags;
  tc_os2_semaphore *s = OS2_CB_ALLOC(attr, sizeof *s, &flags);
  if (s == NULL) return NULL;
  s->flags = flags;
  if (tc_sem_create(&s->sem, OS2_ATTR_NAME(attr), initial_count, max_count) != TC_OK) {
    os2_release(s, flags, NULL);
    return NULL;
  }
  s->magic = OS2_MAGIC_SEM;
  return s;
}

const char *osSemaphoreGetName(osSemaphoreId_t semaphore_id)
{
  if (os2_refused("osSemaphoreGetName")) return NULL;
  tc_os2_semaphore *s = semaphore(semaphore_id);
  return s != NULL ? s->sem.name : NULL;
}

/* An id is the address of the control block's tc_sem (os2.h, OS2_OWN_CHECKS). */
_Static_assert(offsetof(tc_os2_semaphore, sem) == 0, "a semaphore's id is its tc_sem");

osStatus_t osSemaphoreAcquire(osSemaphoreId_t semaphore_id, uint32_t timeout)
{
  if (OS2_OWN_CHECKS && (semaphore(semaphore_id) == NULL || (timeout != 0u && os2_in_isr())))
    return osErrorParameter;
  tc_status st = tc_sem_take(semaphore_id, timeout);
  return __builtin_expect(st == TC_OK, 1) ? osOK : os2_wait_status(st, timeout);
}

osStatus_t osSemaphoreRelease(osSemaphoreId_t semaphore_id)
{
  if (OS2_OWN_CHECKS && semaphore(semaphore_id) == NULL) return osErrorParameter;
  tc_status st = tc_sem_give(semaphore_id);
  return __builtin_expect(st == TC_OK, 1) ? osOK : os2_status(st);
}

uint32_t osSemaphoreGetCount(osSemaphoreId_t semaphore_id)
{
  if (os2_refused("osSemaphoreGetCount")) return 0u;
  tc_os2_semaphore *s = semaphore(semaphore_id);
  if (s == NULL) return 0u;
  unsigned k = os2_lock();
  uint32_t n = s->sem.count;
  os2_unlock(k);
  return n;
}

osStatus_t osSemaphoreDelete(osSemaphoreId_t semaphore_id)
{
  if (os2_refused("osSemaphoreDelete") || os2_in_isr()) return osErrorISR;
  tc_os2_semaphore *s = semaphore(semaphore_id);
  if (s == NULL) return osErrorParameter;
  tc_status st = tc_sem_delete(&s->sem);
  if (st != TC_OK) return os2_status(st);
  s->magic = 0;
  os2_release(s, s->flags, NULL);
  return osOK;
}
