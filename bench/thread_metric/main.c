/* SPDX-License-Identifier: MIT */
/*
 * Thread-Metric: the eight tests of the RTOS benchmark suite that ThreadX, FreeRTOS and Zephyr
 * users quote, written from the suite's public description (not its code), with its
 * structure -- a reporting thread at the highest priority, the test threads below it, 16-byte
 * messages, 128-byte blocks, an interrupt raised from software -- and its measure: the
 * operations completed in a reporting interval (30 s by default, as the suite says).
 *
 *   thread_metric [SECONDS[ms] [TEST ...]]  TEST: basic cooperative preemptive interrupt
 *                                           interrupt_preemption message synchronization memory
 *
 * (An interval in milliseconds, "20ms", keeps a profile's instruction trace small.)
 *
 * The tests call a porting layer, as the suite's do: port_tacet.h on Tacet's own API (the
 * program thread_metric), port_cmsis_os2.h on CMSIS-RTOS2 (thread_metric_cmsis_os2, built with
 * TM_CMSIS_OS2 against tacet::cmsis_os2 or, by compare.py, another kernel's CMSIS-RTOS2). One
 * kernel run: the reporter sets a test up, measures it, deletes its threads and objects, and
 * goes on to the next.
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
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if __has_include("tacet/sim.h")
#include <time.h>

#include "tacet/sim.h"
#define TM_SIM 1
#define TM_STACK_SIZE 16384u
#else
#if __has_include("tacet/cortex_m.h")
#include "tacet/cortex_m.h"
#endif
#define TM_SIM 0
#define TM_STACK_SIZE 1024u
#define TM_IRQ 30u /* the software interrupt, line 30 (GPIO 0 pin 6 on mps2: nothing drives it) */
#endif

#ifdef TM_CMSIS_OS2
#include "port_cmsis_os2.h"
#else
#include "port_tacet.h"
#endif

/* The priorities of the suite, 1 the most urgent: the reporter above every test thread. */
#define REPORT_PRIORITY 1u
#define TEST_PRIORITY   10u /* threads of one priority; the lowest of a chain */
#define REPORTER        5u  /* its slot; the test threads are 0 .. 4 */

static volatile uint32_t counters[5]; /* per worker (or per event) */
static volatile uint32_t isr_count;
static unsigned interval_ms = 30000;
static bool failed;

/* On the sim port a test thread spends 100 virtual cycles per operation, or virtual time
 * would stand still and the reporter never wake. */
static inline void work_unit(void)
{
#if TM_SIM
  tc_sim_consume(100);
#endif
}

static void make_worker(unsigned i, void (*fn)(void *), unsigned priority, bool start)
{
  if (!tm_thread_create(i, fn, priority, start)) {
    printf("thread_metric: creating a test thread failed\n");
    tm_end(2);
  }
}

static void created(bool ok)
{
  if (!ok) {
    printf("thread_metric: creating a test's object failed\n");
    tm_end(2);
  }
}

/* ---- the interrupt ------------------------------------------------------------------------ */

static void (*volatile isr_body)(void);

#if TM_SIM
static void raise_interrupt(void) { (void)tc_sim_irq_at(tc_sim_now(), isr_body); }
#else
/* On Cortex-M a handler needs no bracket of the kernel's: Tacet's, ThreadX's and FreeRTOS's
 * know handler mode from the core. */
void PORT0_6_Handler(void);
void PORT0_6_Handler(void) { isr_body(); }

static void raise_interrupt(void) { tm_interrupt_raise(); }
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
    tm_thread_relinquish();
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
    if (i < 4) tm_thread_resume(i + 1); /* it preempts, and the chain goes up */
    counters[i]++;
    work_unit();
    if (i > 0) tm_thread_suspend(i); /* back down to the one that resumed it */
  }
}

static void preemptive_setup(void)
{
  /* All but the lowest start suspended. */
  for (unsigned i = 0; i < 5; i++) make_worker(i, preemptive_thread, TEST_PRIORITY - i, i == 0);
}

/* ---- 4. interrupt processing: the handler gives a semaphore the thread takes ----------- */

static tm_sem isr_sem;

static void give_from_isr(void)
{
  isr_count++;
  tm_sem_put(&isr_sem);
}

