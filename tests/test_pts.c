/* SPDX-License-Identifier: MIT */
/*
 * Preemption threshold: the L/M/H example, nesting of three thresholds, threshold and
 * priority changes while running, ready, preempted and blocked, yields and time slices.
 * Threads log what they do; every service call is followed by the invariant checker.
 */
#include "tct.h"

static tc_thread th[8];
#define L  (&th[0])
#define M  (&th[1])
#define H  (&th[2])
#define T4 (&th[3])
#define T5 (&th[4])

static void make(tc_thread *t, const char *name, void (*fn)(void *), unsigned prio, unsigned thr, unsigned opt)
{
  OK(tc_thread_create(t, name, fn, NULL, TCT_STACK((unsigned)(t - th)), prio, thr, 0, opt));
}

/* ---- the L/M/H example ------------------------------------------------------------------- */

static void lmh_low(void *arg)
{
  (void)arg;
  tct_log("L1");
  OK(tc_thread_resume(M)); /* 7 does not beat L's threshold 5: no switch */
  tct_log("L2");
  OK(tc_thread_resume(H)); /* 3 beats 5: H runs now */
  tct_log("L3");           /* H blocked: L resumes, not M */
  OK(tc_thread_suspend(L)); /* L blocks: M runs */
  tct_log("L4");
}

static void lmh_mid(void *arg)
{
  (void)arg;
  tct_log("M1");
  tc_thread_info_t i;
  OK(tc_thread_info(L, &i));
  if (i.state == TC_SUSPENDED) OK(tc_thread_resume(L)); /* lower than M: no switch */
  tct_log("M2");
}

static void lmh_high(void *arg)
{
  (void)arg;
  tct_log("H1");
  OK(tc_thread_suspend(H));
}

