/* SPDX-License-Identifier: MIT */
/*
 * Message ports: zero copy (the receiver gets the very pointer that was sent), FIFO order
 * with wrap-around, every status, waiting receivers and senders in priority order (FIFO
 * among equals), timeouts, deletion with waiters, use from an interrupt handler.
 */
#include <string.h>

#include "tct.h"

static tc_thread th[8];
static tc_port port;
static void *slots[2];
static char payload[8][16]; /* the messages: only their addresses travel */

static void make(unsigned i, const char *name, void (*fn)(void *), void *arg, unsigned prio)
{
  OK(tc_thread_create(&th[i], name, fn, arg, TCT_STACK(i), prio, prio, 0, TC_AUTO_START));
}

/* Receives one pointer (wait for ever) and logs "<name>:<status>:<text it points to>". */
static void receiver(void *arg)
{
  (void)arg;
  void *p = NULL;
  tc_status st = tc_port_receive(&port, &p, TC_WAIT_FOREVER);
  STEP();
  tct_log("%s:%d:%s", tc_thread_self()->name, (int)st, p != NULL ? (const char *)p : "-");
}

/* Sends a pointer to its own name (wait for ever) and logs "<name>:<status>". */
static void sender(void *arg)
{
  (void)arg;
  tc_status st = tc_port_send(&port, (void *)tc_thread_self()->name, TC_WAIT_FOREVER);
  STEP();
  tct_log("%s:%d", tc_thread_self()->name, (int)st);
}

static void late(void *arg)
{
  unsigned v = (unsigned)(uintptr_t)arg;
  OK(tc_thread_sleep(v & 0xFu));
  if (v & 0x10u)
    sender(NULL);
  else
    receiver(NULL);
}

static void drain(void)
{
  void *p;
  tc_status st;
  while ((st = tc_port_receive(&port, &p, TC_NO_WAIT)) == TC_OK) tct_log("%s", (const char *)p);
  CHECK_EQ(st, TC_NO_INSTANCE);
  STEP();
}

/* ---- errors, zero copy, order -------------------------------------------------------------- */