static void interrupt_thread(void *arg)
{
  (void)arg;
  for (;;) {
    raise_interrupt();
    tm_sem_get(&isr_sem); /* given: no wait */
    counters[0]++;
    work_unit();
  }
}

static void interrupt_setup(void)
{
  created(tm_sem_create(&isr_sem, 0));
  isr_body = give_from_isr;
  make_worker(0, interrupt_thread, TEST_PRIORITY, true);
}

static void interrupt_teardown(void) { tm_sem_delete(&isr_sem); }

static bool interrupt_check(void) { return isr_count - counters[0] <= 1; }

/* ---- 5. interrupt preemption: the handler wakes a higher thread ------------------------ */

static void wake_from_isr(void)
{
  isr_count++;
  tm_wake_from_interrupt(1);
}

static void preempting_thread(void *arg)
{
  (void)arg;
  for (;;) {
    tm_wait_for_interrupt(1); /* at once when it starts */
    counters[1]++;
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
  isr_body = wake_from_isr;
  make_worker(0, preempted_thread, TEST_PRIORITY, true);
  make_worker(1, preempting_thread, TEST_PRIORITY - 1, true);
}

static bool interrupt_preemption_check(void)
{
  return isr_count - counters[0] <= 1 && isr_count - counters[1] <= 1;
}

/* ---- 6. message processing: a 16-byte message sent and received ------------------------ */

static tm_queue queue;

static void message_thread(void *arg)
{
  (void)arg;
  uint32_t out[4] = {0x11111111u, 0x22222222u, 0x33333333u, 0x44444444u}, in[4];
  for (;;) {
    tm_queue_send(&queue, out);
    tm_queue_receive(&queue, in);
    if (in[3] != out[3]) failed = true;
    out[3]++;
    counters[0]++;
    work_unit();
  }
}

static void message_setup(void)
{
  created(tm_queue_create(&queue));
  make_worker(0, message_thread, TEST_PRIORITY, true);
}

static void message_teardown(void) { tm_queue_delete(&queue); }

/* ---- 7. synchronisation: a semaphore taken and given ----------------------------------- */

static tm_sem sync_sem;

static void synchronization_thread(void *arg)
{
  (void)arg;
  for (;;) {
    tm_sem_get(&sync_sem);
    tm_sem_put(&sync_sem);
    counters[0]++;
    work_unit();
  }
}

static void synchronization_setup(void)
{
  created(tm_sem_create(&sync_sem, 1));
  make_worker(0, synchronization_thread, TEST_PRIORITY, true);
}

static void synchronization_teardown(void) { tm_sem_delete(&sync_sem); }

/* ---- 8. memory allocation: a 128-byte block allocated and freed ------------------------- */

static tm_pool pool;

static void memory_thread(void *arg)
{
  (void)arg;
  for (;;) {
    void *block = tm_pool_allocate(&pool);
    tm_pool_free(&pool, block);
    counters[0]++;
    work_unit();
  }
}

static void memory_setup(void)
{
  created(tm_pool_create(&pool));
  make_worker(0, memory_thread, TEST_PRIORITY, true);
}

static void memory_teardown(void) { tm_pool_delete(&pool); }

/* ---- the reporter and the table ---------------------------------------------------------- */

typedef struct {
  const char *name;
  const char *what; /* one operation */
  void (*setup)(void);
  bool (*check)(void);
  void (*teardown)(void); /* the objects setup created (its threads are deleted anyway) */
  unsigned counted;       /* counters summed: the first `counted` */
  unsigned threads;       /* test threads setup created: slots 0 .. threads-1 */
} tm_test;

static const tm_test tests[] = {
    {"basic", "1024-word array pass", basic_setup, NULL, NULL, 1, 1},
    {"cooperative", "relinquish", cooperative_setup, cooperative_check, NULL, 5, 5},
    {"preemptive", "resume or suspend and its switch", preemptive_setup, NULL, NULL, 5, 5},
    {"interrupt", "interrupt + semaphore give/take", interrupt_setup, interrupt_check, interrupt_teardown, 1,
     1},
    {"interrupt_preemption", "interrupt + " TM_WAKE_WHAT " + 2 switches", interrupt_preemption_setup,
     interrupt_preemption_check, NULL, 1, 2},
    {"message", "16-byte send + receive", message_setup, NULL, message_teardown, 1, 1},
    {"synchronization", "semaphore take + give", synchronization_setup, NULL, synchronization_teardown, 1, 1},
    {"memory", "128-byte block allocate + free", memory_setup, NULL, memory_teardown, 1, 1},
};
#define TESTS (sizeof tests / sizeof tests[0])

static const tm_test *current_test;
static bool wanted[TESTS];

static uint32_t operations(void)
{
  uint32_t n = 0;
  for (unsigned i = 0; i < current_test->counted; i++) n += counters[i];
  return n;
}

#if TM_SIM
static uint64_t host_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

/* One test: its threads and objects made, the interval measured, its line printed, all of it
 * deleted. */
static void measure(const tm_test *t)
{
  memset((void *)counters, 0, sizeof counters);
  isr_count = 0;
  current_test = t;
  t->setup();
  tm_sleep(1); /* the test threads are running: start on a tick */
  uint32_t ops0 = operations();
  tm_time t0 = tm_cycles();
#if TM_SIM
  uint64_t h0 = host_ns();
#endif
  tm_sleep(interval_ms * tm_tick_hz() / 1000u);
  uint32_t ops = operations() - ops0;
  uint64_t cycles = (tm_time)(tm_cycles() - t0);
  bool ok = ops != 0 && (t->check == NULL || t->check()) && !failed;
#if TM_SIM
  uint64_t ns = host_ns() - h0;
  printf("  %-21s %10lu ops  %8.1f host ns per op      (%s)%s\n", t->name, (unsigned long)ops,
         ops ? (double)ns / ops : 0.0, t->what, ok ? "" : "  CHECK FAILED");
  (void)cycles;
#else
  /* QEMU -icount shift=5: an instruction every 32 ns. */
  uint64_t instructions = (cycles * (1000000000u / tm_cycles_hz())) >> 5;
  uint64_t x10 = ops ? instructions * 10u / ops : 0;
  printf("  %-21s %10lu ops  %6lu.%lu instructions per op  (%s)%s\n", t->name, (unsigned long)ops,
         (unsigned long)(x10 / 10), (unsigned long)(x10 % 10), t->what, ok ? "" : "  CHECK FAILED");
#endif
  if (!ok) failed = true;
  for (unsigned i = 0; i < t->threads; i++) tm_thread_delete(i);
  if (t->teardown != NULL) t->teardown();
}

static void reporter_entry(void *arg)
{
  (void)arg;
  for (size_t i = 0; i < TESTS; i++)
    if (wanted[i]) measure(&tests[i]);
  tm_end(failed ? 1 : 0);
}

int main(int argc, char **argv)
{
  if (argc > 1) {
    char *end;
    unsigned long n = strtoul(argv[1], &end, 10);
    unsigned long ms = strcmp(end, "ms") == 0 ? n : *end == '\0' ? n * 1000u : 0;
    if (ms == 0 || ms > 3600000u) {
      printf("thread_metric: the interval is SECONDS or MILLISECONDSms (at least one tick, at "
             "most an hour), not '%s'\n", argv[1]);
      return 2;
    }
    interval_ms = (unsigned)ms;
  }
  unsigned chosen = 0;
  for (size_t i = 0; i < TESTS; i++) {
    wanted[i] = argc <= 2;
    for (int a = 2; a < argc; a++) wanted[i] |= strcmp(argv[a], tests[i].name) == 0;
    chosen += wanted[i];
  }
  if (chosen == 0) {
    printf("thread_metric: no such test\n");
    return 2;
  }
  tm_init();
  if (interval_ms * tm_tick_hz() / 1000u == 0) {
    printf("thread_metric: the interval is shorter than a tick\n");
    return 2;
  }
#if !TM_SIM
  tm_interrupt_setup();
#endif
  printf("Thread-Metric on %s (%s), %u ms per test; ", TM_KERNEL, TM_SIM ? "sim" : "cortex-m", interval_ms);
  tm_print_config();
  if (!tm_thread_create(REPORTER, reporter_entry, REPORT_PRIORITY, true)) {
    printf("thread_metric: creating the reporter failed\n");
    return 2;
  }
  return tm_start();
}
