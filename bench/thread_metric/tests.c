/* SPDX-License-Identifier: MIT */
/*
 * Thread-Metric: the eight programs of the RTOS benchmark suite ThreadX, FreeRTOS and Zephyr
 * users quote, as the public suite runs them -- the same threads at the same priorities, the
 * same loops, counters and checks -- on any kernel through its porting layer (tm_port.h).
 * Written here from the suite's published behaviour; none of its code.
 *
 *   thread_metric [SECONDS[ms] [TEST ...]]  TEST: basic cooperative preemptive interrupt
 *                                           interrupt_preemption message synchronization memory
 *
 * A layer that cannot restart its kernel (ThreadX, FreeRTOS) runs one test per program run.
 *
 * The measure: the operations completed in a reporting interval (30 s in the suite; the
 * argument here), as the suite counts them. The reporter, the most urgent thread (priority 2),
 * sleeps one tick so that the interval starts on a tick, takes the counters, sleeps the
 * interval, and takes them again: the interval is a whole number of ticks. Under QEMU
 * `-icount shift=5` (2^5 ns of virtual time per instruction) that is an exact count of
 * instructions, and the figure printed is instructions per operation, the same on every run
 * (RISC-V's virt runs at `-icount shift=0`: one instruction per nanosecond).
 * On the sim port the figure is host nanoseconds per operation, for finding regressions on a
 * PC; each test thread then spends virtual time per operation (tmk_work()).
 *
 * Each test checks what the suite checks: counters that must stay within one of their
 * average, a counter that must have moved, a message that must come back as sent. A failed
 * check marks the line "CHECK FAILED" and makes the exit status 1.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime on the sim port (C11 has no monotonic clock) */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tm_port.h"

#ifndef TM_SIM
#define TM_SIM 0
#endif
#if TM_SIM
#include <time.h>
#define WORK() tmk_work()
#else
#define WORK() ((void)0)
#if defined(__riscv)
#define TM_ICOUNT_SHIFT 0 /* QEMU virt's command (ports/riscv): -icount shift=0, 1 ns per instruction */
#else
#define TM_ICOUNT_SHIFT 5 /* QEMU -icount shift=5: 2^5 ns of virtual time per instruction */
#endif
#endif

#define REPORTER        5
#define REPORT_PRIORITY 2

static bool failed; /* a test thread left its loop: a service failed */

/* ---- 1. basic processing: the same work on every kernel --------------------------------- */

static volatile unsigned long basic_count;
static volatile unsigned long basic_array[1024];

static void basic_thread(void)
{
  for (int i = 0; i < 1024; i++) basic_array[i] = 0;
  for (;;) {
    /* One read of the counter per pass, so that the pass measures the processor. */
    unsigned long seed = basic_count;
    for (int i = 0; i < 1024; i++) basic_array[i] = (basic_array[i] + seed) ^ basic_array[i];
    basic_count++;
    WORK();
  }
}

static void basic_setup(void)
{
  if (tmk_thread_create(0, 10, basic_thread) != TMK_OK || tmk_thread_resume(0) != TMK_OK) failed = true;
}

/* ---- 2. cooperative scheduling: five threads of one priority relinquishing in turn ------ */

static volatile unsigned long coop_count[5];

static void coop_thread_0(void)
{
  for (;;) {
    tmk_thread_relinquish();
    coop_count[0]++;
    WORK();
  }
}

static void coop_thread_1(void)
{
  for (;;) {
    tmk_thread_relinquish();
    coop_count[1]++;
    WORK();
  }
}

static void coop_thread_2(void)
{
  for (;;) {
    tmk_thread_relinquish();
    coop_count[2]++;
    WORK();
  }
}

static void coop_thread_3(void)
{
  for (;;) {
    tmk_thread_relinquish();
    coop_count[3]++;
    WORK();
  }
}

static void coop_thread_4(void)
{
  for (;;) {
    tmk_thread_relinquish();
    coop_count[4]++;
    WORK();
  }
}

static void cooperative_setup(void)
{
  void (*const entries[5])(void) = {coop_thread_0, coop_thread_1, coop_thread_2, coop_thread_3,
                                    coop_thread_4};
  for (int i = 0; i < 5; i++) {
    if (tmk_thread_create(i, 3, entries[i]) != TMK_OK) failed = true;
  }
  for (int i = 0; i < 5; i++) {
    if (tmk_thread_resume(i) != TMK_OK) failed = true;
  }
}

