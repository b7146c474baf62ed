/* SPDX-License-Identifier: MIT */
/* Software timers: errors, one-shot and periodic expiries at exact ticks, no drift over many
 * periods (even with long or late callbacks), activate / deactivate / change / delete, the
 * callback context (the timers' HISR: before threads, cannot block), callbacks that manage
 * their own timer. */
#include "tct.h"

static tc_thread th[3];
static tc_thread *const A = &th[0];
static tc_thread *const B = &th[1];

static tc_timer tms[4];
static tc_timer *const T0 = &tms[0];
static tc_timer *const T1 = &tms[1];
static tc_timer *const T2 = &tms[2];

static void nop_cb(void *arg) { (void)arg; }

static void log_cb(void *arg) { tct_log("%s@%u", (const char *)arg, (unsigned)tc_tick_get()); }

static void sleeper(void *arg) { OK(tc_thread_sleep((uint32_t)(uintptr_t)arg)); }

/* ---- errors ------------------------------------------------------------------------------ */

static void isr_rules(void *arg)
{
  (void)arg;
  tc_isr_enter();
  EXPECT_ARG(tc_timer_create(T1, "x", nop_cb, NULL, 1, 0, 0), TC_CALLER_ERROR);
  EXPECT_ARG(tc_timer_delete(T0), TC_CALLER_ERROR);
  OK(tc_timer_deactivate(T0)); /* any context */
  OK(tc_timer_change(T0, 3, 0));
  OK(tc_timer_activate(T0));
  tc_isr_exit();
  OK(tc_thread_sleep(5));
}