static void basics_thread(void *arg)
{
  (void)arg;
  void *p = NULL;
  tc_port fresh;
  memset(&fresh, 0, sizeof fresh);
  EXPECT_ARG(tc_port_send(&fresh, p, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_port_receive(&fresh, &p, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_port_delete(&fresh), TC_INVALID);
  EXPECT_ARG(tc_port_send(NULL, p, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_port_receive(&port, NULL, TC_NO_WAIT), TC_INVALID);
  tc_isr_enter();
  EXPECT_ARG(tc_port_send(&port, p, 1), TC_CALLER_ERROR);
  EXPECT_ARG(tc_port_receive(&port, &p, TC_WAIT_FOREVER), TC_CALLER_ERROR);
  EXPECT_ARG(tc_port_delete(&port), TC_CALLER_ERROR);
  EXPECT_ARG(tc_port_create(&fresh, "isr", slots, 2), TC_CALLER_ERROR);
  tc_isr_exit();
  tc_sched_lock();
  EXPECT_ARG(tc_port_receive(&port, &p, 1), TC_CALLER_ERROR);
  tc_sched_unlock();

  /* The receiver gets the sender's pointer itself: nothing is copied. */
  OK(tc_port_send(&port, payload[0], TC_NO_WAIT));
  OK(tc_port_send(&port, NULL, TC_NO_WAIT)); /* any value travels, NULL too */
  EXPECT(tc_port_send(&port, payload[1], TC_NO_WAIT), TC_FULL);
  OK(tc_port_receive(&port, &p, TC_NO_WAIT));
  CHECK(p == payload[0]);
  p = payload[2];
  OK(tc_port_receive(&port, &p, TC_NO_WAIT));
  CHECK(p == NULL);
  EXPECT(tc_port_receive(&port, &p, TC_NO_WAIT), TC_NO_INSTANCE);
  /* FIFO across wrap-arounds of the two slots: one message stays resident, so the oldest
   * moves round the ring. */
  OK(tc_port_send(&port, payload[0], TC_NO_WAIT));
  for (unsigned i = 1; i < 7; i++) {
    OK(tc_port_send(&port, payload[i], TC_NO_WAIT));
    OK(tc_port_receive(&port, &p, TC_NO_WAIT));
    tct_log("%s", (const char *)p);
  }
  drain();
  OK(tc_port_delete(&port));
  EXPECT_ARG(tc_port_send(&port, p, TC_NO_WAIT), TC_INVALID);
  OK(tc_port_create(&port, "again", slots, 2));
}

static void errors_zero_copy_and_order(void)
{
  tct_begin();
  for (unsigned i = 0; i < 8; i++) {
    payload[i][0] = 'p';
    payload[i][1] = (char)('0' + i);
    payload[i][2] = 0;
  }
  EXPECT_ARG(tc_port_create(NULL, "x", slots, 2), TC_INVALID);
  EXPECT_ARG(tc_port_create(&port, "x", NULL, 2), TC_INVALID);
  EXPECT_ARG(tc_port_create(&port, "x", slots, 0), TC_INVALID);
  OK(tc_port_create(&port, "p", slots, 2));
  EXPECT_ARG(tc_port_create(&port, "p", slots, 2), TC_INVALID); /* already created */
  void *p;
  EXPECT_ARG(tc_port_receive(&port, &p, 2), TC_CALLER_ERROR); /* before the kernel runs */
  (void)p;
  make(0, "a", basics_thread, NULL, 5);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("p0 p1 p2 p3 p4 p5 p6");
}

/* ---- waiting ------------------------------------------------------------------------------- */

static void feeder(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(5)); /* every receiver waits */
  for (unsigned i = 0; i < 4; i++) OK(tc_port_send(&port, payload[i], TC_NO_WAIT)); /* each runs at once */
  void *p;
  EXPECT(tc_port_receive(&port, &p, TC_NO_WAIT), TC_NO_INSTANCE); /* handed over, not stored */
  tct_log("feeder");
}

static void receivers_in_priority_order(void)
{
  tct_begin();
  OK(tc_port_create(&port, "p", slots, 2));
  make(0, "a", late, (void *)1u, 10);
  make(1, "b", late, (void *)2u, 8);
  make(2, "c", late, (void *)3u, 10);
  make(3, "d", late, (void *)4u, 8);
  make(4, "f", feeder, NULL, 20);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("b:0:p0 d:0:p1 a:0:p2 c:0:p3 feeder");
}

static void consumer(void *arg)
{
  (void)arg;
  OK(tc_port_send(&port, payload[0], TC_NO_WAIT));
  OK(tc_port_send(&port, payload[1], TC_NO_WAIT)); /* full */
  OK(tc_thread_sleep(5));
  void *p;
  for (unsigned i = 0; i < 6; i++) { /* each receive admits the first waiting sender */
    OK(tc_port_receive(&port, &p, TC_NO_WAIT));
    tct_log("%s", (const char *)p);
  }
  EXPECT(tc_port_receive(&port, &p, TC_NO_WAIT), TC_NO_INSTANCE);
}

static void senders_in_priority_order(void)
{
  tct_begin();
  OK(tc_port_create(&port, "p", slots, 2));
  make(0, "c", consumer, NULL, 20);
  make(1, "a", late, (void *)(0x10u | 1u), 10);
  make(2, "b", late, (void *)(0x10u | 2u), 8);
  make(3, "x", late, (void *)(0x10u | 3u), 10);
  make(4, "d", late, (void *)(0x10u | 4u), 8);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("b:0 p0 d:0 p1 a:0 b x:0 d a x");
}

/* ---- timeouts, deletion, interrupts -------------------------------------------------------- */

static void timeout_thread(void *arg)
{
  (void)arg;
  void *p;
  EXPECT(tc_port_receive(&port, &p, 2), TC_TIMEOUT);
  OK(tc_port_send(&port, payload[0], TC_NO_WAIT));
  OK(tc_port_send(&port, payload[1], TC_NO_WAIT));
  EXPECT(tc_port_send(&port, payload[2], 3), TC_TIMEOUT);
  CHECK_EQ(tc_tick_get(), 5);
  drain();
}

static void timeouts(void)
{
  tct_begin();
  OK(tc_port_create(&port, "p", slots, 2));
  make(0, "t", timeout_thread, NULL, 5);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("p0 p1");
}

static void del_ctl(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(5));
  OK(tc_port_delete(&port)); /* the receivers (higher) return TC_DELETED at once */
  tct_log("deleted");
  OK(tc_port_create(&port, "p2", slots, 1));
  OK(tc_port_send(&port, payload[0], TC_NO_WAIT));
  OK(tc_thread_sleep(5));
  OK(tc_port_delete(&port)); /* the waiting senders too; the pointer inside is dropped */
  tct_log("deleted2");
}

static void delete_releases_waiters(void)
{
  tct_begin();
  OK(tc_port_create(&port, "p", slots, 2));
  make(0, "ctl", del_ctl, NULL, 9);
  make(1, "a", late, (void *)1u, 5);
  make(2, "b", late, (void *)2u, 4);
  make(3, "c", late, (void *)(0x10u | 6u), 5);
  make(4, "d", late, (void *)(0x10u | 7u), 4);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("b:4:- a:4:- deleted d:4 c:4 deleted2");
}

static void isr_thread(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1)); /* r waits */
  tc_isr_enter();
  OK(tc_port_send(&port, payload[3], TC_NO_WAIT)); /* to r, which runs at the exit */
  OK(tc_port_send(&port, payload[4], TC_NO_WAIT));
  OK(tc_port_send(&port, payload[5], TC_NO_WAIT));
  EXPECT(tc_port_send(&port, payload[6], TC_NO_WAIT), TC_FULL);
  void *p;
  OK(tc_port_receive(&port, &p, TC_NO_WAIT));
  tct_log("isr:%s", (const char *)p);
  tc_isr_exit();
  drain();
}

static void from_an_interrupt(void)
{
  tct_begin();
  OK(tc_port_create(&port, "p", slots, 2));
  make(0, "r", receiver, NULL, 3);
  make(1, "i", isr_thread, NULL, 6);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("isr:p4 r:0:p3 p5");
}

TCT_MAIN("test_msgport",
         TCT_CASE(errors_zero_copy_and_order),
         TCT_CASE(receivers_in_priority_order),
         TCT_CASE(senders_in_priority_order),
         TCT_CASE(timeouts),
         TCT_CASE(delete_releases_waiters),
         TCT_CASE(from_an_interrupt))
