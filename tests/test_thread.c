/* SPDX-License-Identifier: MIT */
/* Every thread service: success, every error status, edge cases. */
#include "internal.h" /* counters_carry_between_words sets a thread's counters */
#include "tct.h"

static tc_thread th[6];
static tc_thread *const A = &th[0];
static tc_thread *const B = &th[1];
static tc_thread *const C = &th[2];

static void nop(void *arg) { (void)arg; }

static void logger(void *arg) { tct_log("%s", (const char *)arg); }

static void sleeper_forever(void *arg)
{
  (void)arg;
  tc_status st = tc_thread_sleep(TC_WAIT_FOREVER);
  tct_log("woke:%d", (int)st);
}

/* ---- create ------------------------------------------------------------------------------ */

static void create_errors(void)
{
  tct_begin();
  EXPECT_ARG(tc_thread_create(NULL, "x", nop, NULL, TCT_STACK(0), 1, 1, 0, 0), TC_INVALID);
  EXPECT_ARG(tc_thread_create(A, "x", NULL, NULL, TCT_STACK(0), 1, 1, 0, 0), TC_INVALID);
  EXPECT_ARG(tc_thread_create(A, "x", nop, NULL, NULL, TCT_STACK_SIZE, 1, 1, 0, 0), TC_INVALID);
  EXPECT_ARG(tc_thread_create(A, "x", nop, NULL, tct_stacks[0], TC_PORT_STACK_MIN - 1, 1, 1, 0, 0), TC_INVALID);
  EXPECT_ARG(tc_thread_create(A, "x", nop, NULL, TCT_STACK(0), 1, 1, 0, 0x80), TC_INVALID);
  EXPECT_ARG(tc_thread_create(A, "x", nop, NULL, TCT_STACK(0), TC_PRIORITIES, 1, 0, 0), TC_PRIORITY_ERROR);
  EXPECT_ARG(tc_thread_create(A, "x", nop, NULL, TCT_STACK(0), 4, 5, 0, 0), TC_PRIORITY_ERROR);
  /* Lowest priority and the smallest stack are accepted. */
  OK(tc_thread_create(A, "x", nop, NULL, tct_stacks[0], TCT_STACK_MIN, TC_PRIORITIES - 1, 0, 0, 0));
  EXPECT_ARG(tc_thread_create(A, "again", nop, NULL, TCT_STACK(1), 1, 1, 0, 0), TC_INVALID);
  tc_thread_info_t i;
  OK(tc_thread_info(A, &i));
  CHECK_EQ(i.state, TC_SUSPENDED);
  CHECK_EQ(i.priority, TC_PRIORITIES - 1);
  CHECK_EQ(i.threshold, 0);
  CHECK(i.stack_size <= TC_PORT_STACK_MIN && i.stack_size > TC_PORT_STACK_MIN - TC_PORT_STACK_ALIGN);
  CHECK_EQ(tct_run_kernel(), 0); /* nothing ready, nothing pending: the run ends */
}

static void created_from_isr(void *arg)
{
  (void)arg;
  tc_isr_enter();
  EXPECT_ARG(tc_thread_create(B, "b", nop, NULL, TCT_STACK(1), 1, 1, 0, 0), TC_CALLER_ERROR);
  tc_isr_exit();
  /* A thread creating a higher-priority auto-start thread is preempted at once. */
  OK(tc_thread_create(B, "b", logger, "b-runs", TCT_STACK(1), 1, 1, 0, TC_AUTO_START));
  tct_log("a-back");
  /* A lower one is not. */
  OK(tc_thread_create(C, "c", logger, "c-runs", TCT_STACK(2), 9, 9, 0, TC_AUTO_START));
  tct_log("a-end");
}

