/* SPDX-License-Identifier: MIT */
/*
 * CMSIS-RTOS2 threads on Tacet threads.
 *
 * A CMSIS thread is a tc_thread whose entry is os2_thread_entry() with the control block as its
 * argument, so that an id is recognised in O(1) from the Tacet thread alone (entry, argument
 * and the layer's magic agree). Its thread flags are an event group of its own
 * (thread_flags.c), and `ended`, a semaphore given once when the thread ends, is what
 * osThreadJoin() waits on.
 *
 * Ending. A thread ends by returning, by osThreadExit() or by osThreadTerminate(). The layer
 * closes its books first (OS2_ENDED, `ended` given), then the Tacet thread completes or is
 * terminated. A thread that closed its own books may be preempted before it has completed;
 * whoever removes it (the joiner, or the reaper of a detached thread) terminates it first,
 * which changes nothing for a thread that has already completed. A detached thread that
 * ended is removed, its memory returned to the pool, by the next osThreadNew() (or join,
 * detach, enumerate) -- not by itself: it still runs on that stack.
 */
#include "os2.h"

tc_os2_thread *os2_self(void) { return os2_running(); }

static void list_remove(tc_os2_thread *t)
{
  for (tc_os2_thread **p = &os2.threads; *p != NULL; p = &(*p)->next) {
    if (*p == t) {
      *p = t->next;
      return;
    }
  }
}

/* Remove an ended thread from the kernel and give its memory back. Thread context; `t` is
 * not the caller. */
static void thread_remove(tc_os2_thread *t)
{
  (void)tc_thread_terminate(&t->thread); /* it may have closed its books and been preempted */
  (void)tc_thread_delete(&t->thread);
  (void)tc_event_delete(&t->thread_flags);
  (void)tc_sem_delete(&t->ended);
  t->magic = 0;
  list_remove(t);
  os2_release(t, t->flags, t->stack_mem);
}

void os2_reap(void)
{
  tc_os2_thread *self = os2_self();
  tc_os2_thread *t = os2.threads;
  while (t != NULL) {
    tc_os2_thread *next = t->next;
    if ((t->flags & (OS2_ENDED | OS2_JOINABLE)) == OS2_ENDED && t != self) thread_remove(t);
    t = next;
  }
}

/* The thread's books closed: ended, and its joiner (if any) released. Once per thread. */
static void thread_close(tc_os2_thread *t)
{
  unsigned k = os2_lock();
  bool first = (t->flags & OS2_ENDED) == 0u;
  t->flags |= OS2_ENDED;
  os2_unlock(k);
  if (first) (void)tc_sem_give(&t->ended);
}

void os2_thread_entry(void *arg)
{
  tc_os2_thread *t = arg;
  t->func(t->argument);
  thread_close(t);
  /* Returning completes the Tacet thread. */
}

osThreadId_t osThreadNew(osThreadFunc_t func, void *argument, const osThreadAttr_t *attr)
{
  if (os2_refused("osThreadNew") || os2_in_isr() || !os2_may_create()) return NULL;
  if (func == NULL || os2.state == osKernelInactive) return NULL;
  static const osThreadAttr_t none;
  if (attr == NULL) attr = &none;
  osPriority_t prio = attr->priority == osPriorityNone ? osPriorityNormal : attr->priority;
  if (prio < osPriorityIdle || prio > osPriorityISR) return NULL;
  uint32_t stack_size = attr->stack_size != 0u ? attr->stack_size : TC_OS2_STACK_SIZE;
  if ((stack_size & 7u) != 0u) return NULL;
  if (attr->stack_mem != NULL &&
      (((uintptr_t)attr->stack_mem & 7u) != 0u || attr->stack_size == 0u || stack_size < TC_OS2_STACK_MIN))
    return NULL;
  /* A stack from the pool is at least the port's smallest; the thread keeps the size it
   * asked for (osThreadGetStackSize, osThreadGetStackSpace). */
  uint32_t real_size = stack_size < TC_OS2_STACK_MIN ? TC_OS2_STACK_MIN : stack_size;
  os2_reap();

  uint8_t flags;
  tc_os2_thread *t = OS2_CB_ALLOC(attr, sizeof *t, &flags);
  if (t == NULL) return NULL;
  t->stack_mem = attr->stack_mem;
  if (!os2_data_alloc(&t->stack_mem, real_size, &flags)) {
    os2_release(t, flags, NULL);
    return NULL;
  }
  t->flags = flags;
  if (attr->attr_bits & osThreadJoinable) t->flags |= OS2_JOINABLE;
  t->func = func;
  t->argument = argument;
  t->stack_size = stack_size;
  unsigned p = TC_OS2_PRIORITY(prio);
  if (tc_event_create(&t->thread_flags, attr->name) != TC_OK) goto fail;
  if (tc_sem_create(&t->ended, attr->name, 0, 1) != TC_OK) {
    (void)tc_event_delete(&t->thread_flags);
    goto fail;
  }
  t->magic = OS2_MAGIC_THREAD;
  t->next = os2.threads;
  os2.threads = t;
  /* Created suspended and resumed, so that the thread is in the layer's list, and its id
   * valid, before it first runs (it may preempt the caller at once). */
  if (tc_thread_create(&t->thread, attr->name, os2_thread_entry, t, t->stack_mem, real_size, p, p,
                       TC_OS2_TIME_SLICE, 0) != TC_OK) {
    t->magic = 0;
    list_remove(t);
    (void)tc_sem_delete(&t->ended);
    (void)tc_event_delete(&t->thread_flags);
    goto fail;
  }
  (void)tc_thread_resume(&t->thread);
  return t;
fail:
  os2_release(t, t->flags, t->stack_mem);
  return NULL;
}

