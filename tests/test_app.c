/* SPDX-License-Identifier: MIT */
/* The code generated from a system description (tests/test_app.yaml, through tacet_add_app):
 * tacet_app_create() creates one object of every kind with what the description says, in
 * every kernel configuration and on every port, and the objects work. */
#include "tacet_app.h"
#include "tct.h"

static unsigned ticks, deferred_runs;
static uint32_t received[TACET_APP_items_MESSAGE_WORDS];

void tick_fn(void *arg)
{
  CHECK_EQ((uintptr_t)arg, 5);
  ticks++;
}

void deferred_fn(void)
{
  deferred_runs++;
  CHECK_EQ(tc_event_set(&flags, 0x2u), TC_OK);
}

/* Periodic in the description; here it fills every object once for the consumer. */
void producer_main(void *arg)
{
  CHECK_EQ((uintptr_t)arg, 7);
  tct_log("p");
  OK(tc_mutex_lock(&guard, TC_NO_WAIT));
  const uint32_t msg[TACET_APP_items_MESSAGE_WORDS] = {1, 2, 3};
  OK(tc_queue_send(&items, msg, TC_NO_WAIT));
  void *block;
  OK(tc_block_alloc(&blocks, &block, TC_NO_WAIT));
  OK(tc_port_send(&pointers, block, TC_NO_WAIT));
  OK(tc_mutex_unlock(&guard));
  OK(tc_event_set(&flags, 0x1u));
  OK(tc_sem_give(&ready));
}

void consumer_main(void *arg)
{
  CHECK(arg == NULL);
  tct_log("c");
  OK(tc_sem_take(&ready, TC_WAIT_FOREVER)); /* the initial unit */
  OK(tc_sem_take(&ready, TC_WAIT_FOREVER)); /* the producer's */
  OK(tc_queue_receive(&items, received, TC_NO_WAIT));
  CHECK_EQ(received[2], 3);
  void *block;
  OK(tc_port_receive(&pointers, &block, TC_NO_WAIT));
  OK(tc_block_free(block));
  OK(tc_mutex_lock(&guard, TC_NO_WAIT)); /* the producer released it */
  OK(tc_mutex_unlock(&guard));
  void *mem;
  OK(tc_byte_alloc(&heap, &mem, 100, TC_NO_WAIT));
  OK(tc_byte_free(mem));
  OK(tc_hisr_activate(&deferred)); /* runs at once, above every thread */
  uint32_t got;
  OK(tc_event_wait(&flags, 0x3u, TC_EVENT_ALL, &got, TC_NO_WAIT));
  OK(tc_thread_sleep(6)); /* the timer expires at 2 and 5 */
  tct_log("t%u", ticks);
  OK(tc_thread_resume(&last));
}

void last_main(void *arg)
{
  (void)arg;
  tct_log("l");
  tct_end(0);
}

static void creates_every_object(void)
{
  tct_begin();
  ticks = deferred_runs = 0;
  OK(tacet_app_create());
  CHECK(tacet_app_failed == NULL);

  tc_thread_info_t t;
  OK(tc_thread_info(&producer, &t));
  CHECK_EQ(t.user_priority, TACET_APP_producer_PRIORITY);
  CHECK_EQ(t.user_threshold, TACET_APP_producer_THRESHOLD);
  CHECK_EQ(t.state, TC_READY);
  CHECK_EQ(TACET_APP_producer_PRIORITY, 3);
  CHECK_EQ(TACET_APP_producer_THRESHOLD, 2);
  /* 10 ms at 100 MHz; 100 us at 25 MHz are 2,500 cycles. */
  CHECK_EQ(TACET_APP_producer_PERIOD_CYCLES, 1000000);
  CHECK_EQ(TACET_APP_producer_DEADLINE_CYCLES, 800000);
  CHECK_EQ(TACET_APP_producer_WCET_CYCLES, 2500);
  OK(tc_thread_info(&consumer, &t));
  CHECK_EQ(t.user_priority, 4);
  CHECK_EQ(t.user_threshold, 4); /* no threshold given: the priority */
  CHECK_EQ(t.time_slice, 5);
  OK(tc_thread_info(&last, &t));
  CHECK_EQ(t.state, TC_SUSPENDED); /* auto_start: false */
  CHECK(t.stack_size >= TC_PORT_STACK_MIN && t.stack_size <= 8192);

  tc_block_pool_info_t b;
  OK(tc_block_pool_info(&blocks, &b));
  CHECK_EQ(b.block_size, 24); /* 20 rounded up to 8 */
  CHECK_EQ(b.total, TACET_APP_blocks_BLOCKS);
  tc_byte_pool_info_t y;
  OK(tc_byte_pool_info(&heap, &y));
  CHECK(y.size > 200 && y.size <= 256);
  tc_hisr_info_t h;
  OK(tc_hisr_info(&deferred, &h));
  CHECK_EQ(h.priority, 1);
  tc_timer_info_t tm;
  OK(tc_timer_info(&ticker, &tm));
  CHECK(tm.active);
  CHECK_EQ(tm.initial, 2);
  CHECK_EQ(tm.period, 3);

  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("p c t2 l");
  CHECK_EQ(deferred_runs, 1);
}

/* Every creation's status is checked: a second call fails at the first object, which the
 * argument checks find already created, and says which it was. */
static void a_failure_names_the_object(void)
{
  tct_begin();
  OK(tacet_app_create());
#if TC_CHECKS
  EXPECT(tacet_app_create(), TC_INVALID);
  CHECK(tacet_app_failed != NULL);
  if (tacet_app_failed != NULL) tct_log("%s", tacet_app_failed);
  CHECK_LOG("semaphore ready");
#endif
}

TCT_MAIN("test_app", TCT_CASE(creates_every_object), TCT_CASE(a_failure_names_the_object))
