/* SPDX-License-Identifier: MIT */
/*
 * A timeout and a release in the same tick, pinned down on the sim port, where a simulated
 * interrupt can be raised at an exact cycle (tc_sim_irq_at).
 *
 * The rule (docs/services.md): whichever is processed first wins. A release that happens
 * before the tick is processed ends the wait with TC_OK and cancels the timeout; when the tick
 * is processed first the wait ends with TC_TIMEOUT, and the release that follows finds no
 * waiter, so it is kept by the object (a unit counted, a message queued, a flag set, a word in
 * the slot). The sim port takes the tick first when both fall on the same cycle, so an
 * interrupt at the tick's own cycle loses and one a cycle earlier wins. Each object type that
 * can be released from an interrupt is run both ways.
 */
#include <stdio.h>

#include "tacet/sim.h"
#include "tct.h"

enum kind { SEM, QUEUE, PORT, EVENT, TASKPORT, KINDS };
static const char *const kind_name[KINDS] = {"sem", "queue", "port", "event", "taskport"};

static tc_thread waiter_thread;
static enum kind kind;
static tc_sem sem;
static tc_queue queue;
static uint32_t queue_buf[2];
static tc_port port;
static void *port_slots[2];
static tc_event ev;

#define TIMEOUT 3u

/* The interrupt handler: one release of the object under test. */
static void release_lisr(void)
{
  tc_status st = TC_INVALID;
  uint32_t word = 42;
  switch (kind) {
  case SEM: st = tc_sem_give(&sem); break;
  case QUEUE: st = tc_queue_send(&queue, &word, TC_NO_WAIT); break;
  case PORT: st = tc_port_send(&port, &queue_buf[1], TC_NO_WAIT); break;
  case EVENT: st = tc_event_set(&ev, 0x4); break;
  case TASKPORT: st = tc_thread_post(&waiter_thread, word, TC_NO_WAIT); break;
  default: break;
  }
  CHECK_EQ(st, TC_OK);
  tct_log("release@%u", (unsigned)tc_tick_get());
}

/* Waits with a timeout of TIMEOUT ticks from tick 0, then checks the object kept the release
 * when the wait timed out. */
static void waiter(void *arg)
{
  (void)arg;
  uint32_t word = 0, actual = 0;
  void *p = NULL;
  tc_status st = TC_INVALID, kept = TC_INVALID;
  switch (kind) {
  case SEM:
    st = tc_sem_take(&sem, TIMEOUT);
    kept = tc_sem_take(&sem, TC_NO_WAIT);
    break;
  case QUEUE:
    st = tc_queue_receive(&queue, &word, TIMEOUT);
    kept = tc_queue_receive(&queue, &word, TC_NO_WAIT);
    break;
  case PORT:
    st = tc_port_receive(&port, &p, TIMEOUT);
    kept = tc_port_receive(&port, &p, TC_NO_WAIT);
    break;
  case EVENT:
    st = tc_event_wait(&ev, 0x4, TC_EVENT_ANY | TC_EVENT_CLEAR, &actual, TIMEOUT);
    kept = tc_event_wait(&ev, 0x4, TC_EVENT_ANY, &actual, TC_NO_WAIT);
    break;
  case TASKPORT:
    st = tc_thread_receive(&word, TIMEOUT);
    kept = tc_thread_receive(&word, TC_NO_WAIT);
    break;
  default:
    break;
  }
  STEP();
  tct_log("%s@%u kept:%d", st == TC_OK ? "ok" : st == TC_TIMEOUT ? "timeout" : "?", (unsigned)tc_tick_get(),
          kept == TC_OK);
}

/* Raise the release at the cycle of tick TIMEOUT plus `offset` cycles. */
static void run(enum kind k, int offset, const char *want)
{
  tct_begin();
  uint64_t irq_cycle = TIMEOUT * tc_sim_cycles_per_tick() + (uint64_t)(int64_t)offset;
  kind = k;
  OK(tc_sem_create(&sem, "sem", 0, 1));
  OK(tc_queue_create(&queue, "queue", sizeof(uint32_t), queue_buf, sizeof queue_buf));
  OK(tc_port_create(&port, "port", port_slots, 2));
  OK(tc_event_create(&ev, "ev"));
  OK(tc_thread_create(&waiter_thread, "w", waiter, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_sim_irq_at(irq_cycle, release_lisr));
  tct_log("%s", kind_name[k]);
  CHECK_EQ(tct_run_kernel(), 0);
  char expected[64];
  snprintf(expected, sizeof expected, "%s %s", kind_name[k], want);
  CHECK_LOG(expected);
}

static void release_one_cycle_before_the_tick_wins(void)
{
  for (enum kind k = 0; k < KINDS; k++) run(k, -1, "release@2 ok@2 kept:0");
}

static void release_at_the_tick_s_cycle_loses(void)
{
  /* The tick ends the wait; the handler runs next, at the same cycle, when the woken waiter
   * unmasks interrupts on its way out of the service. */
  for (enum kind k = 0; k < KINDS; k++) run(k, 0, "release@3 timeout@3 kept:1");
}

TCT_MAIN("test_sync_sim",
         TCT_CASE(release_one_cycle_before_the_tick_wins),
         TCT_CASE(release_at_the_tick_s_cycle_loses))
