/* SPDX-License-Identifier: MIT */
/*
 * Thread-Metric for Tacet: the eight tests of the RTOS benchmark suite that ThreadX, FreeRTOS
 * and Zephyr users quote, written from the suite's public description (not its code), with
 * its structure -- a reporting thread at the highest priority, the test threads below it,
 * 16-byte messages, 128-byte blocks, an interrupt raised from software -- and its measure:
 * the operations completed in a reporting interval (30 s by default, as the suite says).
 *
 *   thread_metric [SECONDS[ms] [TEST ...]]  TEST: basic cooperative preemptive interrupt
 *                                           interrupt_preemption message synchronization memory
 *
 * (An interval in milliseconds, "20ms", keeps a profile's instruction trace small.)
 *
 * On Cortex-M under QEMU `-icount shift=5` every instruction takes 32 ns of virtual time,
 * so the figure printed is exact and the same on every run: instructions per operation
 * (interval instructions / operations), the unit of docs/measurements.md. On the sim port the
 * test threads spend 100 virtual cycles per operation so that virtual time moves, and the
 * figure is host nanoseconds per operation: for finding regressions on a PC, not for
 * comparison with the boards.
 *
 * Each test also checks what the suite checks (the cooperative threads' counts within one of
 * each other, the interrupt counts agreeing); the exit status is 1 when a check fails.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime on the sim port (C11 has no monotonic clock) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tacet/tacet.h"

#if __has_include("tacet/sim.h")
#include <time.h>

#include "tacet/sim.h"
#define SIM 1
#define STACK_SIZE 16384u
#else
#include "tacet/cortex_m.h"
#define SIM 0
#define STACK_SIZE 1024u
#define TM_IRQ 30u /* the software interrupt: triggered through the NVIC */
#endif

/* The priorities of the suite: the reporter above every test thread. */
#define REPORT_PRIORITY 1u
#define TEST_PRIORITY   10u /* threads of one priority; the lowest of a chain */

static tc_thread reporter, workers[5];
static uint8_t stacks[6][STACK_SIZE] __attribute__((aligned(8)));
static volatile uint32_t counters[5]; /* per worker (or per event) */
static volatile uint32_t isr_count;
static unsigned interval_ms = 30000;
static bool failed;

/* On the sim port a test thread spends 100 virtual cycles per operation, or virtual time
 * would stand still and the reporter never wake. */
static inline void work_unit(void)
{
#if SIM
  tc_sim_consume(100);
#endif
}

static void make_worker(unsigned i, void (*fn)(void *), unsigned priority, bool start)
{
  tc_status st = tc_thread_create(&workers[i], "worker", fn, (void *)(uintptr_t)i, stacks[i], STACK_SIZE,
                                  priority, priority, 0, start ? TC_AUTO_START : 0u);
  if (st != TC_OK) {
    printf("thread_metric: creating a test thread failed (%d)\n", (int)st);
    exit(2);
  }
}

/* ---- the interrupt ------------------------------------------------------------------------ */

static void (*volatile isr_body)(void);

#if SIM
static void raise_interrupt(void) { (void)tc_sim_irq_at(tc_sim_now(), isr_body); }
#else
/* On Cortex-M a handler needs no tc_isr_enter/exit (the port knows handler mode), like
 * ThreadX's and FreeRTOS's. */
void PORT0_6_Handler(void) { isr_body(); } /* line 30 (GPIO 0 pin 6: nothing drives it) */

static void raise_interrupt(void) { tc_cm_irq_trigger(TM_IRQ); }
#endif

/* ---- 1. basic processing: one thread, the baseline ------------------------------------- */

static volatile uint32_t basic_array[1024];

static void basic_thread(void *arg)
{
  (void)arg;
  for (;;) {
    /* The same work on any RTOS: it measures the processor, not the kernel. */
    for (unsigned i = 0; i < 1024u; i++) basic_array[i] = (basic_array[i] + i) ^ 0x5Au;
    counters[0]++;
    work_unit();
  }
}

static void basic_setup(void) { make_worker(0, basic_thread, TEST_PRIORITY, true); }

/* ---- 2. cooperative scheduling: five equal threads that relinquish in turn ------------ */

static void cooperative_thread(void *arg)
{
  unsigned i = (unsigned)(uintptr_t)arg;
  for (;;) {
    counters[i]++;
    work_unit();
    tc_thread_yield();
  }
}

static void cooperative_setup(void)
{
  for (unsigned i = 0; i < 5; i++) make_worker(i, cooperative_thread, TEST_PRIORITY, true);
}

static bool cooperative_check(void)
{
  uint32_t lo = counters[0], hi = counters[0];
  for (unsigned i = 1; i < 5; i++) {
    if (counters[i] < lo) lo = counters[i];
    if (counters[i] > hi) hi = counters[i];
  }
  return hi - lo <= 1;
}

