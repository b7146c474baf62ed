/* SPDX-License-Identifier: MIT */
/*
 * CMSIS-RTOS2 kernel functions on Tacet, and the layer's shared helpers (status mapping,
 * control-block memory, the pool). docs/cmsis-rtos2.md says what each function maps onto.
 */
#include "os2.h"

os2_state os2;

/* The pool behind objects created without memory of their own (tacet_os2.h). */
static uint64_t heap_mem[(TC_OS2_HEAP_SIZE + 7u) / 8u];

/* Tacet's version in CMSIS's decimal form (mmnnnrrrr), and its identification string. */
#define OS2_API_VERSION    20020000u /* CMSIS-RTOS2 API 2.2.0 */
#define OS2_KERNEL_VERSION 10000u    /* Tacet 0.1.0 */
#define OS2_KERNEL_ID      "Tacet V0.1.0"

osStatus_t os2_status(tc_status st)
{
  switch (st) {
  case TC_OK:
    return osOK;
  case TC_TIMEOUT:
  case TC_WAIT_ABORTED: /* osThreadResume() ended the wait (thread.c) */
    return osErrorTimeout;
  case TC_NO_INSTANCE:
  case TC_FULL:
  case TC_DELETED:
  case TC_NOT_OWNER:
  case TC_STATE_ERROR:
    return osErrorResource;
  case TC_INVALID:
  case TC_PRIORITY_ERROR:
    return osErrorParameter;
  case TC_CALLER_ERROR:
    return os2_in_isr() ? osErrorISR : osError;
  }
  return osError;
}

osStatus_t os2_wait_status(tc_status st, uint32_t timeout)
{
  if (st == TC_CALLER_ERROR) {
    if (os2_above_mask()) return osErrorISR;
    if (os2_in_isr()) return timeout != 0u ? osErrorParameter : osErrorISR;
    return osError;
  }
  return os2_status(st);
}

void *os2_alloc(size_t size)
{
  void *p = NULL;
  if (tc_byte_alloc(&os2.heap, &p, size, TC_NO_WAIT) != TC_OK) return NULL;
  return p;
}

void os2_free(void *mem)
{
  if (mem != NULL) (void)tc_byte_free(mem);
}

void *os2_cb_alloc(void *cb_mem, uint32_t cb_size, size_t need, uint8_t *flags)
{
  *flags = 0;
  if (cb_mem == NULL) {
    if (cb_size != 0u) return NULL; /* a size without memory is a mistake, not a request */
    void *cb = os2_alloc(need);
    if (cb != NULL) {
      memset(cb, 0, need);
      *flags = OS2_CB_HEAP;
    }
    return cb;
  }
  if (((uintptr_t)cb_mem & (sizeof(void *) - 1u)) != 0u || cb_size < need) return NULL;
  memset(cb_mem, 0, need);
  return cb_mem;
}

bool os2_data_alloc(void **mem, size_t need, uint8_t *flags)
{
  if (*mem != NULL) return true;
  *mem = os2_alloc(need);
  if (*mem == NULL) return false;
  *flags |= OS2_MEM_HEAP;
  return true;
}

void os2_release(void *cb, uint8_t flags, void *mem)
{
  if (flags & OS2_MEM_HEAP) os2_free(mem);
  if (flags & OS2_CB_HEAP) os2_free(cb);
}

void os2_strlcpy(char *dst, const char *src, size_t size)
{
  size_t n = strlen(src);
  if (n >= size) n = size - 1u;
  memcpy(dst, src, n);
  dst[n] = '\0';
}

/* ---- kernel ------------------------------------------------------------------------------ */

osStatus_t osKernelInitialize(void)
{
  if (os2_refused("osKernelInitialize")) return osErrorISR;
  if (os2_in_isr()) return osErrorISR;
  /* Once per run: the kernel is reset only while it is not running. */
  if (os2.state != osKernelInactive) return osError;
  tc_kernel_init();
  memset(&os2, 0, sizeof os2);
  if (tc_byte_pool_create(&os2.heap, "cmsis-rtos2", heap_mem, sizeof heap_mem) != TC_OK) return osError;
  os2.state = osKernelReady;
  return osOK;
}

osStatus_t osKernelGetInfo(osVersion_t *version, char *id_buf, uint32_t id_size)
{
  if (version != NULL) {
    version->api = OS2_API_VERSION;
    version->kernel = OS2_KERNEL_VERSION;
  }
  if (id_buf != NULL && id_size != 0u) os2_strlcpy(id_buf, OS2_KERNEL_ID, id_size);
  return osOK;
}

