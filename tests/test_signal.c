/* SPDX-License-Identifier: MIT */
/* Signals, the port-neutral part: errors, sending to oneself (before the send returns, no
 * nesting), interrupting a sleep (it goes on to its deadline, or ends if the handler asks),
 * interrupting a pool wait (it restarts: a block freed meanwhile is found, a pool deleted
 * meanwhile is reported, the timeout keeps its deadline), sending from an interrupt, a
 * handler that itself blocks, an abort while a handler that interrupted no wait runs; delivery to a thread that the sender preempted, one that is
 * suspended, and one that has not started yet (the port's part, tc__signal_deliver: on the
 * sim port where a switch returns, on Cortex-M through the PendSV trampoline). Delivery to
 * the thread an interrupt handler interrupted is tested by each port (test_sim_deferred,
 * test_cortex_m). */
#include "tct.h"

static tc_thread th[4];
static tc_thread *const A = &th[0];
static tc_thread *const B = &th[1];

static tc_block_pool pool;
static uint64_t pool_mem[8];
static void *held;

static void nop(void *arg) { (void)arg; }

static void log_handler(uint32_t signals)
{
  tct_log("h%x@%u", (unsigned)signals, (unsigned)tc_tick_get());
  EXPECT(tc_signal_abort_wait(), TC_STATE_ERROR); /* A was not waiting */
}

/* ---- errors ------------------------------------------------------------------------------ */

static void error_thread(void *arg)
{
  (void)arg;
  EXPECT_ARG(tc_signal_send(NULL, 1), TC_INVALID);
  EXPECT_ARG(tc_signal_send(A, 0), TC_INVALID);
  EXPECT_ARG(tc_signal_handler_set(NULL, log_handler), TC_INVALID);
  EXPECT(tc_signal_send(B, 1), TC_STATE_ERROR);    /* no handler */
  EXPECT(tc_signal_abort_wait(), TC_CALLER_ERROR); /* not in a handler */
  CHECK_EQ(tc_signal_pending(NULL), 0);
  OK(tc_signal_handler_set(B, log_handler));
  OK(tc_thread_resume(B)); /* B (higher) completes */
  EXPECT(tc_signal_send(B, 1), TC_STATE_ERROR);                 /* completed, with a handler */
  EXPECT(tc_signal_handler_set(B, log_handler), TC_STATE_ERROR); /* completed */
  OK(tc_signal_handler_set(A, log_handler));
  OK(tc_signal_handler_set(A, NULL));
  EXPECT(tc_signal_send(A, 1), TC_STATE_ERROR); /* removed */
  tc_isr_enter();
  EXPECT(tc_signal_abort_wait(), TC_CALLER_ERROR);
  tc_isr_exit();
}

