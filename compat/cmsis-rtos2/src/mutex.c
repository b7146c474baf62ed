/* SPDX-License-Identifier: MIT */
/*
 * CMSIS-RTOS2 mutexes on Tacet mutexes (tacet/mutex.h). Tacet's mutexes are recursive; a
 * mutex created without osMutexRecursive refuses its owner's second acquire here. Every
 * Tacet mutex is robust: the kernel releases what a thread owns when it ends, whether or not
 * osMutexRobust was asked for (docs/cmsis-rtos2.md).
 */
#include "os2.h"

static tc_os2_mutex *mutex(osMutexId_t id)
{
  tc_os2_mutex *m = id;
  return m != NULL && m->magic == OS2_MAGIC_MUTEX ? m : NULL;
}

osMutexId_t osMutexNew(const osMutexAttr_t *attr)
{
  if (os2_refused("osMutexNew") || os2_in_isr() || !os2_may_create()) return NULL;
  if (os2.state == osKernelInactive) return NULL;
  uint8_t flags;
  tc_os2_mutex *m = OS2_CB_ALLOC(attr, sizeof *m, &flags);
  if (m == NULL) return NULL;
  m->flags = flags;
  m->attr_bits = attr != NULL ? attr->attr_bits : 0u;
  unsigned options = (m->attr_bits & osMutexPrioInherit) ? TC_INHERIT : 0u;
  if (tc_mutex_create(&m->mutex, OS2_ATTR_NAME(attr), options) != TC_OK) {
    os2_release(m, flags, NULL);
    return NULL;
  }
  m->magic = OS2_MAGIC_MUTEX;
  return m;
}

const char *osMutexGetName(osMutexId_t mutex_id)
{
  if (os2_refused("osMutexGetName")) return NULL;
  tc_os2_mutex *m = mutex(mutex_id);
  return m != NULL ? m->mutex.name : NULL;
}

osStatus_t osMutexAcquire(osMutexId_t mutex_id, uint32_t timeout)
{
  if (os2_refused("osMutexAcquire") || os2_in_isr()) return osErrorISR;
  tc_os2_mutex *m = mutex(mutex_id);
  if (m == NULL) return osErrorParameter;
  /* Only the owner itself can make the owner this thread: no race in reading it here. */
  if ((m->attr_bits & osMutexRecursive) == 0u && m->mutex.owner != NULL && m->mutex.owner == tc_thread_self())
    return osErrorResource;
  return os2_status(tc_mutex_lock(&m->mutex, timeout));
}

osStatus_t osMutexRelease(osMutexId_t mutex_id)
{
  if (os2_refused("osMutexRelease") || os2_in_isr()) return osErrorISR;
  tc_os2_mutex *m = mutex(mutex_id);
  if (m == NULL) return osErrorParameter;
  return os2_status(tc_mutex_unlock(&m->mutex));
}

osThreadId_t osMutexGetOwner(osMutexId_t mutex_id)
{
  if (os2_refused("osMutexGetOwner") || os2_in_isr()) return NULL;
  tc_os2_mutex *m = mutex(mutex_id);
  if (m == NULL) return NULL;
  unsigned k = os2_lock();
  tc_thread *owner = m->mutex.owner;
  os2_unlock(k);
  return owner;
}

osStatus_t osMutexDelete(osMutexId_t mutex_id)
{
  if (os2_refused("osMutexDelete") || os2_in_isr()) return osErrorISR;
  tc_os2_mutex *m = mutex(mutex_id);
  if (m == NULL) return osErrorParameter;
  tc_status st = tc_mutex_delete(&m->mutex);
  if (st != TC_OK) return os2_status(st);
  m->magic = 0;
  os2_release(m, m->flags, NULL);
  return osOK;
}
