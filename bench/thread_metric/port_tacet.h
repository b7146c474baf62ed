/* SPDX-License-Identifier: MIT */
/*
 * Thread-Metric's porting layer on Tacet's own API (main.c says what each function is for;
 * port_cmsis_os2.h is the same layer on CMSIS-RTOS2). Every function is static inline: an
 * operation costs the services it calls and nothing of the layer.
 */
#ifndef TM_PORT_TACET_H
#define TM_PORT_TACET_H

#include "tacet/tacet.h"

#define TM_KERNEL "Tacet"
#define TM_THREADS 6u /* five test threads and the reporter */

static tc_thread tm_threads[TM_THREADS];
static uint8_t tm_stacks[TM_THREADS][TM_STACK_SIZE] __attribute__((aligned(8)));
static int tm_exit_status;

typedef uint64_t tm_time;
typedef tc_sem tm_sem;
typedef tc_queue tm_queue;
typedef tc_block_pool tm_pool;

/* The kernel's configuration, for the report's header. */
static inline void tm_print_config(void)
{
  printf("kernel TC_PRIORITIES=%u TC_CHECKS=%d TC_STATS=%d TC_STACK_CHECK=%d\n",
         (unsigned)TC_PRIORITIES, TC_CHECKS, TC_STATS, TC_STACK_CHECK);
}

static inline void tm_init(void) { tc_kernel_init(); }

/* Start the kernel; returns what tm_end() says (the sim port and mps2 return). */
static inline int tm_start(void)
{
  (void)tc_kernel_start();
  return tm_exit_status;
}

static inline void tm_end(int status)
{
  tm_exit_status = status;
#if TM_SIM
  tc_sim_stop(0);
#else
  tc_cm_stop(0);
#endif
}

/* Thread-Metric's priorities, 1 the most urgent, are Tacet's. */
static inline bool tm_thread_create(unsigned slot, void (*entry)(void *), unsigned priority, bool start)
{
  return tc_thread_create(&tm_threads[slot], slot + 1u < TM_THREADS ? "worker" : "reporter", entry,
                          (void *)(uintptr_t)slot, tm_stacks[slot], TM_STACK_SIZE, priority, priority, 0,
                          start ? TC_AUTO_START : 0u) == TC_OK;
}

static inline void tm_thread_delete(unsigned slot)
{
  (void)tc_thread_terminate(&tm_threads[slot]);
  (void)tc_thread_delete(&tm_threads[slot]);
}

static inline void tm_thread_resume(unsigned slot) { (void)tc_thread_resume(&tm_threads[slot]); }
static inline void tm_thread_suspend(unsigned slot) { (void)tc_thread_suspend(&tm_threads[slot]); }
static inline void tm_thread_relinquish(void) { tc_thread_yield(); }

/* Interrupt preemption: the handler resumes the thread that suspended itself. */
#define TM_WAKE_WHAT "resume/suspend"
static inline void tm_wait_for_interrupt(unsigned slot) { tm_thread_suspend(slot); }
static inline void tm_wake_from_interrupt(unsigned slot) { tm_thread_resume(slot); }

static inline void tm_sleep(uint32_t ticks) { (void)tc_thread_sleep(ticks); }
static inline uint32_t tm_tick_hz(void) { return TC_TICK_HZ; }
static inline tm_time tm_cycles(void) { return tc_cycles(); }
static inline uint32_t tm_cycles_hz(void) { return (uint32_t)tc_cycles_hz(); }

static inline bool tm_sem_create(tm_sem *s, uint32_t initial) { return tc_sem_create(s, "s", initial, 1) == TC_OK; }
static inline void tm_sem_get(tm_sem *s) { (void)tc_sem_take(s, TC_WAIT_FOREVER); }
static inline void tm_sem_put(tm_sem *s) { (void)tc_sem_give(s); }
static inline void tm_sem_delete(tm_sem *s) { (void)tc_sem_delete(s); }

/* Ten 16-byte messages. */
static uint32_t tm_queue_buf[4 * 10];
static inline bool tm_queue_create(tm_queue *q)
{
  return tc_queue_create(q, "q", 16, tm_queue_buf, sizeof tm_queue_buf) == TC_OK;
}
static inline void tm_queue_send(tm_queue *q, const uint32_t msg[4]) { (void)tc_queue_send(q, msg, TC_WAIT_FOREVER); }
static inline void tm_queue_receive(tm_queue *q, uint32_t msg[4]) { (void)tc_queue_receive(q, msg, TC_WAIT_FOREVER); }
static inline void tm_queue_delete(tm_queue *q) { (void)tc_queue_delete(q); }

/* Sixteen 128-byte blocks. */
static uint64_t tm_pool_mem[TC_BLOCK_POOL_MEM(128, 16) / 8 + 1];
static inline bool tm_pool_create(tm_pool *p) { return tc_block_pool_create(p, "p", 128, tm_pool_mem, sizeof tm_pool_mem) == TC_OK; }
static inline void *tm_pool_allocate(tm_pool *p)
{
  void *block;
  (void)tc_block_alloc(p, &block, TC_WAIT_FOREVER);
  return block;
}
static inline void tm_pool_free(tm_pool *p, void *block)
{
  (void)p;
  (void)tc_block_free(block);
}
static inline void tm_pool_delete(tm_pool *p) { (void)tc_block_pool_delete(p); }

#if !TM_SIM
/* The software interrupt's line, a kernel priority, enabled. */
static inline void tm_interrupt_setup(void)
{
  tc_cm_irq_priority(TM_IRQ, 0xC0);
  tc_cm_irq_enable(TM_IRQ);
}
static inline void tm_interrupt_raise(void) { tc_cm_irq_trigger(TM_IRQ); }
#endif

#endif /* TM_PORT_TACET_H */