const char *osThreadGetName(osThreadId_t thread_id)
{
  if (os2_refused("osThreadGetName")) return NULL;
  tc_os2_thread *t = os2_thread(thread_id);
  return t != NULL ? t->thread.name : NULL;
}

/* From a handler: the thread it interrupted (CMSIS kernels answer so). */
osThreadId_t osThreadGetId(void)
{
  if (os2_refused("osThreadGetId")) return NULL;
  if (!os2_in_isr()) return os2_self();
  unsigned k = os2_lock();
  tc_thread *t = tc__k.current;
  os2_unlock(k);
  return t != NULL && t->entry == os2_thread_entry ? t : NULL;
}

osThreadState_t osThreadGetState(osThreadId_t thread_id)
{
  if (os2_refused("osThreadGetState") || os2_in_isr()) return osThreadError;
  tc_os2_thread *t = os2_thread(thread_id);
  if (t == NULL) return osThreadError;
  if (t->flags & OS2_ENDED) return osThreadTerminated;
  unsigned k = os2_lock();
  unsigned state = t->thread.state;
  bool running = &t->thread == tc__k.current && tc__in_thread();
  os2_unlock(k);
  switch (state) {
  case TC_READY:
    return running ? osThreadRunning : osThreadReady;
  case TC_SUSPENDED:
  case TC_SLEEPING:
  case TC_PENDING:
    return osThreadBlocked;
  default:
    return osThreadTerminated;
  }
}

uint32_t osThreadGetStackSize(osThreadId_t thread_id)
{
  if (os2_in_isr()) return 0u;
  tc_os2_thread *t = os2_thread(thread_id);
  return t != NULL ? t->stack_size : 0u;
}

uint32_t osThreadGetStackSpace(osThreadId_t thread_id)
{
  if (os2_in_isr()) return 0u;
  tc_os2_thread *t = os2_thread(thread_id);
  tc_thread_info_t info;
  if (t == NULL || tc_thread_info(&t->thread, &info) != TC_OK) return 0u;
  /* What is left of the size asked for (a thread given more than it asked, the port's
   * smallest stack, has that much more in reserve). */
  size_t size = t->stack_size < info.stack_size ? t->stack_size : info.stack_size;
  return size > info.stack_high_water ? (uint32_t)(size - info.stack_high_water) : 0u;
}

osStatus_t osThreadSetPriority(osThreadId_t thread_id, osPriority_t priority)
{
  if (os2_refused("osThreadSetPriority") || os2_in_isr()) return osErrorISR;
  tc_os2_thread *t = os2_thread(thread_id);
  if (t == NULL || priority < osPriorityIdle || priority > osPriorityISR) return osErrorParameter;
  if (t->flags & OS2_ENDED) return osErrorResource;
  return os2_status(tc_thread_priority_change(&t->thread, TC_OS2_PRIORITY(priority), NULL));
}

osPriority_t osThreadGetPriority(osThreadId_t thread_id)
{
  if (os2_refused("osThreadGetPriority") || os2_in_isr()) return osPriorityError;
  tc_os2_thread *t = os2_thread(thread_id);
  if (t == NULL || (t->flags & OS2_ENDED)) return osPriorityError;
  /* The priority it runs at: one inherited through a mutex included, as CMSIS kernels say. */
  unsigned k = os2_lock();
  unsigned p = t->thread.priority;
  os2_unlock(k);
  return TC_OS2_CMSIS_PRIORITY(p);
}

