/* SPDX-License-Identifier: MIT */
/*
 * Semaphores: counting and binary, every status, hand-over to waiters in priority order
 * (FIFO among equals), timeouts, a timeout and a release in the same tick, deletion with
 * waiters, use from an interrupt handler, wait abort and delayed suspension of a waiter.
 */
#include <string.h>

#include "tct.h"

static tc_thread th[8];
static tc_sem sem, sem2;

static void make(unsigned i, const char *name, void (*fn)(void *), void *arg, unsigned prio)
{
  OK(tc_thread_create(&th[i], name, fn, arg, TCT_STACK(i), prio, prio, 0, TC_AUTO_START));
}

/* Waits on `sem` with the timeout in arg and logs "<name>:<status>". */
static void taker(void *arg)
{
  tc_status st = tc_sem_take(&sem, (uint32_t)(uintptr_t)arg);
  STEP();
  tct_log("%s:%d", tc_thread_self()->name, (int)st);
}

/* ---- create / errors --------------------------------------------------------------------- */

static void errors_thread(void *arg)
{
  (void)arg;
  tc_sem fresh;
  memset(&fresh, 0, sizeof fresh);
  EXPECT_ARG(tc_sem_take(&fresh, TC_NO_WAIT), TC_INVALID); /* never created */
  EXPECT_ARG(tc_sem_give(&fresh), TC_INVALID);
  EXPECT_ARG(tc_sem_delete(&fresh), TC_INVALID);
  EXPECT_ARG(tc_sem_take(NULL, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_sem_give(NULL), TC_INVALID);
  EXPECT_ARG(tc_sem_delete(NULL), TC_INVALID);
  tc_isr_enter();
  EXPECT_ARG(tc_sem_create(&sem2, "isr", 0, 1), TC_CALLER_ERROR);
  EXPECT_ARG(tc_sem_delete(&sem), TC_CALLER_ERROR);
  EXPECT_ARG(tc_sem_take(&sem, 1), TC_CALLER_ERROR);
  EXPECT_ARG(tc_sem_take(&sem, TC_WAIT_FOREVER), TC_CALLER_ERROR);
  tc_isr_exit();
  tc_sched_lock();
  EXPECT_ARG(tc_sem_take(&sem, 1), TC_CALLER_ERROR);
  EXPECT(tc_sem_take(&sem, TC_NO_WAIT), TC_NO_INSTANCE); /* not waiting: allowed */
  tc_sched_unlock();
  OK(tc_sem_delete(&sem));
  EXPECT_ARG(tc_sem_take(&sem, TC_NO_WAIT), TC_INVALID); /* deleted */
  EXPECT_ARG(tc_sem_give(&sem), TC_INVALID);
  EXPECT_ARG(tc_sem_delete(&sem), TC_INVALID);
  OK(tc_sem_create(&sem, "again", 1, 1)); /* the memory may be reused */
  OK(tc_sem_take(&sem, TC_NO_WAIT));
  tct_log("done");
}

static void create_and_errors(void)
{
  tct_begin();
  EXPECT_ARG(tc_sem_create(NULL, "x", 0, 1), TC_INVALID);
  EXPECT_ARG(tc_sem_create(&sem, "x", 0, 0), TC_INVALID); /* max 0 */
  EXPECT_ARG(tc_sem_create(&sem, "x", 3, 2), TC_INVALID); /* initial > max */
  OK(tc_sem_create(&sem, "s", 0, 1));
  EXPECT_ARG(tc_sem_create(&sem, "s", 0, 1), TC_INVALID); /* already created */
  /* Before the kernel runs: no waiting, but the count works. */
  EXPECT_ARG(tc_sem_take(&sem, 5), TC_CALLER_ERROR);
  OK(tc_sem_give(&sem));
  OK(tc_sem_take(&sem, TC_NO_WAIT));
  make(0, "a", errors_thread, NULL, 5);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("done");
}

/* A new run forgets the objects of the previous one: the same memory is created again. */
static void fresh_run_forgets_objects(void)
{
  tct_begin();
  OK(tc_sem_create(&sem, "s", 0, 1));
  OK(tc_sem_create(&sem2, "s2", 0, 1));
  tct_begin();
  OK(tc_sem_create(&sem2, "s2", 0, 1));
  OK(tc_sem_create(&sem, "s", 0, 1));
}

/* ---- counting ------------------------------------------------------------------------------ */

static void counting_thread(void *arg)
{
  (void)arg;
  for (int i = 0; i < 3; i++) OK(tc_sem_take(&sem, TC_NO_WAIT));
  EXPECT(tc_sem_take(&sem, TC_NO_WAIT), TC_NO_INSTANCE);
  for (int i = 0; i < 5; i++) OK(tc_sem_give(&sem));
  EXPECT(tc_sem_give(&sem), TC_FULL); /* beyond max: refused, count unchanged */
  for (int i = 0; i < 5; i++) OK(tc_sem_take(&sem, 10)); /* available: does not wait */
  EXPECT(tc_sem_take(&sem, TC_NO_WAIT), TC_NO_INSTANCE);
  CHECK_EQ(tc_tick_get(), 0);
  /* Binary: one unit at most. */
  OK(tc_sem_give(&sem2));
  EXPECT(tc_sem_give(&sem2), TC_FULL);
  OK(tc_sem_take(&sem2, TC_NO_WAIT));
  EXPECT(tc_sem_take(&sem2, TC_NO_WAIT), TC_NO_INSTANCE);
  tct_log("done");
}

static void counting_and_binary(void)
{
  tct_begin();
  OK(tc_sem_create(&sem, "counting", 3, 5));
  OK(tc_sem_create(&sem2, "binary", 0, 1));
  make(0, "a", counting_thread, NULL, 5);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("done");
}

/* ---- waiting ------------------------------------------------------------------------------- */

/* Sleeps `arg` ticks, then waits for ever: staggered sleeps set the order of waiting. */
static void late_taker(void *arg)
{
  OK(tc_thread_sleep((uint32_t)(uintptr_t)arg));
  taker((void *)(uintptr_t)TC_WAIT_FOREVER);
}

static void order_giver(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(6));
  /* Every taker (all higher) is waiting now. Each give releases exactly one, which runs at
   * once and logs. */
  for (int i = 0; i < 5; i++) {
    OK(tc_sem_give(&sem));
    tct_log("g");
  }
  OK(tc_sem_give(&sem)); /* nobody waits: counted */
  OK(tc_sem_take(&sem, TC_NO_WAIT));
}

