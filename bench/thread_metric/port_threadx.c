/* SPDX-License-Identifier: MIT */
/*
 * Thread-Metric's porting layer for ThreadX (tm_port.h), on its cortex_m3 / cortex_m4 gnu
 * ports, with board_mps2.c as the start-up. Built only when THREADX_DIR names a ThreadX
 * source tree (bench/thread_metric/CMakeLists.txt); ThreadX's code is never part of this
 * repository.
 *
 * Priorities map one to one (0 is ThreadX's most urgent too; preemption threshold = priority,
 * no time slice). The tick is SysTick at TM_TICK_HZ, its handler calling _tx_timer_interrupt()
 * as ThreadX's low-level initialisation example does. Interrupts: handlers are plain C
 * functions on this port (ThreadX tells an interrupt from IPSR and pends PendSV for a switch),
 * at priority 0xC0 (ThreadX masks with PRIMASK: every priority is masked). The in-line
 * handler plays an interrupt the way ThreadX's context save does on the ports that have one:
 * interrupts masked and _tx_thread_system_state raised around the handler, so that no service
 * switches inside it, then the switch it made necessary, if any, at its end.
 *
 * With TX_EXECUTION_PROFILE_ENABLE (the "checks + counters" build) the execution profile kit
 * is built in, timed by the CMSDK timer 0 (TX_EXECUTION_TIME_SOURCE, anchors.cmake): every
 * thread's run time, as Tacet's default counts it. The handlers do not call the kit's
 * _tx_execution_isr_enter / _exit, which would time interrupts apart -- a feature Tacet's
 * counters do not have (an interrupt's time is the interrupted thread's there, and here).
 */
#include "board_mps2.h"
#include "tm_port.h"
#include "tx_api.h"
#include "tx_thread.h" /* _tx_thread_system_state and the pointers its context restore compares */

#ifndef TM_TICK_HZ
#define TM_TICK_HZ 1000u
#endif
#ifndef TM_KERNEL_VERSION
#define TM_KERNEL_VERSION "unknown"
#endif
#ifndef TM_KERNEL_OPTIONS
#define TM_KERNEL_OPTIONS "default"
#endif
#define STR_(x) #x
#define STR(x)  STR_(x)

const char tmk_kernel[] = "ThreadX";
#if defined(__ARM_FP)
const char tmk_port[] = "cortex_m4";
#else
const char tmk_port[] = "cortex_m3";
#endif
const char tmk_config[] = "version=" TM_KERNEL_VERSION " options=" TM_KERNEL_OPTIONS " tick_hz=" STR(TM_TICK_HZ);
const int tmk_restartable = 0;

#define STACK_SIZE  2048u
#define QUEUE_BYTES 400u /* 25 messages of 4 ULONGs */
#define POOL_BYTES  2048u

static TX_THREAD threads[TMK_THREADS];
static ULONG stacks[TMK_THREADS][STACK_SIZE / sizeof(ULONG)];
static void (*entries[TMK_THREADS])(void);
static TX_QUEUE queues[1];
static ULONG queue_memory[QUEUE_BYTES / sizeof(ULONG)];
static TX_SEMAPHORE semaphores[1];
static TX_BLOCK_POOL pools[1];
static ULONG pool_memory[POOL_BYTES / sizeof(ULONG)];
static void (*test_setup)(void);
static ULONG spare_memory[64]; /* ThreadX's "first unused memory": nothing here uses it */

/* ---- ThreadX's low-level initialisation and the tick -------------------------------------- */

extern VOID *_tx_initialize_unused_memory;
extern VOID *_tx_thread_system_stack_ptr;
extern char __tc_cm_msp_top[];
VOID _tx_initialize_low_level(VOID);
VOID _tx_timer_interrupt(VOID);
void SysTick_Handler(void);
void PORT0_6_Handler(void);

VOID _tx_initialize_low_level(VOID)
{
  __asm volatile("cpsid i" ::: "memory"); /* ThreadX enables interrupts when it schedules */
  _tx_initialize_unused_memory = spare_memory;
  _tx_thread_system_stack_ptr = __tc_cm_msp_top; /* the handlers' stack */
  TM_BOARD_SHPR[11 - 4] = 0xFF;                  /* SVCall */
  TM_BOARD_SHPR[14 - 4] = 0xFF;                  /* PendSV: the lowest, as the port requires */
  TM_BOARD_SHPR[15 - 4] = 0x40;                  /* SysTick, as ThreadX's example sets it */
  TM_BOARD_SYST_RVR = TM_BOARD_CPU_HZ / TM_TICK_HZ - 1u;
  TM_BOARD_SYST_CVR = 0;
  TM_BOARD_SYST_CSR = 7u; /* processor clock, interrupt, enabled */
  tm_board_irq_setup();
#ifdef TX_EXECUTION_PROFILE_ENABLE
  tm_board_counter_start();
#endif
}