static void errors(void)
{
  tct_begin();
  OK(tc_thread_create(A, "a", error_thread, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", nop, NULL, TCT_STACK(1), 1, 1, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
}

/* ---- to oneself -------------------------------------------------------------------------- */

static unsigned nested_calls;

static void nesting_handler(uint32_t signals)
{
  tct_log("h%x", (unsigned)signals);
  if (nested_calls++ == 0) {
    OK(tc_signal_send(A, 0x10)); /* from inside: runs after this call returns, not nested */
    CHECK_EQ(tc_signal_pending(A), 0x10);
    tct_log("h-end");
  }
}

static void self_sender(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(A, nesting_handler));
  OK(tc_signal_send(A, 0x3));
  tct_log("sent");
  CHECK_EQ(tc_signal_pending(A), 0);
  /* With the scheduler locked too: the handler is the thread itself. */
  tc_sched_lock();
  OK(tc_signal_send(A, 0x4));
  tc_sched_unlock();
  tct_log("end");
}

static void to_oneself(void)
{
  tct_begin();
  nested_calls = 0;
  OK(tc_thread_create(A, "a", self_sender, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("h3 h-end h10 sent h4 end");
}

/* ---- interrupting a sleep ---------------------------------------------------------------- */

static bool abort_in_handler;

static void sleep_handler(uint32_t signals)
{
  tct_log("h%x@%u", (unsigned)signals, (unsigned)tc_tick_get());
  CHECK(tc_thread_self() == A);
  if (abort_in_handler) OK(tc_signal_abort_wait());
}

static void sleeper(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(A, sleep_handler));
  tc_status st = tc_thread_sleep(10);
  tct_log("slept:%d@%u", (int)st, (unsigned)tc_tick_get());
}

static void sender_at_3(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(3));
  OK(tc_signal_send(A, 0x2)); /* A (higher) runs its handler right now */
  tct_log("b@%u", (unsigned)tc_tick_get());
}

static void sleep_goes_on(void)
{
  tct_begin();
  abort_in_handler = false;
  OK(tc_thread_create(A, "a", sleeper, NULL, TCT_STACK(0), 2, 2, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", sender_at_3, NULL, TCT_STACK(1), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("h2@3 b@3 slept:0@10");
}

static void sleep_aborted_by_handler(void)
{
  tct_begin();
  abort_in_handler = true;
  OK(tc_thread_create(A, "a", sleeper, NULL, TCT_STACK(0), 2, 2, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", sender_at_3, NULL, TCT_STACK(1), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("h2@3 slept:5@3 b@3"); /* TC_WAIT_ABORTED == 5 */
}

/* From an interrupt: the sleeper's handler runs when the outermost handler exits. */
static void isr_sender(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(4));
  tc_isr_enter();
  OK(tc_signal_send(A, 0x8));
  tct_log("isr");
  tc_isr_exit();
  tct_log("b@%u", (unsigned)tc_tick_get());
}

static void sleep_interrupted_from_isr(void)
{
  tct_begin();
  abort_in_handler = false;
  OK(tc_thread_create(A, "a", sleeper, NULL, TCT_STACK(0), 2, 2, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", isr_sender, NULL, TCT_STACK(1), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("isr h8@4 b@4 slept:0@10");
}

/* A handler that itself sleeps past the interrupted sleep's deadline: the sleep then ends
 * when the handler returns, on time or late but never early. */
static void long_handler(uint32_t signals)
{
  (void)signals;
  tct_log("h@%u", (unsigned)tc_tick_get());
  OK(tc_thread_sleep(12)); /* blocks inside the handler */
  tct_log("h-end@%u", (unsigned)tc_tick_get());
}

static void long_sleeper(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(A, long_handler));
  tc_status st = tc_thread_sleep(10);
  tct_log("slept:%d@%u", (int)st, (unsigned)tc_tick_get());
}

static void sender_twice(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(3));
  OK(tc_signal_send(A, 1));
  OK(tc_thread_sleep(2));
  OK(tc_signal_send(A, 2)); /* A is in its handler (sleeping): no wake, no nesting */
  tct_log("b@%u", (unsigned)tc_tick_get());
}

static void handler_that_blocks(void)
{
  tct_begin();
  OK(tc_thread_create(A, "a", long_sleeper, NULL, TCT_STACK(0), 2, 2, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", sender_twice, NULL, TCT_STACK(1), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  /* The second signal runs when the first handler returns, then the sleep (deadline 10,
   * already passed) ends. */
  CHECK_LOG("h@3 b@5 h-end@15 h@15 h-end@27 slept:0@27");
}

/* ---- interrupting a pool wait ------------------------------------------------------------- */

/* Sleep one tick, then run the function given. */
static void sleeper_then(void *arg)
{
  OK(tc_thread_sleep(1));
  ((void (*)(void *))arg)(NULL);
}

static void quiet_handler(uint32_t signals) { tct_log("h%x@%u", (unsigned)signals, (unsigned)tc_tick_get()); }

static void pool_waiter(void *arg)
{
  uint32_t timeout = (uint32_t)(uintptr_t)arg;
  OK(tc_signal_handler_set(A, quiet_handler));
  void *blk = NULL;
  tc_status st = tc_block_alloc(&pool, &blk, timeout);
  tct_log("alloc:%d@%u", (int)st, (unsigned)tc_tick_get());
  CHECK((st == TC_OK) == (blk != NULL));
}

static void signal_then_free(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(2));
  /* A leaves the wait queue to run its handler; the block freed before it runs goes to the
   * pool (nobody waits), and A, starting over, takes it: no wake-up is lost. */
  OK(tc_signal_send(A, 0x1));
  OK(tc_block_free(held));
  tct_log("b@%u", (unsigned)tc_tick_get());
}

static void restart_finds_the_block(void)
{
  tct_begin();
  OK(tc_block_pool_create(&pool, "p", 8, pool_mem, TC_BLOCK_POOL_MEM(8, 1)));
  OK(tc_block_alloc(&pool, &held, TC_NO_WAIT));
  OK(tc_thread_create(A, "a", pool_waiter, (void *)(uintptr_t)TC_WAIT_FOREVER, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", signal_then_free, NULL, TCT_STACK(1), 1, 1, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("b@2 h1@2 alloc:0@2");
}

static void signal_then_delete(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(2));
  OK(tc_signal_send(A, 0x1));
  OK(tc_block_pool_delete(&pool)); /* A is not in the queue now; it finds out on restart */
  tct_log("b@%u", (unsigned)tc_tick_get());
}

static void restart_finds_the_pool_deleted(void)
{
  tct_begin();
  OK(tc_block_pool_create(&pool, "p", 8, pool_mem, TC_BLOCK_POOL_MEM(8, 1)));
  OK(tc_block_alloc(&pool, &held, TC_NO_WAIT));
  OK(tc_thread_create(A, "a", pool_waiter, (void *)(uintptr_t)TC_WAIT_FOREVER, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", signal_then_delete, NULL, TCT_STACK(1), 1, 1, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("b@2 h1@2 alloc:4@2"); /* TC_DELETED == 4 */
}

static void signal_only(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(3));
  OK(tc_signal_send(A, 0x4));
  tct_log("b@%u", (unsigned)tc_tick_get());
}

static void restart_keeps_the_deadline(void)
{
  tct_begin();
  OK(tc_block_pool_create(&pool, "p", 8, pool_mem, TC_BLOCK_POOL_MEM(8, 1)));
  OK(tc_block_alloc(&pool, &held, TC_NO_WAIT));
  OK(tc_thread_create(A, "a", pool_waiter, (void *)8u, TCT_STACK(0), 2, 2, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", signal_only, NULL, TCT_STACK(1), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("h4@3 b@3 alloc:1@8"); /* TC_TIMEOUT == 1, at the original deadline */
}

/* The same for a byte pool: the waiter leaves the queue for its handler, memory freed
 * meanwhile is found when it starts over. */
static tc_byte_pool bytes;
static uint64_t bytes_mem[32];
static void *bytes_held;

static void bytes_waiter(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(A, quiet_handler));
  void *p = NULL;
  tc_status st = tc_byte_alloc(&bytes, &p, 64, 50);
  tct_log("alloc:%d@%u", (int)st, (unsigned)tc_tick_get());
  CHECK((st == TC_OK) == (p != NULL));
}

static void bytes_signal_then_free(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(2));
  OK(tc_signal_send(A, 0x1));
  OK(tc_byte_free(bytes_held));
  tct_log("b@%u", (unsigned)tc_tick_get());
}

static void byte_pool_wait_restarts(void)
{
  tct_begin();
  OK(tc_byte_pool_create(&bytes, "y", bytes_mem, sizeof bytes_mem));
  tc_byte_pool_info_t i;
  OK(tc_byte_pool_info(&bytes, &i));
  OK(tc_byte_alloc(&bytes, &bytes_held, i.largest, TC_NO_WAIT));
  OK(tc_thread_create(A, "a", bytes_waiter, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", bytes_signal_then_free, NULL, TCT_STACK(1), 1, 1, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("b@2 h1@2 alloc:0@2");
}

static void bytes_signal_then_delete(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(2));
  OK(tc_signal_send(A, 0x1));
  OK(tc_byte_pool_delete(&bytes)); /* A is not in the queue now; it finds out on restart */
  tct_log("b@%u", (unsigned)tc_tick_get());
}

static void byte_pool_deleted_before_the_restart(void)
{
  tct_begin();
  OK(tc_byte_pool_create(&bytes, "y", bytes_mem, sizeof bytes_mem));
  tc_byte_pool_info_t i;
  OK(tc_byte_pool_info(&bytes, &i));
  OK(tc_byte_alloc(&bytes, &bytes_held, i.largest, TC_NO_WAIT));
  OK(tc_thread_create(A, "a", bytes_waiter, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", bytes_signal_then_delete, NULL, TCT_STACK(1), 1, 1, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("b@2 h1@2 alloc:4@2"); /* TC_DELETED == 4 */
}

/* Found by fuzz/services.c: a post waiting for a full task port, interrupted by a signal,
 * starts over after the handler and finds the slot emptied meanwhile (or the receiver
 * waiting): the word goes in and the post returns TC_OK. It returned the kernel's internal
 * restart status (0x41), the word posted all the same. */
static tc_thread *const C = &th[2];

static void poster(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(A, quiet_handler));
  OK(tc_thread_post(B, 1, TC_NO_WAIT));                 /* fills B's slot */
  tc_status st = tc_thread_post(B, 2, (uint32_t)5);     /* waits: the slot is full */
  tct_log("post:%d@%u", (int)st, (unsigned)tc_tick_get());
}

static void receiver(void *arg)
{
  (void)arg;
  for (;;) {
    uint32_t word = 0;
    OK(tc_thread_receive(&word, TC_WAIT_FOREVER));
    tct_log("got%u@%u", (unsigned)word, (unsigned)tc_tick_get());
  }
}

static void signal_then_receive(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(2));
  OK(tc_signal_send(A, 0x1)); /* A leaves B's posters for its handler ... */
  OK(tc_thread_resume(B));    /* ... B takes word 1 and waits for the next: A's word 2 */
}

static void post_restarts(void)
{
  tct_begin();
  OK(tc_thread_create(A, "a", poster, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", receiver, NULL, TCT_STACK(1), 3, 3, 0, 0));
  OK(tc_thread_create(C, "c", signal_then_receive, NULL, TCT_STACK(2), 1, 1, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("got1@2 h1@2 got2@2 post:0@2");
}

/* tc_thread_wait_abort() between the signal and the handler, or while the handler runs,
 * still ends the wait the signal interrupted. */
static void signal_then_abort(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(2));
  OK(tc_signal_send(A, 0x1));    /* A is ready now, its wait interrupted */
  OK(tc_thread_wait_abort(A));   /* ... and ended */
  EXPECT(tc_thread_wait_abort(A), TC_STATE_ERROR); /* that wait has ended already */
  tct_log("b@%u", (unsigned)tc_tick_get());
}

static void abort_before_the_handler(void)
{
  tct_begin();
  OK(tc_block_pool_create(&pool, "p", 8, pool_mem, TC_BLOCK_POOL_MEM(8, 1)));
  OK(tc_block_alloc(&pool, &held, TC_NO_WAIT));
  OK(tc_thread_create(A, "a", pool_waiter, (void *)(uintptr_t)TC_WAIT_FOREVER, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", signal_then_abort, NULL, TCT_STACK(1), 1, 1, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("b@2 h1@2 alloc:5@2"); /* TC_WAIT_ABORTED == 5 */
}

/* Found by fuzz/services.c: a thread whose wait a signal interrupted, terminated before its
 * handler ran, has no wait left to end: tc_thread_wait_abort() says TC_STATE_ERROR, as for
 * every ended thread (it returned TC_OK). */
static void signal_then_terminate(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(2));
  OK(tc_signal_send(A, 0x1)); /* A is ready now, its wait interrupted */
  OK(tc_thread_terminate(A));
  EXPECT(tc_thread_wait_abort(A), TC_STATE_ERROR);
  tct_log("b@%u", (unsigned)tc_tick_get());
}

static void abort_after_the_end(void)
{
  tct_begin();
  OK(tc_block_pool_create(&pool, "p", 8, pool_mem, TC_BLOCK_POOL_MEM(8, 1)));
  OK(tc_block_alloc(&pool, &held, TC_NO_WAIT));
  OK(tc_thread_create(A, "a", pool_waiter, (void *)(uintptr_t)TC_WAIT_FOREVER, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", signal_then_terminate, NULL, TCT_STACK(1), 1, 1, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("b@2"); /* A never ran its handler */
}

static void working_handler(uint32_t signals)
{
  tct_log("h%x@%u", (unsigned)signals, (unsigned)tc_tick_get());
  tct_work(3 * (uint64_t)tc_cycles_hz() / TC_TICK_HZ); /* B preempts in here */
  tct_log("h-end@%u", (unsigned)tc_tick_get());
}

static void working_waiter(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(A, working_handler));
  void *blk;
  tc_status st = tc_block_alloc(&pool, &blk, TC_WAIT_FOREVER);
  tct_log("alloc:%d@%u", (int)st, (unsigned)tc_tick_get());
}

static void signal_a(void *arg)
{
  (void)arg;
  OK(tc_signal_send(A, 0x1)); /* A runs its handler once B is done, and works in it */
  tct_log("b@%u", (unsigned)tc_tick_get());
}

static tc_timer abort_timer;

static void abort_a(void *arg)
{
  (void)arg;
  OK(tc_thread_wait_abort(A)); /* A is ready, in its handler: its interrupted wait ends */
  tct_log("abort@%u", (unsigned)tc_tick_get());
}

static void abort_while_the_handler_runs(void)
{
  tct_begin();
  OK(tc_block_pool_create(&pool, "p", 8, pool_mem, TC_BLOCK_POOL_MEM(8, 1)));
  OK(tc_block_alloc(&pool, &held, TC_NO_WAIT));
  OK(tc_thread_create(A, "a", working_waiter, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", sleeper_then, (void *)signal_a, TCT_STACK(1), 1, 1, 0, TC_AUTO_START));
  OK(tc_timer_create(&abort_timer, "abort", abort_a, NULL, 2, 0, TC_AUTO_ACTIVATE));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("b@1 h1@1 abort@2 h-end@4 alloc:5@4");
}

/* A handler that a thread runs for a signal it sent itself interrupted no wait: an abort
 * while it runs (the thread is ready, preempted in the handler) finds nothing to end. */
static void self_working_handler(uint32_t signals)
{
  tct_log("h%x@%u", (unsigned)signals, (unsigned)tc_tick_get());
  tct_work(3 * (uint64_t)tc_cycles_hz() / TC_TICK_HZ); /* the timer's abort comes in here */
  tct_log("h-end@%u", (unsigned)tc_tick_get());
}

static void self_signaller(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(A, self_working_handler));
  OK(tc_signal_send(A, 0x2)); /* the handler runs before the send returns */
  OK(tc_thread_sleep(1));     /* no abort is left pending: the sleep is whole */
  tct_log("a@%u", (unsigned)tc_tick_get());
}

static void abort_in_a(void *arg)
{
  (void)arg;
  tct_log("abort:%d@%u", (int)tc_thread_wait_abort(A), (unsigned)tc_tick_get());
}

static void abort_while_a_handler_of_no_wait_runs(void)
{
  tct_begin();
  OK(tc_thread_create(A, "a", self_signaller, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_timer_create(&abort_timer, "abort", abort_in_a, NULL, 2, 0, TC_AUTO_ACTIVATE));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("h2@0 abort:10@2 h-end@3 a@4"); /* TC_STATE_ERROR == 10 */
}

/* ---- delivery by the port: to a ready, suspended or not yet started thread --------------- */

static void self_handler(uint32_t signals)
{
  tct_log("h%x:%s", (unsigned)signals, tc_thread_self()->name);
  CHECK(tc_thread_self() == A);
}

static void signals_its_preempted_creator(void *arg)
{
  (void)arg;
  tct_log("B");
  OK(tc_signal_send(A, 0x2)); /* A is ready, preempted by us: the handler waits for A's turn */
  CHECK_EQ(tc_signal_pending(A), 0x2);
  STEP();
  tct_log("B-end");
}

static void resumes_b(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(A, self_handler));
  OK(tc_thread_resume(B)); /* B (higher) runs here */
  tct_log("A"); /* after its handler */
  CHECK_EQ(tc_signal_pending(A), 0);
}

static void preempted_thread_runs_its_handler_first(void)
{
  tct_begin();
  OK(tc_thread_create(A, "A", resumes_b, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "B", signals_its_preempted_creator, NULL, TCT_STACK(1), 1, 1, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("B B-end h2:A A");
}

static void entry_logger(void *arg)
{
  (void)arg;
  tct_log("A-entry");
  OK(tc_thread_suspend(A));
  tct_log("A-back");
}

static void signals_a_before_it_starts(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(A, self_handler));
  OK(tc_signal_send(A, 0x4)); /* A has not run yet */
  tct_log("sent");
  OK(tc_thread_sleep(1));     /* A runs: its handler first, then its entry; it suspends */
  OK(tc_signal_send(A, 0x8)); /* suspended: pending until resumed */
  OK(tc_signal_send(A, 0x10));
  CHECK_EQ(tc_signal_pending(A), 0x18);
  tct_log("sent2");
  OK(tc_thread_resume(A)); /* lower priority: runs when we end */
  tct_log("end");
}

static void not_started_and_suspended_threads(void)
{
  tct_begin();
  OK(tc_thread_create(B, "B", signals_a_before_it_starts, NULL, TCT_STACK(1), 1, 1, 0, TC_AUTO_START));
  OK(tc_thread_create(A, "A", entry_logger, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("sent h4:A A-entry sent2 end h18:A A-back");
}

TCT_MAIN("test_signal",
         TCT_CASE(errors),
         TCT_CASE(to_oneself),
         TCT_CASE(sleep_goes_on),
         TCT_CASE(sleep_aborted_by_handler),
         TCT_CASE(sleep_interrupted_from_isr),
         TCT_CASE(handler_that_blocks),
         TCT_CASE(restart_finds_the_block),
         TCT_CASE(restart_finds_the_pool_deleted),
         TCT_CASE(restart_keeps_the_deadline),
         TCT_CASE(byte_pool_wait_restarts),
         TCT_CASE(byte_pool_deleted_before_the_restart),
         TCT_CASE(abort_before_the_handler),
         TCT_CASE(abort_while_the_handler_runs),
         TCT_CASE(abort_while_a_handler_of_no_wait_runs),
         TCT_CASE(post_restarts),
         TCT_CASE(abort_after_the_end),
         TCT_CASE(preempted_thread_runs_its_handler_first),
         TCT_CASE(not_started_and_suspended_threads))