static void waiters_in_priority_order(void)
{
  tct_begin();
  OK(tc_sem_create(&sem, "s", 0, 10));
  /* They begin to wait in this order, one per tick: a(10) b(8) c(10) d(8) e(6). */
  make(0, "a", late_taker, (void *)1u, 10);
  make(1, "b", late_taker, (void *)2u, 8);
  make(2, "c", late_taker, (void *)3u, 10);
  make(3, "d", late_taker, (void *)4u, 8);
  make(4, "e", late_taker, (void *)5u, 6);
  make(5, "giver", order_giver, NULL, 20);
  CHECK_EQ(tct_run_kernel(), 0);
  /* Priority first, then the order they began to wait (b before d, a before c). */
  CHECK_LOG("e:0 g b:0 g d:0 g a:0 g c:0 g");
}

static void steal_attempt(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1)); /* w is waiting now */
  OK(tc_sem_give(&sem));  /* the unit goes to w; w (lower) does not run yet */
  /* A higher thread that did not wait cannot take the unit handed to w. */
  EXPECT(tc_sem_take(&sem, TC_NO_WAIT), TC_NO_INSTANCE);
  tct_log("h");
}

static void handed_over_not_stolen(void)
{
  tct_begin();
  OK(tc_sem_create(&sem, "s", 0, 1));
  make(0, "w", taker, (void *)(uintptr_t)TC_WAIT_FOREVER, 9);
  make(1, "h", steal_attempt, NULL, 3);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("h w:0");
}

static void timed_taker(void *arg)
{
  (void)arg;
  uint32_t t0 = tc_tick_get();
  EXPECT(tc_sem_take(&sem, 5), TC_TIMEOUT);
  CHECK_EQ(tc_tick_get(), t0 + 5);
  EXPECT(tc_sem_take(&sem, 5), TC_OK); /* given after 2 ticks */
  CHECK_EQ(tc_tick_get(), t0 + 7);
  tct_log("t");
}

static void late_giver(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(7));
  OK(tc_sem_give(&sem));
  tct_log("g");
}

static void timeouts(void)
{
  tct_begin();
  OK(tc_sem_create(&sem, "s", 0, 1));
  make(0, "t", timed_taker, NULL, 5);
  make(1, "g", late_giver, NULL, 6);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("t g");
}

/* A timeout and a release in the same tick. The tick handler processes every expiry of that
 * tick before any thread runs, so a thread woken by the tick cannot rescue a waiter whose
 * timeout expires in the same tick: the waiter times out and the unit is counted. (A release
 * that happens before the tick is processed wins: see test_sync_sim for the sim port's
 * interrupts on either side of the tick.) */
static void same_tick_giver(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(3)); /* wakes in tick 3 */
  OK(tc_sem_give(&sem));  /* too late: w's timeout was processed in the same tick */
  tct_log("g@%u", (unsigned)tc_tick_get());
}

static void same_tick_waiter(void *arg)
{
  (void)arg;
  EXPECT(tc_sem_take(&sem, 3), TC_TIMEOUT); /* expires in tick 3 */
  tct_log("w@%u", (unsigned)tc_tick_get());
  OK(tc_sem_take(&sem, TC_NO_WAIT)); /* the late unit was counted */
}

