/* SPDX-License-Identifier: MIT */
/*
 * The CMSIS-RTOS2 layer's private declarations: its state, the checks every function starts
 * with, the status mapping and the control-block helpers shared by the object files.
 *
 * The layer is part of Tacet and builds against the kernel's private header (kernel/
 * internal.h) for three things the public API does not say: whether the caller is an
 * interrupt handler (CMSIS answers osErrorISR where Tacet's services would answer
 * TC_CALLER_ERROR for other reasons too), the refusal of a handler above the kernel's mask
 * (tacet/kernel.h), and reading an object's count or flags with the kernel lock held, so
 * that a Get function's answer is exact when it returns. It calls the kernel only through
 * its services: a CMSIS call is a Tacet call, checked, traced and counted as one.
 */
#ifndef TACET_OS2_PRIVATE_H
#define TACET_OS2_PRIVATE_H

#include <string.h>

#include "cmsis_os2.h"
#include "internal.h"
#include "tacet_os2.h"

/* Control-block magic values (the layer's own, beside the Tacet object's). */
#define OS2_MAGIC_THREAD 0x4f325468u /* "O2Th" */
#define OS2_MAGIC_TIMER  0x4f32546du /* "O2Tm" */
#define OS2_MAGIC_EVENT  0x4f324566u /* "O2Ef" */
#define OS2_MAGIC_MUTEX  0x4f324d78u /* "O2Mx" */
#define OS2_MAGIC_SEM    0x4f325365u /* "O2Se" */
#define OS2_MAGIC_POOL   0x4f324d70u /* "O2Mp" */
#define OS2_MAGIC_QUEUE  0x4f324d71u /* "O2Mq" */

/* Control-block flags (each type's `flags`). */
#define OS2_CB_HEAP   0x01u /* the control block came from the layer's pool */
#define OS2_MEM_HEAP  0x02u /* so did the stack or the data memory */
#define OS2_JOINABLE  0x04u /* thread: osThreadJoinable */
#define OS2_ENDED     0x08u /* thread: returned, exited or terminated; its books closed */

typedef struct {
  osKernelState_t state; /* inactive, ready, running; locked and suspended are derived */
  bool locked;           /* osKernelLock() holds Tacet's scheduler lock (once) */
  bool suspended;        /* osKernelSuspend(): the lock is held and the tick is not counted */
  uint32_t suspend_tick; /* tc_tick_get() at osKernelSuspend() */
  tc_byte_pool heap;     /* memory of objects created without their own */
  tc_os2_thread *threads; /* every thread osThreadNew() made and no one has removed yet */
} os2_state;

extern os2_state os2;

/* True in an interrupt handler (not a thread, HISR or timer callback): where CMSIS answers
 * osErrorISR for the functions it reserves to threads. */
static inline bool os2_in_isr(void) { return tc__in_isr(); }

/* A handler above the kernel's mask must not touch the kernel (tacet/kernel.h): with
 * TC_CHECKS the functions that read or change state without a Tacet service refuse it the
 * way the services do (the hook, then the error), before they take the lock. */
#if TC_CHECKS && defined(TC_PORT_IN_UNMASKED_ISR)
static inline bool os2_refused(const char *function)
{
  if (__builtin_expect(TC_PORT_IN_UNMASKED_ISR(), 0)) {
    (void)tc__isr_refuse(function);
    return true;
  }
  return false;
}
/* The same test without the hook: for a status after a service that refused (and called it). */
static inline bool os2_above_mask(void) { return TC_PORT_IN_UNMASKED_ISR(); }
#else
static inline bool os2_refused(const char *function)
{
  (void)function;
  return false;
}
static inline bool os2_above_mask(void) { return false; }
#endif

/* A Tacet status as the CMSIS status a function of that object returns. */
osStatus_t os2_status(tc_status st);
/* The same for a failed call that may wait (`timeout` not 0): a refusal of the context is
 * osErrorParameter from a handler (CMSIS: a handler's wait has timeout 0), osErrorISR above
 * the kernel's mask, osError elsewhere (a thread holding the lock, a timer callback). */
osStatus_t os2_wait_status(tc_status st, uint32_t timeout) __attribute__((cold));

/* The hot functions (semaphores, memory pools, message queues, yield, suspend and resume,
 * thread flags) call their Tacet service first and look at the context and the id only when
 * it fails: with TC_CHECKS the service checks both (the Tacet object first in each control
 * block, a CMSIS id is the address of one), so that a call costs the service and a few
 * instructions. Without the kernel's checks the layer makes its own before the call
 * (OS2_OWN_CHECKS). */
