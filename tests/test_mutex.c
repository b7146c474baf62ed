/* SPDX-License-Identifier: MIT */
/*
 * Mutexes: ownership, recursion, hand-over to waiters in priority order (FIFO among equals),
 * every status; priority inheritance -- basic, transitive over three levels, undone exactly
 * with several mutexes held, undone at once when a waiter times out, is aborted, terminated
 * or reprioritised -- and its interplay with preemption thresholds and priority changes;
 * release by a thread that ends; deletion with waiters; a deadlock cycle broken by a timeout.
 * The invariant checker (which verifies the inheritance rule for every thread) runs after
 * every step.
 */
#include <stdio.h>
#include <string.h>

#include "tct.h"

static tc_thread th[10];
#define L   (&th[0])
#define M   (&th[1])
#define H   (&th[2])
#define X   (&th[3])
#define CTL (&th[4])
#define Y   (&th[5])
static tc_mutex m1, m2, m3;

static void make(tc_thread *t, const char *name, void (*fn)(void *), void *arg, unsigned prio, unsigned thr,
                 unsigned opt)
{
  OK(tc_thread_create(t, name, fn, arg, TCT_STACK((unsigned)(t - th)), prio, thr, 0, opt));
}

/* The effective priority and threshold of `t` are (p, thr). */
#define PRIO(t, p, thr) prio_is(__LINE__, (t), (p), (thr))
static void prio_is(int line, tc_thread *t, unsigned p, unsigned thr)
{
  tc_thread_info_t i;
  CHECK_EQ(tc_thread_info(t, &i), TC_OK);
  if (i.priority != p || i.threshold != thr) {
    char buf[128];
    snprintf(buf, sizeof buf, "%s runs at (%u, %u), want (%u, %u)", i.name, i.priority, i.threshold, p, thr);
    tct_fail(__FILE__, line, buf);
  }
}

/* Locks the mutex in arg (wait forever), logs, unlocks. */
static void locker(void *arg)
{
  tc_mutex *m = arg;
  tc_status st = tc_mutex_lock(m, TC_WAIT_FOREVER);
  STEP();
  tct_log("%s:%d", tc_thread_self()->name, (int)st);
  if (st == TC_OK) OK(tc_mutex_unlock(m));
}

/* ---- errors -------------------------------------------------------------------------------- */