/* ---- 3. preemptive scheduling: a chain of resumes up five priorities, then back down ---- */

static volatile unsigned long preempt_count[5];

static void preempt_thread_0(void) /* priority 10, the only one ready at first */
{
  for (;;) {
    tmk_thread_resume(1); /* 1 runs, resumes 2 ... 4; all four suspend again before this returns */
    preempt_count[0]++;
    WORK();
  }
}

static void preempt_thread_1(void) /* priority 9 */
{
  for (;;) {
    tmk_thread_resume(2);
    preempt_count[1]++;
    WORK();
    tmk_thread_suspend(1);
  }
}

static void preempt_thread_2(void) /* priority 8 */
{
  for (;;) {
    tmk_thread_resume(3);
    preempt_count[2]++;
    WORK();
    tmk_thread_suspend(2);
  }
}

static void preempt_thread_3(void) /* priority 7 */
{
  for (;;) {
    tmk_thread_resume(4);
    preempt_count[3]++;
    WORK();
    tmk_thread_suspend(3);
  }
}

static void preempt_thread_4(void) /* priority 6, the most urgent */
{
  for (;;) {
    preempt_count[4]++;
    WORK();
    tmk_thread_suspend(4);
  }
}

static void preemptive_setup(void)
{
  void (*const entries[5])(void) = {preempt_thread_0, preempt_thread_1, preempt_thread_2,
                                    preempt_thread_3, preempt_thread_4};
  for (int i = 0; i < 5; i++) {
    if (tmk_thread_create(i, 10 - i, entries[i]) != TMK_OK) failed = true;
  }
  if (tmk_thread_resume(0) != TMK_OK) failed = true;
}

/* ---- the device interrupt's handler (test 5's; tests 1-4 and 6-8 raise none) ------------- */

static void (*volatile interrupt_body)(void);

void tm_interrupt_handler(void) { interrupt_body(); }

/* ---- 4. interrupt processing: an in-line handler puts the semaphore the thread gets ------ */

static volatile unsigned long irq_thread_count, irq_handler_count;

void tm_interrupt_inline_handler(void)
{
  irq_handler_count++;
  tmk_semaphore_put(0);
}

static void irq_thread(void) /* priority 10 */
{
  if (tmk_semaphore_get(0) != TMK_OK) { /* its one unit: from now on only the handler's */
    failed = true;
    return;
  }
  for (;;) {
    tmk_interrupt_inline();
    if (tmk_semaphore_get(0) != TMK_OK) break;
    irq_thread_count++;
    WORK();
  }
  failed = true;
}

static void interrupt_setup(void)
{
  if (tmk_thread_create(0, 10, irq_thread) != TMK_OK || tmk_semaphore_create(0) != TMK_OK ||
      tmk_thread_resume(0) != TMK_OK)
    failed = true;
}

/* ---- 5. interrupt preemption: a device interrupt's handler resumes a more urgent thread -- */

static volatile unsigned long ipre_woken_count, ipre_raiser_count, ipre_handler_count;

static void ipre_handler(void)
{
  ipre_handler_count++;
  tmk_thread_resume(0);
}

static void ipre_woken_thread(void) /* priority 3, resumed by the handler */
{
  for (;;) {
    ipre_woken_count++;
    WORK();
    tmk_thread_suspend(0);
  }
}

static void ipre_raiser_thread(void) /* priority 10 */
{
  for (;;) {
    tmk_interrupt_raise(); /* the handler, then thread 0, run before this returns */
    ipre_raiser_count++;
    WORK();
  }
}

static void interrupt_preemption_setup(void)
{
  interrupt_body = ipre_handler;
  if (tmk_thread_create(0, 3, ipre_woken_thread) != TMK_OK ||
      tmk_thread_create(1, 10, ipre_raiser_thread) != TMK_OK || tmk_thread_resume(1) != TMK_OK)
    failed = true;
}

/* ---- 6. message processing: a message of four words sent and received back --------------- */

static volatile unsigned long message_count;
static unsigned long message_out[4], message_in[4];