void SysTick_Handler(void) { _tx_timer_interrupt(); }

void PORT0_6_Handler(void) { tm_interrupt_handler(); }

/* ---- running ------------------------------------------------------------------------------------ */

VOID tx_application_define(VOID *first_unused_memory)
{
  (void)first_unused_memory;
  test_setup();
}

int tmk_run(void (*setup)(void))
{
  test_setup = setup;
  tx_kernel_enter();
  return TMK_ERROR; /* not reached */
}

void tmk_stop(int status) { tm_board_exit(status); }

static VOID thread_entry(ULONG id) { entries[id](); }

int tmk_thread_create(int id, int priority, void (*entry)(void))
{
  if (id < 0 || id >= TMK_THREADS || priority < 1 || priority > 31) return TMK_ERROR;
  entries[id] = entry;
  UINT status = tx_thread_create(&threads[id], "tm", thread_entry, (ULONG)id, stacks[id], STACK_SIZE,
                                 (UINT)priority, (UINT)priority, TX_NO_TIME_SLICE, TX_DONT_START);
  return status == TX_SUCCESS ? TMK_OK : TMK_ERROR;
}

int tmk_thread_resume(int id)
{
  if (id < 0 || id >= TMK_THREADS) return TMK_ERROR;
  return tx_thread_resume(&threads[id]) == TX_SUCCESS ? TMK_OK : TMK_ERROR;
}

int tmk_thread_suspend(int id)
{
  if (id < 0 || id >= TMK_THREADS) return TMK_ERROR;
  return tx_thread_suspend(&threads[id]) == TX_SUCCESS ? TMK_OK : TMK_ERROR;
}

void tmk_thread_relinquish(void) { tx_thread_relinquish(); }

void tmk_thread_sleep(uint32_t ticks) { (void)tx_thread_sleep(ticks); }

uint32_t tmk_tick_hz(void) { return TM_TICK_HZ; }

uint32_t tmk_ticks(void) { return tx_time_get(); }

/* ---- objects ---------------------------------------------------------------------------------- */

int tmk_queue_create(int id)
{
  if (id != 0) return TMK_ERROR;
  UINT status = tx_queue_create(&queues[0], "tm", 4 * sizeof(unsigned long) / sizeof(ULONG), queue_memory,
                                sizeof queue_memory);
  return status == TX_SUCCESS ? TMK_OK : TMK_ERROR;
}

int tmk_queue_send(int id, const unsigned long *message)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return tx_queue_send(&queues[id], (VOID *)message, TX_NO_WAIT) == TX_SUCCESS ? TMK_OK : TMK_ERROR;
}

int tmk_queue_receive(int id, unsigned long *message)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return tx_queue_receive(&queues[id], message, TX_NO_WAIT) == TX_SUCCESS ? TMK_OK : TMK_ERROR;
}

int tmk_semaphore_create(int id)
{
  if (id != 0) return TMK_ERROR;
  return tx_semaphore_create(&semaphores[0], "tm", 1) == TX_SUCCESS ? TMK_OK : TMK_ERROR;
}

int tmk_semaphore_get(int id)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return tx_semaphore_get(&semaphores[id], TX_NO_WAIT) == TX_SUCCESS ? TMK_OK : TMK_ERROR;
}

int tmk_semaphore_put(int id)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return tx_semaphore_put(&semaphores[id]) == TX_SUCCESS ? TMK_OK : TMK_ERROR;
}

int tmk_pool_create(int id)
{
  if (id != 0) return TMK_ERROR;
  UINT status = tx_block_pool_create(&pools[0], "tm", 128, pool_memory, sizeof pool_memory);
  return status == TX_SUCCESS ? TMK_OK : TMK_ERROR;
}

int tmk_pool_allocate(int id, unsigned char **block)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return tx_block_allocate(&pools[id], (VOID **)block, TX_NO_WAIT) == TX_SUCCESS ? TMK_OK : TMK_ERROR;
}

int tmk_pool_free(int id, unsigned char *block)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return tx_block_release(block) == TX_SUCCESS ? TMK_OK : TMK_ERROR;
}

/* ---- interrupts --------------------------------------------------------------------------------- */

void tmk_interrupt_raise(void) { tm_board_irq_raise(); }

void tmk_interrupt_inline(void)
{
  TX_INTERRUPT_SAVE_AREA
  TX_DISABLE
  _tx_thread_system_state++;
  tm_interrupt_inline_handler();
  _tx_thread_system_state--;
  TX_RESTORE
  /* What the context restore does: a thread the handler made ready runs now. */
  if (_tx_thread_current_ptr != _tx_thread_execute_ptr && _tx_thread_preempt_disable == 0) _tx_thread_system_return();
}

void tmk_work(void) {}
