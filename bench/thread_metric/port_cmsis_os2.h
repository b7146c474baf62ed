/* SPDX-License-Identifier: MIT */
/*
 * Thread-Metric's porting layer on CMSIS-RTOS2 (cmsis_os2.h) alone: the same tests (main.c)
 * run through it on any CMSIS-RTOS2 kernel -- Tacet's layer (tacet::cmsis_os2), and, built by
 * bench/thread_metric/compare.py, RTX5 and FreeRTOS through ARM's CMSIS-FreeRTOS wrapper.
 * Every function is static inline: an operation costs the CMSIS calls it makes.
 *
 * Where CMSIS differs from Thread-Metric's own layer: a thread is created running
 * (osThreadNew), so one that must start suspended is suspended at once by its creator, the
 * reporter, which runs above it; an interrupt handler may not resume a thread, so in the
 * interrupt-preemption test the handler sets a thread flag the thread waits for. A kernel
 * does not stop: the reporter ends the run with exit(), which semihosting makes QEMU's exit
 * status. Objects take their memory from the kernel (no cb_mem or stack_mem): the same
 * program builds on every kernel.
 */
#ifndef TM_PORT_CMSIS_OS2_H
#define TM_PORT_CMSIS_OS2_H

#include <stdlib.h>

#include "cmsis_os2.h"

#define TM_KERNEL tm_kernel_name()
#define TM_THREADS 6u

static osThreadId_t tm_threads[TM_THREADS];

typedef uint32_t tm_time; /* osKernelGetSysTimerCount() wraps at 2^32 */
typedef osSemaphoreId_t tm_sem;
typedef osMessageQueueId_t tm_queue;
typedef osMemoryPoolId_t tm_pool;

static inline const char *tm_kernel_name(void)
{
  static char id[48];
  if (id[0] == '\0') {
    osVersion_t v;
    if (osKernelGetInfo(&v, id, sizeof id - 24u) != osOK) id[0] = '?';
    (void)snprintf(id + strlen(id), 24u, " through CMSIS-RTOS2");
  }
  return id;
}

static inline void tm_print_config(void)
{
  osVersion_t v = {0, 0};
  (void)osKernelGetInfo(&v, NULL, 0);
  printf("kernel API=%lu.%lu version=%lu.%lu.%lu tick_hz=%lu\n", (unsigned long)(v.api / 10000000u),
         (unsigned long)(v.api / 10000u % 1000u), (unsigned long)(v.kernel / 10000000u),
         (unsigned long)(v.kernel / 10000u % 1000u), (unsigned long)(v.kernel % 10000u),
         (unsigned long)osKernelGetTickFreq());
}

static inline void tm_init(void) { (void)osKernelInitialize(); }

static inline int tm_start(void)
{
  (void)osKernelStart(); /* returns on Tacet's sim port only; tm_end() exits */
  return 1;
}

static inline void tm_end(int status)
{
  fflush(stdout);
  exit(status);
}

/* Thread-Metric's priority p, 1 the most urgent, is osPriorityRealtime7 + 1 - p. */
static inline bool tm_thread_create(unsigned slot, void (*entry)(void *), unsigned priority, bool start)
{
  const osThreadAttr_t attr = {
      .name = slot + 1u < TM_THREADS ? "worker" : "reporter",
      .stack_size = TM_STACK_SIZE,
      .priority = (osPriority_t)((int)osPriorityRealtime7 + 1 - (int)priority),
  };
  tm_threads[slot] = osThreadNew(entry, (void *)(uintptr_t)slot, &attr);
  if (tm_threads[slot] == NULL) return false;
  /* Before the kernel starts, or from the reporter, above every test thread: it has not run. */
  return start || osThreadSuspend(tm_threads[slot]) == osOK;
}

static inline void tm_thread_delete(unsigned slot) { (void)osThreadTerminate(tm_threads[slot]); }
static inline void tm_thread_resume(unsigned slot) { (void)osThreadResume(tm_threads[slot]); }
static inline void tm_thread_suspend(unsigned slot) { (void)osThreadSuspend(tm_threads[slot]); }
static inline void tm_thread_relinquish(void) { (void)osThreadYield(); }

#define TM_WAKE_WHAT "thread flags set/wait"
static inline void tm_wait_for_interrupt(unsigned slot)
{
  (void)slot;
  (void)osThreadFlagsWait(1u, osFlagsWaitAny, osWaitForever);
}
static inline void tm_wake_from_interrupt(unsigned slot) { (void)osThreadFlagsSet(tm_threads[slot], 1u); }

static inline void tm_sleep(uint32_t ticks) { (void)osDelay(ticks); }
static inline uint32_t tm_tick_hz(void) { return osKernelGetTickFreq(); }
static inline tm_time tm_cycles(void) { return osKernelGetSysTimerCount(); }
static inline uint32_t tm_cycles_hz(void) { return osKernelGetSysTimerFreq(); }

static inline bool tm_sem_create(tm_sem *s, uint32_t initial) { return (*s = osSemaphoreNew(1, initial, NULL)) != NULL; }
static inline void tm_sem_get(tm_sem *s) { (void)osSemaphoreAcquire(*s, osWaitForever); }
static inline void tm_sem_put(tm_sem *s) { (void)osSemaphoreRelease(*s); }
static inline void tm_sem_delete(tm_sem *s) { (void)osSemaphoreDelete(*s); }

static inline bool tm_queue_create(tm_queue *q) { return (*q = osMessageQueueNew(10, 16, NULL)) != NULL; }
static inline void tm_queue_send(tm_queue *q, const uint32_t msg[4]) { (void)osMessageQueuePut(*q, msg, 0, osWaitForever); }
static inline void tm_queue_receive(tm_queue *q, uint32_t msg[4]) { (void)osMessageQueueGet(*q, msg, NULL, osWaitForever); }
static inline void tm_queue_delete(tm_queue *q) { (void)osMessageQueueDelete(*q); }

static inline bool tm_pool_create(tm_pool *p) { return (*p = osMemoryPoolNew(16, 128, NULL)) != NULL; }
static inline void *tm_pool_allocate(tm_pool *p) { return osMemoryPoolAlloc(*p, osWaitForever); }
static inline void tm_pool_free(tm_pool *p, void *block) { (void)osMemoryPoolFree(*p, block); }
static inline void tm_pool_delete(tm_pool *p) { (void)osMemoryPoolDelete(*p); }

#if !TM_SIM
/* The software interrupt: line TM_IRQ of the NVIC at priority 0xC0 (below every kernel's
 * mask), enabled, and pended by software (CMSIS-Core's NVIC functions, without its headers). */
#define TM_NVIC_ISER ((volatile uint32_t *)0xE000E100u)
#define TM_NVIC_IPR  ((volatile uint8_t *)0xE000E400u)
#define TM_NVIC_STIR (*(volatile uint32_t *)0xE000EF00u)
static inline void tm_interrupt_setup(void)
{
  TM_NVIC_IPR[TM_IRQ] = 0xC0u;
  TM_NVIC_ISER[TM_IRQ >> 5] = 1u << (TM_IRQ & 31u);
}
static inline void tm_interrupt_raise(void)
{
  TM_NVIC_STIR = TM_IRQ;
  __asm volatile("dsb\n\tisb" ::: "memory");
}
#endif

#endif /* TM_PORT_CMSIS_OS2_H */
