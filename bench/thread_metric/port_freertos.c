/* SPDX-License-Identifier: MIT */
/*
 * Thread-Metric's porting layer for FreeRTOS (tm_port.h), on its GCC ARM_CM3 / ARM_CM4F
 * ports, with board_mps2.c as the start-up and FreeRTOSConfig.h beside this file. Built only
 * when FREERTOS_DIR names a FreeRTOS-Kernel source tree (bench/thread_metric/CMakeLists.txt);
 * FreeRTOS's code is never part of this repository.
 *
 * Priorities: FreeRTOS's most urgent is its highest number, so the suite's p becomes 31 - p.
 * Threads are created then suspended before the scheduler starts (the suite's "created, not
 * started"). Interrupts: the device line at 0xC0, below configMAX_SYSCALL_INTERRUPT_PRIORITY;
 * in a handler the services are the FromISR ones, and a switch one of them makes necessary
 * is requested with portYIELD_FROM_ISR, as FreeRTOS documents. The in-line handler runs with
 * interrupts masked (PRIMASK) and a flag that sends the services it calls down the same
 * FromISR path. FreeRTOS has no block pool: the memory test is not run on it (tmk_pool_*
 * refuse).
 *
 * On RISC-V (GCC/RISC-V, board_virt.c and riscv/FreeRTOSConfig.h): the device interrupt is the
 * machine software interrupt, which the port's trap handler passes to the application's
 * handler (freertos_risc_v_application_interrupt_handler) on its interrupt stack; there
 * portYIELD_FROM_ISR switches at once (it calls vTaskSwitchContext, and the trap's exit
 * restores the new task). The in-line handler runs in a task with interrupts masked, where
 * that call would lose the task's context: there a switch it made necessary is the task's own
 * yield (portYIELD, an ecall) once interrupts are unmasked again, what the pended PendSV does
 * on Cortex-M.
 */
#include <stdbool.h>

#include "FreeRTOS.h"
#if defined(__riscv)
#include "board_virt.h"
#else
#include "board_mps2.h"
#endif
#include "semphr.h"
#include "task.h"
#include "tm_port.h"

#ifndef TM_KERNEL_VERSION
#define TM_KERNEL_VERSION "unknown"
#endif
#ifndef TM_KERNEL_OPTIONS
#define TM_KERNEL_OPTIONS "default"
#endif
#define STR_(x) #x
#define STR(x)  STR_(x)

const char tmk_kernel[] = "FreeRTOS";
#if defined(__riscv)
const char tmk_port[] = "RISC-V";
#elif defined(__ARM_FP)
const char tmk_port[] = "ARM_CM4F";
#else
const char tmk_port[] = "ARM_CM3";
#endif
const char tmk_config[] = "version=" TM_KERNEL_VERSION " options=" TM_KERNEL_OPTIONS " tick_hz=" STR(TM_TICK_HZ);
const int tmk_restartable = 0;

#define STACK_WORDS    512u
#define QUEUE_MESSAGES 10u

static TaskHandle_t threads[TMK_THREADS];
static StaticTask_t thread_blocks[TMK_THREADS];
static StackType_t stacks[TMK_THREADS][STACK_WORDS];
static void (*entries[TMK_THREADS])(void);
static QueueHandle_t queues[1];
static StaticQueue_t queue_block;
static uint8_t queue_memory[QUEUE_MESSAGES * 4 * sizeof(unsigned long)];
static SemaphoreHandle_t semaphores[1];
static StaticSemaphore_t semaphore_block;
static volatile bool inline_handler; /* tmk_interrupt_inline() is running the handler */
#if defined(__riscv)
static volatile bool in_handler;     /* the device interrupt's handler is running */
static volatile bool inline_yield;   /* the in-line handler made a switch necessary */
static bool resumed[TMK_THREADS];    /* before the start: created and resumed (tmk_run) */
static bool started;                 /* tmk_run() has started the scheduler */
#endif

void PORT0_6_Handler(void);
void vApplicationGetIdleTaskMemory(StaticTask_t **tcb, StackType_t **stack, configSTACK_DEPTH_TYPE *words);