/* A yield from anywhere but a thread changes nothing (tc_thread_yield()): the context decides
 * the status alone. */
osStatus_t osThreadYield(void)
{
  if (__builtin_expect(tc__k.current == NULL || os2_in_isr() || (tc__k.current->flags & TC_TF_HISR), 0)) {
    if (os2_refused("osThreadYield") || os2_in_isr()) return osErrorISR;
    return osError;
  }
  tc_thread_yield();
  return osOK;
}

osStatus_t osThreadSuspend(osThreadId_t thread_id)
{
  /* Suspending oneself, the common case: running, so neither suspended nor ended. */
  if (!OS2_OWN_CHECKS && thread_id != NULL && thread_id == (void *)tc__k.current && !os2_in_isr()) {
    tc_status st = tc_thread_suspend(thread_id);
    return __builtin_expect(st == TC_OK, 1) ? osOK : os2_status(st);
  }
  if (os2_refused("osThreadSuspend") || os2_in_isr()) return osErrorISR;
  tc_os2_thread *t = os2_thread(thread_id);
  if (t == NULL) return osErrorParameter;
  if (t->flags & OS2_ENDED) return osErrorResource;
  unsigned k = os2_lock();
  bool suspended = t->thread.state == TC_SUSPENDED || (t->thread.flags & TC_TF_SUSPEND_AFTER) != 0u;
  os2_unlock(k);
  if (suspended) return osErrorResource; /* already: CMSIS does not nest them */
  /* Suspending oneself with the kernel locked would stop the system: refused. */
  return os2_status(tc_thread_suspend(&t->thread));
}

osStatus_t osThreadResume(osThreadId_t thread_id)
{
  /* A suspended thread, or one whose suspension is delayed until its wait ends, the common
   * cases: the service resumes it (or lifts the suspension), and refuses every other case with
   * TC_INVALID or TC_STATE_ERROR, which the rest of the function sorts out. */
  if (!OS2_OWN_CHECKS && !os2_in_isr() && tc_thread_resume(thread_id) == TC_OK) return osOK;
  if (os2_refused("osThreadResume") || os2_in_isr()) return osErrorISR;
  tc_os2_thread *t = os2_thread(thread_id);
  if (t == NULL) return osErrorParameter;
  if (t->flags & OS2_ENDED) return osErrorResource;
  unsigned k = os2_lock();
  unsigned state = t->thread.state;
  bool suspend_after = (t->thread.flags & TC_TF_SUSPEND_AFTER) != 0u;
  os2_unlock(k);
  switch (state) {
  case TC_SUSPENDED:
    return os2_status(tc_thread_resume(&t->thread));
  case TC_SLEEPING:
  case TC_PENDING:
    /* Suspended while it waited (Tacet suspends it when the wait ends): the suspension is
     * lifted and the wait goes on. Otherwise a blocked thread is resumed as CMSIS kernels
     * do: its wait ends, and the function it waits in returns osErrorTimeout. */
    if (suspend_after) return os2_status(tc_thread_resume(&t->thread));
    return os2_status(tc_thread_wait_abort(&t->thread));
  default:
    return osErrorResource;
  }
}

osStatus_t osThreadDetach(osThreadId_t thread_id)
{
  if (os2_refused("osThreadDetach") || os2_in_isr()) return osErrorISR;
  tc_os2_thread *t = os2_thread(thread_id);
  if (t == NULL) return osErrorParameter;
  if ((t->flags & OS2_JOINABLE) == 0u || t->joiners != 0u) return osErrorResource;
  t->flags &= (uint8_t)~OS2_JOINABLE;
  /* Ended already: nobody will join it, and it is gone now. */
  if ((t->flags & OS2_ENDED) && t != os2_self()) thread_remove(t);
  return osOK;
}

osStatus_t osThreadJoin(osThreadId_t thread_id)
{
  if (os2_refused("osThreadJoin") || os2_in_isr()) return osErrorISR;
  tc_os2_thread *t = os2_thread(thread_id);
  if (t == NULL) return osErrorParameter;
  tc_os2_thread *self = os2_self();
  if ((t->flags & OS2_JOINABLE) == 0u || t == self || t->joiners != 0u || self == NULL) return osErrorResource;
  t->joiners = 1;
  tc_status st = tc_sem_take(&t->ended, TC_WAIT_FOREVER);
  t->joiners = 0;
  if (st != TC_OK) return os2_status(st);
  thread_remove(t);
  return osOK;
}

