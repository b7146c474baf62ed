/* SPDX-License-Identifier: MIT */
/*
 * Thread-Metric's porting layer on CMSIS-RTOS2 (tm_port.h): cmsis_os2.h alone, so that the
 * same programs (tests.c) run on any kernel's CMSIS-RTOS2 -- Tacet's layer (tacet::cmsis_os2),
 * Keil RTX5, FreeRTOS through ARM's CMSIS-FreeRTOS wrapper (anchors.cmake builds the last
 * two from their trees). Besides cmsis_os2.h it needs only the board: on Cortex-M the device
 * interrupt of board_mps2.h (line 30 at 0xC0, pended through the NVIC, the same for every
 * kernel), on Tacet's sim port a simulated interrupt and virtual time (tacet/sim.h).
 *
 * Where CMSIS-RTOS2 has no call the suite's interface asks for, the layer uses the one that
 * does the work, and every kernel pays for the same calls:
 *
 *  - Suspend and resume are osThreadSuspend (a thread suspends itself) and osThreadResume,
 *    which CMSIS forbids in a handler. A handler wakes a thread with a thread flag, so a
 *    thread an interrupt handler has resumed waits for its flag when it suspends itself from
 *    then on (the interrupt-preemption test's thread), and a thread is created waiting for
 *    its flag: "created, not started", which any context may end.
 *  - CMSIS has no way for a thread to play an interrupt handler: the in-line handler runs with
 *    the scheduler locked (osKernelLock / osKernelRestoreLock), so that what it makes ready
 *    runs when it ends, as after a handler.
 *  - A kernel never stops: tmk_stop() ends the program with exit(), one test per run
 *    (tmk_restartable 0).
 *  - Objects take their memory from the kernel (no cb_mem, stack_mem or mq_mem): their sizes
 *    are each kernel's own, and the same program builds on every kernel.
 *
 * Priorities: the suite's p (1 the most urgent) is osPriorityRealtime7 + 1 - p, 55 .. 25.
 * TM_KERNEL_NAME, TM_KERNEL_VERSION, TM_KERNEL_OPTIONS and TM_TICK_HZ name the build in the
 * report (bench/CMakeLists.txt, anchors.cmake).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmsis_os2.h"
#include "tm_port.h"

#if __has_include("tacet/sim.h")
#include "tacet/sim.h"
#define SIM        1
#define STACK_SIZE 16384u
#else
#include "board_mps2.h"
#define SIM        0
#define STACK_SIZE 1024u
#endif

#ifndef TM_KERNEL_NAME
#define TM_KERNEL_NAME "CMSIS-RTOS2"
#endif
#ifndef TM_KERNEL_VERSION
#define TM_KERNEL_VERSION "unknown"
#endif
#ifndef TM_KERNEL_OPTIONS
#define TM_KERNEL_OPTIONS "default"
#endif
#ifndef TM_TICK_HZ
#define TM_TICK_HZ 1000u
#endif
#define STR_(x) #x
#define STR(x)  STR_(x)

const char tmk_kernel[] = TM_KERNEL_NAME " through CMSIS-RTOS2";
#if SIM
const char tmk_port[] = "sim";
#else
const char tmk_port[] = "cortex-m";
#endif
const char tmk_config[] = "version=" TM_KERNEL_VERSION " options=" TM_KERNEL_OPTIONS " tick_hz=" STR(TM_TICK_HZ);
const int tmk_restartable = 0;

#define RESUME_FLAG   1u
#define QUEUE_LENGTH  10u
#define MESSAGE_BYTES (4u * sizeof(unsigned long))
#define POOL_BLOCKS   15u

static osThreadId_t threads[TMK_THREADS];
static void (*entries[TMK_THREADS])(void);
/* The thread waits for its flag (not osThreadSuspend'ed): the way to resume it. */
static volatile bool waits_for_flag[TMK_THREADS];
/* An interrupt handler resumed it: it waits for its flag when it suspends itself. */
static volatile bool woken_by_handler[TMK_THREADS];
static volatile bool in_handler; /* the device interrupt's handler is running */
static osMessageQueueId_t queues[1];
static osSemaphoreId_t semaphores[1];
static osMemoryPoolId_t pools[1];

/* ---- running ------------------------------------------------------------------------------------ */

int tmk_run(void (*setup)(void))
{
  if (osKernelInitialize() == osOK) {
#if !SIM
    tm_board_irq_setup();
#endif
    setup();
    (void)osKernelStart(); /* does not return: tmk_stop() exits */
  }
  printf("thread_metric: the kernel did not start\n");
  tmk_stop(2);
  return TMK_ERROR;
}

void tmk_stop(int status)
{
  fflush(stdout);
  exit(status);
}

static void thread_entry(void *arg)
{
  uintptr_t id = (uintptr_t)arg;
  (void)osThreadFlagsWait(RESUME_FLAG, osFlagsWaitAny, osWaitForever); /* created, not started */
  entries[id]();
  /* A test thread that leaves its loop (a service failed) stops there. */
  for (;;) (void)osThreadSuspend(threads[id]);
}

