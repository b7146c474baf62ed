/* SPDX-License-Identifier: MIT */
/*
 * Event flags: every status and mode check, ANY / ALL / CLEAR when satisfied at once, one set
 * releasing several waiters in priority order (FIFO among equals), every waiter of one set
 * tested against the same flags (CLEAR applied after), `actual`, timeouts, abort, deletion,
 * interrupts.
 */
#include <string.h>

#include "tct.h"

static tc_thread th[8];
static tc_event ev;

typedef struct {
  uint32_t flags;
  unsigned mode;
  uint32_t delay; /* ticks to sleep before waiting */
} request;

static void make(unsigned i, const char *name, void (*fn)(void *), void *arg, unsigned prio)
{
  OK(tc_thread_create(&th[i], name, fn, arg, TCT_STACK(i), prio, prio, 0, TC_AUTO_START));
}

/* Sleeps, waits for ever as requested, logs "<name>:<status>:<actual in hex>". */
static void waiter(void *arg)
{
  const request *r = arg;
  if (r->delay != 0) OK(tc_thread_sleep(r->delay));
  uint32_t actual = 0xDEAD;
  tc_status st = tc_event_wait(&ev, r->flags, r->mode, &actual, TC_WAIT_FOREVER);
  STEP();
  tct_log("%s:%d:%x", tc_thread_self()->name, (int)st, (unsigned)actual);
}

/* The group's flags, read without changing them. */
static uint32_t flags_now(void)
{
  uint32_t actual = 0;
  tc_status st = tc_event_wait(&ev, 0xFFFFFFFFu, TC_EVENT_ANY, &actual, TC_NO_WAIT);
  CHECK(st == TC_OK || st == TC_NO_INSTANCE);
  return st == TC_OK ? actual : 0;
}

/* ---- errors, immediate satisfaction --------------------------------------------------------- */

