/* SPDX-License-Identifier: MIT */
/*
 * Thread-Metric's porting layer for Tacet (tm_port.h), on the Cortex-M, the RISC-V and the sim
 * port.
 *
 * Priorities map one to one (Tacet's 0 is the most urgent too). Interrupts the documented way
 * (tacet/kernel.h, "Interrupt handlers"): on Cortex-M a device line at a kernel priority
 * (0xC0), its handler with no bracket; the in-line handler is a thread playing one, inside
 * tc_isr_enter() / tc_isr_exit() with the kernel's interrupts masked, which is what the
 * bracket is for (a decision taken inside takes effect at the exit). On the sim port the
 * interrupt is a simulated one (tc_sim_irq_at), which the port brackets itself. On RISC-V the
 * device interrupt is the machine software interrupt (tc_rv_software_interrupt()), every
 * handler at the kernel's level there (tacet/riscv.h).
 */
#include <stdio.h>

#include "tacet/tacet.h"
#include "tm_port.h"

#if __has_include("tacet/sim.h")
#include "tacet/sim.h"
#define SIM 1
#define STACK_SIZE 16384u
#elif defined(__riscv)
#include "tacet/riscv.h"
#define SIM 0
#define RV  1
#define STACK_SIZE 2048u
#else
#include "tacet/cortex_m.h"
#define SIM 0
#define STACK_SIZE 2048u
#define TM_IRQ 30u /* mps2: GPIO 0 pin 6, which nothing drives: raised from software only */
#endif

#ifndef RV
#define RV 0
#endif

#define STR_(x) #x
#define STR(x)  STR_(x)

const char tmk_kernel[] = "Tacet";
const char tmk_port[] = TC_PORT_NAME;
const char tmk_config[] = "TC_PRIORITIES=" STR(TC_PRIORITIES) " TC_CHECKS=" STR(TC_CHECKS) " TC_STATS=" STR(
    TC_STATS) " TC_STACK_CHECK=" STR(TC_STACK_CHECK) " TC_TICK_HZ=" STR(TC_TICK_HZ);
const int tmk_restartable = 1;

#define QUEUE_BYTES 400u /* 25 messages */
#define POOL_BLOCKS 15u

static tc_thread threads[TMK_THREADS];
static uint8_t stacks[TMK_THREADS][STACK_SIZE] __attribute__((aligned(8)));
static void (*entries[TMK_THREADS])(void);
static tc_queue queues[1];
static uint32_t queue_memory[QUEUE_BYTES / 4];
static tc_sem semaphores[1];
static tc_block_pool pools[1];
static uint64_t pool_memory[TC_BLOCK_POOL_MEM(128, POOL_BLOCKS) / 8];

static void thread_entry(void *arg) { entries[(uintptr_t)arg](); }

int tmk_run(void (*setup)(void))
{
  tc_kernel_init();
#if !SIM && !RV
  tc_cm_irq_priority(TM_IRQ, 0xC0);
  tc_cm_irq_enable(TM_IRQ);
#endif
  setup();
  return tc_kernel_start();
}

void tmk_stop(int status)
{
#if SIM
  tc_sim_stop(status);
#elif RV
  tc_rv_stop(status);
#else
  tc_cm_stop(status);
#endif
}

int tmk_thread_create(int id, int priority, void (*entry)(void))
{
  if (id < 0 || id >= TMK_THREADS || priority < 1 || priority > 31) return TMK_ERROR;
  entries[id] = entry;
  tc_status st = tc_thread_create(&threads[id], "tm", thread_entry, (void *)(uintptr_t)id, stacks[id],
                                  STACK_SIZE, (unsigned)priority, (unsigned)priority, 0, 0);
  return st == TC_OK ? TMK_OK : TMK_ERROR;
}

int tmk_thread_resume(int id)
{
  if (id < 0 || id >= TMK_THREADS) return TMK_ERROR;
  return tc_thread_resume(&threads[id]) == TC_OK ? TMK_OK : TMK_ERROR;
}

int tmk_thread_suspend(int id)
{
  if (id < 0 || id >= TMK_THREADS) return TMK_ERROR;
  return tc_thread_suspend(&threads[id]) == TC_OK ? TMK_OK : TMK_ERROR;
}

void tmk_thread_relinquish(void) { tc_thread_yield(); }

void tmk_thread_sleep(uint32_t ticks) { (void)tc_thread_sleep(ticks); }

uint32_t tmk_tick_hz(void) { return TC_TICK_HZ; }

uint32_t tmk_ticks(void) { return tc_tick_get(); }

int tmk_queue_create(int id)
{
  if (id != 0) return TMK_ERROR;
  tc_status st = tc_queue_create(&queues[0], "tm", 4 * sizeof(unsigned long), queue_memory, sizeof queue_memory);
  return st == TC_OK ? TMK_OK : TMK_ERROR;
}

int tmk_queue_send(int id, const unsigned long *message)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return tc_queue_send(&queues[id], message, TC_NO_WAIT) == TC_OK ? TMK_OK : TMK_ERROR;
}

int tmk_queue_receive(int id, unsigned long *message)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return tc_queue_receive(&queues[id], message, TC_NO_WAIT) == TC_OK ? TMK_OK : TMK_ERROR;
}

int tmk_semaphore_create(int id)
{
  if (id != 0) return TMK_ERROR;
  return tc_sem_create(&semaphores[0], "tm", 1, UINT32_MAX) == TC_OK ? TMK_OK : TMK_ERROR;
}

int tmk_semaphore_get(int id)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return tc_sem_take(&semaphores[id], TC_NO_WAIT) == TC_OK ? TMK_OK : TMK_ERROR;
}

int tmk_semaphore_put(int id)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return tc_sem_give(&semaphores[id]) == TC_OK ? TMK_OK : TMK_ERROR;
}

int tmk_pool_create(int id)
{
  if (id != 0) return TMK_ERROR;
  return tc_block_pool_create(&pools[0], "tm", 128, pool_memory, sizeof pool_memory) == TC_OK ? TMK_OK : TMK_ERROR;
}

int tmk_pool_allocate(int id, unsigned char **block)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return tc_block_alloc(&pools[id], (void **)block, TC_NO_WAIT) == TC_OK ? TMK_OK : TMK_ERROR;
}

int tmk_pool_free(int id, unsigned char *block)
{
  if (id < 0 || id >= 1) return TMK_ERROR;
  return tc_block_free(block) == TC_OK ? TMK_OK : TMK_ERROR;
}

#if SIM
void tmk_interrupt_raise(void) { (void)tc_sim_irq_at(tc_sim_now(), tm_interrupt_handler); }

void tmk_work(void) { tc_sim_consume(100); }
#elif RV
/* The machine software interrupt's handler (the port's weak one otherwise stops the run). */
void tc_rv_software_handler(void) { tm_interrupt_handler(); }

void tmk_interrupt_raise(void) { tc_rv_software_interrupt(); }

void tmk_work(void) {}
#else
/* The device's handler (TC_BOARD_IRQ_HANDLERS: line 30's name on mps2). */
void PORT0_6_Handler(void) { tm_interrupt_handler(); }

void tmk_interrupt_raise(void) { tc_cm_irq_trigger(TM_IRQ); }

void tmk_work(void) {}
#endif

void tmk_interrupt_inline(void)
{
  unsigned masked = tc_interrupt_disable();
  tc_isr_enter();
  tm_interrupt_inline_handler();
  tc_isr_exit();
  tc_interrupt_restore(masked);
}