void vApplicationGetIdleTaskMemory(StaticTask_t **tcb, StackType_t **stack, configSTACK_DEPTH_TYPE *words)
{
  static StaticTask_t idle_block;
  static StackType_t idle_stack[configMINIMAL_STACK_SIZE];
  *tcb = &idle_block;
  *stack = idle_stack;
  *words = configMINIMAL_STACK_SIZE;
}

/* In a handler, or in the in-line one: the FromISR services. */
#if defined(__riscv)
static inline bool in_interrupt(void) { return in_handler || inline_handler; }

/* portYIELD_FROM_ISR in a real handler; in the in-line one, the task's own yield later. */
static inline void yield_from_isr(BaseType_t switch_needed)
{
  if (inline_handler) {
    if (switch_needed != pdFALSE) inline_yield = true;
    return;
  }
  portYIELD_FROM_ISR(switch_needed);
}
#else
static inline bool in_interrupt(void) { return xPortIsInsideInterrupt() || inline_handler; }

static inline void yield_from_isr(BaseType_t switch_needed) { portYIELD_FROM_ISR(switch_needed); }
#endif

/* ---- running ------------------------------------------------------------------------------------ */

#if defined(__riscv)
extern void freertos_risc_v_trap_handler(void);
void (*const tm_board_trap_vector)(void) = freertos_risc_v_trap_handler;

int tmk_run(void (*setup)(void))
{
  setup();
  /* The suite's "created, not started": every thread setup did not resume (the reporter is
   * always resumed, so one task stays ready and current). */
  for (int id = 0; id < TMK_THREADS; id++)
    if (threads[id] != NULL && !resumed[id]) vTaskSuspend(threads[id]);
  tm_board_irq_setup(); /* mie.MSIE; the scheduler's start sets MTIE and MEIE */
  started = true;
  vTaskStartScheduler();
  return TMK_ERROR; /* not reached */
}
#else
int tmk_run(void (*setup)(void))
{
  /* PendSV and SysTick at the kernel's priority before anything can pend them (a resume
   * during setup may), as the scheduler's start would set them. */
  TM_BOARD_SHPR[14 - 4] = configKERNEL_INTERRUPT_PRIORITY;
  TM_BOARD_SHPR[15 - 4] = configKERNEL_INTERRUPT_PRIORITY;
  setup();
  tm_board_irq_setup();
  vTaskStartScheduler();
  return TMK_ERROR; /* not reached */
}
#endif

void tmk_stop(int status) { tm_board_exit(status); }

static void thread_entry(void *id)
{
  entries[(uintptr_t)id]();
  vTaskSuspend(NULL); /* a test thread that leaves its loop stops there */
}

int tmk_thread_create(int id, int priority, void (*entry)(void))
{
  if (id < 0 || id >= TMK_THREADS || priority < 1 || priority > 31) return TMK_ERROR;
  entries[id] = entry;
  threads[id] = xTaskCreateStatic(thread_entry, "tm", STACK_WORDS, (void *)(uintptr_t)id,
                                  (UBaseType_t)(31 - priority), stacks[id], &thread_blocks[id]);
  if (threads[id] == NULL) return TMK_ERROR;
#if defined(__riscv)
  /* Suspended only when the scheduler starts (tmk_run): a resume before the start compares
   * with the current task, which FreeRTOS sets to none while every task is suspended -- a
   * load from address 0x2c, which faults on virt (on mps2 it reads the vector table). */
  resumed[id] = false;
#else
  vTaskSuspend(threads[id]);
#endif
  return TMK_OK;
}

int tmk_thread_resume(int id)
{
  if (id < 0 || id >= TMK_THREADS) return TMK_ERROR;
  if (in_interrupt()) {
    BaseType_t switch_needed = xTaskResumeFromISR(threads[id]);
    yield_from_isr(switch_needed);
    return TMK_OK;
  }
#if defined(__riscv)
  if (!started) {
    resumed[id] = true;
    return TMK_OK;
  }
#endif
  vTaskResume(threads[id]);
  return TMK_OK;
}

int tmk_thread_suspend(int id)
{
  if (id < 0 || id >= TMK_THREADS) return TMK_ERROR;
  vTaskSuspend(threads[id]);
  return TMK_OK;
}

