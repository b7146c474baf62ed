/* SPDX-License-Identifier: MIT */
/*
 * Task ports: one word in the receiver's control block. Every status, direct hand-over to a
 * waiting receiver, posters waiting in priority order (FIFO among equals), timeouts, abort,
 * a receiver that ends with posters waiting (or while a poster runs a signal handler),
 * posting to oneself, use from an interrupt, a signal handler run in the middle of a post's
 * wait.
 */
#include "tct.h"

static tc_thread th[8];
#define R   (&th[0])
#define CTL (&th[1])

static void make(unsigned i, const char *name, void (*fn)(void *), void *arg, unsigned prio, unsigned opt)
{
  OK(tc_thread_create(&th[i], name, fn, arg, TCT_STACK(i), prio, prio, 0, opt));
}

static void nop(void *arg) { (void)arg; }

/* Receives one word (wait for ever) and logs "<name>:<status>:<word>". */
static void receiver(void *arg)
{
  (void)arg;
  uint32_t w = 0;
  tc_status st = tc_thread_receive(&w, TC_WAIT_FOREVER);
  STEP();
  tct_log("%s:%d:%u", tc_thread_self()->name, (int)st, (unsigned)w);
}

/* Sleeps (arg >> 8) ticks, then posts (arg & 0xFF) to R for ever; logs "<name>:<status>". */
static void poster(void *arg)
{
  unsigned v = (unsigned)(uintptr_t)arg;
  OK(tc_thread_sleep(v >> 8));
  tc_status st = tc_thread_post(R, v & 0xFFu, TC_WAIT_FOREVER);
  STEP();
  tct_log("%s:%d", tc_thread_self()->name, (int)st);
}

#define POST(word, delay) ((void *)(uintptr_t)(((delay) << 8) | (word)))

static void receive_all(void)
{
  uint32_t w;
  tc_status st;
  while ((st = tc_thread_receive(&w, TC_NO_WAIT)) == TC_OK) tct_log("%u", (unsigned)w);
  CHECK_EQ(st, TC_NO_INSTANCE);
  STEP();
}

/* ---- errors and the slot ------------------------------------------------------------------- */

static void errors_thread(void *arg)
{
  (void)arg;
  uint32_t w = 0;
  tc_thread fresh = {0};
  (void)fresh;
  EXPECT_ARG(tc_thread_post(NULL, 1, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_thread_post(&fresh, 1, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_thread_receive(NULL, TC_NO_WAIT), TC_INVALID);
  EXPECT(tc_thread_post(&th[2], 1, TC_NO_WAIT), TC_STATE_ERROR); /* completed */
  tc_isr_enter();
  EXPECT_ARG(tc_thread_receive(&w, TC_NO_WAIT), TC_CALLER_ERROR); /* only a thread has a port */
  EXPECT_ARG(tc_thread_post(CTL, 1, 1), TC_CALLER_ERROR);
  tc_isr_exit();
  tc_sched_lock();
  EXPECT_ARG(tc_thread_post(CTL, 1, 1), TC_CALLER_ERROR);
  EXPECT_ARG(tc_thread_receive(&w, 1), TC_CALLER_ERROR);
  EXPECT(tc_thread_receive(&w, TC_NO_WAIT), TC_NO_INSTANCE);
  tc_sched_unlock();

  /* The slot holds one word. */
  OK(tc_thread_post(CTL, 7, TC_NO_WAIT));
  EXPECT(tc_thread_post(CTL, 8, TC_NO_WAIT), TC_FULL);
  /* Posting to oneself: fine while the slot is empty, never waits when it is full. */
  OK(tc_thread_post(R, 41, TC_WAIT_FOREVER));
  EXPECT(tc_thread_post(R, 42, TC_WAIT_FOREVER), TC_FULL);
  OK(tc_thread_receive(&w, TC_WAIT_FOREVER));
  CHECK_EQ(w, 41);
  EXPECT(tc_thread_receive(&w, TC_NO_WAIT), TC_NO_INSTANCE);
  tct_log("r");
}

static void ctl_receives(void *arg)
{
  (void)arg;
  uint32_t w = 0;
  OK(tc_thread_receive(&w, TC_NO_WAIT)); /* posted while it was not waiting */
  tct_log("ctl:%u", (unsigned)w);
  EXPECT(tc_thread_receive(&w, TC_NO_WAIT), TC_NO_INSTANCE);
}

static void errors_and_slot(void)
{
  tct_begin();
  uint32_t w;
  EXPECT_ARG(tc_thread_receive(&w, TC_NO_WAIT), TC_CALLER_ERROR); /* before the kernel runs */
  (void)w;
  make(2, "done", nop, NULL, 1, TC_AUTO_START); /* completes first */
  make(0, "r", errors_thread, NULL, 5, TC_AUTO_START);
  make(1, "ctl", ctl_receives, NULL, 6, TC_AUTO_START);
  /* Before the kernel runs a word may be posted (no waiting). "done" ends without taking
   * it: the word goes with its port. */
  OK(tc_thread_post(&th[2], 1, TC_NO_WAIT));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("r ctl:7");
}

/* ---- waiting ------------------------------------------------------------------------------- */

static void direct_ctl(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1)); /* R waits */
  OK(tc_thread_post(R, 99, TC_NO_WAIT)); /* handed straight to R, which preempts */
  tct_log("ctl");
  OK(tc_thread_post(R, 5, TC_NO_WAIT)); /* R no longer waits: kept in the slot */
  EXPECT(tc_thread_post(R, 6, TC_NO_WAIT), TC_FULL);
}

