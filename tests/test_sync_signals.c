/* SPDX-License-Identifier: MIT */
/*
 * Signals and the waits of the synchronisation objects. A signal sent to a thread waiting on
 * a semaphore, mutex, queue, message port, task port or event group runs its handler at once;
 * the service then starts over: it finds what the handler (or anyone) made available, goes on
 * waiting for the time left of its timeout, returns TC_WAIT_ABORTED when the handler asked
 * for it, or TC_DELETED when the object went away meanwhile. A mutex waiter taken off the
 * queue by a signal stops lending its priority until it waits again.
 */
#include <stdio.h>

#include "tct.h"

static tc_thread th[6];
#define W   (&th[0])
#define CTL (&th[1])
#define L   (&th[2])

static tc_sem sem;
static tc_mutex mtx;
static tc_queue queue;
static uint32_t queue_buf[1];
static tc_port port;
static void *port_slots[1];
static tc_event ev;

enum kind { SEM, MUTEX, QUEUE_RX, QUEUE_TX, PORT_RX, PORT_TX, TASK_RX, TASK_TX, EVENT, KINDS };
static const char *const kind_name[KINDS] = {"sem",     "mutex",   "queue-rx", "queue-tx", "port-rx",
                                             "port-tx", "task-rx", "task-tx",  "event"};
enum action { NOTHING, MAKE_AVAILABLE, ABORT, DELETE };
static enum kind kind;
static enum action action;

static unsigned prio_of(tc_thread *t)
{
  tc_thread_info_t i;
  OK(tc_thread_info(t, &i));
  return i.priority;
}

/* The waiting service of each kind; every wait uses a timeout of 6 ticks. */
static tc_status wait_once(void)
{
  uint32_t word = 0;
  void *p = NULL;
  switch (kind) {
  case SEM: return tc_sem_take(&sem, 6);
  case MUTEX: return tc_mutex_lock(&mtx, 6);
  case QUEUE_RX: return tc_queue_receive(&queue, &word, 6);
  case QUEUE_TX: return tc_queue_send(&queue, &word, 6);
  case PORT_RX: return tc_port_receive(&port, &p, 6);
  case PORT_TX: return tc_port_send(&port, &word, 6);
  case TASK_RX: return tc_thread_receive(&word, 6);
  case TASK_TX: return tc_thread_post(L, 7, 6);
  case EVENT: return tc_event_wait(&ev, 0x1, TC_EVENT_ANY, NULL, 6);
  default: return TC_INVALID;
  }
}

/* What the handler does to the object the thread was waiting on. */
static void act(void)
{
  uint32_t word = 0;
  void *p;
  switch (action) {
  case NOTHING: break;
  case ABORT: OK(tc_signal_abort_wait()); break;
  case MAKE_AVAILABLE:
    switch (kind) {
    case SEM: OK(tc_sem_give(&sem)); break;
    case MUTEX: break; /* owned by L: only L can make it available */
    case QUEUE_RX: OK(tc_queue_send(&queue, &word, TC_NO_WAIT)); break;
    case QUEUE_TX: OK(tc_queue_receive(&queue, &word, TC_NO_WAIT)); break;
    case PORT_RX: OK(tc_port_send(&port, NULL, TC_NO_WAIT)); break;
    case PORT_TX: OK(tc_port_receive(&port, &p, TC_NO_WAIT)); break;
    case TASK_RX: OK(tc_thread_post(W, 1, TC_NO_WAIT)); break;
    case TASK_TX: break; /* only L can empty its slot */
    case EVENT: OK(tc_event_set(&ev, 0x1)); break;
    default: break;
    }
    break;
  case DELETE:
    switch (kind) {
    case SEM: OK(tc_sem_delete(&sem)); break;
    case MUTEX: OK(tc_mutex_delete(&mtx)); break;
    case QUEUE_RX:
    case QUEUE_TX: OK(tc_queue_delete(&queue)); break;
    case PORT_RX:
    case PORT_TX: OK(tc_port_delete(&port)); break;
    case TASK_TX: OK(tc_thread_terminate(L)); break; /* the receiver ends: its port is gone */
    case EVENT: OK(tc_event_delete(&ev)); break;
    default: break;
    }
    break;
  }
}