static void errors_thread(void *arg)
{
  (void)arg;
  tc_mutex fresh;
  memset(&fresh, 0, sizeof fresh);
  EXPECT_ARG(tc_mutex_lock(&fresh, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_mutex_unlock(&fresh), TC_INVALID);
  EXPECT_ARG(tc_mutex_delete(&fresh), TC_INVALID);
  EXPECT_ARG(tc_mutex_lock(NULL, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_mutex_unlock(NULL), TC_INVALID);
  EXPECT_ARG(tc_mutex_delete(NULL), TC_INVALID);
  EXPECT(tc_mutex_unlock(&m1), TC_NOT_OWNER); /* free */
  tc_isr_enter();
  EXPECT_ARG(tc_mutex_create(&m2, "isr", 0), TC_CALLER_ERROR);
  EXPECT_ARG(tc_mutex_lock(&m1, TC_NO_WAIT), TC_CALLER_ERROR); /* a mutex belongs to a thread */
  EXPECT_ARG(tc_mutex_unlock(&m1), TC_CALLER_ERROR);
  EXPECT_ARG(tc_mutex_delete(&m1), TC_CALLER_ERROR);
  tc_isr_exit();
  tc_sched_lock();
  EXPECT_ARG(tc_mutex_lock(&m1, 1), TC_CALLER_ERROR);
  OK(tc_mutex_lock(&m1, TC_NO_WAIT)); /* not waiting: allowed */
  OK(tc_mutex_unlock(&m1));
  tc_sched_unlock();
  OK(tc_mutex_create(&m2, "free", 0));
  OK(tc_mutex_delete(&m2)); /* free */
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  OK(tc_mutex_delete(&m1)); /* owned by the caller: allowed */
  EXPECT_ARG(tc_mutex_unlock(&m1), TC_INVALID);
  EXPECT_ARG(tc_mutex_lock(&m1, TC_NO_WAIT), TC_INVALID);
  OK(tc_mutex_create(&m1, "again", TC_INHERIT));
  tct_log("done");
}

static void create_and_errors(void)
{
  tct_begin();
  EXPECT_ARG(tc_mutex_create(NULL, "x", 0), TC_INVALID);
  EXPECT_ARG(tc_mutex_create(&m1, "x", 0x10), TC_INVALID); /* unknown option */
  OK(tc_mutex_create(&m1, "m1", TC_INHERIT));
  EXPECT_ARG(tc_mutex_create(&m1, "m1", 0), TC_INVALID); /* already created */
  /* Before the kernel runs there is no thread to own it. */
  EXPECT_ARG(tc_mutex_lock(&m1, TC_NO_WAIT), TC_CALLER_ERROR);
  EXPECT_ARG(tc_mutex_unlock(&m1), TC_CALLER_ERROR);
  make(L, "a", errors_thread, NULL, 5, 5, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("done");
}

/* ---- ownership, recursion, hand-over ------------------------------------------------------- */

static void other_tries(void *arg)
{
  (void)arg;
  EXPECT(tc_mutex_lock(&m1, TC_NO_WAIT), TC_NO_INSTANCE);
  EXPECT(tc_mutex_unlock(&m1), TC_NOT_OWNER);
  tct_log("other");
  tc_status st = tc_mutex_lock(&m1, TC_WAIT_FOREVER);
  tct_log("other:%d", (int)st);
  OK(tc_mutex_unlock(&m1));
}

static void recursive_owner(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  OK(tc_mutex_lock(&m1, TC_WAIT_FOREVER)); /* the owner never waits for its own mutex */
  OK(tc_mutex_lock(&m1, 5));
  OK(tc_thread_resume(M)); /* higher: tries, then waits */
  OK(tc_mutex_unlock(&m1));
  OK(tc_mutex_unlock(&m1));
  tct_log("still-owned");
  OK(tc_mutex_unlock(&m1)); /* last: m1 goes to the waiter, which runs at once */
  tct_log("released");
  EXPECT(tc_mutex_unlock(&m1), TC_NOT_OWNER); /* no longer the owner */
}

static void ownership_and_recursion(void)
{
  tct_begin();
  OK(tc_mutex_create(&m1, "m1", 0));
  make(L, "owner", recursive_owner, NULL, 10, 10, TC_AUTO_START);
  make(M, "other", other_tries, NULL, 5, 5, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("other still-owned other:0 released");
  CHECK_EQ(tc_tick_get(), 0);
}

static void late_locker(void *arg)
{
  OK(tc_thread_sleep((uint32_t)(uintptr_t)arg));
  locker(&m1);
}

static void order_owner(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  OK(tc_thread_sleep(10)); /* the others begin to wait, in the order of their sleeps */
  tct_log("unlock");
  OK(tc_mutex_unlock(&m1)); /* they get it in priority order, FIFO among equals */
}

static void waiters_get_it_in_priority_order(void)
{
  tct_begin();
  OK(tc_mutex_create(&m1, "m1", 0));
  make(L, "o", order_owner, NULL, 3, 3, TC_AUTO_START); /* highest: no inheritance involved */
  make(M, "a", late_locker, (void *)1u, 10, 10, TC_AUTO_START);
  make(H, "b", late_locker, (void *)2u, 8, 8, TC_AUTO_START);
  make(X, "c", late_locker, (void *)3u, 10, 10, TC_AUTO_START);
  make(Y, "d", late_locker, (void *)4u, 8, 8, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("unlock b:0 d:0 a:0 c:0");
}

static void grabber(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1)); /* w waits for m1 now */
  OK(tc_mutex_unlock(&m1)); /* handed to w, which is lower and does not run yet */
  /* A thread that did not wait cannot overtake the waiter it was handed to. */
  EXPECT(tc_mutex_lock(&m1, TC_NO_WAIT), TC_NO_INSTANCE);
  tct_log("h");
}

static void grabber_owner(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  grabber(arg);
}

static void handed_over_not_stolen(void)
{
  tct_begin();
  OK(tc_mutex_create(&m1, "m1", TC_INHERIT));
  make(L, "h", grabber_owner, NULL, 3, 3, TC_AUTO_START);
  make(M, "w", locker, &m1, 9, 9, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("h w:0");
}

static void timed_locker(void *arg)
{
  (void)arg;
  EXPECT(tc_mutex_lock(&m1, 4), TC_TIMEOUT);
  CHECK_EQ(tc_tick_get(), 4);
  tct_log("timeout");
  EXPECT(tc_thread_sleep(TC_WAIT_FOREVER), TC_WAIT_ABORTED);
  EXPECT(tc_mutex_lock(&m1, TC_WAIT_FOREVER), TC_WAIT_ABORTED);
  tct_log("aborted");
}

static void holder(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  OK(tc_thread_resume(H)); /* H waits for m1: L inherits 5 */
  PRIO(L, 5, 5);
  OK(tc_thread_sleep(6)); /* H times out at 4: L drops back at once, while it sleeps */
  PRIO(L, 20, 20);
  OK(tc_thread_wait_abort(H)); /* H leaves its sleep, then waits for m1 again */
  PRIO(L, 5, 5);
  OK(tc_thread_wait_abort(H)); /* H gives up: L drops back */
  PRIO(L, 20, 20);
  OK(tc_mutex_unlock(&m1));
  tct_log("l");
}

static void timeout_and_abort_undo_inheritance(void)
{
  tct_begin();
  OK(tc_mutex_create(&m1, "m1", TC_INHERIT));
  make(L, "L", holder, NULL, 20, 20, TC_AUTO_START);
  make(H, "H", timed_locker, NULL, 5, 5, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("timeout aborted l");
}

/* ---- priority inheritance ------------------------------------------------------------------ */

static void pi_low(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  OK(tc_thread_resume(H)); /* H (5) preempts, waits for m1 */
  OK(tc_thread_resume(M)); /* M (10): runs now only if L did not inherit H's priority */
  tct_log("L-holds");
  OK(tc_mutex_unlock(&m1)); /* H gets m1 and preempts */
  tct_log("L-end");
}

static void pi_high(void *arg)
{
  (void)arg;
  tct_log("H-try");
  OK(tc_mutex_lock(&m1, TC_WAIT_FOREVER));
  tct_log("H-got");
  OK(tc_mutex_unlock(&m1));
}

static void pi_mid(void *arg)
{
  (void)arg;
  tct_log("M");
}

static void run_basic(unsigned options, const char *want)
{
  tct_begin();
  OK(tc_mutex_create(&m1, "m1", options));
  make(L, "L", pi_low, NULL, 20, 20, TC_AUTO_START);
  make(M, "M", pi_mid, NULL, 10, 10, 0);
  make(H, "H", pi_high, NULL, 5, 5, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG(want);
}

static void inheritance_prevents_inversion(void)
{
  /* With inheritance L runs at 5 while H waits: M cannot get in between. */
  run_basic(TC_INHERIT, "H-try L-holds H-got M L-end");
  /* Without it, the classic inversion: M runs while H waits for L. */
  run_basic(0, "H-try M L-holds H-got L-end");
}

/* Three levels: H waits for m1 owned by M, M waits for m2 owned by L: L runs at H's
 * priority. Then the chain unwinds link by link. */
static void chain_low(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m2, TC_NO_WAIT));
  OK(tc_thread_resume(M)); /* M (15) takes m1, waits for m2: L inherits 15 */
  PRIO(L, 15, 15);
  OK(tc_thread_resume(H)); /* H (5) waits for m1: M inherits 5, and so does L */
  PRIO(H, 5, 5);
  PRIO(M, 5, 5);
  PRIO(L, 5, 5);
  OK(tc_thread_resume(X)); /* X (10) cannot get in before the chain is done */
  tct_log("L-boosted");
  OK(tc_mutex_unlock(&m2)); /* M gets m2 (and keeps 5 for m1); L drops to 20 */
  PRIO(L, 20, 20);
  tct_log("L-end");
}

static void chain_mid(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  tct_log("M-wait");
  OK(tc_mutex_lock(&m2, TC_WAIT_FOREVER));
  tct_log("M-got-m2");
  PRIO(M, 5, 5); /* H still waits for m1 */
  OK(tc_mutex_unlock(&m1)); /* H gets m1 and runs; M drops to 15 */
  PRIO(M, 15, 15);
  tct_log("M-end");
  OK(tc_mutex_unlock(&m2));
}

static void chain_high(void *arg)
{
  (void)arg;
  tct_log("H-wait");
  OK(tc_mutex_lock(&m1, TC_WAIT_FOREVER));
  tct_log("H-got-m1");
  OK(tc_mutex_unlock(&m1));
}

static void chain_x(void *arg)
{
  (void)arg;
  tct_log("X");
}

static void transitive_chain_of_three(void)
{
  tct_begin();
  OK(tc_mutex_create(&m1, "m1", TC_INHERIT));
  OK(tc_mutex_create(&m2, "m2", TC_INHERIT));
  make(L, "L", chain_low, NULL, 20, 20, TC_AUTO_START);
  make(M, "M", chain_mid, NULL, 15, 15, 0);
  make(H, "H", chain_high, NULL, 5, 5, 0);
  make(X, "X", chain_x, NULL, 10, 10, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  /* After H is done, X (10) runs before M (15) and L (20). */
  CHECK_LOG("M-wait H-wait L-boosted M-got-m2 H-got-m1 X M-end L-end");
}

/* The same chain, undone from the top: H's wait times out while L still holds m2. */
static void chain_timeout_high(void *arg)
{
  (void)arg;
  EXPECT(tc_mutex_lock(&m1, 3), TC_TIMEOUT);
  tct_log("H-timeout@%u", (unsigned)tc_tick_get());
}

static void chain_timeout_low(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m2, TC_NO_WAIT));
  OK(tc_thread_resume(M));
  OK(tc_thread_resume(H));
  PRIO(L, 5, 5);
  OK(tc_thread_sleep(5)); /* H times out at 3 */
  PRIO(H, 5, 5);
  PRIO(M, 15, 15); /* M no longer inherits from H ... */
  PRIO(L, 15, 15); /* ... and L only what M, still waiting for m2, imposes */
  OK(tc_mutex_unlock(&m2));
  PRIO(L, 20, 20);
  tct_log("L-end");
}

static void chain_timeout_mid(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  OK(tc_mutex_lock(&m2, TC_WAIT_FOREVER));
  tct_log("M-got-m2");
  OK(tc_mutex_unlock(&m2));
  OK(tc_mutex_unlock(&m1));
}

static void chain_undone_when_top_waiter_times_out(void)
{
  tct_begin();
  OK(tc_mutex_create(&m1, "m1", TC_INHERIT));
  OK(tc_mutex_create(&m2, "m2", TC_INHERIT));
  make(L, "L", chain_timeout_low, NULL, 20, 20, TC_AUTO_START);
  make(M, "M", chain_timeout_mid, NULL, 15, 15, 0);
  make(H, "H", chain_timeout_high, NULL, 5, 5, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("H-timeout@3 M-got-m2 L-end");
}

/* A thread holding several inheritance mutexes drops, at each release, only to what the
 * mutexes it still holds impose. */
static bool release_a_first;

static void several_owner(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  OK(tc_mutex_lock(&m2, TC_NO_WAIT));
  OK(tc_mutex_lock(&m3, TC_NO_WAIT)); /* nobody will wait for this one */
  OK(tc_thread_resume(M)); /* M (8) waits for m2 */
  PRIO(L, 8, 8);
  OK(tc_thread_resume(H)); /* H (5) waits for m1 */
  PRIO(L, 5, 5);
  if (release_a_first) {
    OK(tc_mutex_unlock(&m1)); /* H runs; then L still holds m2, which M (8) waits for */
    PRIO(L, 8, 8);
    OK(tc_mutex_unlock(&m2)); /* M runs */
  } else {
    OK(tc_mutex_unlock(&m2)); /* M gets m2 but does not run: L still holds m1 (5) */
    PRIO(L, 5, 5);
    tct_log("L");
    OK(tc_mutex_unlock(&m1)); /* H runs, then M */
  }
  PRIO(L, 20, 20);
  OK(tc_mutex_unlock(&m3));
  PRIO(L, 20, 20);
  tct_log("L-end");
}

static void run_several(bool a_first, const char *want)
{
  tct_begin();
  release_a_first = a_first;
  OK(tc_mutex_create(&m1, "m1", TC_INHERIT));
  OK(tc_mutex_create(&m2, "m2", TC_INHERIT));
  OK(tc_mutex_create(&m3, "m3", TC_INHERIT));
  make(L, "L", several_owner, NULL, 20, 20, TC_AUTO_START);
  make(M, "M", locker, &m2, 8, 8, 0);
  make(H, "H", locker, &m1, 5, 5, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG(want);
}

static void several_mutexes_undone_one_by_one(void)
{
  run_several(true, "H:0 M:0 L-end");
  run_several(false, "L H:0 M:0 L-end");
}

/* A plain mutex never changes its owner's priority, also when the owner holds an
 * inheritance mutex as well. */
static void plain_owner(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT)); /* plain */
  OK(tc_mutex_lock(&m2, TC_NO_WAIT)); /* inheritance */
  OK(tc_thread_resume(H)); /* H (5) waits for the plain m1 */
  PRIO(L, 20, 20);
  OK(tc_thread_resume(M)); /* M (12) waits for m2 */
  PRIO(L, 12, 12);
  OK(tc_mutex_unlock(&m2)); /* M (12) runs */
  PRIO(L, 20, 20);
  OK(tc_mutex_unlock(&m1)); /* H runs */
  tct_log("L-end");
}

static void plain_mutex_does_not_inherit(void)
{
  tct_begin();
  OK(tc_mutex_create(&m1, "plain", 0));
  OK(tc_mutex_create(&m2, "inherit", TC_INHERIT));
  make(L, "L", plain_owner, NULL, 20, 20, TC_AUTO_START);
  make(M, "M", locker, &m2, 12, 12, 0);
  make(H, "H", locker, &m1, 5, 5, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("M:0 H:0 L-end");
}

/* ---- inheritance and preemption threshold -------------------------------------------------- */

/* L (20, threshold 12). Inheriting 15 leaves its threshold 12 (stricter); inheriting 5 makes
 * it 5 (never weaker than the priority). On release the user pair comes back, and L, now
 * preempted with its threshold in force, keeps out threads that do not beat 12. */
static void thr_low(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  OK(tc_thread_resume(M)); /* M (15) does not beat threshold 12 */
  OK(tc_thread_sleep(1));  /* M runs and waits for m1 */
  PRIO(L, 15, 12);
  OK(tc_thread_resume(Y)); /* Y (13) is above L's priority 15 but not its threshold 12 */
  tct_log("L1");
  OK(tc_thread_resume(H)); /* H (5) beats 12: runs, waits for m1 */
  PRIO(L, 5, 5);
  OK(tc_thread_resume(X)); /* X (8) beat the user threshold 12, but not the inherited 5 */
  tct_log("L2");
  OK(tc_mutex_unlock(&m1)); /* H gets m1 and runs; L is back to (20, 12) */
  PRIO(L, 20, 12);
  tct_log("L-end");
}

static void thr_high(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_WAIT_FOREVER));
  tct_log("H");
  OK(tc_mutex_unlock(&m1)); /* to M (15): it does not run yet */
}

static void thr_log(void *arg) { tct_log("%s", (const char *)arg); }

static void thr_mid(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_WAIT_FOREVER));
  tct_log("M");
  OK(tc_mutex_unlock(&m1));
}