static void immediate_thread(void *arg)
{
  (void)arg;
  uint32_t actual = 0x1234;
  tc_event fresh;
  memset(&fresh, 0, sizeof fresh);
  EXPECT_ARG(tc_event_set(&fresh, 1), TC_INVALID);
  EXPECT_ARG(tc_event_clear(&fresh, 1), TC_INVALID);
  EXPECT_ARG(tc_event_wait(&fresh, 1, TC_EVENT_ANY, &actual, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_event_delete(&fresh), TC_INVALID);
  EXPECT_ARG(tc_event_set(NULL, 1), TC_INVALID);
  EXPECT_ARG(tc_event_wait(&ev, 0, TC_EVENT_ANY, &actual, TC_NO_WAIT), TC_INVALID); /* no flags */
  EXPECT_ARG(tc_event_wait(&ev, 1, 0, &actual, TC_NO_WAIT), TC_INVALID);            /* no mode */
  EXPECT_ARG(tc_event_wait(&ev, 1, TC_EVENT_ANY | TC_EVENT_ALL, &actual, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_event_wait(&ev, 1, TC_EVENT_CLEAR, &actual, TC_NO_WAIT), TC_INVALID);
  EXPECT_ARG(tc_event_wait(&ev, 1, TC_EVENT_ANY | 0x8u, &actual, TC_NO_WAIT), TC_INVALID);
  tc_isr_enter();
  EXPECT_ARG(tc_event_wait(&ev, 1, TC_EVENT_ANY, &actual, 1), TC_CALLER_ERROR);
  EXPECT_ARG(tc_event_delete(&ev), TC_CALLER_ERROR);
  EXPECT_ARG(tc_event_create(&fresh, "isr"), TC_CALLER_ERROR);
  tc_isr_exit();
  tc_sched_lock();
  EXPECT_ARG(tc_event_wait(&ev, 1, TC_EVENT_ANY, &actual, TC_WAIT_FOREVER), TC_CALLER_ERROR);
  tc_sched_unlock();
  CHECK_EQ(actual, 0x1234); /* untouched by failed calls */

  OK(tc_event_set(&ev, 0x0F));
  EXPECT(tc_event_wait(&ev, 0x30, TC_EVENT_ANY, &actual, TC_NO_WAIT), TC_NO_INSTANCE);
  EXPECT(tc_event_wait(&ev, 0x18, TC_EVENT_ALL, &actual, TC_NO_WAIT), TC_NO_INSTANCE);
  CHECK_EQ(actual, 0x1234);
  OK(tc_event_wait(&ev, 0x11, TC_EVENT_ANY, &actual, TC_NO_WAIT));
  CHECK_EQ(actual, 0x0F);
  OK(tc_event_wait(&ev, 0x03, TC_EVENT_ALL, NULL, TC_NO_WAIT)); /* actual may be NULL */
  /* CLEAR clears the requested flags that were set, and reports the flags before. */
  OK(tc_event_wait(&ev, 0x31, TC_EVENT_ANY | TC_EVENT_CLEAR, &actual, TC_NO_WAIT));
  CHECK_EQ(actual, 0x0F);
  CHECK_EQ(flags_now(), 0x0E);
  OK(tc_event_wait(&ev, 0x06, TC_EVENT_ALL | TC_EVENT_CLEAR, &actual, 10)); /* available: no wait */
  CHECK_EQ(actual, 0x0E);
  CHECK_EQ(flags_now(), 0x08);
  OK(tc_event_clear(&ev, 0xFFFFFFFFu));
  CHECK_EQ(flags_now(), 0);
  OK(tc_event_set(&ev, 0)); /* nothing */
  OK(tc_event_set(&ev, 0x80000000u)); /* all 32 flags are usable */
  OK(tc_event_wait(&ev, 0x80000000u, TC_EVENT_ALL | TC_EVENT_CLEAR, &actual, TC_NO_WAIT));
  CHECK_EQ(actual, 0x80000000u);
  CHECK_EQ(tc_tick_get(), 0);
  OK(tc_event_delete(&ev));
  EXPECT_ARG(tc_event_set(&ev, 1), TC_INVALID);
  OK(tc_event_create(&ev, "again"));
  tct_log("done");
}

static void errors_and_immediate_satisfaction(void)
{
  tct_begin();
  EXPECT_ARG(tc_event_create(NULL, "x"), TC_INVALID);
  OK(tc_event_create(&ev, "ev"));
  EXPECT_ARG(tc_event_create(&ev, "ev"), TC_INVALID); /* already created */
  EXPECT_ARG(tc_event_wait(&ev, 1, TC_EVENT_ANY, NULL, 1), TC_CALLER_ERROR); /* before the kernel runs */
  make(0, "a", immediate_thread, NULL, 5);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("done");
}

/* ---- one set, several waiters -------------------------------------------------------------- */

static void setter(void *arg)
{
  const uint32_t *sets = arg; /* flags to set, one per tick from tick 10, 0-terminated */
  OK(tc_thread_sleep(10));
  for (; *sets != 0; sets++) {
    tct_log("set:%x", (unsigned)*sets);
    OK(tc_event_set(&ev, *sets));
    tct_log("=%x", (unsigned)flags_now());
    OK(tc_thread_sleep(1));
  }
}

static void run(const request *reqs, const unsigned *prios, unsigned n, const uint32_t *sets, const char *want)
{
  static const char *const names[] = {"a", "b", "c", "d", "e"};
  tct_begin();
  OK(tc_event_create(&ev, "ev"));
  for (unsigned i = 0; i < n; i++) make(i, names[i], waiter, (void *)&reqs[i], prios[i]);
  make(7, "set", setter, (void *)sets, 20);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG(want);
}

static void one_set_releases_several(void)
{
  /* a: ANY 0x1, b: ALL 0x3, c: ANY 0x4, d: ALL 0x6. They begin to wait a, b, c, d. */
  static const request reqs[] = {
      {0x1, TC_EVENT_ANY, 1}, {0x3, TC_EVENT_ALL, 2}, {0x4, TC_EVENT_ANY, 3}, {0x6, TC_EVENT_ALL, 4}};
  static const unsigned prios[] = {9, 7, 8, 6};
  static const uint32_t sets[] = {0x2, 0x1, 0x4, 0};
  /* 0x2 satisfies nobody; 0x1 (now 0x3) satisfies a and b, released in priority order;
   * 0x4 (0x7) satisfies c and d. Without CLEAR the flags stay set. */
  run(reqs, prios, 4, sets, "set:2 =2 set:1 b:0:3 a:0:3 =3 set:4 d:0:7 c:0:7 =7");
}

static void one_set_is_seen_by_every_waiter(void)
{
  /* a (9) and b (7) both ANY|CLEAR 0x1, c (8) ANY 0x1 without CLEAR: every waiter is tested
   * against the flags as the set left them and the clears come after, so one set releases
   * all three (in priority order) and then the flag is clear. As ThreadX and FreeRTOS: a
   * set is seen by every thread waiting for it, whatever the priorities of the others. The
   * second set finds nobody waiting and the flag stays. */
  static const request reqs[] = {
      {0x1, TC_EVENT_ANY | TC_EVENT_CLEAR, 1}, {0x1, TC_EVENT_ANY | TC_EVENT_CLEAR, 2}, {0x1, TC_EVENT_ANY, 3}};
  static const unsigned prios[] = {9, 7, 8};
  static const uint32_t sets[] = {0x1, 0x1, 0};
  run(reqs, prios, 3, sets, "set:1 b:0:1 c:0:1 a:0:1 =0 set:1 =1");
}

static void clear_only_what_satisfied(void)
{
  /* a (5) ANY|CLEAR 0x3 clears its flags (only 0x1 of them was set), b (6) ALL|CLEAR 0x30
   * clears 0x30, and both report the flags as the set left them (0xb5); 0x4 and 0x80 stay.
   * c (7) ANY 0x2 is not satisfied and waits for the next set. */
  static const request reqs[] = {
      {0x3, TC_EVENT_ANY | TC_EVENT_CLEAR, 1}, {0x30, TC_EVENT_ALL | TC_EVENT_CLEAR, 2}, {0x2, TC_EVENT_ANY, 3}};
  static const unsigned prios[] = {5, 6, 7};
  static const uint32_t sets[] = {0xB5, 0x2, 0};
  run(reqs, prios, 3, sets, "set:b5 a:0:b5 b:0:b5 =84 set:2 c:0:86 =86");
}

static void equal_priorities_fifo(void)
{
  /* Three CLEAR waiters of equal priority for the same flag: one set releases all three, and
   * they run in the order they began to wait (c, a, b). */
  static const request reqs[] = {{0x1, TC_EVENT_ANY | TC_EVENT_CLEAR, 2},
                                  {0x1, TC_EVENT_ANY | TC_EVENT_CLEAR, 3},
                                  {0x1, TC_EVENT_ANY | TC_EVENT_CLEAR, 1}};
  static const unsigned prios[] = {6, 6, 6};
  static const uint32_t sets[] = {0x1, 0x1, 0};
  run(reqs, prios, 3, sets, "set:1 c:0:1 a:0:1 b:0:1 =0 set:1 =1");
}

/* ---- timeouts, abort, deletion, interrupts ------------------------------------------------- */

static void timed_thread(void *arg)
{
  (void)arg;
  uint32_t actual = 7;
  EXPECT(tc_event_wait(&ev, 0x1, TC_EVENT_ANY, &actual, 3), TC_TIMEOUT);
  CHECK_EQ(tc_tick_get(), 3);
  CHECK_EQ(actual, 7);
  EXPECT(tc_event_wait(&ev, 0x1, TC_EVENT_ALL, &actual, TC_WAIT_FOREVER), TC_WAIT_ABORTED);
  tct_log("aborted");
  EXPECT(tc_event_wait(&ev, 0x1, TC_EVENT_ALL, &actual, TC_WAIT_FOREVER), TC_DELETED);
  tct_log("deleted");
}

static void timed_ctl(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(5));
  OK(tc_event_clear(&ev, 0x1)); /* wakes nobody */
  OK(tc_thread_wait_abort(&th[0]));
  OK(tc_thread_sleep(1));
  OK(tc_event_delete(&ev));
  tct_log("ctl");
}

static void timeouts_abort_delete(void)
{
  tct_begin();
  OK(tc_event_create(&ev, "ev"));
  make(0, "t", timed_thread, NULL, 4);
  make(1, "ctl", timed_ctl, NULL, 6);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("aborted deleted ctl");
}

static void isr_thread(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1)); /* the waiters wait */
  tc_isr_enter();
  OK(tc_event_set(&ev, 0x3)); /* a and b released; they run when the handler exits */
  uint32_t actual = 0;
  OK(tc_event_wait(&ev, 0x2, TC_EVENT_ANY | TC_EVENT_CLEAR, &actual, TC_NO_WAIT));
  OK(tc_event_clear(&ev, 0x1));
  tct_log("isr:%x", (unsigned)actual);
  tc_isr_exit();
  tct_log("=%x", (unsigned)flags_now());
}

