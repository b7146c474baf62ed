/* SPDX-License-Identifier: MIT */
/* HISRs: creation rules, priority order, FIFO within a priority, one run per activation,
 * preemption only by higher HISRs, context rules, the scheduler lock, counters. A LISR is
 * simulated inside a thread with tc_isr_enter() / tc_isr_exit(). */
#include "tct.h"

static tc_thread th[4];
static tc_thread *const A = &th[0];
static tc_thread *const B = &th[1];
static tc_thread *const C = &th[2];

static tc_hisr hs[5];
static tc_hisr *const H0 = &hs[0];
static tc_hisr *const H1a = &hs[1];
static tc_hisr *const H1b = &hs[2];
static tc_hisr *const H2 = &hs[3];

/* HISR stacks come after the thread stacks. */
#define HSTACK(i) TCT_STACK(8 + (i))

static void log_h0(void) { tct_log("h0"); }
static void log_h1a(void) { tct_log("h1a"); }
static void log_h1b(void) { tct_log("h1b"); }
static void log_h2(void) { tct_log("h2"); }
/* For an HISR on the smallest stack: tct_log's vsnprintf needs more than that (a 268-byte
 * frame on the M3; the MPU stack guard caught it), so it only counts. */
static unsigned small_h2_runs;
static void count_h2(void) { small_h2_runs++; }

static void create_all(void)
{
  OK(tc_hisr_create(H0, "h0", log_h0, 0, HSTACK(0)));
  OK(tc_hisr_create(H1a, "h1a", log_h1a, 1, HSTACK(1)));
  OK(tc_hisr_create(H1b, "h1b", log_h1b, 1, HSTACK(2)));
  OK(tc_hisr_create(H2, "h2", log_h2, 2, HSTACK(3)));
}

/* ---- creation and errors ----------------------------------------------------------------- */

static void in_isr_errors(void *arg)
{
  (void)arg;
  tc_isr_enter();
  EXPECT_ARG(tc_hisr_create(&hs[4], "x", log_h0, 0, HSTACK(4)), TC_CALLER_ERROR);
  EXPECT_ARG(tc_hisr_delete(H2), TC_CALLER_ERROR);
  CHECK(tc_hisr_self() == NULL);
  tc_isr_exit();
  CHECK(tc_hisr_self() == NULL);
  OK(tc_hisr_activate(H2)); /* from a thread: runs at once */
  CHECK_EQ(small_h2_runs, 1);
  tct_log("a");
}