static void direct_receiver(void *arg)
{
  receiver(arg);
  OK(tc_thread_sleep(2));
  receive_all();
}

static void hand_over_to_waiting_receiver(void)
{
  tct_begin();
  make(0, "r", direct_receiver, NULL, 3, TC_AUTO_START);
  make(1, "ctl", direct_ctl, NULL, 8, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("r:0:99 ctl 5");
}

static void slow_receiver(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(10)); /* the slot filled at tick 0; four posters wait from ticks 1..4 */
  receive_all(); /* each receive puts the first waiting poster's word in the slot */
}

static void posters_in_priority_order(void)
{
  tct_begin();
  make(0, "r", slow_receiver, NULL, 12, TC_AUTO_START);
  OK(tc_thread_post(R, 100, TC_NO_WAIT));
  make(2, "a", poster, POST(1, 1), 10, TC_AUTO_START);
  make(3, "b", poster, POST(2, 2), 8, TC_AUTO_START);
  make(4, "c", poster, POST(3, 3), 10, TC_AUTO_START);
  make(5, "d", poster, POST(4, 4), 8, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  /* b, d (8) before a, c (10); each released poster (higher) runs inside the receive. */
  CHECK_LOG("b:0 100 d:0 2 a:0 4 c:0 1 3");
}

/* ---- timeouts, abort, a receiver that ends -------------------------------------------------- */

static void timeout_thread(void *arg)
{
  (void)arg;
  uint32_t w;
  EXPECT(tc_thread_receive(&w, 3), TC_TIMEOUT);
  CHECK_EQ(tc_tick_get(), 3);
  OK(tc_thread_post(CTL, 1, TC_NO_WAIT));
  EXPECT(tc_thread_post(CTL, 2, 4), TC_TIMEOUT); /* ctl sleeps: its slot stays full */
  CHECK_EQ(tc_tick_get(), 7);
  EXPECT(tc_thread_receive(&w, TC_WAIT_FOREVER), TC_WAIT_ABORTED);
  tct_log("aborted@%u", (unsigned)tc_tick_get());
}

static void sleepy_ctl(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(10));
  OK(tc_thread_wait_abort(R));
  receive_all();
}

static void timeouts_and_abort(void)
{
  tct_begin();
  make(0, "r", timeout_thread, NULL, 5, TC_AUTO_START);
  make(1, "ctl", sleepy_ctl, NULL, 6, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("aborted@10 1");
}

static void ending_receiver(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(5)); /* two posters wait for the full slot */
  tct_log("r-ends");
}

static void ending_ctl(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(6));
  EXPECT(tc_thread_post(R, 9, TC_NO_WAIT), TC_STATE_ERROR); /* gone */
  tct_log("ctl");
}

static void receiver_that_ends_releases_posters(void)
{
  tct_begin();
  make(0, "r", ending_receiver, NULL, 9, TC_AUTO_START);
  OK(tc_thread_post(R, 1, TC_NO_WAIT));
  make(2, "a", poster, POST(2, 1), 4, TC_AUTO_START);
  make(3, "b", poster, POST(3, 2), 3, TC_AUTO_START);
  make(1, "ctl", ending_ctl, NULL, 10, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("r-ends b:4 a:4 ctl"); /* TC_DELETED == 4 */
}

static void terminate_ctl(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(5));
  OK(tc_thread_terminate(R)); /* while it waits in tc_thread_receive() */
  EXPECT(tc_thread_post(R, 1, TC_NO_WAIT), TC_STATE_ERROR);
  tct_log("ctl");
}