static void handler(uint32_t signals)
{
  tct_log("h%x@%u", (unsigned)signals, (unsigned)tc_tick_get());
  if (kind == MUTEX) CHECK_EQ(prio_of(L), 20); /* W is off the queue: L lends nothing */
  act();
}

static void waiter(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1)); /* L takes the mutex first */
  tc_status st = wait_once();
  STEP();
  tct_log("w:%d@%u", (int)st, (unsigned)tc_tick_get());
}

/* L holds what W needs (the mutex, its full task-port slot) and otherwise sleeps. */
static void holder(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&mtx, TC_NO_WAIT));
  OK(tc_thread_sleep(TC_WAIT_FOREVER));
}

static void ctl(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(2)); /* W waits */
  if (kind == MUTEX) CHECK_EQ(prio_of(L), 5); /* inherited from W */
  OK(tc_signal_send(W, 0x4)); /* the handler runs now (W is higher) */
  if (kind == MUTEX && action == NOTHING) CHECK_EQ(prio_of(L), 5); /* W waits again */
  tct_log("ctl");
}

static void run(enum kind k, enum action a, const char *want)
{
  tct_begin();
  kind = k;
  action = a;
  OK(tc_sem_create(&sem, "sem", 0, 1));
  OK(tc_mutex_create(&mtx, "mtx", TC_INHERIT));
  OK(tc_queue_create(&queue, "queue", sizeof(uint32_t), queue_buf, sizeof queue_buf));
  OK(tc_port_create(&port, "port", port_slots, 1));
  OK(tc_event_create(&ev, "ev"));
  uint32_t word = 0;
  if (k == QUEUE_TX) OK(tc_queue_send(&queue, &word, TC_NO_WAIT)); /* full */
  if (k == PORT_TX) OK(tc_port_send(&port, NULL, TC_NO_WAIT));     /* full */
  OK(tc_thread_create(L, "L", holder, NULL, TCT_STACK(2), 20, 20, 0, TC_AUTO_START));
  if (k == TASK_TX) OK(tc_thread_post(L, 1, TC_NO_WAIT)); /* L's slot is full */
  OK(tc_thread_create(W, "W", waiter, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_signal_handler_set(W, handler));
  OK(tc_thread_create(CTL, "ctl", ctl, NULL, TCT_STACK(1), 8, 8, 0, TC_AUTO_START));
  tct_log("%s", kind_name[k]);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG(want);
}

/* Runs every kind for which the handler can do `a`; `want` follows the kind's name. */
static void run_all(enum action a, const char *want)
{
  for (enum kind k = 0; k < KINDS; k++) {
    if (a == MAKE_AVAILABLE && (k == MUTEX || k == TASK_TX)) continue; /* only L could */
    if (a == DELETE && k == TASK_RX) continue; /* W's own port goes only with W */
    char expected[64];
    snprintf(expected, sizeof expected, "%s %s", kind_name[k], want);
    run(k, a, expected);
  }
}

/* W waits from tick 1 with a timeout of 6; the signal comes at tick 2 and its handler runs at
 * once (W is above the sender). */
static void handler_runs_and_the_wait_goes_on(void)
{
  run_all(NOTHING, "h4@2 ctl w:1@7"); /* still TC_TIMEOUT at 1 + 6 */
}

static void handler_makes_the_object_available(void)
{
  run_all(MAKE_AVAILABLE, "h4@2 w:0@2 ctl");
}

static void handler_aborts_the_wait(void)
{
  run_all(ABORT, "h4@2 w:5@2 ctl"); /* TC_WAIT_ABORTED */
}

static void handler_deletes_the_object(void)
{
  run_all(DELETE, "h4@2 w:4@2 ctl"); /* TC_DELETED */
}

TCT_MAIN("test_sync_signals",
         TCT_CASE(handler_runs_and_the_wait_goes_on),
         TCT_CASE(handler_makes_the_object_available),
         TCT_CASE(handler_aborts_the_wait),
         TCT_CASE(handler_deletes_the_object))