osKernelState_t osKernelGetState(void)
{
  if (os2.state != osKernelRunning) return os2.state;
  if (os2.suspended) return osKernelSuspended;
  return os2.locked ? osKernelLocked : osKernelRunning;
}

osStatus_t osKernelStart(void)
{
  if (os2_refused("osKernelStart")) return osErrorISR;
  if (os2_in_isr()) return osErrorISR;
  if (os2.state != osKernelReady) return osError;
  os2.state = osKernelRunning;
  /* On hardware this does not return. The sim port (and tc_cm_stop on Cortex-M) ends the run
   * and returns here: the kernel is then inactive, ready for osKernelInitialize(). */
  (void)tc_kernel_start();
  os2.state = osKernelInactive;
  os2.locked = os2.suspended = false;
  return osOK;
}

int32_t osKernelLock(void)
{
  if (os2_refused("osKernelLock")) return (int32_t)osErrorISR;
  if (os2_in_isr()) return (int32_t)osErrorISR;
  if (os2.state != osKernelRunning || os2.suspended) return (int32_t)osError;
  if (os2.locked) return 1;
  tc_sched_lock();
  os2.locked = true;
  return 0;
}

int32_t osKernelUnlock(void)
{
  if (os2_refused("osKernelUnlock")) return (int32_t)osErrorISR;
  if (os2_in_isr()) return (int32_t)osErrorISR;
  if (os2.state != osKernelRunning || os2.suspended) return (int32_t)osError;
  if (!os2.locked) return 0;
  os2.locked = false;
  tc_sched_unlock();
  return 1;
}

int32_t osKernelRestoreLock(int32_t lock)
{
  if (os2_refused("osKernelRestoreLock")) return (int32_t)osErrorISR;
  if (os2_in_isr()) return (int32_t)osErrorISR;
  if (os2.state != osKernelRunning || os2.suspended) return (int32_t)osError;
  switch (lock) {
  case 1:
    if (!os2.locked) {
      tc_sched_lock();
      os2.locked = true;
    }
    return 1;
  case 0:
    if (os2.locked) {
      os2.locked = false;
      tc_sched_unlock();
    }
    return 0;
  default:
    return (int32_t)osError;
  }
}

/* Tickless operation driven by the application (CMSIS's idle loop): suspend stops the
 * scheduler and says how long nothing is due; resume accounts the ticks slept. Tacet's tick
 * keeps running meanwhile (its ports already stop it in idle by themselves), so the ticks it
 * counted during the suspension are part of `sleep_ticks`, and resume announces the rest. */
uint32_t osKernelSuspend(void)
{
  if (os2_refused("osKernelSuspend")) return 0u;
  if (os2_in_isr()) return 0u;
  if (os2.state != osKernelRunning || os2.suspended || os2.locked) return 0u;
  tc_sched_lock();
  os2.suspended = true;
  unsigned k = os2_lock();
  os2.suspend_tick = tc__k.tick;
  uint32_t left = tc__time_ticks_to_expiry();
  os2_unlock(k);
  return left == UINT32_MAX ? osWaitForever : left;
}

void osKernelResume(uint32_t sleep_ticks)
{
  if (os2_refused("osKernelResume")) return;
  if (os2_in_isr() || !os2.suspended) return;
  uint32_t counted = tc_tick_get() - os2.suspend_tick;
  /* The ticks slept that the tick interrupt did not count, announced as it would have: the
   * caller plays the tick interrupt, inside the handler bracket, one tick at a time so that
   * every timeout and timer due in them expires in order. */
  for (uint32_t n = counted; n < sleep_ticks; n++) {
    tc__isr_enter();
    tc__tick_announce();
    tc__isr_exit();
  }
  os2.suspended = false;
  tc_sched_unlock();
}

uint32_t osKernelGetTickCount(void) { return tc_tick_get(); }

uint32_t osKernelGetTickFreq(void) { return TC_TICK_HZ; }

/* The port's free-running clock (tc_cycles): a board timer on Cortex-M, virtual cycles on the
 * sim port; its low 32 bits, as CMSIS's counter wraps. */
uint32_t osKernelGetSysTimerCount(void) { return (uint32_t)tc_cycles(); }

uint32_t osKernelGetSysTimerFreq(void) { return tc_cycles_hz(); }
