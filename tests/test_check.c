/*
 * The invariant checker catches what it claims to: each case corrupts one piece of kernel
 * state on purpose, expects tc_check() to name it, and repairs it. Without this, a checker
 * that always answered "fine" would make every STEP() in the other tests pass.
 */
#include <string.h>

#include "internal.h"
#include "tct.h"

static tc_thread th[6];
static tc_sem sem;

static void expect_detected(const char *file, int line, const char *what)
{
  const char *why = tc_check();
  if (why == NULL)
    tct_fail(file, line, "corruption not detected");
  else if (strstr(why, what) == NULL)
    tct_fail(file, line, why);
}
#define DETECTED(what) expect_detected(__FILE__, __LINE__, (what))

static void nop(void *arg) { (void)arg; }

static void corruptions(void *arg)
{
  (void)arg;
  tc_thread *self = &th[0], *other = &th[1], *sleeper = &th[2];
  STEP();

  tc__k.ready_map[0] ^= 0x1u; /* priority 31: nothing ready there */
  DETECTED("ready_map bit disagrees");
  tc__k.ready_map[0] ^= 0x1u;

  /* The group's last bit: a map word past the end, except with 1,024 priorities (32 words),
   * where it is word 31, empty; with one word the group is not kept at all. */
  tc__k.ready_group ^= 0x1u;
  DETECTED(TC_MAP_WORDS == 1    ? "ready_group kept with a one-word map"
           : TC_MAP_WORDS == 32 ? "ready_group disagrees with ready_map"
                                : "ready_group bit beyond the map");
  tc__k.ready_group ^= 0x1u;

  other->state = TC_SUSPENDED; /* but still in its ready list */
  DETECTED("not in the ready state");
  other->state = TC_READY;

  other->priority = 9;
  DETECTED("ready list of another priority");
  other->priority = 8;

  other->flags |= TC_TF_PREEMPTED; /* without a threshold in force */
  DETECTED("preempted"); /* behind a non-preempted thread, and without a threshold */
  other->flags = 0;

#if TC_STACK_PAINT_GUARD /* (with the MPU stack guard, the region is the guard) */
  uint8_t saved = other->stack_base[0];
  other->stack_base[0] = 0;
  DETECTED("stack guard overwritten");
  other->stack_base[0] = saved;
#endif

  uint64_t left = other->left;
  other->left = tc__switches_out(other) + 1u;
  DETECTED("more switches away while not ready");
  other->left = left;

  tc_timeout *to = TC_CONTAINER_OF(tc__k.timeouts.head, tc_timeout, node);
  uint32_t d = to->delta;
  to->delta = 0;
  DETECTED("delta list head already expired");
  to->delta = d;

  sleeper->timeout.linked = false;
  DETECTED("delta list length");
  sleeper->timeout.linked = true;

  /* A higher-priority thread ready behind the scheduler's back: the wrong thread runs. */
  unsigned s = tc__lock();
  th[3].state = TC_READY;
  tc__ready_insert(&th[3], false);
  tc__unlock(s);
  DETECTED("not the one the scheduling rules choose");
  s = tc__lock();
  tc__ready_remove(&th[3]);
  th[3].state = TC_SUSPENDED;
  tc__unlock(s);

  /* The chosen thread is not the one the rules choose. */
  tc__k.chosen = other;
  DETECTED("chosen");
  tc__k.chosen = self;

  /* Two equal-priority waiters out of the order they began to wait. */
  uint32_t seq = th[4].wait_seq;
  th[4].wait_seq = th[5].wait_seq + 1u;
  DETECTED("order they began to wait");
  th[4].wait_seq = seq;

  /* A broken link in a list. */
  tc_node *n = &self->sched_node;
  tc_node *saved_prev = n->next->prev;
  n->next->prev = NULL;
  DETECTED("link");
  n->next->prev = saved_prev;

  STEP(); /* all repaired */
  OK(tc_sem_delete(&sem));
  tct_log("checked");
}

static void sleep_long(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1000));
}

static void take(void *arg)
{
  (void)arg;
  EXPECT(tc_sem_take(&sem, TC_WAIT_FOREVER), TC_DELETED);
}

static void checker_detects_corruption(void)
{
  tct_begin();
  OK(tc_sem_create(&sem, "s", 0, 1));
  OK(tc_thread_create(&th[4], "w1", take, NULL, TCT_STACK(4), 1, 1, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[5], "w2", take, NULL, TCT_STACK(5), 1, 1, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[2], "sleeper", sleep_long, NULL, TCT_STACK(2), 1, 1, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[0], "self", corruptions, NULL, TCT_STACK(0), 8, 8, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[1], "other", nop, NULL, TCT_STACK(1), 8, 8, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[3], "high", nop, NULL, TCT_STACK(3), 2, 2, 0, 0));
  STEP();
  tct_run_kernel();
  CHECK_LOG("checked");
}

TCT_MAIN("test_check", TCT_CASE(checker_detects_corruption))