static void message_thread(void)
{
  message_out[0] = 0x0A0B0C0Du;
  message_out[1] = 0x1A1B1C1Du;
  message_out[2] = 0x2A2B2C2Du;
  message_out[3] = 0x3A3B3C3Du;
  for (;;) {
    if (tmk_queue_send(0, message_out) != TMK_OK) break;
    if (tmk_queue_receive(0, message_in) != TMK_OK) break;
    if (message_in[3] != message_out[3]) break;
    message_out[3]++;
    message_count++;
    WORK();
  }
  failed = true;
}

static void message_setup(void)
{
  if (tmk_thread_create(0, 10, message_thread) != TMK_OK || tmk_thread_resume(0) != TMK_OK ||
      tmk_queue_create(0) != TMK_OK)
    failed = true;
}

/* ---- 7. synchronisation: a semaphore got and put ----------------------------------------- */

static volatile unsigned long sync_count;

static void sync_thread(void)
{
  for (;;) {
    if (tmk_semaphore_get(0) != TMK_OK) break;
    if (tmk_semaphore_put(0) != TMK_OK) break;
    sync_count++;
    WORK();
  }
  failed = true;
}

static void synchronization_setup(void)
{
  if (tmk_thread_create(0, 10, sync_thread) != TMK_OK || tmk_thread_resume(0) != TMK_OK ||
      tmk_semaphore_create(0) != TMK_OK)
    failed = true;
}

/* ---- 8. memory allocation: a 128-byte block allocated and freed -------------------------- */

static volatile unsigned long memory_count;

static void memory_thread(void)
{
  for (;;) {
    unsigned char *block;
    if (tmk_pool_allocate(0, &block) != TMK_OK) break;
    if (tmk_pool_free(0, block) != TMK_OK) break;
    memory_count++;
    WORK();
  }
  failed = true;
}

static void memory_setup(void)
{
  if (tmk_thread_create(0, 10, memory_thread) != TMK_OK || tmk_thread_resume(0) != TMK_OK ||
      tmk_pool_create(0) != TMK_OK)
    failed = true;
}

/* ---- the counters as the suite reports and checks them ------------------------------------ */

typedef struct {
  unsigned long counts[5]; /* a snapshot of the test's counters */
  unsigned n;
} snapshot;

static snapshot take(const volatile unsigned long *const *counters, unsigned n)
{
  snapshot s = {{0}, n};
  for (unsigned i = 0; i < n; i++) s.counts[i] = *counters[i];
  return s;
}

/* The suite's check of counters that move in step: each within one of their average. */
static bool in_step(const snapshot *s)
{
  unsigned long total = 0;
  for (unsigned i = 0; i < s->n; i++) total += s->counts[i];
  unsigned long average = total / s->n;
  for (unsigned i = 0; i < s->n; i++) {
    if (average > 0 && (s->counts[i] + 1 < average || s->counts[i] > average + 1)) return false;
  }
  return true;
}

typedef struct {
  const char *name;
  const char *what; /* one operation */
  void (*setup)(void);
  const volatile unsigned long *counters[5]; /* what the test counts */
  unsigned n;
  int reported; /* the counter the suite reports; -1: their sum */
  bool in_step; /* the suite checks the counters against their average */
} tm_test;

static const tm_test tests[] = {
    {"basic", "1024-word array pass", basic_setup, {&basic_count}, 1, 0, false},
    {"cooperative", "relinquish", cooperative_setup,
     {&coop_count[0], &coop_count[1], &coop_count[2], &coop_count[3], &coop_count[4]}, 5, -1, true},
    {"preemptive", "resume or suspend and its switch", preemptive_setup,
     {&preempt_count[0], &preempt_count[1], &preempt_count[2], &preempt_count[3], &preempt_count[4]}, 5, -1,
     true},
    {"interrupt", "in-line handler: semaphore put + get", interrupt_setup,
     {&irq_thread_count, &irq_handler_count}, 2, 1, true},
    {"interrupt_preemption", "interrupt + resume + 2 switches + suspend", interrupt_preemption_setup,
     {&ipre_woken_count, &ipre_raiser_count, &ipre_handler_count}, 3, 2, true},
    {"message", "16-byte send + receive", message_setup, {&message_count}, 1, 0, false},
    {"synchronization", "semaphore get + put", synchronization_setup, {&sync_count}, 1, 0, false},
    {"memory", "128-byte block allocate + free", memory_setup, {&memory_count}, 1, 0, false},
};