static void lmh_example(void)
{
  tct_begin();
  make(L, "L", lmh_low, 10, 5, TC_AUTO_START);
  make(M, "M", lmh_mid, 7, 7, 0);
  make(H, "H", lmh_high, 3, 3, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("L1 L2 H1 L3 M1 M2 L4");
  tc_thread_info_t i;
  OK(tc_thread_info(L, &i));
  CHECK_EQ(i.preempted, 1);
  CHECK(i.last_preempted_by == H);
  CHECK_EQ(i.state, TC_COMPLETED);
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  /* The CPU begins running L, H, L, M, L: five switches, one of them a preemption. */
  CHECK_EQ(k.context_switches, 5);
  CHECK_EQ(k.preemptions, 1);
}

/* Without the threshold the same program preempts L for M at once. */
static void lmh_without_threshold(void)
{
  tct_begin();
  make(L, "L", lmh_low, 10, 10, TC_AUTO_START);
  make(M, "M", lmh_mid, 7, 7, 0);
  make(H, "H", lmh_high, 3, 3, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("L1 M1 M2 L2 H1 L3"); /* L suspends itself for good: nothing left to run */
}

/* ---- nesting of three thresholds --------------------------------------------------------- */

static void nest_t1(void *arg)
{
  (void)arg;
  tct_log("t1");
  OK(tc_thread_resume(M)); /* T2 (12) beats T1's threshold 15 */
  tct_log("t1-back");
}

static void nest_t2(void *arg)
{
  (void)arg;
  tct_log("t2");
  OK(tc_thread_resume(T4)); /* X (10) does not beat T2's threshold 8 */
  OK(tc_thread_resume(H));  /* T3 (6) does */
  tct_log("t2-back");
  OK(tc_thread_suspend(M));
}

static void nest_t3(void *arg)
{
  (void)arg;
  tct_log("t3");
  OK(tc_thread_resume(T5)); /* Y (5) does not beat T3's threshold 2 */
  tct_log("t3-end");
}

static void nest_x(void *arg)
{
  (void)arg;
  tct_log("x");
}

static void nest_y(void *arg)
{
  (void)arg;
  tct_log("y");
}

static void three_nested_thresholds(void)
{
  tct_begin();
  make(L, "T1", nest_t1, 20, 15, TC_AUTO_START);
  make(M, "T2", nest_t2, 12, 8, 0);
  make(H, "T3", nest_t3, 6, 2, 0);
  make(T4, "X", nest_x, 10, 10, 0);
  make(T5, "Y", nest_y, 5, 5, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  /* T3 completes: Y (5) beats T2's threshold 8. Y completes: X (10) does not beat 8, so T2
   * resumes. T2 suspends: X (10) beats T1's threshold 15. X completes: T1. */
  CHECK_LOG("t1 t2 t3 t3-end y t2-back x t1-back");
}

/* ---- threshold changes ------------------------------------------------------------------- */

static unsigned new_threshold_for_l;

static void chg_high(void *arg)
{
  (void)arg;
  tct_log("H");
  unsigned old = 99;
  OK(tc_thread_threshold_change(L, new_threshold_for_l, &old));
  CHECK_EQ(old, 5);
  OK(tc_thread_suspend(H));
}

static void chg_low(void *arg)
{
  (void)arg;
  tct_log("L1");
  OK(tc_thread_resume(M));
  OK(tc_thread_resume(H));
  tct_log("L2");
}

static void chg_mid(void *arg)
{
  (void)arg;
  tct_log("M");
}

static void run_threshold_change_while_preempted(unsigned thr, const char *want)
{
  tct_begin();
  new_threshold_for_l = thr;
  make(L, "L", chg_low, 10, 5, TC_AUTO_START);
  make(M, "M", chg_mid, 7, 7, 0);
  make(H, "H", chg_high, 3, 3, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG(want);
}

static void threshold_change_while_preempted(void)
{
  /* Made stricter (2): M still cannot run before L. */
  run_threshold_change_while_preempted(2, "L1 H L2 M");
  /* Relaxed to 8: M (7) now beats it as soon as H blocks. */
  run_threshold_change_while_preempted(8, "L1 H M L2");
  /* Removed (10 = priority): fully preemptive, M runs first. */
  run_threshold_change_while_preempted(10, "L1 H M L2");
}

static void self_threshold(void *arg)
{
  (void)arg;
  unsigned old;
  OK(tc_thread_threshold_change(L, 5, &old));
  CHECK_EQ(old, 10);
  OK(tc_thread_resume(M)); /* 7 vs threshold 5: stays */
  tct_log("L-protected");
  OK(tc_thread_threshold_change(L, 7, NULL)); /* 7 vs 7: still protected */
  tct_log("L-still");
  OK(tc_thread_threshold_change(L, 10, NULL)); /* M preempts inside the call */
  tct_log("L-end");
}

static void threshold_change_of_running_thread(void)
{
  tct_begin();
  make(L, "L", self_threshold, 10, 10, TC_AUTO_START);
  make(M, "M", chg_mid, 7, 7, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("L-protected L-still M L-end");
}

static void waiter(void *arg)
{
  (void)arg;
  EXPECT(tc_thread_sleep(TC_WAIT_FOREVER), TC_WAIT_ABORTED);
  tct_log("%s", tc_thread_self()->name);
}

static void changer(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1)); /* let both waiters block */
  /* Blocked thread: threshold and priority change take effect when it runs. */
  OK(tc_thread_threshold_change(M, 2, NULL));
  OK(tc_thread_priority_change(H, 9, NULL));
  tc_thread_info_t i;
  OK(tc_thread_info(M, &i));
  CHECK_EQ(i.threshold, 2);
  CHECK_EQ(i.state, TC_SLEEPING);
  OK(tc_thread_wait_abort(M)); /* M (5) preempts the changer (8) */
  OK(tc_thread_wait_abort(H)); /* H is now 9: below the changer */
  tct_log("changer");
}

static void changes_on_blocked_threads(void)
{
  tct_begin();
  make(L, "changer", changer, 8, 8, TC_AUTO_START);
  make(M, "M", waiter, 5, 5, TC_AUTO_START);
  make(H, "H", waiter, 3, 3, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("M changer H");
}

/* ---- priority changes -------------------------------------------------------------------- */

static void prio_low(void *arg)
{
  (void)arg;
  tct_log("L1");
  OK(tc_thread_resume(M));          /* M (7) > L (10): M runs */
  tct_log("L2");
  unsigned old = 0;
  OK(tc_thread_priority_change(L, 4, &old)); /* L above M now: nothing to switch */
  CHECK_EQ(old, 10);
  OK(tc_thread_resume(H)); /* H (6) below L (4) now */
  tct_log("L3");
  OK(tc_thread_priority_change(L, 12, NULL)); /* below H and M: H runs, then M */
  tct_log("L4");
}

static void prio_mid(void *arg)
{
  (void)arg;
  tct_log("M1");
  OK(tc_thread_suspend(M));
  tct_log("M2");
}

static void prio_high(void *arg)
{
  (void)arg;
  tct_log("H1");
  OK(tc_thread_resume(M));
  tct_log("H2");
}

static void priority_change_running_ready(void)
{
  tct_begin();
  make(L, "L", prio_low, 10, 10, TC_AUTO_START);
  make(M, "M", prio_mid, 7, 7, 0);
  make(H, "H", prio_high, 6, 6, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("L1 M1 L2 L3 H1 H2 M2 L4");
}

static void pc_keep_threshold(void *arg)
{
  (void)arg;
  tc_thread_info_t i;
  /* (10, 5) -> 20: the deliberately set threshold 5 stays. */
  OK(tc_thread_priority_change(L, 20, NULL));
  OK(tc_thread_info(L, &i));
  CHECK_EQ(i.priority, 20);
  CHECK_EQ(i.threshold, 5);
  /* -> 3: a threshold can never be weaker than the priority: it follows to 3. */
  OK(tc_thread_priority_change(L, 3, NULL));
  OK(tc_thread_info(L, &i));
  CHECK_EQ(i.threshold, 3);
  /* Fully preemptive (3, 3) -> 9 stays fully preemptive. */
  OK(tc_thread_priority_change(L, 9, NULL));
  OK(tc_thread_info(L, &i));
  CHECK_EQ(i.threshold, 9);
  CHECK_EQ(i.user_threshold, 9);
}

static void priority_change_and_threshold(void)
{
  tct_begin();
  make(L, "L", pc_keep_threshold, 10, 5, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
}

/* A preempted thread whose priority changes keeps its claim to resume with its threshold. */
static void pcp_high(void *arg)
{
  (void)arg;
  tct_log("H");
  OK(tc_thread_priority_change(L, 11, NULL)); /* L preempted, threshold 5 still in force */
  OK(tc_thread_suspend(H));
}

static void pcp_low(void *arg)
{
  (void)arg;
  OK(tc_thread_resume(M));
  OK(tc_thread_resume(H));
  tct_log("L");
}

static void priority_change_of_preempted_thread(void)
{
  tct_begin();
  make(L, "L", pcp_low, 10, 5, TC_AUTO_START);
  make(M, "M", chg_mid, 7, 7, 0);
  make(H, "H", pcp_high, 3, 3, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("H L M");
}

/* The innermost preemption resumes first even when a priority change has moved it below an
 * outer one: X (14, threshold 11) is preempted; Y, raised to 5, runs inside X's preemption and
 * is preempted in turn with its threshold 3; Y is lowered to 17. When the preemptor is done,
 * Y's threshold 3 holds X (14) off: Y resumes, then X. (Found on Cortex-M by test_random.) */
static unsigned inner_turn;

static void inner_x(void *arg)
{
  (void)arg;
  tct_log("X1");
  OK(tc_thread_resume(H)); /* 0 beats X's threshold 11 */
  tct_log("X-back");
}

static void inner_y(void *arg)
{
  (void)arg;
  tct_log("Y1");
  OK(tc_thread_resume(H)); /* 0 beats Y's threshold 3 */
  tct_log("Y-back");
}

static void inner_h(void *arg)
{
  (void)arg;
  tct_log("H1");
  OK(tc_thread_priority_change(M, 5, NULL)); /* Y: beats X's threshold 11 once H is done */
  OK(tc_thread_suspend(H));
  tct_log("H2");
  OK(tc_thread_priority_change(M, 17, NULL)); /* Y stays preempted, threshold 3 in force */
  tc_thread_info_t i;
  OK(tc_thread_info(M, &i));
  CHECK_EQ(i.threshold, 3);
  inner_turn++;
  OK(tc_thread_suspend(H));
}

static void innermost_preemption_resumes_first(void)
{
  tct_begin();
  inner_turn = 0;
  make(L, "X", inner_x, 14, 11, TC_AUTO_START);
  make(M, "Y", inner_y, 17, 3, TC_AUTO_START);
  make(H, "H", inner_h, 0, 0, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("X1 H1 Y1 H2 Y-back X-back");
  CHECK_EQ(inner_turn, 1);
}

/* Two preempted threads in one ready list: B (12, threshold 4) is preempted by A (3,
 * threshold 1), A by C; C moves A to priority 12 (still preempted: it goes in front of B) and
 * raises A's threshold to 5, below B's 4. When C stops, B resumes first (the stricter
 * threshold) from behind A; preempted again, B goes back in front of A; when it resumes once
 * more it moves behind A, whose turn comes when B is done. */
static void two_b(void *arg)
{
  (void)arg;
  tct_log("B1");
  OK(tc_thread_resume(L)); /* A: 3 beats B's threshold 4 */
  tct_log("B2");
  OK(tc_thread_resume(H)); /* C: 0 beats B's threshold 4 */
  tct_log("B3");
}

static void two_a(void *arg)
{
  (void)arg;
  tct_log("A1");
  OK(tc_thread_resume(H)); /* C: 0 beats A's threshold 1 */
  tct_log("A2");
}

static void two_c(void *arg)
{
  (void)arg;
  tct_log("C1");
  OK(tc_thread_priority_change(L, 12, NULL));
  tc_thread_info_t i;
  OK(tc_thread_info(L, &i));
  CHECK_EQ(i.priority, 12);
  CHECK_EQ(i.threshold, 1);
  OK(tc_thread_threshold_change(L, 5, NULL));
  OK(tc_thread_suspend(H));
  tct_log("C2");
}

static void two_preempted_threads_of_one_priority(void)
{
  tct_begin();
  make(M, "B", two_b, 12, 4, TC_AUTO_START);
  make(L, "A", two_a, 3, 1, 0);
  make(H, "C", two_c, 0, 0, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("B1 A1 C1 B2 C2 B3 A2");
}

/* ---- equal priorities, yield, time slices ------------------------------------------------ */

static void eq_first(void *arg)
{
  (void)arg;
  OK(tc_thread_resume(M)); /* equal priority never preempts */
  tct_log("A");
  tc_thread_yield(); /* M runs */
  tct_log("A2");
}

static void eq_second(void *arg)
{
  (void)arg;
  tct_log("B");
  tc_thread_yield();
  tct_log("B2");
}

static void equal_priority_and_yield(void)
{
  tct_begin();
  make(L, "A", eq_first, 10, 10, TC_AUTO_START);
  make(M, "B", eq_second, 10, 10, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("A B A2 B2");
}

static void yield_threshold(void *arg)
{
  (void)arg;
  OK(tc_thread_resume(M)); /* M (7) held off by threshold 5 */
  tct_log("L1");
  tc_thread_yield();       /* gives up the threshold's protection for this turn: M runs */
  tct_log("L2");
}

static void yield_gives_up_threshold(void)
{
  tct_begin();
  make(L, "L", yield_threshold, 10, 5, TC_AUTO_START);
  make(M, "M", chg_mid, 7, 7, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("L1 M L2");
  tc_thread_info_t i;
  OK(tc_thread_info(L, &i));
  CHECK_EQ(i.preempted, 1); /* a switch away from a ready thread */
}

static volatile unsigned slice_turns[3];
static volatile bool slice_stop;

static void slicer(void *arg)
{
  unsigned id = (unsigned)(uintptr_t)arg;
  while (!slice_stop) {
    slice_turns[id]++;
    tct_work(1000);
  }
}

static void slice_controller(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(20));
  slice_stop = true;
}

static void run_slices(unsigned threshold, uint64_t *rotations, uint64_t *a_cycles, uint64_t *b_cycles)
{
  tct_begin();
  slice_stop = false;
  slice_turns[0] = slice_turns[1] = 0;
  OK(tc_thread_create(H, "ctl", slice_controller, NULL, TCT_STACK(2), 2, 2, 0, TC_AUTO_START));
  OK(tc_thread_create(L, "a", slicer, (void *)0, TCT_STACK(0), 10, threshold, 3, TC_AUTO_START));
  OK(tc_thread_create(M, "b", slicer, (void *)1, TCT_STACK(1), 10, threshold, 3, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  STEP();
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  *rotations = k.time_slices;
  tc_thread_info_t i;
  OK(tc_thread_info(L, &i));
  *a_cycles = i.cycles;
  OK(tc_thread_info(M, &i));
  *b_cycles = i.cycles;
}

static void time_slices_with_and_without_threshold(void)
{
  uint64_t rot, a, b;
  /* Fully preemptive: a and b alternate every 3 ticks over the 20 ticks the controller sleeps. */
  run_slices(10, &rot, &a, &b);
  CHECK_EQ(rot, 6);
  CHECK(a > 0 && b > 0);
  CHECK(slice_turns[0] > 0 && slice_turns[1] > 0);
  /* With a threshold in force a thread is not time-sliced: a runs alone until the end, and b
   * never gets a turn (it only runs, briefly, to end after the controller stopped them). */
  run_slices(9, &rot, &a, &b);
  CHECK_EQ(rot, 0);
  CHECK(a > 0);
  CHECK_EQ(slice_turns[1], 0);
}

/* ---- preemption from an interrupt handler, with a threshold ----------------------------- */

static void isr_low(void *arg)
{
  (void)arg;
  tc_isr_enter(); /* behave as an interrupt handler would */
  OK(tc_thread_resume(M)); /* 7: held off by L's threshold 5 */
  OK(tc_thread_resume(H)); /* 3: chosen, but the switch waits for the outermost exit */
  tct_log("in-isr");
  tc_isr_exit(); /* H runs here */
  tct_log("L");
}

static void isr_preemption_respects_threshold(void)
{
  tct_begin();
  make(L, "L", isr_low, 10, 5, TC_AUTO_START);
  make(M, "M", chg_mid, 7, 7, 0);
  make(H, "H", lmh_high, 3, 3, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("in-isr H1 L M");
}

/* ---- found against ThreadX: each case failed before its fix -------------------------------
 * Random scenarios run on ThreadX and on Tacet diverged in these five ways. T0..T3 are
 * "name (priority / threshold)". */

static tc_sem conf_sem;
#define T0 (&th[0])
#define T1 (&th[1])
#define T2 (&th[2])
#define T3 (&th[3])

static void conf_take(void *arg)
{
  (void)arg;
  OK(tc_sem_take(&conf_sem, TC_WAIT_FOREVER));
  tct_log("%s", tc_thread_self()->name);
}

static void conf_log(void *arg)
{
  (void)arg;
  tct_log("%s", tc_thread_self()->name);
}

/* 1. T0 (2/1) gives the semaphore T1 (1/1) waits on: T1 is ready but does not beat T0's
 * threshold. T0 then terminates an unrelated thread T2 (7/7): T0 keeps the CPU until it leaves
 * it; terminating another thread is not leaving it. */
static void term_t0(void *arg)
{
  (void)arg;
  OK(tc_sem_give(&conf_sem)); /* T1 ready, held off by threshold 1 */
  tct_log("gave");
  OK(tc_thread_terminate(T2));
  tct_log("terminated");
  OK(tc_thread_suspend(T3)); /* suspending another thread is not leaving the CPU either */
  tct_log("suspended");
}

static void terminate_other_keeps_threshold(void)
{
  tct_begin();
  OK(tc_sem_create(&conf_sem, "s", 0, 1));
  make(T1, "T1", conf_take, 1, 1, TC_AUTO_START); /* waits first */
  make(T0, "T0", term_t0, 2, 1, TC_AUTO_START);
  make(T2, "T2", conf_log, 7, 7, TC_AUTO_START);
  make(T3, "T3", conf_log, 8, 8, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("gave terminated suspended T1");
}

/* 2. T0 (3/3) sets the threshold of T1, ready behind nobody at priority 6, to 1; T2 (6/6) was
 * made ready after T1. A threshold change does not move a ready thread: T1 runs first. */
static void thr_ready_t0(void *arg)
{
  (void)arg;
  OK(tc_thread_threshold_change(T1, 1, NULL));
  OK(tc_thread_threshold_change(T2, 6, NULL)); /* unchanged value: no move either */
  tct_log("T0");
}

static void threshold_change_keeps_ready_place(void)
{
  tct_begin();
  make(T0, "T0", thr_ready_t0, 3, 3, TC_AUTO_START);
  make(T1, "T1", conf_log, 6, 6, TC_AUTO_START);
  make(T2, "T2", conf_log, 6, 6, TC_AUTO_START);
  make(T3, "T3", conf_log, 6, 6, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("T0 T1 T2 T3");
}

/* 3. T2 (2/2) waits on a semaphore, then T0 (2/2): T1 (7/7) changes T2's threshold (or sets
 * its priority to the value it has) and gives: T2 began to wait first and is served first. */
static unsigned conf_variant;

static void thr_wait_t1(void *arg)
{
  (void)arg;
  if (conf_variant == 0)
    OK(tc_thread_threshold_change(T2, 1, NULL));
  else
    OK(tc_thread_priority_change(T2, 2, NULL));
  OK(tc_sem_give(&conf_sem));
  OK(tc_sem_give(&conf_sem));
  tct_log("T1");
}

static void threshold_change_keeps_wait_place(void)
{
  for (conf_variant = 0; conf_variant < 2; conf_variant++) {
    tct_begin();
    OK(tc_sem_create(&conf_sem, "s", 0, 2));
    make(T2, "T2", conf_take, 2, 2, TC_AUTO_START);
    make(T0, "T0", conf_take, 2, 2, TC_AUTO_START);
    make(T1, "T1", thr_wait_t1, 7, 7, TC_AUTO_START);
    CHECK_EQ(tct_run_kernel(), 0);
    CHECK_LOG("T2 T0 T1");
  }
}

/* 4. T0 (1/1) waits on a semaphore, then T2 (1/1); T1 (4/4) moves T2 to priority 6, then T0:
 * among the priority-6 waiters T0 began to wait first and is served first. FIFO among equals
 * is the order of starting to wait, not of arriving at the priority. */
static void prio_wait_t1(void *arg)
{
  (void)arg;
  OK(tc_thread_priority_change(T2, 6, NULL));
  OK(tc_thread_priority_change(T0, 6, NULL));
  OK(tc_sem_give(&conf_sem)); /* to T0, which does not preempt T1 (4) */
  OK(tc_sem_give(&conf_sem));
  tct_log("T1");
}

static void priority_change_keeps_wait_order(void)
{
  tct_begin();
  OK(tc_sem_create(&conf_sem, "s", 0, 2));
  make(T0, "T0", conf_take, 1, 1, TC_AUTO_START);
  make(T2, "T2", conf_take, 1, 1, TC_AUTO_START);
  make(T1, "T1", prio_wait_t1, 4, 4, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("T1 T0 T2");
}

/* 5. T0 (6/5) resumes T1 (2/2), which preempts it: T0 is a preempted thread. T1 sets T0's
 * threshold to 1. Only a thread above the *running* thread's threshold preempts it; T0's
 * priority is 6: T1 goes on, in that call and at its next yield. T0's new threshold counts
 * when T1 leaves the CPU. */
static void tighten_t0(void *arg)
{
  (void)arg;
  OK(tc_thread_resume(T1));
  tct_log("T0");
}

static void tighten_t1(void *arg)
{
  (void)arg;
  OK(tc_thread_threshold_change(T0, 1, NULL));
  tct_log("set");
  tc_thread_yield();
  tct_log("yielded");
  OK(tc_thread_resume(T2)); /* T2 (3/3) beats T1's threshold 2? No: 3 is not above 2 */
  tct_log("T1");
}

static void tightened_preempted_threshold_waits(void)
{
  tct_begin();
  make(T0, "T0", tighten_t0, 6, 5, TC_AUTO_START);
  make(T1, "T1", tighten_t1, 2, 2, 0);
  make(T2, "T2", conf_log, 3, 3, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  /* T1 completes: T0 (threshold 1 now) resumes before T2 (3). */
  CHECK_LOG("set yielded T1 T0 T2");
}

/* ---- deliberate differences from ThreadX (docs/kernel.md), each pinned --------------------- */

/* A running thread that lowers its own priority to that of a ready thread keeps the CPU and
 * stays at the head of its new list (POSIX's rule for a lowered priority); its yield lets the
 * other run. */
static void lower_self(void *arg)
{
  (void)arg;
  OK(tc_thread_priority_change(T0, 5, NULL));
  tct_log("lowered");
  tc_thread_yield();
  tct_log("T0");
}

static void lowered_running_thread_stays_in_front(void)
{
  tct_begin();
  make(T0, "T0", lower_self, 2, 2, TC_AUTO_START);
  make(T1, "T1", conf_log, 5, 5, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("lowered T1 T0");
}

/* Threads made ready before tc_kernel_start() compete when it starts: the highest priority
 * runs first, whatever the thresholds of those created before it (no threshold is in force
 * before a thread has been chosen). ThreadX chooses as threads are created: T0 (6/2) created
 * first would hold off T1 (4). */
static void threads_made_ready_before_the_start_compete_at_the_start(void)
{
  tct_begin();
  make(T0, "T0", conf_log, 6, 2, TC_AUTO_START);
  make(T1, "T1", conf_log, 4, 4, TC_AUTO_START);
  make(T2, "T2", conf_log, 1, 1, TC_AUTO_START); /* would have preempted T0 at creation */
  make(T3, "T3", conf_log, 6, 6, TC_AUTO_START);
  STEP();
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("T2 T1 T0 T3");
}

/* A priority change to the value a ready thread already has moves nothing (ThreadX's suspend
 * and resume put it at the back of its list). */
static void same_priority_t0(void *arg)
{
  (void)arg;
  OK(tc_thread_priority_change(T1, 6, NULL));
  tct_log("T0");
}

static void priority_change_to_the_same_value_moves_nothing(void)
{
  tct_begin();
  make(T0, "T0", same_priority_t0, 3, 3, TC_AUTO_START);
  make(T1, "T1", conf_log, 6, 6, TC_AUTO_START);
  make(T2, "T2", conf_log, 6, 6, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("T0 T1 T2");
}

/* A thread that lowers its priority to that of a preempted thread goes behind it (preempted
 * threads keep the front of their list). P (6/2) is preempted by R (1); R moves itself to 6,
 * behind P, and stays chosen (nothing is above its threshold 6). Its yield then gives the turn
 * to P, the head of list 6, which resumes (variant 0); or X (5) makes it lose the CPU, and
 * when X is done the preempted P resumes with its threshold before R (variant 1). */
static void behind_p(void *arg)
{
  (void)arg;
  OK(tc_thread_resume(T2)); /* P is flagged */
  tct_log("P");
}

static void behind_r(void *arg)
{
  (void)arg;
  OK(tc_thread_priority_change(T2, 6, NULL));
  tct_log("R6");
  if (conf_variant == 0) {
    tc_thread_yield();
    tct_log("R-yielded");
    OK(tc_thread_resume(T3));
  } else {
    OK(tc_thread_resume(T3)); /* X (5) beats R's threshold 6: R is displaced, behind P */
    tct_log("R-back");
    tc_thread_yield(); /* alone at 6 now: goes on */
  }
  tct_log("R-end");
}

static void lowered_thread_queues_behind_a_preempted_one(void)
{
  static const char *const want[] = {"R6 P R-yielded X R-end", "R6 X P R-back R-end"};
  for (conf_variant = 0; conf_variant < 2; conf_variant++) {
    tct_begin();
    make(T0, "P", behind_p, 6, 2, TC_AUTO_START);
    make(T2, "R", behind_r, 1, 1, 0);
    make(T3, "X", conf_log, 5, 5, 0);
    CHECK_EQ(tct_run_kernel(), 0);
    CHECK_LOG(want[conf_variant]);
  }
}

TCT_MAIN("test_pts",
         TCT_CASE(lmh_example),
         TCT_CASE(lmh_without_threshold),
         TCT_CASE(three_nested_thresholds),
         TCT_CASE(threshold_change_while_preempted),
         TCT_CASE(threshold_change_of_running_thread),
         TCT_CASE(changes_on_blocked_threads),
         TCT_CASE(priority_change_running_ready),
         TCT_CASE(priority_change_and_threshold),
         TCT_CASE(priority_change_of_preempted_thread),
         TCT_CASE(innermost_preemption_resumes_first),
         TCT_CASE(two_preempted_threads_of_one_priority),
         TCT_CASE(equal_priority_and_yield),
         TCT_CASE(yield_gives_up_threshold),
         TCT_CASE(time_slices_with_and_without_threshold),
         TCT_CASE(isr_preemption_respects_threshold),
         TCT_CASE(terminate_other_keeps_threshold),
         TCT_CASE(threshold_change_keeps_ready_place),
         TCT_CASE(threshold_change_keeps_wait_place),
         TCT_CASE(priority_change_keeps_wait_order),
         TCT_CASE(tightened_preempted_threshold_waits),
         TCT_CASE(lowered_running_thread_stays_in_front),
         TCT_CASE(threads_made_ready_before_the_start_compete_at_the_start),
         TCT_CASE(priority_change_to_the_same_value_moves_nothing),
         TCT_CASE(lowered_thread_queues_behind_a_preempted_one))