static void set_from_an_interrupt(void)
{
  static const request reqs[] = {{0x1, TC_EVENT_ANY, 0}, {0x3, TC_EVENT_ALL, 0}};
  tct_begin();
  OK(tc_event_create(&ev, "ev"));
  make(0, "a", waiter, (void *)&reqs[0], 3);
  make(1, "b", waiter, (void *)&reqs[1], 2);
  make(2, "i", isr_thread, NULL, 6);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("isr:3 b:0:3 a:0:3 =0");
}

static void null_actual_waiter(void *arg)
{
  (void)arg;
  OK(tc_event_wait(&ev, 0x2, TC_EVENT_ALL | TC_EVENT_CLEAR, NULL, TC_WAIT_FOREVER));
  tct_log("w");
}

static void null_actual_setter(void *arg)
{
  (void)arg;
  OK(tc_event_set(&ev, 0x3)); /* the waiter (higher) runs at once */
  tct_log("=%x", (unsigned)flags_now());
}

static void released_waiter_without_actual(void)
{
  tct_begin();
  OK(tc_event_create(&ev, "ev"));
  make(0, "w", null_actual_waiter, NULL, 3);
  make(1, "s", null_actual_setter, NULL, 4);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("w =1");
}

TCT_MAIN("test_event",
         TCT_CASE(errors_and_immediate_satisfaction),
         TCT_CASE(one_set_releases_several),
         TCT_CASE(one_set_is_seen_by_every_waiter),
         TCT_CASE(clear_only_what_satisfied),
         TCT_CASE(equal_priorities_fifo),
         TCT_CASE(timeouts_abort_delete),
         TCT_CASE(set_from_an_interrupt),
         TCT_CASE(released_waiter_without_actual))