void tmk_thread_relinquish(void) { taskYIELD(); }

void tmk_thread_sleep(uint32_t ticks) { vTaskDelay(ticks); }

uint32_t tmk_tick_hz(void) { return configTICK_RATE_HZ; }

uint32_t tmk_ticks(void) { return xTaskGetTickCount(); }

/* ---- objects ---------------------------------------------------------------------------------- */

int tmk_queue_create(int id)
{
  if (id != 0) return TMK_ERROR;
  queues[0] = xQueueCreateStatic(QUEUE_MESSAGES, 4 * sizeof(unsigned long), queue_memory, &queue_block);
  return queues[0] != NULL ? TMK_OK : TMK_ERROR;
}

int tmk_queue_send(int id, const unsigned long *message)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return xQueueSendToBack(queues[id], message, 0) == pdTRUE ? TMK_OK : TMK_ERROR;
}

int tmk_queue_receive(int id, unsigned long *message)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return xQueueReceive(queues[id], message, 0) == pdTRUE ? TMK_OK : TMK_ERROR;
}

int tmk_semaphore_create(int id)
{
  if (id != 0) return TMK_ERROR;
  semaphores[0] = xSemaphoreCreateCountingStatic(0x7FFFFFFF, 1, &semaphore_block);
  return semaphores[0] != NULL ? TMK_OK : TMK_ERROR;
}

int tmk_semaphore_get(int id)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return xSemaphoreTake(semaphores[id], 0) == pdTRUE ? TMK_OK : TMK_ERROR;
}

int tmk_semaphore_put(int id)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  if (in_interrupt()) {
    BaseType_t switch_needed = pdFALSE;
    if (xSemaphoreGiveFromISR(semaphores[id], &switch_needed) != pdTRUE) return TMK_ERROR;
    yield_from_isr(switch_needed);
    return TMK_OK;
  }
  return xSemaphoreGive(semaphores[id]) == pdTRUE ? TMK_OK : TMK_ERROR;
}

/* No block pool in FreeRTOS. */
int tmk_pool_create(int id)
{
  (void)id;
  return TMK_ERROR;
}

int tmk_pool_allocate(int id, unsigned char **block)
{
  (void)id;
  *block = NULL;
  return TMK_ERROR;
}

int tmk_pool_free(int id, unsigned char *block)
{
  (void)id;
  (void)block;
  return TMK_ERROR;
}

/* ---- interrupts --------------------------------------------------------------------------------- */

#if defined(__riscv)
/* Every interrupt but the tick (which the port's trap handler takes itself), on the port's
 * interrupt stack, mcause in the argument. */
void freertos_risc_v_application_interrupt_handler(uint32_t mcause);
void freertos_risc_v_application_exception_handler(uint32_t mcause);

void freertos_risc_v_application_interrupt_handler(uint32_t mcause)
{
  if (mcause != TM_BOARD_MCAUSE_SOFTWARE) tm_board_unexpected();
  tm_board_irq_clear();
  in_handler = true;
  tm_interrupt_handler();
  in_handler = false;
}

void freertos_risc_v_application_exception_handler(uint32_t mcause)
{
  (void)mcause;
  tm_board_unexpected();
}

void tmk_interrupt_raise(void) { tm_board_irq_raise(); }

void tmk_interrupt_inline(void)
{
  uint32_t mstatus;
  __asm volatile("csrrci %0, mstatus, 8" : "=r"(mstatus)::"memory");
  inline_handler = true;
  tm_interrupt_inline_handler();
  inline_handler = false;
  __asm volatile("csrs mstatus, %0" ::"r"(mstatus & 8u) : "memory");
  if (inline_yield) {
    inline_yield = false;
    portYIELD();
  }
}
#else
void PORT0_6_Handler(void) { tm_interrupt_handler(); }

void tmk_interrupt_raise(void) { tm_board_irq_raise(); }

void tmk_interrupt_inline(void)
{
  uint32_t primask;
  __asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask)::"memory");
  inline_handler = true;
  tm_interrupt_inline_handler();
  inline_handler = false;
  __asm volatile("msr primask, %0" ::"r"(primask) : "memory");
}
#endif

void tmk_work(void) {}
