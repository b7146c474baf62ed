/* SPDX-License-Identifier: MIT */
/*
 * Message queues: every status, FIFO order, urgent messages, wrap-around of the ring with an
 * odd message size, direct delivery to a waiting receiver, waiting senders admitted in
 * priority order (FIFO among equals), timeouts, flush with and without waiting senders,
 * deletion with waiters, use from an interrupt handler and before the kernel starts.
 */
#include <string.h>

#include "tct.h"

/* Messages are 6-byte strings ("a1" ...): an odd size, so slots are not word aligned. */
#define MSG 6u
typedef struct {
  char s[MSG];
} msg_t;

static tc_thread th[10];
static tc_queue q;
static uint8_t ring[3 * MSG + 5]; /* 3 slots and a remainder that must stay unused */

static msg_t msg(const char *s)
{
  msg_t m;
  memset(&m, 0, sizeof m);
  strncpy(m.s, s, MSG - 1);
  return m;
}

static void make(unsigned i, const char *name, void (*fn)(void *), void *arg, unsigned prio)
{
  OK(tc_thread_create(&th[i], name, fn, arg, TCT_STACK(i), prio, prio, 0, TC_AUTO_START));
}

static void send_str(const char *s, uint32_t timeout) { msg_t m = msg(s); OK(tc_queue_send(&q, &m, timeout)); }

/* Receives everything in the queue without waiting, logging each message. */
static void drain(void)
{
  msg_t m;
  tc_status st;
  while ((st = tc_queue_receive(&q, &m, TC_NO_WAIT)) == TC_OK) tct_log("%s", m.s);
  CHECK_EQ(st, TC_NO_INSTANCE);
  STEP();
}

/* Receives one message (wait for ever), logs "<name>:<status>:<message>". */
static void receiver(void *arg)
{
  (void)arg;
  msg_t m = msg("-");
  tc_status st = tc_queue_receive(&q, &m, TC_WAIT_FOREVER);
  STEP();
  tct_log("%s:%d:%s", tc_thread_self()->name, (int)st, m.s);
}

/* Sends its name (wait for ever), logs "<name>:<status>". */
static void sender(void *arg)
{
  msg_t m = msg(tc_thread_self()->name);
  tc_status st = arg != NULL ? tc_queue_send_front(&q, &m, TC_WAIT_FOREVER)
                              : tc_queue_send(&q, &m, TC_WAIT_FOREVER);
  STEP();
  tct_log("%s:%d", tc_thread_self()->name, (int)st);
}

/* ---- create / errors --------------------------------------------------------------------- */