static void timeout_and_release_in_same_tick(void)
{
  tct_begin();
  OK(tc_sem_create(&sem, "s", 0, 1));
  make(0, "g", same_tick_giver, NULL, 3); /* higher: runs first when both are ready */
  make(1, "w", same_tick_waiter, NULL, 5);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("g@3 w@3");
}

static void deleter(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1)); /* all three wait */
  OK(tc_sem_delete(&sem)); /* they run at once, highest first */
  tct_log("deleted");
}

static void delete_releases_waiters(void)
{
  tct_begin();
  OK(tc_sem_create(&sem, "s", 0, 1));
  make(0, "a", taker, (void *)(uintptr_t)TC_WAIT_FOREVER, 7);
  make(1, "b", taker, (void *)(uintptr_t)50u, 5);
  make(2, "c", taker, (void *)(uintptr_t)TC_WAIT_FOREVER, 7);
  make(3, "d", deleter, NULL, 9);
  CHECK_EQ(tct_run_kernel(), 0);
  /* TC_DELETED == 4; b's timeout was cancelled with its wait (the run ends at tick 1). */
  CHECK_LOG("b:4 a:4 c:4 deleted");
  CHECK_EQ(tc_tick_get(), 1);
}

/* ---- interrupts ---------------------------------------------------------------------------- */

static void isr_user(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1)); /* w waits */
  tc_isr_enter();
  OK(tc_sem_give(&sem)); /* w is higher: it runs when the handler exits */
  tct_log("isr");
  OK(tc_sem_give(&sem));
  OK(tc_sem_take(&sem, TC_NO_WAIT)); /* from a handler without waiting: fine */
  EXPECT(tc_sem_take(&sem, TC_NO_WAIT), TC_NO_INSTANCE);
  tc_isr_exit();
  tct_log("back");
}

static void isr_give_and_take(void)
{
  tct_begin();
  OK(tc_sem_create(&sem, "s", 0, 1));
  make(0, "w", taker, (void *)(uintptr_t)TC_WAIT_FOREVER, 4);
  make(1, "i", isr_user, NULL, 8);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("isr w:0 back");
}

/* ---- interaction with thread services ------------------------------------------------------ */

static void controller(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1)); /* a, b, c wait */
  OK(tc_thread_wait_abort(&th[0])); /* a leaves the queue */
  OK(tc_thread_suspend(&th[1]));    /* b: suspended when its wait ends */
  OK(tc_thread_priority_change(&th[2], 2, NULL)); /* c is now first in the queue */
  OK(tc_sem_give(&sem)); /* c */
  OK(tc_sem_give(&sem)); /* b: gets the unit, but stays suspended */
  tc_thread_info_t i;
  OK(tc_thread_info(&th[1], &i));
  CHECK_EQ(i.state, TC_SUSPENDED);
  OK(tc_sem_give(&sem)); /* nobody waits */
  tct_log("ctl");
  OK(tc_thread_resume(&th[1]));
  OK(tc_sem_take(&sem, TC_NO_WAIT));
}

static void abort_suspend_reprioritise(void)
{
  tct_begin();
  OK(tc_sem_create(&sem, "s", 0, 5));
  make(0, "a", taker, (void *)(uintptr_t)TC_WAIT_FOREVER, 4);
  make(1, "b", taker, (void *)(uintptr_t)TC_WAIT_FOREVER, 5);
  make(2, "c", taker, (void *)(uintptr_t)TC_WAIT_FOREVER, 6);
  make(3, "ctl", controller, NULL, 3);
  CHECK_EQ(tct_run_kernel(), 0);
  /* c (now 2) preempts the controller (3); a (4) and b (5) run after it.
   * TC_WAIT_ABORTED == 5. */
  CHECK_LOG("c:0 ctl a:5 b:0");
}

static void terminator(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1));
  OK(tc_thread_terminate(&th[0])); /* a waiter leaves the queue for good */
  OK(tc_sem_give(&sem)); /* goes to b */
  tct_log("t");
}

static void terminate_waiter(void)
{
  tct_begin();
  OK(tc_sem_create(&sem, "s", 0, 1));
  make(0, "a", taker, (void *)(uintptr_t)TC_WAIT_FOREVER, 4);
  make(1, "b", taker, (void *)(uintptr_t)TC_WAIT_FOREVER, 5);
  make(2, "t", terminator, NULL, 6);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("b:0 t");
}

TCT_MAIN("test_sem",
         TCT_CASE(create_and_errors),
         TCT_CASE(fresh_run_forgets_objects),
         TCT_CASE(counting_and_binary),
         TCT_CASE(waiters_in_priority_order),
         TCT_CASE(handed_over_not_stolen),
         TCT_CASE(timeouts),
         TCT_CASE(timeout_and_release_in_same_tick),
         TCT_CASE(delete_releases_waiters),
         TCT_CASE(isr_give_and_take),
         TCT_CASE(abort_suspend_reprioritise),
         TCT_CASE(terminate_waiter))