static void errors(void)
{
  tct_begin();
  EXPECT_ARG(tc_timer_create(NULL, "x", nop_cb, NULL, 1, 0, 0), TC_INVALID);
  EXPECT_ARG(tc_timer_create(T0, "x", NULL, NULL, 1, 0, 0), TC_INVALID);
  EXPECT_ARG(tc_timer_create(T0, "x", nop_cb, NULL, 0, 5, 0), TC_INVALID); /* zero initial ticks */
  EXPECT_ARG(tc_timer_create(T0, "x", nop_cb, NULL, 1, 0, 0x10), TC_INVALID);
  EXPECT_ARG(tc_timer_activate(NULL), TC_INVALID);
  EXPECT_ARG(tc_timer_activate(T0), TC_INVALID); /* never created */
  EXPECT_ARG(tc_timer_deactivate(NULL), TC_INVALID);
  EXPECT_ARG(tc_timer_change(NULL, 1, 1), TC_INVALID);
  EXPECT_ARG(tc_timer_delete(NULL), TC_INVALID);
  EXPECT_ARG(tc_timer_info(NULL, &(tc_timer_info_t){0}), TC_INVALID);

  OK(tc_timer_create(T0, "t0", log_cb, "t0", 2, 0, 0));
  EXPECT_ARG(tc_timer_create(T0, "again", nop_cb, NULL, 1, 0, 0), TC_INVALID);
  EXPECT_ARG(tc_timer_info(T0, NULL), TC_INVALID);
  EXPECT_ARG(tc_timer_change(T0, 0, 1), TC_INVALID);
  OK(tc_timer_deactivate(T0)); /* inactive: succeeds, changes nothing */
  OK(tc_timer_activate(T0));
  EXPECT(tc_timer_activate(T0), TC_STATE_ERROR); /* already active */
  EXPECT(tc_timer_change(T0, 4, 0), TC_STATE_ERROR); /* must be deactivated first */
  tc_timer_info_t i;
  OK(tc_timer_info(T0, &i));
  CHECK(i.active);
  CHECK_EQ(i.remaining, 2);
  /* Behind it in the delta list: its remaining time sums the deltas before it. */
  OK(tc_timer_create(T2, "later", nop_cb, NULL, 9, 0, TC_AUTO_ACTIVATE));
  OK(tc_timer_info(T2, &i));
  CHECK_EQ(i.remaining, 9);
  OK(tc_timer_delete(T2));
  OK(tc_timer_info(T0, &i));
  CHECK_EQ(i.initial, 2);
  CHECK_EQ(i.period, 0);
  OK(tc_thread_create(A, "a", isr_rules, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("t0@3");
  OK(tc_timer_info(T0, &i));
  CHECK(!i.active);
  CHECK_EQ(i.expirations, 1);
  CHECK_EQ(i.callbacks, 1);
  OK(tc_timer_delete(T0));
  EXPECT_ARG(tc_timer_activate(T0), TC_INVALID);
  EXPECT_ARG(tc_timer_delete(T0), TC_INVALID);
  OK(tc_timer_create(T0, "t0", log_cb, "t0", 2, 0, 0)); /* the block can be used again */
}

/* ---- expiries ---------------------------------------------------------------------------- */

static void one_shots_in_order(void)
{
  tct_begin();
  OK(tc_timer_create(T0, "a", log_cb, "a", 5, 0, TC_AUTO_ACTIVATE));
  OK(tc_timer_create(T1, "b", log_cb, "b", 3, 0, TC_AUTO_ACTIVATE));
  OK(tc_timer_create(T2, "c", log_cb, "c", 5, 0, TC_AUTO_ACTIVATE)); /* same tick as a: after it */
  OK(tc_timer_create(&tms[3], "d", nop_cb, NULL, 9, 0, 0));         /* never activated */
  OK(tc_thread_create(A, "a", sleeper, (void *)20u, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("b@3 a@5 c@5");
}

static unsigned periodic_calls, drifted;
static uint32_t first_tick, period_ticks;

static void periodic_cb(void *arg)
{
  (void)arg;
  uint32_t want = first_tick + periodic_calls * period_ticks;
  if (tc_tick_get() != want) drifted++;
  periodic_calls++;
  /* Every third callback works for two and a half ticks: later expiries must not move. */
  if (periodic_calls % 3 == 0) tct_work(5 * tc_cycles_hz() / TC_TICK_HZ / 2);
  if (periodic_calls == 200) OK(tc_timer_deactivate(T0));
}

static void periodic_without_drift(void)
{
  tct_begin();
  periodic_calls = drifted = 0;
  first_tick = 4;
  period_ticks = 7;
  OK(tc_timer_create(T0, "p", periodic_cb, NULL, 4, 7, TC_AUTO_ACTIVATE));
  OK(tc_thread_create(A, "a", sleeper, (void *)2000u, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_EQ(periodic_calls, 200);
  CHECK_EQ(drifted, 0);
  tc_timer_info_t i;
  OK(tc_timer_info(T0, &i));
  CHECK(!i.active);
  CHECK_EQ(i.expirations, 200);
  CHECK_EQ(i.callbacks, 200);
  CHECK_EQ(tc_tick_get(), 2000);
}

/* A thread keeps the scheduler locked for 30 ticks: the callbacks of a 7-tick periodic
 * timer wait, then all four run back to back; the expiries themselves stayed on time. */
static uint32_t late_ticks[8];
static unsigned late_n;

static void late_cb(void *arg)
{
  (void)arg;
  late_ticks[late_n++] = tc_tick_get();
}

static void locker(void *arg)
{
  (void)arg;
  tc_sched_lock();
  tct_work(30 * (uint64_t)tc_cycles_hz() / TC_TICK_HZ);
  tc_timer_info_t i;
  OK(tc_timer_info(T0, &i));
  CHECK_EQ(i.expirations, 4);
  CHECK_EQ(i.due, 4);
  CHECK_EQ(i.remaining, 28 + 7 - 30);
  tct_log("unlock@%u", (unsigned)tc_tick_get());
  tc_sched_unlock();
  tct_log("after n=%u", late_n);
  OK(tc_timer_delete(T0));
}

static void late_callbacks_are_not_lost(void)
{
  tct_begin();
  late_n = 0;
  OK(tc_timer_create(T0, "p", late_cb, NULL, 7, 7, TC_AUTO_ACTIVATE));
  OK(tc_thread_create(A, "a", locker, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("unlock@30 after n=4");
  for (unsigned k = 0; k < 4; k++) CHECK_EQ(late_ticks[k], 30);
}

/* The callbacks of expiries that have not run yet are cancelled by deactivation. */
static void deactivating_locker(void *arg)
{
  (void)arg;
  tc_sched_lock();
  tct_work(10 * (uint64_t)tc_cycles_hz() / TC_TICK_HZ);
  OK(tc_timer_deactivate(T0));
  tc_timer_info_t i;
  OK(tc_timer_info(T0, &i));
  CHECK_EQ(i.due, 0);
  CHECK_EQ(i.expirations, 3);
  tc_sched_unlock();
  tct_log("a");
}

static void deactivate_cancels_due_callbacks(void)
{
  tct_begin();
  OK(tc_timer_create(T0, "p", log_cb, "p", 3, 3, TC_AUTO_ACTIVATE));
  OK(tc_thread_create(A, "a", deactivating_locker, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("a");
}

/* ---- management --------------------------------------------------------------------------- */

static void manager(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(10)); /* p expired at 2, 5, 8 */
  OK(tc_timer_deactivate(T0));
  tc_timer_info_t i;
  OK(tc_timer_info(T0, &i));
  CHECK(!i.active);
  CHECK_EQ(i.remaining, 0);
  OK(tc_timer_change(T0, 5, 0)); /* a one-shot now */
  OK(tc_timer_activate(T0));     /* at 15 */
  OK(tc_timer_info(T0, &i));
  CHECK_EQ(i.remaining, 5);
  OK(tc_thread_sleep(10));
  EXPECT(tc_timer_change(T1, 1, 1), TC_STATE_ERROR);
  OK(tc_timer_delete(T1)); /* an active one */
  OK(tc_thread_sleep(30));
}

static void activate_change_delete(void)
{
  tct_begin();
  OK(tc_timer_create(T0, "p", log_cb, "p", 2, 3, TC_AUTO_ACTIVATE));
  OK(tc_timer_create(T1, "q", log_cb, "q", 100, 0, TC_AUTO_ACTIVATE)); /* deleted before it expires */
  OK(tc_thread_create(A, "a", manager, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("p@2 p@5 p@8 p@15");
  CHECK_EQ(tc_tick_get(), 50);
}

static unsigned self_calls;

static void self_managing_cb(void *arg)
{
  (void)arg;
  self_calls++;
  tct_log("s%u@%u", self_calls, (unsigned)tc_tick_get());
  if (self_calls == 2) {
    /* A periodic timer is re-armed before its callback runs: to change it, stop it first. */
    EXPECT(tc_timer_change(T0, 1, 0), TC_STATE_ERROR);
    OK(tc_timer_deactivate(T0));
    OK(tc_timer_change(T0, 10, 4));
    OK(tc_timer_activate(T0));
    OK(tc_timer_create(T1, "child", log_cb, "child", 1, 0, TC_AUTO_ACTIVATE)); /* from a callback */
  } else if (self_calls == 4) {
    OK(tc_timer_delete(T0)); /* its own timer */
  }
  STEP();
}

static void callbacks_manage_their_timer(void)
{
  tct_begin();
  self_calls = 0;
  OK(tc_timer_create(T0, "s", self_managing_cb, NULL, 3, 3, TC_AUTO_ACTIVATE));
  OK(tc_thread_create(A, "a", sleeper, (void *)40u, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("s1@3 s2@6 child@7 s3@16 s4@20");
}

/* ---- callback context --------------------------------------------------------------------- */

static tc_block_pool pool;
static uint64_t pool_mem[32];

static void context_cb(void *arg)
{
  (void)arg;
  CHECK(tc_thread_self() == NULL);
  CHECK(tc_hisr_self() == NULL); /* the timers' HISR is the kernel's */
  EXPECT_ARG(tc_thread_sleep(1), TC_CALLER_ERROR);
  void *blk;
  EXPECT_ARG(tc_block_alloc(&pool, &blk, 3), TC_CALLER_ERROR);
  OK(tc_block_alloc(&pool, &blk, TC_NO_WAIT));
  OK(tc_block_free(blk));
  OK(tc_thread_resume(B)); /* B (highest priority) runs only after this callback */
  STEP();
  tct_log("cb@%u", (unsigned)tc_tick_get());
}

static void high(void *arg)
{
  (void)arg;
  tct_log("b@%u", (unsigned)tc_tick_get());
}

static void busy_low(void *arg)
{
  (void)arg;
  tct_work(6 * (uint64_t)tc_cycles_hz() / TC_TICK_HZ);
  tct_log("a@%u", (unsigned)tc_tick_get());
}

static void callback_context(void)
{
  tct_begin();
  OK(tc_block_pool_create(&pool, "p", 8, pool_mem, sizeof pool_mem));
  OK(tc_timer_create(T0, "c", context_cb, NULL, 4, 0, TC_AUTO_ACTIVATE));
  OK(tc_thread_create(A, "a", busy_low, NULL, TCT_STACK(0), 9, 9, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", high, NULL, TCT_STACK(1), 0, 0, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("cb@4 b@4 a@6");
}

/* Timers with no thread at all: the run lasts until the last one-shot. */
static void timers_alone(void)
{
  tct_begin();
  OK(tc_timer_create(T0, "x", log_cb, "x", 12, 0, TC_AUTO_ACTIVATE));
  OK(tc_timer_create(T1, "y", log_cb, "y", 30, 0, TC_AUTO_ACTIVATE));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("x@12 y@30");
  CHECK_EQ(tc_tick_get(), 30);
}

TCT_MAIN("test_timer",
         TCT_CASE(errors),
         TCT_CASE(one_shots_in_order),
         TCT_CASE(periodic_without_drift),
         TCT_CASE(late_callbacks_are_not_lost),
         TCT_CASE(deactivate_cancels_due_callbacks),
         TCT_CASE(activate_change_delete),
         TCT_CASE(callbacks_manage_their_timer),
         TCT_CASE(callback_context),
         TCT_CASE(timers_alone))