static void errors_thread(void *arg)
{
  (void)arg;
  msg_t m = msg("x");
  tc_queue fresh;
  memset(&fresh, 0, sizeof fresh);
  EXPECT_ARG(tc_queue_send(&fresh, &m, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_queue_receive(&fresh, &m, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_queue_flush(&fresh), TC_INVALID);
  EXPECT_ARG(tc_queue_delete(&fresh), TC_INVALID);
  EXPECT_ARG(tc_queue_send(NULL, &m, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_queue_send(&q, NULL, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_queue_send_front(&q, NULL, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_queue_receive(&q, NULL, TC_NO_WAIT), TC_INVALID);
  tc_isr_enter();
  EXPECT_ARG(tc_queue_send(&q, &m, 1), TC_CALLER_ERROR);
  EXPECT_ARG(tc_queue_send_front(&q, &m, TC_WAIT_FOREVER), TC_CALLER_ERROR);
  EXPECT_ARG(tc_queue_receive(&q, &m, 1), TC_CALLER_ERROR);
  EXPECT_ARG(tc_queue_delete(&q), TC_CALLER_ERROR);
  EXPECT_ARG(tc_queue_create(&fresh, "isr", MSG, ring, sizeof ring), TC_CALLER_ERROR);
  tc_isr_exit();
  tc_sched_lock();
  EXPECT_ARG(tc_queue_receive(&q, &m, 1), TC_CALLER_ERROR);
  EXPECT_ARG(tc_queue_send(&q, &m, 1), TC_CALLER_ERROR);
  EXPECT(tc_queue_receive(&q, &m, TC_NO_WAIT), TC_NO_INSTANCE);
  tc_sched_unlock();
  OK(tc_queue_delete(&q));
  EXPECT_ARG(tc_queue_send(&q, &m, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_queue_delete(&q), TC_INVALID);
  OK(tc_queue_create(&q, "again", MSG, ring, sizeof ring));
  tct_log("done");
}

static void create_and_errors(void)
{
  tct_begin();
  EXPECT_ARG(tc_queue_create(NULL, "x", MSG, ring, sizeof ring), TC_INVALID);
  EXPECT_ARG(tc_queue_create(&q, "x", MSG, NULL, sizeof ring), TC_INVALID);
  EXPECT_ARG(tc_queue_create(&q, "x", 0, ring, sizeof ring), TC_INVALID);
  EXPECT_ARG(tc_queue_create(&q, "x", MSG, ring, MSG - 1), TC_INVALID);
  OK(tc_queue_create(&q, "q", MSG, ring, MSG)); /* one slot is enough */
  EXPECT_ARG(tc_queue_create(&q, "q", MSG, ring, sizeof ring), TC_INVALID); /* already created */
  msg_t m = msg("x");
  EXPECT_ARG(tc_queue_receive(&q, &m, 3), TC_CALLER_ERROR); /* before the kernel runs */
  (void)m;
  make(0, "a", errors_thread, NULL, 5);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("done");
}

/* ---- order --------------------------------------------------------------------------------- */

static void order_thread(void *arg)
{
  (void)arg;
  msg_t m = msg("x");
  /* Filled before the kernel started: "p1", "p2". */
  send_str("a1", TC_NO_WAIT);
  EXPECT(tc_queue_send(&q, &m, TC_NO_WAIT), TC_FULL);
  EXPECT(tc_queue_send_front(&q, &m, TC_NO_WAIT), TC_FULL);
  drain();
  EXPECT(tc_queue_receive(&q, &m, TC_NO_WAIT), TC_NO_INSTANCE);
  /* Urgent messages go ahead of the others, the later urgent one first. */
  send_str("b1", TC_NO_WAIT);
  m = msg("u1");
  OK(tc_queue_send_front(&q, &m, TC_NO_WAIT));
  m = msg("u2");
  OK(tc_queue_send_front(&q, &m, TC_NO_WAIT));
  drain();
  /* Wrap the ring around many times, mixing both ends. */
  char s[MSG];
  for (unsigned i = 0; i < 20; i++) {
    s[0] = 'c';
    s[1] = (char)('a' + i);
    s[2] = 0;
    send_str(s, TC_NO_WAIT);
    if (i % 3 == 2) {
      m = msg("F");
      OK(tc_queue_send_front(&q, &m, TC_NO_WAIT));
      OK(tc_queue_receive(&q, &m, TC_NO_WAIT));
      tct_log("%s", m.s);
    }
    OK(tc_queue_receive(&q, &m, TC_NO_WAIT));
    tct_log("%s", m.s);
  }
  drain();
  /* The remainder of the buffer past the last whole slot was never written. */
  for (unsigned i = 3 * MSG; i < sizeof ring; i++) CHECK_EQ(ring[i], 0xEE);
}

static void fifo_front_and_wrap(void)
{
  tct_begin();
  memset(ring, 0xEE, sizeof ring);
  OK(tc_queue_create(&q, "q", MSG, ring, sizeof ring));
  send_str("p1", TC_NO_WAIT); /* a queue may be filled before the threads run */
  send_str("p2", TC_NO_WAIT);
  make(0, "a", order_thread, NULL, 5);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("p1 p2 a1 u2 u1 b1 "
            "ca cb F cc cd ce F cf cg ch F ci cj ck F cl cm cn F co cp cq F cr cs ct");
}

/* ---- waiting receivers --------------------------------------------------------------------- */

static void late_receiver(void *arg)
{
  OK(tc_thread_sleep((uint32_t)(uintptr_t)arg));
  receiver(NULL);
}

static void feeder(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(6)); /* every receiver waits */
  static const char *const names[] = {"m1", "m2", "m3", "m4"};
  for (unsigned i = 0; i < 4; i++) {
    send_str(names[i], TC_NO_WAIT); /* straight to the first receiver, which runs at once */
    msg_t m;
    EXPECT(tc_queue_receive(&q, &m, TC_NO_WAIT), TC_NO_INSTANCE); /* the ring was not used */
  }
  tct_log("feeder");
}

static void receivers_in_priority_order(void)
{
  tct_begin();
  OK(tc_queue_create(&q, "q", MSG, ring, sizeof ring));
  /* They begin to wait in this order: a(10) b(8) c(10) d(8). */
  make(0, "a", late_receiver, (void *)1u, 10);
  make(1, "b", late_receiver, (void *)2u, 8);
  make(2, "c", late_receiver, (void *)3u, 10);
  make(3, "d", late_receiver, (void *)4u, 8);
  make(4, "f", feeder, NULL, 20);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("b:0:m1 d:0:m2 a:0:m3 c:0:m4 feeder");
}

/* ---- waiting senders ----------------------------------------------------------------------- */

static void late_sender(void *arg)
{
  unsigned v = (unsigned)(uintptr_t)arg;
  OK(tc_thread_sleep(v & 0xFu));
  sender((v & 0x10u) ? (void *)1 : NULL);
}

static void consumer(void *arg)
{
  (void)arg;
  send_str("q1", TC_NO_WAIT);
  send_str("q2", TC_NO_WAIT);
  send_str("q3", TC_NO_WAIT); /* full */
  OK(tc_thread_sleep(6)); /* the senders wait */
  /* Each receive makes one slot, which the first waiting sender fills: it returns at once. */
  msg_t m;
  for (unsigned i = 0; i < 7; i++) {
    OK(tc_queue_receive(&q, &m, TC_NO_WAIT));
    tct_log("%s", m.s);
  }
  EXPECT(tc_queue_receive(&q, &m, TC_NO_WAIT), TC_NO_INSTANCE);
}

static void senders_wait_in_priority_order(void)
{
  tct_begin();
  OK(tc_queue_create(&q, "q", MSG, ring, sizeof ring));
  make(0, "c", consumer, NULL, 20);
  /* They begin to wait in this order: a(10) b(8) u(10, urgent) d(8). */
  make(1, "a", late_sender, (void *)1u, 10);
  make(2, "b", late_sender, (void *)2u, 8);
  make(3, "u", late_sender, (void *)(0x10u | 3u), 10);
  make(4, "d", late_sender, (void *)4u, 8);
  CHECK_EQ(tct_run_kernel(), 0);
  /* b and d (8) get in first, then a and u (10); each released sender runs inside the
   * receive that admitted it (it is higher). u's urgent message jumps the ring. */
  CHECK_LOG("b:0 q1 d:0 q2 a:0 q3 u:0 b u d a");
}

/* ---- timeouts, abort ----------------------------------------------------------------------- */

static void timeout_thread(void *arg)
{
  (void)arg;
  msg_t m = msg("t");
  EXPECT(tc_queue_receive(&q, &m, 3), TC_TIMEOUT);
  CHECK_EQ(tc_tick_get(), 3);
  for (int i = 0; i < 3; i++) OK(tc_queue_send(&q, &m, TC_NO_WAIT));
  EXPECT(tc_queue_send(&q, &m, 4), TC_TIMEOUT);
  EXPECT(tc_queue_send_front(&q, &m, 2), TC_TIMEOUT);
  CHECK_EQ(tc_tick_get(), 9);
  tct_log("t");
  EXPECT(tc_queue_send(&q, &m, TC_WAIT_FOREVER), TC_WAIT_ABORTED);
  tct_log("aborted");
}

static void abort_ctl(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(10));
  OK(tc_thread_wait_abort(&th[0]));
  drain(); /* the aborted sender's message is not in the queue */
}

static void timeouts_and_abort(void)
{
  tct_begin();
  OK(tc_queue_create(&q, "q", MSG, ring, sizeof ring));
  make(0, "t", timeout_thread, NULL, 5);
  make(1, "ctl", abort_ctl, NULL, 6);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("t aborted t t t");
}

/* ---- flush --------------------------------------------------------------------------------- */

static void flush_thread(void *arg)
{
  (void)arg;
  /* No waiters: the messages are discarded. */
  send_str("x1", TC_NO_WAIT);
  send_str("x2", TC_NO_WAIT);
  OK(tc_queue_flush(&q));
  drain();
  OK(tc_queue_flush(&q)); /* empty: nothing to do */
  /* Full, with four senders waiting: the flush discards the three queued messages, and the
   * three highest senders move theirs into the ring and return TC_OK; the fourth waits on. */
  send_str("y1", TC_NO_WAIT);
  send_str("y2", TC_NO_WAIT);
  send_str("y3", TC_NO_WAIT);
  OK(tc_thread_sleep(5));
  tct_log("flush");
  OK(tc_queue_flush(&q)); /* the released senders are lower: they do not run yet */
  tct_log("flushed");
  drain(); /* frees room for d, which runs only when this thread waits */
  OK(tc_thread_sleep(1));
  drain();
  /* Receivers waiting on an empty queue are not affected by a flush. */
  OK(tc_thread_resume(&th[5]));
  tc_isr_enter();
  OK(tc_queue_flush(&q)); /* from an interrupt handler */
  tc_isr_exit();
  send_str("z1", TC_NO_WAIT); /* goes to the receiver */
}

static void flush_releases_senders_into_the_ring(void)
{
  tct_begin();
  OK(tc_queue_create(&q, "q", MSG, ring, sizeof ring));
  make(0, "f", flush_thread, NULL, 5);
  make(1, "a", late_sender, (void *)1u, 10);
  make(2, "b", late_sender, (void *)2u, 8);
  make(3, "u", late_sender, (void *)(0x10u | 3u), 9);
  make(4, "d", late_sender, (void *)4u, 11);
  OK(tc_thread_create(&th[5], "r", receiver, NULL, TCT_STACK(5), 3, 3, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  /* x1, x2 and y1..y3 discarded. b (8), u (9, urgent: to the front), a (10) are admitted;
   * d (11) waits until the drain makes room. */
  CHECK_LOG("flush flushed u b a d b:0 u:0 a:0 d:0 r:0:z1");
}

/* ---- deletion ------------------------------------------------------------------------------ */

static void del_ctl(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(5));
  OK(tc_queue_delete(&q)); /* receivers released: they are higher */
  tct_log("deleted");
  OK(tc_queue_create(&q, "q2", MSG, ring, MSG));
  send_str("f", TC_NO_WAIT);
  OK(tc_thread_sleep(5));
  OK(tc_queue_delete(&q)); /* senders released */
  tct_log("deleted2");
}

static void delete_releases_waiters(void)
{
  tct_begin();
  OK(tc_queue_create(&q, "q", MSG, ring, sizeof ring));
  make(0, "ctl", del_ctl, NULL, 9);
  make(1, "a", late_receiver, (void *)1u, 5);
  make(2, "b", late_receiver, (void *)2u, 4);
  make(3, "c", late_sender, (void *)6u, 5);
  make(4, "d", late_sender, (void *)7u, 4);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("b:4:- a:4:- deleted d:4 c:4 deleted2"); /* TC_DELETED == 4 */
}

/* ---- interrupts ---------------------------------------------------------------------------- */

static void isr_thread(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1)); /* r waits */
  tc_isr_enter();
  send_str("i1", TC_NO_WAIT); /* to r, which runs when the handler exits */
  send_str("i2", TC_NO_WAIT);
  msg_t m = msg("i3");
  OK(tc_queue_send_front(&q, &m, TC_NO_WAIT));
  OK(tc_queue_receive(&q, &m, TC_NO_WAIT));
  tct_log("isr:%s", m.s);
  tct_log("isr-exit");
  tc_isr_exit();
  drain();
}

static void isr_send_and_receive(void)
{
  tct_begin();
  OK(tc_queue_create(&q, "q", MSG, ring, sizeof ring));
  make(0, "r", receiver, NULL, 3);
  make(1, "i", isr_thread, NULL, 6);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("isr:i3 isr-exit r:0:i1 i2");
}

/* Messages of whole words are copied a word at a time, from and to buffers at any alignment
 * (unaligned words where the core allows them): every size the copy treats apart (1, 4 and
 * other word counts), with the ring and both of the caller's buffers at every byte offset. */
static void word_messages_at_any_alignment(void)
{
  tct_begin();
  static uint32_t ring_mem[40], src_mem[20], dst_mem[20];
  static const size_t sizes[] = {4, 8, 16, 20};
  for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
    size_t n = sizes[z];
    for (unsigned ro = 0; ro < 4; ro++) {
      for (unsigned so = 0; so < 4; so++) {
        uint8_t *src = (uint8_t *)src_mem + so, *dst = (uint8_t *)dst_mem + (3 - so);
        OK(tc_queue_create(&q, "w", n, (uint8_t *)ring_mem + ro, 2 * n));
        for (unsigned k = 0; k < 3; k++) { /* three messages: the second pair wraps the ring */
          for (size_t b = 0; b < n; b++) src[b] = (uint8_t)(z * 61 + ro * 17 + so * 5 + k * 3 + b);
          OK(tc_queue_send(&q, src, TC_NO_WAIT));
          memset(dst_mem, 0xEE, sizeof dst_mem);
          OK(tc_queue_receive(&q, dst, TC_NO_WAIT));
          CHECK(memcmp(dst, src, n) == 0);
          CHECK(dst[n] == 0xEE && (3 - so == 0 || dst[-1] == 0xEE)); /* nothing beyond it */
          STEP();
        }
        OK(tc_queue_delete(&q));
      }
    }
  }
}

TCT_MAIN("test_queue",
         TCT_CASE(create_and_errors),
         TCT_CASE(fifo_front_and_wrap),
         TCT_CASE(receivers_in_priority_order),
         TCT_CASE(senders_wait_in_priority_order),
         TCT_CASE(timeouts_and_abort),
         TCT_CASE(flush_releases_senders_into_the_ring),
         TCT_CASE(delete_releases_waiters),
         TCT_CASE(isr_send_and_receive),
         TCT_CASE(word_messages_at_any_alignment))
