/* SPDX-License-Identifier: MIT */
/* Time: the tick, sleep ordering, the delta list under removal, long sleeps, time slices. */
#include "tct.h"

static tc_thread th[8];

static void sleep_then_log(void *arg)
{
  uint32_t ticks = (uint32_t)(uintptr_t)arg;
  OK(tc_thread_sleep(ticks));
  tct_log("%s@%u", tc_thread_self()->name, (unsigned)tc_tick_get());
}

static void sleepers_wake_in_deadline_order(void)
{
  tct_begin();
  static const char *names[] = {"a", "b", "c", "d", "e"};
  static const uint32_t ticks[] = {5, 3, 3, 8, 1};
  for (unsigned i = 0; i < 5; i++)
    OK(tc_thread_create(&th[i], names[i], sleep_then_log, (void *)(uintptr_t)ticks[i], TCT_STACK(i), 4, 4, 0,
                        TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  /* Equal deadlines (b, c) wake in the order they went to sleep. */
  CHECK_LOG("e@1 b@3 c@3 a@5 d@8");
  CHECK_EQ(tc_tick_get(), 8);
}

static void remover(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(5));
  OK(tc_thread_wait_abort(&th[1])); /* b, in the middle of the delta list */
  OK(tc_thread_terminate(&th[3]));  /* d, at its end */
  OK(tc_thread_suspend(&th[4]));    /* e sleeps: suspended when its sleep ends ... */
  OK(tc_thread_sleep(1));
  OK(tc_thread_resume(&th[4]));     /* ... unless resumed before */
}

static void abortable(void *arg)
{
  (void)arg;
  tc_status st = tc_thread_sleep(20);
  tct_log("%s:%d@%u", tc_thread_self()->name, (int)st, (unsigned)tc_tick_get());
}

static void delta_list_survives_removal(void)
{
  tct_begin();
  OK(tc_thread_create(&th[0], "a", sleep_then_log, (void *)10u, TCT_STACK(0), 4, 4, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[1], "b", abortable, NULL, TCT_STACK(1), 4, 4, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[2], "c", sleep_then_log, (void *)30u, TCT_STACK(2), 4, 4, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[3], "d", sleep_then_log, (void *)40u, TCT_STACK(3), 4, 4, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[4], "e", sleep_then_log, (void *)12u, TCT_STACK(4), 4, 4, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[5], "r", remover, NULL, TCT_STACK(5), 2, 2, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  /* a, c keep their exact deadlines; b ends at 5 (TC_WAIT_ABORTED = 5). */
  CHECK_LOG("b:5@5 a@10 e@12 c@30");
}

static void long_sleep(void)
{
  tct_begin();
  OK(tc_thread_create(&th[0], "z", sleep_then_log, (void *)1000000u, TCT_STACK(0), 4, 4, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("z@1000000");
}

static void suspended_before_start(void)
{
  tct_begin();
  OK(tc_thread_create(&th[0], "s", sleep_then_log, (void *)3u, TCT_STACK(0), 4, 4, 0, TC_AUTO_START));
  OK(tc_thread_suspend(&th[0])); /* before the kernel runs: suspended, not started */
  tc_thread_info_t i;
  OK(tc_thread_info(&th[0], &i));
  CHECK_EQ(i.state, TC_SUSPENDED);
  CHECK_EQ(tct_run_kernel(), 0); /* nothing to run */
  CHECK_LOG("");
}

static volatile unsigned turns[3];
static volatile bool stop_turns;

static void spinner(void *arg)
{
  unsigned id = (unsigned)(uintptr_t)arg;
  while (!stop_turns) {
    tct_log("%u@%u", id, (unsigned)tc_tick_get());
    turns[id]++;
    /* Exactly one tick of work per turn. */
    tct_work(tc_cycles_hz() / TC_TICK_HZ);
  }
}

static void stopper(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(9));
  stop_turns = true;
  OK(tc_thread_suspend(&th[0])); /* a waits; b, c finish */
}

static void round_robin_three(void)
{
  tct_begin();
  stop_turns = false;
  OK(tc_thread_create(&th[3], "stop", stopper, NULL, TCT_STACK(3), 1, 1, 0, TC_AUTO_START));
  for (unsigned i = 0; i < 3; i++)
    OK(tc_thread_create(&th[i], "rr", spinner, (void *)(uintptr_t)i, TCT_STACK(i), 8, 8, 2, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  /* Slices of 2 ticks rotate 0, 1, 2; the stopper wakes at tick 9 inside thread 1's turn and
   * preempts it; 1 resumes first (it was preempted, not rotated) and keeps the rest of its slice. */
  CHECK_LOG("0@0 0@1 1@2 1@3 2@4 2@5 0@6 0@7 1@8");
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK_EQ(k.time_slices, 4);
}

TCT_MAIN("test_time",
         TCT_CASE(sleepers_wake_in_deadline_order),
         TCT_CASE(delta_list_survives_removal),
         TCT_CASE(long_sleep),
         TCT_CASE(suspended_before_start),
         TCT_CASE(round_robin_three))