static void errors(void)
{
  tct_begin();
  EXPECT_ARG(tc_hisr_create(NULL, "x", log_h0, 0, HSTACK(0)), TC_INVALID);
  EXPECT_ARG(tc_hisr_create(H0, "x", NULL, 0, HSTACK(0)), TC_INVALID);
  EXPECT_ARG(tc_hisr_create(H0, "x", log_h0, 0, NULL, TCT_STACK_SIZE), TC_INVALID);
  EXPECT_ARG(tc_hisr_create(H0, "x", log_h0, 0, tct_stacks[8], TC_PORT_STACK_MIN - 1), TC_INVALID);
  EXPECT_ARG(tc_hisr_create(H0, "x", log_h0, 3, HSTACK(0)), TC_PRIORITY_ERROR);
  EXPECT_ARG(tc_hisr_activate(NULL), TC_INVALID);
  EXPECT_ARG(tc_hisr_activate(H0), TC_INVALID); /* never created */
  EXPECT_ARG(tc_hisr_delete(NULL), TC_INVALID);
  EXPECT_ARG(tc_hisr_info(NULL, &(tc_hisr_info_t){0}), TC_INVALID);
  small_h2_runs = 0;
  OK(tc_hisr_create(H2, "h2", count_h2, 2, tct_stacks[11], TCT_STACK_MIN));
  EXPECT_ARG(tc_hisr_create(H2, "again", log_h2, 2, HSTACK(4)), TC_INVALID);
  EXPECT_ARG(tc_hisr_info(H2, NULL), TC_INVALID);
  OK(tc_thread_create(A, "a", in_isr_errors, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("a");
  CHECK_EQ(small_h2_runs, 1);
  tc_hisr_info_t i;
  OK(tc_hisr_info(H2, &i));
  CHECK(i.name != NULL && i.name[0] == 'h');
  CHECK_EQ(i.priority, 2);
  CHECK(!i.active);
  CHECK_EQ(i.activations, 1);
  CHECK_EQ(i.runs, 1);
  CHECK_EQ(i.pending, 0);
  CHECK_EQ(i.switches_in, 1);
  CHECK(i.stack_high_water > 0 && i.stack_high_water < i.stack_size);
  OK(tc_hisr_delete(H2));
  EXPECT_ARG(tc_hisr_activate(H2), TC_INVALID);
  EXPECT_ARG(tc_hisr_delete(H2), TC_INVALID);
  /* The control block can be created again. */
  OK(tc_hisr_create(H2, "h2", log_h2, 2, HSTACK(3)));
  OK(tc_hisr_delete(H2));
}

/* ---- order ------------------------------------------------------------------------------- */

static void lisr_activates_many(void *arg)
{
  (void)arg;
  tc_isr_enter();
  OK(tc_hisr_activate(H2));
  OK(tc_hisr_activate(H1a));
  OK(tc_hisr_activate(H0));
  OK(tc_hisr_activate(H1b));
  OK(tc_hisr_activate(H2)); /* twice: two runs */
  OK(tc_hisr_activate(H1a));
  tc_hisr_info_t i;
  OK(tc_hisr_info(H2, &i));
  CHECK(i.active);
  CHECK_EQ(i.pending, 2);
  tct_log("lisr");
  tc_isr_exit(); /* every HISR runs here, before this thread continues */
  tct_log("a");
}

static void priority_then_fifo(void)
{
  tct_begin();
  create_all();
  OK(tc_thread_create(A, "a", lisr_activates_many, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("lisr h0 h1a h1a h1b h2 h2 a");
  tc_hisr_info_t i;
  OK(tc_hisr_info(H2, &i));
  CHECK_EQ(i.activations, 2);
  CHECK_EQ(i.runs, 2);
  CHECK_EQ(i.switches_in, 1); /* one entry ran both activations */
  OK(tc_hisr_info(H1a, &i));
  CHECK_EQ(i.runs, 2);
}

static void resume_high(void)
{
  tct_log("h-begin");
  OK(tc_thread_resume(B)); /* a thread of the highest priority: still waits for the HISR */
  STEP();
  tct_log("h-end");
}

static void lisr_resumes_through_hisr(void *arg)
{
  (void)arg;
  tc_isr_enter();
  OK(tc_hisr_activate(H0));
  tc_isr_exit();
  tct_log("a");
}

static void logger(void *arg) { tct_log("%s", (const char *)arg); }

static void hisr_runs_before_any_thread(void)
{
  tct_begin();
  OK(tc_hisr_create(H0, "h0", resume_high, 0, HSTACK(0)));
  OK(tc_thread_create(A, "a", lisr_resumes_through_hisr, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", logger, "b", TCT_STACK(1), 0, 0, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("h-begin h-end b a");
}

/* ---- preemption among HISRs -------------------------------------------------------------- */

static void h2_with_lisr(void)
{
  tct_log("h2-begin");
  CHECK(tc_hisr_self() == H2);
  tc_isr_enter(); /* a LISR interrupts this HISR and activates higher ones */
  OK(tc_hisr_activate(H1a));
  OK(tc_hisr_activate(H0));
  tct_log("lisr");
  tc_isr_exit(); /* h0 then h1a preempt h2 here */
  CHECK(tc_hisr_self() == H2);
  OK(tc_hisr_activate(H1b)); /* from an HISR, a higher one preempts at once */
  tct_log("h2-end");
}

static unsigned h0_runs;

static void h0_activates_lower(void)
{
  tct_log("h0-begin");
  if (h0_runs++ == 0) {
    OK(tc_hisr_activate(H2));  /* lower, and preempted: one more run after this one */
    OK(tc_hisr_activate(H1a)); /* lower: waits until h0 ends */
  }
  tct_log("h0-end");
}

static void activate_h2(void *arg)
{
  (void)arg;
  OK(tc_hisr_activate(H2));
  tct_log("a");
}

static void higher_hisr_preempts(void)
{
  tct_begin();
  h0_runs = 0;
  OK(tc_hisr_create(H0, "h0", h0_activates_lower, 0, HSTACK(0)));
  OK(tc_hisr_create(H1a, "h1a", log_h1a, 1, HSTACK(1)));
  OK(tc_hisr_create(H1b, "h1b", log_h1b, 1, HSTACK(2)));
  OK(tc_hisr_create(H2, "h2", h2_with_lisr, 2, HSTACK(3)));
  OK(tc_thread_create(A, "a", activate_h2, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  /* h2 is preempted by h0 (which activates h1a once more and h2 again), h1a runs both its
   * activations, h2 resumes, is preempted at once by h1b, ends, and runs again for the
   * activation h0 made. */
  CHECK_LOG("h2-begin lisr h0-begin h0-end h1a h1a h1b h2-end h2-begin lisr h0-begin h0-end h1a h1b h2-end a");
  tc_hisr_info_t i;
  OK(tc_hisr_info(H2, &i));
  CHECK_EQ(i.runs, 2);
  CHECK_EQ(i.activations, 2);
  CHECK_EQ(i.switches_in, 5); /* from a, then back after each of the four preemptions */
}

/* ---- context rules ----------------------------------------------------------------------- */

static tc_block_pool pool;
static uint64_t pool_mem[64];

static unsigned context_runs;

static void context_rules(void)
{
  tct_log("h0");
  if (context_runs++ != 0) return;
  CHECK(tc_thread_self() == NULL);
  CHECK(tc_hisr_self() == H0);
  EXPECT_ARG(tc_thread_sleep(1), TC_CALLER_ERROR);
  void *blk;
  EXPECT_ARG(tc_block_alloc(&pool, &blk, 5), TC_CALLER_ERROR);
  EXPECT_ARG(tc_block_alloc(&pool, &blk, TC_WAIT_FOREVER), TC_CALLER_ERROR);
  OK(tc_block_alloc(&pool, &blk, TC_NO_WAIT));
  OK(tc_block_free(blk));
  tc_sched_lock(); /* no effect outside a thread */
  OK(tc_thread_resume(B));
  tc_sched_unlock();
#if TC_CHECKS
  tc_thread_yield(); /* a no-op outside a thread (TC_CHECKS=0 trusts its callers) */
#endif
  OK(tc_hisr_activate(H0)); /* itself: one more run, after this one */
  tct_log("h0-end");
}

static void activate_h0_from_thread(void *arg)
{
  (void)arg;
  OK(tc_hisr_activate(H0));
  tct_log("a");
}

static void hisr_context(void)
{
  tct_begin();
  context_runs = 0;
  OK(tc_block_pool_create(&pool, "p", 16, pool_mem, sizeof pool_mem));
  OK(tc_hisr_create(H0, "h0", context_rules, 0, HSTACK(0)));
  OK(tc_thread_create(A, "a", activate_h0_from_thread, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", logger, "b", TCT_STACK(1), 1, 1, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("h0 h0-end h0 b a");
}

/* ---- the scheduler lock ------------------------------------------------------------------ */

static void locked_activation(void *arg)
{
  (void)arg;
  tc_sched_lock();
  OK(tc_hisr_activate(H0)); /* from the thread: deferred */
  tc_isr_enter();
  OK(tc_hisr_activate(H2)); /* from a LISR: deferred too */
  tc_isr_exit();
  tct_log("a-locked");
  STEP();
  tc_sched_unlock(); /* both run here */
  tct_log("a-unlocked");
}

static void sched_lock_defers_hisrs(void)
{
  tct_begin();
  create_all();
  OK(tc_thread_create(A, "a", locked_activation, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("a-locked h0 h2 a-unlocked");
}

/* ---- before the kernel runs -------------------------------------------------------------- */

static void activated_before_start(void)
{
  tct_begin();
  create_all();
  OK(tc_hisr_activate(H2));
  OK(tc_hisr_activate(H0));
  STEP();
  OK(tc_thread_create(A, "a", logger, "a", TCT_STACK(0), 0, 0, 0, TC_AUTO_START));
  EXPECT(tc_hisr_delete(H0), TC_STATE_ERROR); /* activated */
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("h0 h2 a");
  OK(tc_hisr_delete(H0));
}

/* ---- preemption threshold and counters --------------------------------------------------- */

static void low_with_threshold(void *arg)
{
  (void)arg;
  tct_log("l-begin");
  tc_isr_enter();
  OK(tc_hisr_activate(H0)); /* resumes M (7): below L's threshold (5), so L continues */
  tc_isr_exit();
  tct_log("l-end");
}

static void resume_m(void)
{
  tct_log("h0");
  OK(tc_thread_resume(B));
}

static void threshold_survives_hisr(void)
{
  tct_begin();
  OK(tc_hisr_create(H0, "h0", resume_m, 0, HSTACK(0)));
  OK(tc_thread_create(A, "L", low_with_threshold, NULL, TCT_STACK(0), 10, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "M", logger, "m", TCT_STACK(1), 7, 7, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("l-begin h0 l-end m");
  tc_thread_info_t i;
  OK(tc_thread_info(A, &i));
  CHECK_EQ(i.preempted, 1); /* by the HISR */
  CHECK(i.last_preempted_by == &H0->ctx);
  CHECK_EQ(i.switches_in, 2); /* it resumed after the HISR held the CPU */
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK_EQ(k.context_switches, 3); /* L, L again after h0, M; entering h0 is not counted */
  CHECK_EQ(k.preemptions, 1);
  tc_hisr_info_t h;
  OK(tc_hisr_info(H0, &h));
  CHECK_EQ(h.switches_in, 1);
}

static void equal_priority_waits(void *arg)
{
  (void)arg;
  tct_log("a-begin");
  tc_isr_enter();
  OK(tc_hisr_activate(H0)); /* makes C (same priority as A) ready: A resumes first */
  tc_isr_exit();
  tct_log("a-end");
}

static void resume_c(void) { OK(tc_thread_resume(C)); }

static void preempted_thread_resumes_first(void)
{
  tct_begin();
  OK(tc_hisr_create(H0, "h0", resume_c, 0, HSTACK(0)));
  OK(tc_thread_create(A, "a", equal_priority_waits, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(C, "c", logger, "c", TCT_STACK(2), 5, 5, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("a-begin a-end c");
}

static void reactivated_in_idle(void)
{
  tct_begin();
  create_all();
  /* No thread at all: HISRs activated before start run from idle, the run then ends. */
  for (unsigned i = 0; i < 3; i++) OK(tc_hisr_activate(H1b));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("h1b h1b h1b");
  tc_hisr_info_t i;
  OK(tc_hisr_info(H1b, &i));
  CHECK_EQ(i.runs, 3);
  CHECK(!i.active);
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK_EQ(k.context_switches, 0);
}

/* ---- services from an HISR --------------------------------------------------------------- */

static tc_sem sem;
static tc_event ev;
static tc_queue queue;
static uint32_t queue_buf[4];

static void sem_waiter(void *arg)
{
  (void)arg;
  OK(tc_sem_take(&sem, TC_WAIT_FOREVER));
  tct_log("sem");
}

static void event_waiter(void *arg)
{
  (void)arg;
  uint32_t got;
  OK(tc_event_wait(&ev, 0x5, TC_EVENT_ALL, &got, TC_WAIT_FOREVER));
  uint32_t msg;
  OK(tc_queue_receive(&queue, &msg, TC_NO_WAIT));
  tct_log("event:%x msg:%u", (unsigned)got, (unsigned)msg);
}

static void signal_handler(uint32_t signals) { tct_log("signal:%x", (unsigned)signals); }

static void signalled_sleeper(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(C, signal_handler));
  EXPECT(tc_thread_sleep(TC_WAIT_FOREVER), TC_WAIT_ABORTED); /* sleeps on after the handler */
  tct_log("c");
}

static void gives_everything(void)
{
  OK(tc_sem_give(&sem));
  OK(tc_event_set(&ev, 0x5));
  uint32_t msg = 42;
  OK(tc_queue_send(&queue, &msg, TC_NO_WAIT));
  EXPECT_ARG(tc_sem_take(&sem, 1), TC_CALLER_ERROR);
  OK(tc_signal_send(C, 0x9)); /* C's handler runs in C, after this HISR */
  tct_log("hisr");
}

static void lisr_then_wait(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1)); /* the waiters block */
  tc_isr_enter();
  OK(tc_hisr_activate(H0));
  tc_isr_exit();
  tct_log("a");
  OK(tc_thread_wait_abort(C));
}

static void isr_safe_services_from_an_hisr(void)
{
  tct_begin();
  OK(tc_sem_create(&sem, "s", 0, 1));
  OK(tc_event_create(&ev, "e"));
  OK(tc_queue_create(&queue, "q", sizeof(uint32_t), queue_buf, sizeof queue_buf));
  OK(tc_hisr_create(H0, "h0", gives_everything, 0, HSTACK(0)));
  OK(tc_thread_create(A, "a", lisr_then_wait, NULL, TCT_STACK(0), 7, 7, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "s", sem_waiter, NULL, TCT_STACK(1), 2, 2, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[3], "e", event_waiter, NULL, TCT_STACK(3), 3, 3, 0, TC_AUTO_START));
  OK(tc_thread_create(C, "c", signalled_sleeper, NULL, TCT_STACK(2), 4, 4, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("hisr sem event:5 msg:42 signal:9 a c");
}

/* ---- an HISR's context is not a thread ---------------------------------------------------- */

static void no_handler(uint32_t signals) { (void)signals; }

/* Every thread, task-port and signal service refuses `c` (an HISR's context) and changes
 * nothing: not the HISR (its snapshot), not the kernel (tc_check). */
static void refuse_context(tc_thread *c, tc_hisr *h)
{
  tc_hisr_info_t before, after;
  OK(tc_hisr_info(h, &before));
  unsigned old = 99;
  tc_thread_info_t ti;
  (void)ti; /* unused with TC_CHECKS=0 */
  (void)no_handler;
  EXPECT_ARG(tc_thread_suspend(c), TC_INVALID);
  EXPECT_ARG(tc_thread_resume(c), TC_INVALID);
  EXPECT_ARG(tc_thread_terminate(c), TC_INVALID);
  EXPECT_ARG(tc_thread_delete(c), TC_INVALID);
  EXPECT_ARG(tc_thread_priority_change(c, 3, &old), TC_INVALID);
  EXPECT_ARG(tc_thread_threshold_change(c, 0, &old), TC_INVALID);
  EXPECT_ARG(tc_thread_wait_abort(c), TC_INVALID);
  EXPECT_ARG(tc_thread_info(c, &ti), TC_INVALID);
  EXPECT_ARG(tc_thread_post(c, 7, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_signal_handler_set(c, no_handler), TC_INVALID);
  EXPECT_ARG(tc_signal_send(c, 1), TC_INVALID);
  CHECK_EQ(tc_signal_pending(c), 0);
  /* Nor may a thread be created over it while the HISR exists. */
  EXPECT_ARG(tc_thread_create(c, "x", signalled_sleeper, NULL, TCT_STACK(3), 5, 5, 0, 0), TC_INVALID);
  CHECK_EQ(old, 99);
  OK(tc_hisr_info(h, &after));
  CHECK_EQ(after.active, before.active);
  CHECK_EQ(after.pending, before.pending);
  CHECK_EQ(after.activations, before.activations);
  CHECK_EQ(after.runs, before.runs);
}

/* The API hands an HISR's context out (last_preempted_by); the thread services refuse it,
 * whether the HISR is inactive or activated (queued behind the scheduler lock). */
static void reused_entry(void *arg)
{
  (void)arg;
  CHECK(tc_thread_self() == &H0->ctx);
  tct_log("reused");
}

static void preempted_by_h0(void *arg)
{
  (void)arg;
  OK(tc_hisr_activate(H0)); /* H0 preempts this thread and finishes */
  tc_thread_info_t i;
  OK(tc_thread_info(A, &i));
  CHECK(i.last_preempted_by == &H0->ctx);
  tc_thread *c = (tc_thread *)(uintptr_t)i.last_preempted_by;
  refuse_context(c, H0); /* inactive */
  tc_sched_lock();
  OK(tc_hisr_activate(H0)); /* activated, held back by the lock */
  refuse_context(c, H0);
  tc_sched_unlock(); /* H0 runs */
  tct_log("a");
}

static void hisr_context_is_not_a_thread(void)
{
  tct_begin();
  OK(tc_hisr_create(H0, "h0", log_h0, 0, HSTACK(0)));
  OK(tc_thread_create(A, "a", preempted_by_h0, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("h0 h0 a");

  /* A new run of the kernel forgets the HISR: its memory, context included, may serve
   * again, here as a thread's control block. */
  tct_begin();
  OK(tc_thread_create(&H0->ctx, "reused", reused_entry, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("reused");
}

TCT_MAIN("test_hisr",
         TCT_CASE(errors),
         TCT_CASE(priority_then_fifo),
         TCT_CASE(hisr_runs_before_any_thread),
         TCT_CASE(higher_hisr_preempts),
         TCT_CASE(hisr_context),
         TCT_CASE(sched_lock_defers_hisrs),
         TCT_CASE(activated_before_start),
         TCT_CASE(threshold_survives_hisr),
         TCT_CASE(preempted_thread_resumes_first),
         TCT_CASE(reactivated_in_idle),
         TCT_CASE(isr_safe_services_from_an_hisr),
         TCT_CASE(hisr_context_is_not_a_thread))