/* End the calling thread (osThreadExit, osThreadTerminate of itself): its books, then the
 * Tacet thread. */
static __NO_RETURN void exit_self(tc_os2_thread *self)
{
  thread_close(self);
  (void)tc_thread_terminate(&self->thread);
  TC_PORT_PANIC("osThreadExit: the thread went on", self->thread.name);
  for (;;) {
  }
}

__NO_RETURN void osThreadExit(void)
{
  tc_os2_thread *self = os2_self();
  /* A thread that holds osKernelLock() gives it up with its life. */
  if (self != NULL && os2.locked) {
    os2.locked = false;
    tc_sched_unlock();
  }
  if (self != NULL) exit_self(self);
  /* Not a CMSIS thread: a Tacet thread ends the same way. */
  (void)tc_thread_terminate(tc_thread_self());
  TC_PORT_PANIC("osThreadExit: not called from a thread", NULL);
  for (;;) {
  }
}

osStatus_t osThreadTerminate(osThreadId_t thread_id)
{
  if (os2_refused("osThreadTerminate") || os2_in_isr()) return osErrorISR;
  tc_os2_thread *t = os2_thread(thread_id);
  if (t == NULL) return osErrorParameter;
  if (t->flags & OS2_ENDED) return osErrorResource;
  if (t == os2_self()) osThreadExit();
  tc_status st = tc_thread_terminate(&t->thread);
  if (st != TC_OK) return os2_status(st);
  thread_close(t);
  if ((t->flags & OS2_JOINABLE) == 0u) thread_remove(t);
  return osOK;
}

uint32_t osThreadGetCount(void)
{
  if (os2_refused("osThreadGetCount") || os2_in_isr()) return 0u;
  uint32_t n = 0;
  unsigned k = os2_lock();
  for (tc_os2_thread *t = os2.threads; t != NULL; t = t->next)
    if ((t->flags & OS2_ENDED) == 0u) n++;
  os2_unlock(k);
  return n;
}

uint32_t osThreadEnumerate(osThreadId_t *thread_array, uint32_t array_items)
{
  if (os2_refused("osThreadEnumerate") || os2_in_isr()) return 0u;
  if (thread_array == NULL || array_items == 0u) return 0u;
  uint32_t n = 0;
  unsigned k = os2_lock();
  for (tc_os2_thread *t = os2.threads; t != NULL && n < array_items; t = t->next)
    if ((t->flags & OS2_ENDED) == 0u) thread_array[n++] = t;
  os2_unlock(k);
  return n;
}

/* ---- Tacet's services for CMSIS threads ---------------------------------------------------- */

tc_thread *tacetOsThread(osThreadId_t thread_id)
{
  tc_os2_thread *t = os2_thread(thread_id);
  return t != NULL ? &t->thread : NULL;
}

osStatus_t tacetOsThreadSetThreshold(osThreadId_t thread_id, osPriority_t threshold)
{
  if (os2_refused("tacetOsThreadSetThreshold") || os2_in_isr()) return osErrorISR;
  tc_os2_thread *t = os2_thread(thread_id);
  if (t == NULL || threshold < osPriorityIdle || threshold > osPriorityISR) return osErrorParameter;
  if (t->flags & OS2_ENDED) return osErrorResource;
  return os2_status(tc_thread_threshold_change(&t->thread, TC_OS2_PRIORITY(threshold), NULL));
}

osPriority_t tacetOsThreadGetThreshold(osThreadId_t thread_id)
{
  if (os2_refused("tacetOsThreadGetThreshold")) return osPriorityError;
  tc_os2_thread *t = os2_thread(thread_id);
  if (t == NULL) return osPriorityError;
  return TC_OS2_CMSIS_PRIORITY(t->thread.user_threshold);
}

osStatus_t tacetOsThreadGetStats(osThreadId_t thread_id, tacetOsThreadStats_t *stats)
{
  tc_os2_thread *t = os2_thread(thread_id);
  tc_thread_info_t info;
  if (t == NULL || stats == NULL) return osErrorParameter;
  tc_status st = tc_thread_info(&t->thread, &info);
  if (st != TC_OK) return os2_status(st);
  stats->switches_in = info.switches_in;
  stats->preempted = info.preempted;
  stats->cycles = info.cycles;
  stats->stack_high_water = (uint32_t)info.stack_high_water;
  return osOK;
}