#define OS2_OWN_CHECKS (!TC_CHECKS)

/* The control block of a new object: the caller's (cb_mem, at least `need` bytes and
 * aligned for pointers) or the pool's (cb_mem NULL and cb_size 0). NULL when the attributes
 * are wrong or the pool is out of memory; *flags gets OS2_CB_HEAP for the pool's. */
void *os2_cb_alloc(void *cb_mem, uint32_t cb_size, size_t need, uint8_t *flags);
/* os2_cb_alloc with an object's attributes (which may be NULL). */
#define OS2_CB_ALLOC(attr, need, flags) \
  os2_cb_alloc((attr) != NULL ? (attr)->cb_mem : NULL, (attr) != NULL ? (attr)->cb_size : 0u, (need), (flags))
/* The data memory (stack, blocks, slots) of a new object: the caller's, *mem, or when it gave
 * none the pool's, with OS2_MEM_HEAP added to *flags. False when the pool has none left. */
bool os2_data_alloc(void **mem, size_t need, uint8_t *flags);
/* Memory from the layer's pool (8-byte aligned), NULL when there is none; and back. */
void *os2_alloc(size_t size);
void os2_free(void *mem);
/* Give back what os2_cb_alloc and os2_alloc gave for an object being deleted. */
void os2_release(void *cb, uint8_t flags, void *mem);

/* The calling thread may create and delete objects: a thread, or startup before the kernel
 * runs (not a handler, HISR or timer callback). */
static inline bool os2_may_create(void) { return !tc__in_handler(); }

/* Every CMSIS thread's entry (thread.c): what tells a thread of the layer's. */
void os2_thread_entry(void *arg);

/* The thread of an id: NULL unless it is a thread of the layer's that still exists (a
 * detached thread that ended is gone, as in the specification). */
static inline tc_os2_thread *os2_thread(osThreadId_t id)
{
  tc_os2_thread *t = id;
  if (t == NULL || t->thread.entry != os2_thread_entry || t->thread.arg != t || t->magic != OS2_MAGIC_THREAD)
    return NULL;
  if ((t->flags & (OS2_ENDED | OS2_JOINABLE)) == OS2_ENDED) return NULL; /* detached and gone */
  return t;
}

/* The calling thread when it is a thread of the layer's and the caller is not an interrupt
 * handler; NULL otherwise (os2_self() without tc_thread_self()'s call). */
static inline tc_os2_thread *os2_running(void)
{
  tc_thread *t = tc__k.current;
  if (!tc__k.started || os2_in_isr() || t == NULL || t->entry != os2_thread_entry) return NULL;
  return (tc_os2_thread *)(void *)t;
}

/* An attribute's name, or NULL without attributes. */
#define OS2_ATTR_NAME(attr) ((attr) != NULL ? (attr)->name : NULL)

/* The calling thread as one of the layer's (NULL in a handler, or a Tacet-only thread). */
tc_os2_thread *os2_self(void);
/* Remove detached threads that have ended (their memory back to the pool). Thread context. */
void os2_reap(void);

/* Read-modify sequences whose result must be exact when the function returns: the lock
 * masks every interrupt that may call the kernel (the sections are a few loads and stores). */
static inline unsigned os2_lock(void) { return tc__lock(); }
static inline void os2_unlock(unsigned k) { tc__unlock(k); }
/* After a section that made no thread ready (tc__unlock_quiet). */
static inline void os2_unlock_quiet(unsigned k) { tc__unlock_quiet(k); }

/* The flags an event group holds now (tc_event_wait with TC_NO_WAIT would record a wait in
 * the trace; this is a read). */
static inline uint32_t os2_event_flags(const tc_event *e)
{
  unsigned k = os2_lock();
  uint32_t f = e->flags;
  os2_unlock(k);
  return f;
}

/* Flag functions shared by thread flags and event flags (event_flags.c). */
uint32_t os2_flags_set(tc_event *e, uint32_t flags);
uint32_t os2_flags_clear(tc_event *e, uint32_t flags);
uint32_t os2_flags_wait(tc_event *e, uint32_t flags, uint32_t options, uint32_t timeout);

/* Copy a C string into a buffer of `size` bytes, always terminated (size > 0). */
void os2_strlcpy(char *dst, const char *src, size_t size);

#endif /* TACET_OS2_PRIVATE_H */