static void terminate_waiting_receiver(void)
{
  tct_begin();
  make(0, "r", receiver, NULL, 9, TC_AUTO_START);
  make(1, "ctl", terminate_ctl, NULL, 3, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("ctl");
}

/* ---- a signal during a post's wait --------------------------------------------------------- */

static void log_signal(uint32_t signals) { tct_log("sig%u", (unsigned)signals); }

/* R (higher) fills its own slot, lets the poster wait, then signals it -- its wait ends so
 * that the handler runs -- and empties the slot before the poster gets the CPU. The poster
 * runs its handler and starts over; R now waits for a word: the word goes to R and the post
 * returns TC_OK (it once returned the kernel's internal "start over" status). */
static void signalling_receiver(void *arg)
{
  (void)arg;
  OK(tc_thread_post(R, 1, TC_NO_WAIT));
  OK(tc_thread_sleep(1)); /* the poster waits for the slot */
  OK(tc_signal_send(&th[2], 4));
  uint32_t w = 0;
  OK(tc_thread_receive(&w, TC_NO_WAIT));
  tct_log("r:%u", (unsigned)w);
  OK(tc_thread_receive(&w, 5)); /* the poster's word, once it started over */
  tct_log("r:%u", (unsigned)w);
}

static void signalled_poster(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(&th[2], log_signal));
  EXPECT(tc_thread_post(R, 2, 10), TC_OK);
  tct_log("posted");
}

static void signal_restarts_a_post(void)
{
  tct_begin();
  make(0, "r", signalling_receiver, NULL, 3, TC_AUTO_START);
  make(2, "p", signalled_poster, NULL, 6, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("r:1 sig4 r:2 posted"); /* the word handed to R, waiting again: R first */
}

/* ---- interrupts ---------------------------------------------------------------------------- */

static void isr_thread(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1)); /* R waits */
  tc_isr_enter();
  OK(tc_thread_post(R, 11, TC_NO_WAIT)); /* to R, which runs when the handler exits */
  OK(tc_thread_post(R, 12, TC_NO_WAIT)); /* into the slot */
  EXPECT(tc_thread_post(R, 13, TC_NO_WAIT), TC_FULL);
  tct_log("isr");
  tc_isr_exit();
  tct_log("i");
}

static void isr_receiver(void *arg)
{
  receiver(arg);
  receive_all();
}

static void post_from_an_interrupt(void)
{
  tct_begin();
  make(0, "r", isr_receiver, NULL, 3, TC_AUTO_START);
  make(1, "i", isr_thread, NULL, 6, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("isr r:0:11 12 i");
}

/* ---- the receiver ends while a poster runs a signal handler ------------------------------ */

/* A poster that a signal took out of its wait looks at the receiver again when its handler
 * is done: a receiver that completed, or completed and was deleted, meanwhile is gone for it
 * as for the posters that were still waiting (TC_DELETED). */
static void quiet_handler(uint32_t signals) { tct_log("h%x", (unsigned)signals); }

static void poster_in_handler(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(&th[2], quiet_handler));
  tc_status st = tc_thread_post(R, 2, TC_WAIT_FOREVER); /* R's slot is full */
  STEP();
  tct_log("p:%d", (int)st);
}

static void end_receiver_ctl(void *arg)
{
  bool delete = arg != NULL;
  OK(tc_thread_sleep(1)); /* the poster waits */
  OK(tc_signal_send(&th[2], 0x1)); /* out of its wait; its handler runs when it gets the CPU */
  if (delete) {
    OK(tc_thread_terminate(R));
    OK(tc_thread_delete(R));
  } else {
    OK(tc_thread_resume(R)); /* above the poster: R completes before the handler runs */
  }
  tct_log("ctl");
}

static void receiver_ends_during_a_posters_handler(void)
{
  for (int deleted = 0; deleted <= 1; deleted++) {
    tct_begin();
    make(0, "r", nop, NULL, 3, 0);
    OK(tc_thread_post(R, 1, TC_NO_WAIT));
    make(2, "p", poster_in_handler, NULL, 5, TC_AUTO_START);
    make(1, "ctl", end_receiver_ctl, deleted ? (void *)1 : NULL, 1, TC_AUTO_START);
    CHECK_EQ(tct_run_kernel(), 0);
    tc_thread_info_t i;
    if (!deleted) {
      OK(tc_thread_info(R, &i));
      CHECK_EQ(i.state, TC_COMPLETED);
    }
    CHECK_LOG("ctl h1 p:4"); /* TC_DELETED == 4 */
  }
}

TCT_MAIN("test_taskport",
         TCT_CASE(errors_and_slot),
         TCT_CASE(hand_over_to_waiting_receiver),
         TCT_CASE(posters_in_priority_order),
         TCT_CASE(timeouts_and_abort),
         TCT_CASE(receiver_that_ends_releases_posters),
         TCT_CASE(terminate_waiting_receiver),
         TCT_CASE(signal_restarts_a_post),
         TCT_CASE(post_from_an_interrupt),
         TCT_CASE(receiver_ends_during_a_posters_handler))