static void inheritance_and_preemption_threshold(void)
{
  tct_begin();
  OK(tc_mutex_create(&m1, "m1", TC_INHERIT));
  make(L, "L", thr_low, NULL, 20, 12, TC_AUTO_START);
  make(M, "M", thr_mid, NULL, 15, 15, 0);
  make(H, "H", thr_high, NULL, 5, 5, 0);
  make(X, "X", thr_log, "X", 8, 8, 0);
  make(Y, "Y", thr_log, "Y", 13, 13, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  /* After H: X (8) beats L's threshold 12 and runs; Y (13) and M (15) do not, so L, preempted
   * with its threshold in force, resumes before them. */
  CHECK_LOG("L1 L2 H X L-end Y M");
}

/* ---- priority changes ---------------------------------------------------------------------- */

static void pc_ctl(void *arg)
{
  (void)arg;
  OK(tc_thread_resume(L));
  OK(tc_thread_sleep(1)); /* L takes m1, H waits for it, L suspends itself */
  PRIO(L, 5, 5);
  unsigned old;
  /* The owner's user priority changes; the inherited priority stays in force. */
  OK(tc_thread_priority_change(L, 25, &old));
  CHECK_EQ(old, 20);
  PRIO(L, 5, 5);
  tc_thread_info_t i;
  OK(tc_thread_info(L, &i));
  CHECK_EQ(i.user_priority, 25);
  CHECK_EQ(i.user_threshold, 25);
  /* The waiter's priority changes: the owner follows, up and down. */
  OK(tc_thread_priority_change(H, 3, NULL));
  PRIO(L, 3, 3);
  OK(tc_thread_priority_change(H, 30, NULL));
  PRIO(L, 25, 25);
  OK(tc_thread_priority_change(L, 10, NULL));
  PRIO(L, 10, 10);
  OK(tc_thread_priority_change(H, 5, NULL));
  PRIO(L, 5, 5);
  /* A threshold change of the boosted owner: the user threshold is kept, the effective one
   * stays at the inherited priority. */
  OK(tc_thread_threshold_change(L, 7, NULL));
  PRIO(L, 5, 5);
  OK(tc_thread_info(L, &i));
  CHECK_EQ(i.user_threshold, 7);
  tct_log("ctl");
}

static void pc_owner(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  OK(tc_thread_resume(H));
  OK(tc_thread_suspend(L));
  tct_log("L");
  OK(tc_mutex_unlock(&m1)); /* H (5) runs */
  PRIO(L, 10, 7);
  tct_log("L-end");
}

static void pc_ctl_resumes(void *arg)
{
  pc_ctl(arg);
  OK(tc_thread_resume(L)); /* L (5 inherited) preempts the controller (9) */
  tct_log("ctl-end");
}

static void priority_changes_of_owner_and_waiter(void)
{
  tct_begin();
  OK(tc_mutex_create(&m1, "m1", TC_INHERIT));
  make(CTL, "ctl", pc_ctl_resumes, NULL, 9, 9, TC_AUTO_START);
  make(L, "L", pc_owner, NULL, 20, 20, 0);
  make(H, "H", locker, &m1, 5, 5, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  /* L, resumed while it inherits 5, preempts the controller (9); after its release it is
   * (10, 7) -- H runs at once -- and it finishes before the controller, which it preempted. */
  CHECK_LOG("ctl L H:0 L-end ctl-end");
}

/* An owner's own priority changed while an inherited one overrides it: its effective priority
 * does not move, and neither does it -- a ready owner keeps its place in its ready list. */
static volatile bool ov_back; /* the controller is back from its sleep */

static void ov_owner(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  STEP();
  while (!ov_back) tct_work(1000); /* until the controller's tick comes in the middle */
  tct_log("L");
  OK(tc_mutex_unlock(&m1)); /* back to 12; H, which gets m1, is ready behind Y and ctl */
  STEP();
  tct_log("L-end");
}

static void ov_ctl(void *arg)
{
  (void)arg;
  OK(tc_thread_resume(L)); /* below the controller: no switch */
  OK(tc_thread_sleep(1));  /* L locks m1; the tick brings the controller back */
  ov_back = true;
  OK(tc_thread_resume(H)); /* priority 3, behind the controller */
  tc_thread_yield();       /* H waits for m1: L inherits 3, at the back of list 3 */
  STEP();
  PRIO(L, 3, 3);
  OK(tc_thread_resume(Y)); /* list 3: ctl, L, Y */
  STEP();
  unsigned old = 0;
  OK(tc_thread_priority_change(L, 12, &old));
  STEP();
  CHECK_EQ(old, 10);
  PRIO(L, 3, 3); /* m1's waiter still overrides the new 12 */
  tct_log("ctl");
  tc_thread_yield(); /* L, still ahead of Y, runs next */
  tct_log("ctl-end");
}

static void y_logs(void *arg)
{
  (void)arg;
  tct_log("Y");
}

static void overridden_priority_change_keeps_ready_place(void)
{
  tct_begin();
  ov_back = false;
  OK(tc_mutex_create(&m1, "m1", TC_INHERIT));
  make(CTL, "ctl", ov_ctl, NULL, 3, 3, TC_AUTO_START);
  make(L, "L", ov_owner, NULL, 10, 10, 0);
  make(H, "H", locker, &m1, 3, 3, 0);
  make(Y, "Y", y_logs, NULL, 3, 3, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  /* Moved to the back of list 3 by the change, L would have come after Y: "ctl Y L ...". */
  CHECK_LOG("ctl L Y ctl-end H:0 L-end");
  PRIO(L, 12, 12);
}

/* ---- threads that end, waiters that go away ------------------------------------------------ */

static void exit_owner(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  OK(tc_mutex_lock(&m1, TC_NO_WAIT)); /* recursion does not keep it after the owner ends */
  OK(tc_mutex_lock(&m2, TC_NO_WAIT));
  OK(tc_mutex_lock(&m3, TC_NO_WAIT)); /* nobody waits: simply freed */
  OK(tc_thread_resume(M)); /* waits for the plain m2: no inheritance */
  PRIO(L, 20, 20);
  OK(tc_thread_resume(H)); /* waits for m1 */
  PRIO(L, 5, 5);
  OK(tc_thread_suspend(L)); /* the controller terminates L */
}

static void exit_ctl(void *arg)
{
  (void)arg;
  OK(tc_thread_resume(L));
  OK(tc_thread_sleep(1)); /* L takes the mutexes, the others wait, L suspends itself */
  OK(tc_thread_terminate(L)); /* m1 to H, m2 to M: both run before the controller */
  tct_log("ctl");
  tc_thread_info_t i;
  OK(tc_thread_info(L, &i));
  CHECK_EQ(i.priority, 20); /* an ended thread keeps no inherited priority */
  OK(tc_mutex_lock(&m3, TC_NO_WAIT)); /* m3 was freed */
  OK(tc_mutex_unlock(&m3));
}

static void terminated_owner_hands_mutexes_over(void)
{
  tct_begin();
  OK(tc_mutex_create(&m1, "m1", TC_INHERIT));
  OK(tc_mutex_create(&m2, "m2", 0));
  OK(tc_mutex_create(&m3, "m3", TC_INHERIT));
  make(CTL, "ctl", exit_ctl, NULL, 12, 12, TC_AUTO_START);
  make(L, "L", exit_owner, NULL, 20, 20, 0);
  make(H, "H", locker, &m1, 5, 5, 0);
  make(M, "M", locker, &m2, 8, 8, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("H:0 M:0 ctl");
}

static void completing_owner(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  OK(tc_thread_resume(H));
  tct_log("L-returns"); /* returns holding m1 */
}

static void completed_owner_hands_mutex_over(void)
{
  /* With inheritance L ends at H's priority; without, H is above L when L ends: the
   * hand-over then preempts a thread that is on its way out. */
  for (unsigned options = 0; options <= TC_INHERIT; options++) {
    tct_begin();
    OK(tc_mutex_create(&m1, "m1", options));
    make(L, "L", completing_owner, NULL, 20, 20, TC_AUTO_START);
    make(H, "H", locker, &m1, 5, 5, 0);
    CHECK_EQ(tct_run_kernel(), 0);
    CHECK_LOG("L-returns H:0");
  }
}

static void waiter_gone_owner(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  OK(tc_thread_resume(M)); /* waits for m1 */
  PRIO(L, 8, 8);
  OK(tc_thread_resume(H)); /* waits for m1 */
  PRIO(L, 5, 5);
  OK(tc_thread_suspend(L));
  PRIO(L, 20, 20);
  OK(tc_mutex_unlock(&m1)); /* nobody waits any more */
  tct_log("L-end");
}

static void waiter_gone_ctl(void *arg)
{
  (void)arg;
  OK(tc_thread_resume(L));
  OK(tc_thread_sleep(1)); /* L takes m1, M and H wait for it, L suspends itself */
  OK(tc_thread_terminate(H)); /* the highest waiter: L drops to M's 8 */
  PRIO(L, 8, 8);
  OK(tc_thread_suspend(M)); /* a waiting thread suspended keeps waiting: still 8 */
  PRIO(L, 8, 8);
  OK(tc_thread_wait_abort(M)); /* M leaves the queue (and stays suspended): L drops to 20 */
  PRIO(L, 20, 20);
  OK(tc_thread_resume(L));
  tct_log("ctl");
}

static void terminated_or_aborted_waiter_undoes_inheritance(void)
{
  tct_begin();
  OK(tc_mutex_create(&m1, "m1", TC_INHERIT));
  make(CTL, "ctl", waiter_gone_ctl, NULL, 3, 3, TC_AUTO_START);
  make(L, "L", waiter_gone_owner, NULL, 20, 20, 0);
  make(H, "H", locker, &m1, 5, 5, 0);
  make(M, "M", locker, &m1, 8, 8, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("ctl L-end"); /* M, aborted while suspended, never runs again */
}

static void suspended_waiter_ctl(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  OK(tc_thread_resume(H)); /* H (5) waits */
  OK(tc_thread_suspend(H)); /* delayed suspension */
  PRIO(CTL, 5, 5);          /* still a waiter: still inherited */
  OK(tc_mutex_unlock(&m1)); /* handed to H, which becomes owner but stays suspended */
  PRIO(CTL, 10, 10);
  EXPECT(tc_mutex_lock(&m1, TC_NO_WAIT), TC_NO_INSTANCE);
  tc_thread_info_t i;
  OK(tc_thread_info(H, &i));
  CHECK_EQ(i.state, TC_SUSPENDED);
  tct_log("ctl");
  OK(tc_thread_resume(H));
  tct_log("ctl-end");
}

static void suspended_waiter_becomes_owner(void)
{
  tct_begin();
  OK(tc_mutex_create(&m1, "m1", TC_INHERIT));
  make(CTL, "ctl", suspended_waiter_ctl, NULL, 10, 10, TC_AUTO_START);
  make(H, "H", locker, &m1, 5, 5, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("ctl H:0 ctl-end");
}

/* ---- deletion ------------------------------------------------------------------------------ */

static void del_owner(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  OK(tc_thread_resume(M));
  OK(tc_thread_resume(H));
  PRIO(L, 5, 5);
  OK(tc_thread_resume(CTL)); /* deletes m1: H and M return TC_DELETED, L drops to 20 */
  PRIO(L, 20, 20);
  EXPECT_ARG(tc_mutex_unlock(&m1), TC_INVALID);
  tct_log("L-end");
}

static void del_ctl(void *arg)
{
  (void)arg;
  OK(tc_mutex_delete(&m1));
  tct_log("deleted");
}

static void delete_with_waiters(void)
{
  tct_begin();
  OK(tc_mutex_create(&m1, "m1", TC_INHERIT));
  make(L, "L", del_owner, NULL, 20, 20, TC_AUTO_START);
  make(H, "H", locker, &m1, 5, 5, 0);
  make(M, "M", locker, &m1, 7, 7, 0);
  make(CTL, "ctl", del_ctl, NULL, 3, 3, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  /* The controller (3) goes on after the delete; the waiters return TC_DELETED (4). */
  CHECK_LOG("deleted H:4 M:4 L-end");
}

/* ---- a deadlock cycle, broken by a timeout ------------------------------------------------- */

static void cycle_a(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  OK(tc_thread_sleep(1)); /* B takes m2 and waits for m1 */
  /* A waits for m2 (owned by B, who waits for m1, owned by A): a cycle. */
  EXPECT(tc_mutex_lock(&m2, 5), TC_TIMEOUT);
  PRIO(L, 10, 10);
  PRIO(M, 12, 12);
  tct_log("A-timeout");
  OK(tc_mutex_unlock(&m1)); /* B gets m1 */
  tct_log("A-end");
}

static void cycle_b(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m2, TC_NO_WAIT));
  OK(tc_mutex_lock(&m1, TC_WAIT_FOREVER));
  tct_log("B-got-m1");
  OK(tc_mutex_unlock(&m1));
  OK(tc_mutex_unlock(&m2));
}

static void cycle_watch(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(2)); /* both wait now */
  PRIO(L, 10, 10);
  PRIO(M, 10, 10); /* B inherits A's 10 through m2 */
  tct_log("watch");
}

static void deadlock_cycle_broken_by_timeout(void)
{
  tct_begin();
  OK(tc_mutex_create(&m1, "m1", TC_INHERIT));
  OK(tc_mutex_create(&m2, "m2", TC_INHERIT));
  make(L, "A", cycle_a, NULL, 10, 10, TC_AUTO_START);
  make(M, "B", cycle_b, NULL, 12, 12, TC_AUTO_START);
  make(CTL, "watch", cycle_watch, NULL, 2, 2, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("watch A-timeout A-end B-got-m1");
}

/* A hand-over readies the new owner before the old owner drops its inherited priority: the
 * waiter the mutex goes to is the most urgent thread in the hand-over. L (3) owns m1, H (1)
 * waits (L runs at 1) and L readies X (2, threshold 1), which L's inherited priority holds
 * off. L's unlock: H first, then X, then L. (ThreadX drops L first, which chooses X, whose
 * threshold 1 then holds H off: X, H, L.) */
static void handover_owner(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m1, TC_NO_WAIT));
  OK(tc_thread_resume(H)); /* waits for m1: L inherits 1 */
  OK(tc_thread_resume(X)); /* 2 does not beat L's threshold 1 */
  OK(tc_mutex_unlock(&m1));
  tct_log("L");
}

static void handover_x(void *arg)
{
  (void)arg;
  tct_log("X");
}

static void handover_readies_the_new_owner_first(void)
{
  tct_begin();
  OK(tc_mutex_create(&m1, "m1", TC_INHERIT));
  make(L, "L", handover_owner, NULL, 3, 3, TC_AUTO_START);
  make(H, "H", locker, &m1, 1, 1, 0);
  make(X, "X", handover_x, NULL, 2, 1, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("H:0 X L");
}

TCT_MAIN("test_mutex",
         TCT_CASE(create_and_errors),
         TCT_CASE(ownership_and_recursion),
         TCT_CASE(waiters_get_it_in_priority_order),
         TCT_CASE(handover_readies_the_new_owner_first),
         TCT_CASE(handed_over_not_stolen),
         TCT_CASE(timeout_and_abort_undo_inheritance),
         TCT_CASE(inheritance_prevents_inversion),
         TCT_CASE(transitive_chain_of_three),
         TCT_CASE(chain_undone_when_top_waiter_times_out),
         TCT_CASE(several_mutexes_undone_one_by_one),
         TCT_CASE(plain_mutex_does_not_inherit),
         TCT_CASE(inheritance_and_preemption_threshold),
         TCT_CASE(priority_changes_of_owner_and_waiter),
         TCT_CASE(overridden_priority_change_keeps_ready_place),
         TCT_CASE(terminated_owner_hands_mutexes_over),
         TCT_CASE(completed_owner_hands_mutex_over),
         TCT_CASE(terminated_or_aborted_waiter_undoes_inheritance),
         TCT_CASE(suspended_waiter_becomes_owner),
         TCT_CASE(delete_with_waiters),
         TCT_CASE(deadlock_cycle_broken_by_timeout))