/* ---- 3. preemptive scheduling: a chain of resumes up five priorities ------------------- */

static void preemptive_thread(void *arg)
{
  unsigned i = (unsigned)(uintptr_t)arg; /* 0 lowest priority ... 4 highest */
  for (;;) {
    if (i < 4) tc_thread_resume(&workers[i + 1]); /* it preempts, and the chain goes up */
    counters[i]++;
    work_unit();
    if (i > 0) tc_thread_suspend(&workers[i]); /* back down to the one that resumed it */
  }
}

static void preemptive_setup(void)
{
  /* All but the lowest start suspended. */
  for (unsigned i = 0; i < 5; i++) make_worker(i, preemptive_thread, TEST_PRIORITY - i, i == 0);
}

/* ---- 4. interrupt processing: the handler gives a semaphore the thread takes ----------- */

static tc_sem isr_sem;

static void give_from_isr(void)
{
  isr_count++;
  tc_sem_give(&isr_sem);
}

static void interrupt_thread(void *arg)
{
  (void)arg;
  for (;;) {
    raise_interrupt();
    tc_sem_take(&isr_sem, TC_WAIT_FOREVER); /* given: no wait */
    counters[0]++;
    work_unit();
  }
}

static void interrupt_setup(void)
{
  tc_sem_create(&isr_sem, "isr", 0, 1);
  isr_body = give_from_isr;
  make_worker(0, interrupt_thread, TEST_PRIORITY, true);
}

static bool interrupt_check(void) { return isr_count - counters[0] <= 1; }

/* ---- 5. interrupt preemption: the handler resumes a higher thread ---------------------- */

static void resume_from_isr(void)
{
  isr_count++;
  tc_thread_resume(&workers[1]);
}

static void preempting_thread(void *arg)
{
  (void)arg;
  for (;;) {
    counters[1]++;
    tc_thread_suspend(&workers[1]);
  }
}

static void preempted_thread(void *arg)
{
  (void)arg;
  for (;;) {
    raise_interrupt(); /* the higher thread runs before this returns */
    counters[0]++;
    work_unit();
  }
}

static void interrupt_preemption_setup(void)
{
  isr_body = resume_from_isr;
  make_worker(0, preempted_thread, TEST_PRIORITY, true);
  make_worker(1, preempting_thread, TEST_PRIORITY - 1, false);
}

static bool interrupt_preemption_check(void)
{
  return isr_count - counters[0] <= 1 && isr_count - counters[1] <= 1;
}

/* ---- 6. message processing: a 16-byte message sent and received ------------------------ */

static tc_queue queue;
static uint32_t queue_buf[4 * 10];

static void message_thread(void *arg)
{
  (void)arg;
  uint32_t out[4] = {0x11111111u, 0x22222222u, 0x33333333u, 0x44444444u}, in[4];
  for (;;) {
    tc_queue_send(&queue, out, TC_WAIT_FOREVER);
    tc_queue_receive(&queue, in, TC_WAIT_FOREVER);
    if (in[3] != out[3]) failed = true;
    out[3]++;
    counters[0]++;
    work_unit();
  }
}

static void message_setup(void)
{
  tc_queue_create(&queue, "q", 16, queue_buf, sizeof queue_buf);
  make_worker(0, message_thread, TEST_PRIORITY, true);
}

/* ---- 7. synchronisation: a semaphore taken and given ----------------------------------- */

static tc_sem sync_sem;

static void synchronization_thread(void *arg)
{
  (void)arg;
  for (;;) {
    tc_sem_take(&sync_sem, TC_WAIT_FOREVER);
    tc_sem_give(&sync_sem);
    counters[0]++;
    work_unit();
  }
}

static void synchronization_setup(void)
{
  tc_sem_create(&sync_sem, "s", 1, 1);
  make_worker(0, synchronization_thread, TEST_PRIORITY, true);
}

/* ---- 8. memory allocation: a 128-byte block allocated and freed ------------------------- */

static tc_block_pool pool;
static uint64_t pool_mem[TC_BLOCK_POOL_MEM(128, 16) / 8 + 1];

static void memory_thread(void *arg)
{
  (void)arg;
  for (;;) {
    void *block;
    tc_block_alloc(&pool, &block, TC_WAIT_FOREVER);
    tc_block_free(block);
    counters[0]++;
    work_unit();
  }
}

static void memory_setup(void)
{
  tc_block_pool_create(&pool, "p", 128, pool_mem, sizeof pool_mem);
  make_worker(0, memory_thread, TEST_PRIORITY, true);
}