int tmk_thread_create(int id, int priority, void (*entry)(void))
{
  if (id < 0 || id >= TMK_THREADS || priority < 1 || priority > 31) return TMK_ERROR;
  const osThreadAttr_t attr = {
      .name = "tm",
      .stack_size = STACK_SIZE,
      .priority = (osPriority_t)((int)osPriorityRealtime7 + 1 - priority),
  };
  entries[id] = entry;
  waits_for_flag[id] = true;
  woken_by_handler[id] = false;
  threads[id] = osThreadNew(thread_entry, (void *)(uintptr_t)id, &attr);
  return threads[id] != NULL ? TMK_OK : TMK_ERROR;
}

int tmk_thread_resume(int id)
{
  if (id < 0 || id >= TMK_THREADS) return TMK_ERROR;
  if (waits_for_flag[id]) {
    waits_for_flag[id] = false;
    if (in_handler) woken_by_handler[id] = true;
    return (osThreadFlagsSet(threads[id], RESUME_FLAG) & osFlagsError) == 0u ? TMK_OK : TMK_ERROR;
  }
  return osThreadResume(threads[id]) == osOK ? TMK_OK : TMK_ERROR; /* osErrorISR in a handler */
}

int tmk_thread_suspend(int id)
{
  if (id < 0 || id >= TMK_THREADS) return TMK_ERROR;
  if (woken_by_handler[id]) {
    /* Marked before the wait: a handler that comes first finds the flag to set, and the
     * wait returns at once. */
    waits_for_flag[id] = true;
    uint32_t flags = osThreadFlagsWait(RESUME_FLAG, osFlagsWaitAny, osWaitForever);
    return (flags & osFlagsError) == 0u ? TMK_OK : TMK_ERROR;
  }
  return osThreadSuspend(threads[id]) == osOK ? TMK_OK : TMK_ERROR;
}

void tmk_thread_relinquish(void) { (void)osThreadYield(); }

void tmk_thread_sleep(uint32_t ticks) { (void)osDelay(ticks); }

uint32_t tmk_tick_hz(void) { return osKernelGetTickFreq(); }

uint32_t tmk_ticks(void) { return osKernelGetTickCount(); }

/* ---- objects ---------------------------------------------------------------------------------- */

int tmk_queue_create(int id)
{
  if (id != 0) return TMK_ERROR;
  queues[0] = osMessageQueueNew(QUEUE_LENGTH, MESSAGE_BYTES, NULL);
  return queues[0] != NULL ? TMK_OK : TMK_ERROR;
}

int tmk_queue_send(int id, const unsigned long *message)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return osMessageQueuePut(queues[id], message, 0u, 0u) == osOK ? TMK_OK : TMK_ERROR;
}

int tmk_queue_receive(int id, unsigned long *message)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return osMessageQueueGet(queues[id], message, NULL, 0u) == osOK ? TMK_OK : TMK_ERROR;
}

int tmk_semaphore_create(int id)
{
  if (id != 0) return TMK_ERROR;
  /* A counting semaphore with one unit (RTX's limit on the maximum: 65535). */
  semaphores[0] = osSemaphoreNew(65535u, 1u, NULL);
  return semaphores[0] != NULL ? TMK_OK : TMK_ERROR;
}

int tmk_semaphore_get(int id)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return osSemaphoreAcquire(semaphores[id], 0u) == osOK ? TMK_OK : TMK_ERROR;
}

int tmk_semaphore_put(int id)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return osSemaphoreRelease(semaphores[id]) == osOK ? TMK_OK : TMK_ERROR;
}

int tmk_pool_create(int id)
{
  if (id != 0) return TMK_ERROR;
  pools[0] = osMemoryPoolNew(POOL_BLOCKS, 128u, NULL);
  return pools[0] != NULL ? TMK_OK : TMK_ERROR;
}

int tmk_pool_allocate(int id, unsigned char **block)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  *block = osMemoryPoolAlloc(pools[id], 0u);
  return *block != NULL ? TMK_OK : TMK_ERROR;
}

int tmk_pool_free(int id, unsigned char *block)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return osMemoryPoolFree(pools[id], block) == osOK ? TMK_OK : TMK_ERROR;
}

/* ---- interrupts --------------------------------------------------------------------------------- */

static void device_handler(void)
{
  in_handler = true;
  tm_interrupt_handler();
  in_handler = false;
}

#if SIM
void tmk_interrupt_raise(void) { (void)tc_sim_irq_at(tc_sim_now(), device_handler); }

void tmk_work(void) { tc_sim_consume(100); }
#else
/* Line 30's handler, under its vector table name on mps2 (Tacet's board, board_mps2.c). */
void PORT0_6_Handler(void);
void PORT0_6_Handler(void) { device_handler(); }

void tmk_interrupt_raise(void) { tm_board_irq_raise(); }

void tmk_work(void) {}
#endif

void tmk_interrupt_inline(void)
{
  int32_t lock = osKernelLock();
  tm_interrupt_inline_handler();
  (void)osKernelRestoreLock(lock);
}