static void create_from_thread_and_isr(void)
{
  tct_begin();
  OK(tc_thread_create(A, "a", created_from_isr, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("b-runs a-back a-end c-runs");
}

static void stack_alignment_trimmed(void)
{
  tct_begin();
  /* An unaligned size: only the aligned part is used. */
  OK(tc_thread_create(A, "a", nop, NULL, tct_stacks[0], TCT_STACK_MIN + 3, 1, 1, 0, 0));
  tc_thread_info_t i;
  OK(tc_thread_info(A, &i));
  CHECK_EQ(i.stack_size % TC_PORT_STACK_ALIGN, 0);
  CHECK(i.stack_size >= TC_PORT_STACK_MIN);
}

/* ---- delete / terminate ------------------------------------------------------------------ */

static void deleter(void *arg)
{
  (void)arg;
  EXPECT_ARG(tc_thread_delete(NULL), TC_INVALID);
  EXPECT(tc_thread_delete(A), TC_STATE_ERROR); /* running */
  EXPECT(tc_thread_delete(B), TC_STATE_ERROR); /* suspended */
  OK(tc_thread_resume(B));                     /* b (higher) runs and completes */
  OK(tc_thread_delete(B));
  EXPECT_ARG(tc_thread_delete(B), TC_INVALID);
  EXPECT_ARG(tc_thread_info(B, &(tc_thread_info_t){0}), TC_INVALID);
  OK(tc_thread_terminate(C)); /* sleeping forever */
  tc_isr_enter();
  EXPECT_ARG(tc_thread_delete(C), TC_CALLER_ERROR);
  EXPECT_ARG(tc_thread_terminate(C), TC_CALLER_ERROR);
  tc_isr_exit();
  OK(tc_thread_delete(C));
  /* The control block can be used again. */
  OK(tc_thread_create(C, "c2", logger, "c2-runs", TCT_STACK(2), 1, 1, 0, TC_AUTO_START));
  tct_log("a-end");
}

static void delete_rules(void)
{
  tct_begin();
  OK(tc_thread_create(A, "a", deleter, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", logger, "b-runs", TCT_STACK(1), 1, 1, 0, 0));
  OK(tc_thread_create(C, "c", sleeper_forever, NULL, TCT_STACK(2), 2, 2, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("b-runs c2-runs a-end");
}

static void terminator(void *arg)
{
  (void)arg;
  OK(tc_thread_terminate(B)); /* ready */
  OK(tc_thread_terminate(C)); /* sleeping with a timeout: leaves the delta list */
  OK(tc_thread_terminate(C)); /* again: no-op */
  tc_thread_info_t i;
  OK(tc_thread_info(C, &i));
  CHECK_EQ(i.state, TC_TERMINATED);
  OK(tc_thread_resume(&th[3])); /* suspended one */
  OK(tc_thread_terminate(&th[3]));
  EXPECT(tc_thread_resume(B), TC_STATE_ERROR);
  EXPECT(tc_thread_suspend(B), TC_STATE_ERROR);
  EXPECT(tc_thread_wait_abort(B), TC_STATE_ERROR);
  EXPECT(tc_thread_priority_change(B, 3, NULL), TC_STATE_ERROR);
  EXPECT(tc_thread_threshold_change(B, 3, NULL), TC_STATE_ERROR);
  tc_sched_lock();
  EXPECT(tc_thread_terminate(A), TC_CALLER_ERROR); /* oneself with the scheduler locked */
  tc_sched_unlock();
  tct_log("a-last");
  OK(tc_thread_terminate(A)); /* oneself: does not return */
  tct_log("not-reached");
}

static void sleeper_timed(void *arg)
{
  (void)arg;
  tc_thread_sleep(50);
  tct_log("c-woke");
}

static void terminate_rules(void)
{
  tct_begin();
  OK(tc_thread_create(C, "c", sleeper_timed, NULL, TCT_STACK(2), 1, 1, 0, TC_AUTO_START));
  OK(tc_thread_create(A, "a", terminator, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", logger, "b-runs", TCT_STACK(1), 6, 6, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[3], "d", logger, "d-runs", TCT_STACK(3), 7, 7, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("a-last");
  tc_thread_info_t i;
  OK(tc_thread_info(A, &i));
  CHECK_EQ(i.state, TC_TERMINATED);
  CHECK_EQ(tc_tick_get(), 0); /* no timeout was left pending */
}

/* ---- suspend / resume -------------------------------------------------------------------- */

static void suspender(void *arg)
{
  (void)arg;
  OK(tc_thread_suspend(B));         /* created suspended: succeeds, changes nothing */
  OK(tc_thread_resume(B));          /* ready; lower than a: no switch */
  EXPECT(tc_thread_resume(B), TC_STATE_ERROR); /* not suspended */
  OK(tc_thread_suspend(B));         /* ready -> suspended */
  OK(tc_thread_suspend(B));         /* again: succeeds, suspensions do not nest */
  OK(tc_thread_suspend(C));         /* sleeping: delayed suspension */
  tc_thread_info_t i;
  OK(tc_thread_info(C, &i));
  CHECK_EQ(i.state, TC_SLEEPING);
  OK(tc_thread_resume(C));          /* lifts the delayed suspension */
  OK(tc_thread_suspend(C));         /* and again */
  OK(tc_thread_sleep(3));           /* c's sleep (2) ends: it is suspended, not ready */
  OK(tc_thread_info(C, &i));
  CHECK_EQ(i.state, TC_SUSPENDED);
  tct_log("a");
  OK(tc_thread_resume(C));          /* c (1) runs now */
  tct_log("a2");
  EXPECT_ARG(tc_thread_suspend(NULL), TC_INVALID);
  EXPECT_ARG(tc_thread_resume(NULL), TC_INVALID);
  tc_sched_lock();
  EXPECT(tc_thread_suspend(A), TC_CALLER_ERROR); /* oneself with the scheduler locked */
  tc_sched_unlock();
  OK(tc_thread_resume(B));
  OK(tc_thread_suspend(A)); /* oneself: b runs, resumes a */
  tct_log("a3");
}

static void resumer(void *arg)
{
  (void)arg;
  tct_log("b");
  OK(tc_thread_resume(A));
  tct_log("b2");
}

static void short_sleeper(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(2));
  tct_log("c");
}

static void suspend_resume_rules(void)
{
  tct_begin();
  OK(tc_thread_create(C, "c", short_sleeper, NULL, TCT_STACK(2), 1, 1, 0, TC_AUTO_START));
  OK(tc_thread_create(A, "a", suspender, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", resumer, NULL, TCT_STACK(1), 6, 6, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("a c a2 b a3 b2");
}

/* From an "interrupt", suspending the interrupted thread switches at the outermost exit. */
static void isr_suspends_self(void *arg)
{
  (void)arg;
  tc_isr_enter();
  tc_isr_enter(); /* nested */
  OK(tc_thread_suspend(A));
  tc_isr_exit();
  tct_log("still-in-isr");
  tc_isr_exit(); /* b runs here */
  tct_log("a-resumed");
}

static void suspend_from_isr(void)
{
  tct_begin();
  OK(tc_thread_create(A, "a", isr_suspends_self, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", resumer, NULL, TCT_STACK(1), 6, 6, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("still-in-isr b a-resumed b2");
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK_EQ(k.interrupts, 2);
}

/* ---- sleep / yield / wait_abort / self ---------------------------------------------------- */

static void sleep_rules_thread(void *arg)
{
  (void)arg;
  uint32_t t0 = tc_tick_get();
  OK(tc_thread_sleep(0)); /* returns at once */
  CHECK_EQ(tc_tick_get(), t0);
  OK(tc_thread_sleep(7));
  CHECK_EQ(tc_tick_get(), t0 + 7);
  tc_isr_enter();
  EXPECT_ARG(tc_thread_sleep(1), TC_CALLER_ERROR);
  CHECK(tc_thread_self() == NULL);
  tc_thread_yield(); /* no-op in an interrupt */
  tc_isr_exit();
  tc_sched_lock();
  EXPECT_ARG(tc_thread_sleep(1), TC_CALLER_ERROR);
  tc_sched_unlock();
  CHECK(tc_thread_self() == A);
  tc_thread_yield(); /* alone at its priority: continues */
  tct_log("a");
  EXPECT(tc_thread_sleep(TC_WAIT_FOREVER), TC_WAIT_ABORTED);
  tct_log("a-aborted");
}

static void aborter(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(10)); /* a finishes its sleep tests and sleeps for ever */
  EXPECT(tc_thread_wait_abort(B), TC_STATE_ERROR); /* running: not waiting */
  EXPECT_ARG(tc_thread_wait_abort(NULL), TC_INVALID);
  tc_thread_info_t i;
  OK(tc_thread_info(A, &i));
  CHECK_EQ(i.state, TC_SLEEPING);
  OK(tc_thread_info(B, &i));
  CHECK_EQ(i.state, TC_RUNNING);
  tc_isr_enter();
  OK(tc_thread_wait_abort(A)); /* from an interrupt: a runs at the exit */
  tct_log("b-in-isr");
  tc_isr_exit();
  tct_log("b");
}

static void sleep_yield_abort(void)
{
  tct_begin();
  CHECK(tc_thread_self() == NULL);
  EXPECT_ARG(tc_thread_sleep(1), TC_CALLER_ERROR); /* before the kernel runs: no thread */
  OK(tc_thread_create(A, "a", sleep_rules_thread, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", aborter, NULL, TCT_STACK(1), 6, 6, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("a b-in-isr a-aborted b");
}

static void abort_with_delayed_suspension_thread(void *arg)
{
  (void)arg;
  OK(tc_thread_suspend(B));    /* b sleeps: delayed */
  OK(tc_thread_wait_abort(B)); /* the wait ends, b becomes suspended, not ready */
  tc_thread_info_t i;
  OK(tc_thread_info(B, &i));
  CHECK_EQ(i.state, TC_SUSPENDED);
  OK(tc_thread_resume(B));
  tct_log("a");
}

static void wait_abort_with_delayed_suspension(void)
{
  tct_begin();
  OK(tc_thread_create(B, "b", sleeper_forever, NULL, TCT_STACK(1), 1, 1, 0, TC_AUTO_START));
  OK(tc_thread_create(A, "a", abort_with_delayed_suspension_thread, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("woke:5 a"); /* TC_WAIT_ABORTED == 5; b (1) runs as soon as it is resumed */
}

/* ---- priority / threshold change errors -------------------------------------------------- */

static void change_errors_thread(void *arg)
{
  (void)arg;
  unsigned old = 77;
  EXPECT_ARG(tc_thread_priority_change(NULL, 1, &old), TC_INVALID);
  EXPECT_ARG(tc_thread_priority_change(A, TC_PRIORITIES, &old), TC_PRIORITY_ERROR);
  EXPECT_ARG(tc_thread_threshold_change(NULL, 1, &old), TC_INVALID);
  EXPECT_ARG(tc_thread_threshold_change(A, TC_PRIORITIES, &old), TC_PRIORITY_ERROR);
  EXPECT(tc_thread_threshold_change(A, 6, &old), TC_PRIORITY_ERROR); /* above priority 5 */
  CHECK_EQ(old, 77); /* untouched on error */
  tc_isr_enter();
  EXPECT_ARG(tc_thread_priority_change(A, 1, &old), TC_CALLER_ERROR);
  EXPECT_ARG(tc_thread_threshold_change(A, 1, &old), TC_CALLER_ERROR);
  tc_isr_exit();
  OK(tc_thread_threshold_change(A, 0, &old));
  CHECK_EQ(old, 5);
  OK(tc_thread_priority_change(A, TC_PRIORITIES - 1, &old));
  CHECK_EQ(old, 5);
  tc_thread_info_t i;
  OK(tc_thread_info(A, &i));
  CHECK_EQ(i.priority, TC_PRIORITIES - 1);
  CHECK_EQ(i.threshold, 0); /* deliberately set threshold kept */
  CHECK_EQ(i.user_priority, TC_PRIORITIES - 1);
  CHECK_EQ(i.user_threshold, 0);
  OK(tc_thread_priority_change(A, 0, NULL));
  OK(tc_thread_info(A, &i));
  CHECK_EQ(i.priority, 0);
  CHECK_EQ(i.threshold, 0);
}

static void change_errors(void)
{
  tct_begin();
  OK(tc_thread_create(A, "a", change_errors_thread, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
}

/* ---- info, completion, stacks ------------------------------------------------------------ */

/* Uses > 256 bytes of stack per level; not inlined, and not a tail call at any -O level. */
static __attribute__((noinline)) unsigned deep(unsigned depth)
{
  volatile uint8_t buf[256];
  for (unsigned i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i + depth);
  unsigned below = depth > 0 ? deep(depth - 1) : 0;
  return below + buf[depth] + 1u;
}

static size_t high_water_before, high_water_after;
/* deep()'s depth: nine 256-byte frames, over 2 KiB, where the test stacks have room; one where
 * they are small (the FE310's 640 bytes: ports/riscv/tests.cmake). */
#define DEEP_DEPTH  (TCT_STACK_SIZE >= 4096u ? 8u : 0u)
#define DEEP_FRAMES (DEEP_DEPTH > 0u ? DEEP_DEPTH : 1u) /* of 256 bytes at least, checked */

static void stack_user(void *arg)
{
  (void)arg;
  tc_thread_info_t i;
  OK(tc_thread_info(A, &i));
  high_water_before = i.stack_high_water;
  CHECK(deep(DEEP_DEPTH) > 0);
  OK(tc_thread_info(A, &i));
  high_water_after = i.stack_high_water;
}

static void info_and_high_water(void)
{
  tct_begin();
  EXPECT_ARG(tc_thread_info(NULL, &(tc_thread_info_t){0}), TC_INVALID);
  OK(tc_thread_create(A, "a", stack_user, NULL, TCT_STACK(0), 5, 3, 4, TC_AUTO_START));
  EXPECT_ARG(tc_thread_info(A, NULL), TC_INVALID);
  tc_thread_info_t i;
  OK(tc_thread_info(A, &i));
  CHECK(i.name != NULL && i.name[0] == 'a');
  CHECK_EQ(i.state, TC_READY);
  CHECK_EQ(i.priority, 5);
  CHECK_EQ(i.threshold, 3);
  CHECK_EQ(i.time_slice, 4);
  CHECK_EQ(i.switches_in, 0);
  CHECK(i.last_preempted_by == NULL);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK(high_water_after >= high_water_before + DEEP_FRAMES * 256u);
  OK(tc_thread_info(A, &i));
  CHECK_EQ(i.state, TC_COMPLETED);
  CHECK_EQ(i.switches_in, 1);
  CHECK(i.stack_high_water >= high_water_after);
  CHECK(i.stack_high_water < i.stack_size);
}

/* With the MPU stack guard (TC_MPU_STACK_GUARD) the painted guard is not compared and the
 * bytes written here are the guard region itself: test_stack_guard covers the hook there. */
#if !TC_MPU_STACK_GUARD
static tc_thread *overflowed;
static unsigned overflow_calls;

void tc_stack_overflow_hook(tc_thread *t)
{
  overflowed = t;
  overflow_calls++;
}

static void smasher(void *arg)
{
  (void)arg;
  /* Simulate an overflow: a stack growing down reaches the guard's top word first, which is
   * what the switch compares (tc_check compares every guard byte: test_check). */
  tct_stacks[0][13] = 0;
  tc_thread_yield(); /* switch out: the check runs */
  tct_log("smasher-continues");
  tct_stacks[0][13] = 0xA5; /* repair so the invariant checker is happy again */
}

static void overflow_hook(void)
{
  tct_begin();
  overflowed = NULL;
  overflow_calls = 0;
  OK(tc_thread_create(A, "smasher", smasher, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", logger, "b", TCT_STACK(1), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK(overflowed == A);
  CHECK_EQ(overflow_calls, 1);
  CHECK_LOG("b smasher-continues");
}

/* An overflow found when the thread blocks (the general switch), not only when it yields. */
static void blocking_smasher(void *arg)
{
  (void)arg;
  tct_stacks[0][13] = 0;
  (void)tc_thread_sleep(1); /* switch out to idle: the check runs */
  tct_stacks[0][13] = 0xA5;
  STEP();
  tct_log("smasher-continues");
}

static void overflow_hook_when_blocking(void)
{
  tct_begin();
  overflowed = NULL;
  overflow_calls = 0;
  OK(tc_thread_create(A, "smasher", blocking_smasher, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK(overflowed == A);
  CHECK_EQ(overflow_calls, 1);
  CHECK_LOG("smasher-continues");
}
#define OVERFLOW_HOOK_CASES TCT_CASE(overflow_hook), TCT_CASE(overflow_hook_when_blocking),
#else
#define OVERFLOW_HOOK_CASES
#endif

/* ---- counters ---------------------------------------------------------------------------- */

/* A thread's counters are 64-bit, kept as pairs of 32-bit words: the carries between the
 * words are tested here by starting the low words near their wrap (through the kernel's
 * private header; no test can run 2^32 switches). */
static void counters_of_a_long_life(void *arg)
{
  (void)arg;
  tc_thread_info_t before, after;
  unsigned s = tc_interrupt_disable();
  tc__counts(A)->cycles_lo = UINT32_MAX - 1000u;
  tc__counts(A)->switches_out = UINT32_MAX; /* the next switch away carries into the high word */
  tc_interrupt_restore(s);
  OK(tc_thread_info(A, &before));
  /* Run time past the wrap of the low word, across ticks that account it. */
  uint64_t work = 3u * (tc_cycles_hz() / TC_TICK_HZ);
  tct_work(work);
  OK(tc_thread_info(A, &after));
  CHECK(after.cycles >= before.cycles + work);
  CHECK(after.cycles < before.cycles + 2u * work);
  CHECK(after.cycles > UINT32_MAX);
  /* Alone, A sleeps: the CPU idles and comes back to A, which is no switch (the switch
   * away is taken back, its carry with it). */
  CHECK_EQ(before.switches_in, (uint64_t)UINT32_MAX + 1u);
  OK(tc_thread_sleep(1));
  OK(tc_thread_info(A, &after));
  CHECK_EQ(after.switches_in, before.switches_in);
  CHECK_EQ(after.preempted, before.preempted);
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK_EQ(k.context_switches, after.switches_in);
  tc_kernel_stats(NULL); /* nothing to fill: ignored */
  tct_log("a");
}

static void counters_carry_between_words(void)
{
  tct_begin();
  OK(tc_thread_create(A, "a", counters_of_a_long_life, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("a");
}

/* ---- scheduler lock ---------------------------------------------------------------------- */

static void locker(void *arg)
{
  (void)arg;
  tc_sched_lock();
  tc_sched_lock();
  OK(tc_thread_resume(B)); /* higher, but the scheduler is locked */
  tct_log("a-locked");
  tc_sched_unlock();
  tct_log("a-still-locked");
  tc_sched_unlock(); /* b runs here */
  tct_log("a-unlocked");
  tc_sched_unlock(); /* unbalanced: harmless */
  STEP();
}

static void sched_lock_defers_preemption(void)
{
  tct_begin();
  tc_sched_lock(); /* before start: no effect */
  OK(tc_thread_create(A, "a", locker, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", logger, "b", TCT_STACK(1), 1, 1, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("a-locked a-still-locked b a-unlocked");
}

static void lock_and_return(void *arg)
{
  (void)arg;
  tc_sched_lock();
  OK(tc_thread_resume(B));
  tct_log("a-ends-locked");
}

static void completing_releases_lock(void)
{
  tct_begin();
  OK(tc_thread_create(A, "a", lock_and_return, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", logger, "b", TCT_STACK(1), 1, 1, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("a-ends-locked b");
}

/* ---- interrupt mask ---------------------------------------------------------------------- */

static void masker(void *arg)
{
  (void)arg;
  unsigned s = tc_interrupt_disable();
  unsigned s2 = tc_interrupt_disable();
  tc_interrupt_restore(s2);
  tc_interrupt_restore(s);
  tc_isr_exit(); /* unbalanced: ignored, the caller is still a thread */
  CHECK(tc_thread_self() == A);
  STEP();
  tct_log("a");
}

static void interrupt_mask_nests(void)
{
  tct_begin();
  OK(tc_thread_create(A, "a", masker, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("a");
}

/* ---- many threads, all priorities -------------------------------------------------------- */

static tc_thread many[TCT_MAX_STACKS];

static void order_logger(void *arg) { tct_log("%u", (unsigned)(uintptr_t)arg); }

static void priorities_run_in_order(void)
{
  tct_begin();
  /* Priorities at the bitmap's word and group boundaries, created in scrambled order; two
   * share a priority and must run in creation order. */
  const unsigned prios[] = {TC_PRIORITIES - 1, 0, 31, TC_PRIORITIES / 2, 1, TC_PRIORITIES - 2, 31, 30};
  for (unsigned i = 0; i < sizeof prios / sizeof prios[0]; i++)
    OK(tc_thread_create(&many[i], "t", order_logger, (void *)(uintptr_t)i, TCT_STACK(i), prios[i], prios[i], 0,
                        TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG(TC_PRIORITIES == 32 ? "1 4 3 5 7 0 2 6" : "1 4 7 2 6 3 5 0");
}

/* Terminating a thread ends a suspension it had pending (ThreadX leaves it behind, and a
 * resume then reports it lifted). */
static void terminate_pending_suspension(void *arg)
{
  (void)arg;
  OK(tc_thread_suspend(B)); /* B sleeps: the suspension waits for its sleep to end */
  OK(tc_thread_terminate(B));
  EXPECT(tc_thread_resume(B), TC_STATE_ERROR);
  tc_thread_info_t i;
  OK(tc_thread_info(B, &i));
  CHECK_EQ(i.state, TC_TERMINATED);
  tct_log("a");
}

static void terminate_ends_a_pending_suspension(void)
{
  tct_begin();
  OK(tc_thread_create(B, "b", sleeper_forever, NULL, TCT_STACK(1), 1, 1, 0, TC_AUTO_START));
  OK(tc_thread_create(A, "a", terminate_pending_suspension, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("a");
}

TCT_MAIN("test_thread",
         TCT_CASE(create_errors),
         TCT_CASE(create_from_thread_and_isr),
         TCT_CASE(stack_alignment_trimmed),
         TCT_CASE(delete_rules),
         TCT_CASE(terminate_rules),
         TCT_CASE(terminate_ends_a_pending_suspension),
         TCT_CASE(suspend_resume_rules),
         TCT_CASE(suspend_from_isr),
         TCT_CASE(sleep_yield_abort),
         TCT_CASE(wait_abort_with_delayed_suspension),
         TCT_CASE(change_errors),
         TCT_CASE(info_and_high_water),
         OVERFLOW_HOOK_CASES
         TCT_CASE(counters_carry_between_words),
         TCT_CASE(sched_lock_defers_preemption),
         TCT_CASE(completing_releases_lock),
         TCT_CASE(interrupt_mask_nests),
         TCT_CASE(priorities_run_in_order))