/* ---- the reporter and the table ---------------------------------------------------------- */

typedef struct {
  const char *name;
  const char *what; /* one operation */
  void (*setup)(void);
  bool (*check)(void);
  unsigned counted; /* counters summed: the first `counted` */
} tm_test;

static const tm_test tests[] = {
    {"basic", "1024-word array pass", basic_setup, NULL, 1},
    {"cooperative", "relinquish", cooperative_setup, cooperative_check, 5},
    {"preemptive", "resume or suspend and its switch", preemptive_setup, NULL, 5},
    {"interrupt", "interrupt + semaphore give/take", interrupt_setup, interrupt_check, 1},
    {"interrupt_preemption", "interrupt + resume/suspend + 2 switches", interrupt_preemption_setup,
     interrupt_preemption_check, 1},
    {"message", "16-byte send + receive", message_setup, NULL, 1},
    {"synchronization", "semaphore take + give", synchronization_setup, NULL, 1},
    {"memory", "128-byte block allocate + free", memory_setup, NULL, 1},
};

static const tm_test *current_test;

static uint32_t operations(void)
{
  uint32_t n = 0;
  for (unsigned i = 0; i < current_test->counted; i++) n += counters[i];
  return n;
}

#if SIM
static uint64_t host_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

static void reporter_entry(void *arg)
{
  (void)arg;
  tc_thread_sleep(1); /* the test threads are running: start on a tick */
  uint32_t ops0 = operations();
  uint64_t t0 = tc_cycles();
#if SIM
  uint64_t h0 = host_ns();
#endif
  tc_thread_sleep(interval_ms * TC_TICK_HZ / 1000u);
  uint32_t ops = operations() - ops0;
  uint64_t cycles = tc_cycles() - t0;
  bool ok = ops != 0 && (current_test->check == NULL || current_test->check()) && !failed;
#if SIM
  uint64_t ns = host_ns() - h0;
  printf("  %-21s %10lu ops  %8.1f host ns per op      (%s)%s\n", current_test->name, (unsigned long)ops,
         ops ? (double)ns / ops : 0.0, current_test->what, ok ? "" : "  CHECK FAILED");
  (void)cycles;
#else
  uint64_t instructions = tc_cm_cycles_to_instructions(cycles);
  uint64_t x10 = ops ? instructions * 10u / ops : 0;
  printf("  %-21s %10lu ops  %6lu.%lu instructions per op  (%s)%s\n", current_test->name,
         (unsigned long)ops, (unsigned long)(x10 / 10), (unsigned long)(x10 % 10), current_test->what,
         ok ? "" : "  CHECK FAILED");
#endif
  if (!ok) failed = true;
#if SIM
  tc_sim_stop(0);
#else
  tc_cm_stop(0);
#endif
}

static void run_test(const tm_test *t)
{
  tc_kernel_init();
  memset((void *)counters, 0, sizeof counters);
  isr_count = 0;
  current_test = t;
  tc_thread_create(&reporter, "reporter", reporter_entry, NULL, stacks[5], STACK_SIZE, REPORT_PRIORITY,
                   REPORT_PRIORITY, 0, TC_AUTO_START);
  t->setup();
  tc_kernel_start();
}

int main(int argc, char **argv)
{
  if (argc > 1) {
    char *end;
    unsigned long n = strtoul(argv[1], &end, 10);
    unsigned long ms = strcmp(end, "ms") == 0 ? n : *end == '\0' ? n * 1000u : 0;
    if (ms == 0 || ms > 3600000u || ms * TC_TICK_HZ / 1000u == 0) {
      printf("thread_metric: the interval is SECONDS or MILLISECONDSms (at least one tick, at "
             "most an hour), not '%s'\n", argv[1]);
      return 2;
    }
    interval_ms = (unsigned)ms;
  }
#if !SIM
  tc_cm_irq_priority(TM_IRQ, 0xC0);
  tc_cm_irq_enable(TM_IRQ);
#endif
  printf("Thread-Metric on Tacet (%s), %u ms per test; kernel TC_PRIORITIES=%u TC_CHECKS=%d TC_STATS=%d "
         "TC_STACK_CHECK=%d\n",
         TC_PORT_NAME, interval_ms, (unsigned)TC_PRIORITIES, TC_CHECKS, TC_STATS, TC_STACK_CHECK);
  unsigned ran = 0;
  for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
    bool wanted = argc <= 2;
    for (int a = 2; a < argc; a++) wanted |= strcmp(argv[a], tests[i].name) == 0;
    if (!wanted) continue;
    run_test(&tests[i]);
    ran++;
  }
  if (ran == 0) {
    printf("thread_metric: no such test\n");
    return 2;
  }
  return failed ? 1 : 0;
}