static const tm_test *current;
static unsigned interval_ms = 30000;
static int exit_status;
static bool last_test;

static unsigned long reported(const snapshot *s)
{
  if (current->reported >= 0) return s->counts[current->reported];
  unsigned long total = 0;
  for (unsigned i = 0; i < s->n; i++) total += s->counts[i];
  return total;
}

#if TM_SIM
static uint64_t host_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

static void reporter_thread(void)
{
  uint32_t hz = tmk_tick_hz();
  uint32_t ticks = (uint32_t)((uint64_t)interval_ms * hz / 1000u);
  tmk_thread_sleep(1); /* the test threads have started: begin on a tick */
  snapshot first = take(current->counters, current->n);
  uint32_t t0 = tmk_ticks();
#if TM_SIM
  uint64_t h0 = host_ns();
#endif
  tmk_thread_sleep(ticks);
  snapshot last = take(current->counters, current->n);
  uint32_t elapsed = tmk_ticks() - t0;
  unsigned long ops = reported(&last) - reported(&first);
  bool ok = ops != 0 && !failed && (!current->in_step || in_step(&last));
#if TM_SIM
  uint64_t ns = host_ns() - h0;
  printf("  %-21s %10lu ops  %8.1f host ns per op      (%s)%s\n", current->name, ops, ops ? (double)ns / ops : 0.0,
         current->what, ok ? "" : "  CHECK FAILED");
  (void)elapsed;
#else
  /* instructions = ticks * (10^9 / 2^shift) / hz, in tenths */
  uint64_t tenths = (uint64_t)elapsed * (10000000000u >> TM_ICOUNT_SHIFT) / hz;
  uint64_t x10 = ops ? (tenths + ops / 2) / ops : 0;
  printf("  %-21s %10lu ops  %6lu.%lu instructions per op  (%s)%s\n", current->name, ops,
         (unsigned long)(x10 / 10), (unsigned long)(x10 % 10), current->what, ok ? "" : "  CHECK FAILED");
#endif
  fflush(stdout);
  if (!ok) exit_status = 1;
  tmk_stop(last_test ? exit_status : 0);
}

static void test_setup(void)
{
  if (tmk_thread_create(REPORTER, REPORT_PRIORITY, reporter_thread) != TMK_OK || tmk_thread_resume(REPORTER) != TMK_OK)
    failed = true;
  current->setup();
}

int main(int argc, char **argv)
{
  if (argc > 1) {
    char *end;
    unsigned long n = strtoul(argv[1], &end, 10);
    unsigned long ms = strcmp(end, "ms") == 0 ? n : *end == '\0' ? n * 1000u : 0;
    if (ms == 0 || ms > 3600000u) {
      printf("thread_metric: the interval is SECONDS or MILLISECONDSms (at most an hour), not '%s'\n", argv[1]);
      return 2;
    }
    interval_ms = (unsigned)ms;
  }
  const tm_test *chosen[sizeof tests / sizeof tests[0]];
  unsigned count = 0;
  for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
    bool wanted = argc <= 2;
    for (int a = 2; a < argc; a++) wanted |= strcmp(argv[a], tests[i].name) == 0;
    if (wanted) chosen[count++] = &tests[i];
  }
  if (count == 0 || argc - 2 > (int)count) {
    printf("thread_metric: no such test\n");
    return 2;
  }
  if (count > 1 && !tmk_restartable) {
    printf("thread_metric: %s runs one test per run: name it\n", tmk_kernel);
    return 2;
  }
  if ((uint64_t)interval_ms * tmk_tick_hz() / 1000u == 0) {
    printf("thread_metric: the interval must be at least one tick\n");
    return 2;
  }
  printf("Thread-Metric on %s (%s), %u ms per test; kernel %s\n", tmk_kernel, tmk_port, interval_ms, tmk_config);
  fflush(stdout);
  for (unsigned i = 0; i < count; i++) {
    current = chosen[i];
    last_test = i + 1 == count;
    failed = false;
    (void)tmk_run(test_setup);
  }
  return exit_status;
}
