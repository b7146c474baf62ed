/* SPDX-License-Identifier: MIT */
/*
 * The invariant checker catches what it claims to: each case corrupts one piece of kernel
 * state on purpose, expects tc_check() to name it, and repairs it. Without this, a checker
 * that always answered "fine" would make every STEP() in the other tests pass.
 *
 * Every check of kernel/check.c and of the object checkers (tc__*_check) is provoked, each by
 * the smallest damage that gets past the checks that run before it. Damage that no thread or
 * object of the kernel could carry (a control block of another kind in a list, a waiter no
 * service queued) is made with fake control blocks that no service ever saw. Interrupts stay
 * masked from the damage to the repair: on a board, a tick must not meet a damaged kernel.
 */
#include <string.h>

#include "internal.h"
#include "tct.h"

static void expect_named(const char *file, int line, const char *why, const char *what)
{
  if (why == NULL)
    tct_fail(file, line, "corruption not detected");
  else if (strstr(why, what) == NULL)
    tct_fail(file, line, why);
}

/* tc_check() named `what` (and, repaired, the kernel is consistent again). */
#define NAMED(why, what)                                \
  do {                                                  \
    expect_named(__FILE__, __LINE__, (why), (what));    \
    STEP();                                             \
  } while (0)

static unsigned irq_saved;
static void mask(void) { irq_saved = TC_PORT_IRQ_DISABLE(); }
static void unmask(void) { TC_PORT_IRQ_RESTORE(irq_saved); }

/* Set `lv` to `val`, run the checker, put `lv` back: the checker must name `what`. */
#define CORRUPT(lv, val, what)                  \
  do {                                          \
    mask();                                     \
    __typeof__(lv) saved_ = (lv);               \
    (lv) = (__typeof__(lv))(val);               \
    const char *damage_why_ = tc_check();              \
    (lv) = saved_;                              \
    unmask();                                   \
    NAMED(damage_why_, (what));                        \
  } while (0)

/* Two fields at once, where either alone is caught by an earlier check. */
#define CORRUPT2(lv1, val1, lv2, val2, what)    \
  do {                                          \
    mask();                                     \
    __typeof__(lv1) saved1_ = (lv1);            \
    __typeof__(lv2) saved2_ = (lv2);            \
    (lv1) = (__typeof__(lv1))(val1);            \
    (lv2) = (__typeof__(lv2))(val2);            \
    const char *damage_why_ = tc_check();              \
    (lv2) = saved2_;                            \
    (lv1) = saved1_;                            \
    unmask();                                   \
    NAMED(damage_why_, (what));                        \
  } while (0)

/* Fake control blocks: never created, so only the damage puts them where the checker looks. */
static tc_thread fake, fake2;
static tc_node junk;

static tc_thread *fake_thread(tc_thread *f, uint32_t magic, unsigned state, unsigned flags)
{
  memset(f, 0, sizeof *f);
  f->magic = magic;
  f->state = (uint8_t)state;
  f->flags = (uint8_t)flags;
  return f;
}

/* A fake pending thread, consistent in itself, at the back of `q`. */
static void fake_waiter(tc_thread *f, tc_waitq *q, unsigned priority, uint32_t seq)
{
  fake_thread(f, TC_MAGIC_THREAD, TC_PENDING, 0);
  tc__set_priority(f, priority);
  f->threshold = f->user_threshold = f->user_priority = (uint16_t)priority;
  f->wait_q = q;
  f->wait_seq = seq;
  tc__list_push_back(&q->threads, &f->sched_node);
}

static void nop(void *arg) { (void)arg; }
static void take_forever(void *arg) { (void)tc_sem_take(arg, TC_WAIT_FOREVER); }
static void sleep_long(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1000000));
}

/* ---- the first checks: ready lists, scheduling, wait order, links ----------------------- */

static tc_thread th[6];
static tc_sem sem;

static void corruptions(void *arg)
{
  (void)arg;
  tc_thread *self = &th[0], *other = &th[1], *sleeper = &th[2];
  STEP();

  CORRUPT(tc__k.ready_map[0], tc__k.ready_map[0] ^ 0x1u, "ready_map bit disagrees"); /* 31: empty */
  /* The group's last bit: a map word past the end, except with 1,024 priorities (32 words),
   * where it is word 31, empty; with one word the group is not kept at all. */
  CORRUPT(tc__k.ready_group, tc__k.ready_group ^ 0x1u,
          TC_MAP_WORDS == 1    ? "ready_group kept with a one-word map"
          : TC_MAP_WORDS == 32 ? "ready_group disagrees with ready_map"
                               : "ready_group bit beyond the map");
  CORRUPT(other->state, TC_SUSPENDED, "not in the ready state"); /* but still in its ready list */
  CORRUPT(other->priority, 9, "ready list of another priority");
  /* Flagged preempted behind a non-preempted thread, and without a threshold. */
  CORRUPT(other->flags, TC_TF_PREEMPTED, "preempted thread behind a non-preempted one");
#if TC_STACK_PAINT_GUARD /* (with the MPU stack guard, the region is the guard) */
  CORRUPT(other->stack_base[0], 0, "stack guard overwritten");
#endif
  CORRUPT(other->left, tc__switches_out(other) + 1u, "more switches away while not ready");
  tc_timeout *to = TC_CONTAINER_OF(tc__k.timeouts.head, tc_timeout, node);
  CORRUPT(to->delta, 0, "delta list head already expired");
  CORRUPT(sleeper->timeout.linked, false, "delta list length");

  /* A higher-priority thread ready behind the scheduler's back: the wrong thread runs. */
  mask();
  th[3].state = TC_READY;
  tc__ready_insert(&th[3], false);
  const char *why = tc_check();
  tc__ready_remove(&th[3]);
  th[3].state = TC_SUSPENDED;
  unmask();
  NAMED(why, "not the one the scheduling rules choose");

  CORRUPT(tc__k.chosen, other, "chosen"); /* not the one the rules choose */
  /* Two equal-priority waiters out of the order they began to wait. */
  CORRUPT(th[4].wait_seq, th[5].wait_seq + 1u, "order they began to wait");
  /* A broken link in a list. */
  CORRUPT(self->sched_node.next->prev, NULL, "link");

  STEP(); /* all repaired */
  OK(tc_sem_delete(&sem));
  tct_log("checked");
}

static void checker_detects_corruption(void)
{
  tct_begin();
  OK(tc_sem_create(&sem, "s", 0, 1));
  OK(tc_thread_create(&th[4], "w1", take_forever, &sem, TCT_STACK(4), 1, 1, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[5], "w2", take_forever, &sem, TCT_STACK(5), 1, 1, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[2], "sleeper", sleep_long, NULL, TCT_STACK(2), 1, 1, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[0], "self", corruptions, NULL, TCT_STACK(0), 8, 8, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[1], "other", nop, NULL, TCT_STACK(1), 8, 8, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[3], "high", nop, NULL, TCT_STACK(3), 2, 2, 0, 0));
  STEP();
  tct_run_kernel();
  CHECK_LOG("checked");
}

/* ---- every thread record check ----------------------------------------------------------- */

static tc_thread run, s_thr, r_thr, z_thr, w1, w2;
static tc_sem sem2;

static void thread_damage(void *arg)
{
  (void)arg;
  /* Waiters (priority 10, above the runner: each blocks as it is created), a sleeper, a
   * ready thread below the runner, a suspended one with a time slice and a threshold. */
  OK(tc_thread_create(&w1, "w1", take_forever, &sem, TCT_STACK(1), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&w2, "w2", take_forever, &sem, TCT_STACK(2), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&z_thr, "z", sleep_long, NULL, TCT_STACK(3), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&r_thr, "r", nop, NULL, TCT_STACK(4), 14, 14, 0, TC_AUTO_START));
  OK(tc_thread_create(&s_thr, "s", nop, NULL, TCT_STACK(5), 20, 10, 5, 0));
  tc_thread *s = &s_thr, *r = &r_thr, *z = &z_thr;

  /* Ready lists and flags. */
  CORRUPT(r->magic, 0, "ready list holds something that is not a thread");
  CORRUPT(r->flags, TC_TF_PREEMPTED, "flagged preempted without a threshold in force");
  CORRUPT(run.flags, TC_TF_PREEMPTED, "the chosen thread is flagged preempted");
#if TC_MAP_WORDS > 1
  /* The last word of the map is empty (every thread here is below priority 32). */
  CORRUPT(tc__k.ready_group, tc__k.ready_group | TC__TOP_BIT >> (TC_MAP_WORDS - 1), "ready_group disagrees");
#if TC_MAP_WORDS < 32
  CORRUPT(tc__k.ready_group, tc__k.ready_group | TC__TOP_BIT >> TC_MAP_WORDS, "ready_group bit beyond the map");
#endif
#else
  CORRUPT(tc__k.ready_group, 1u, "ready_group kept with a one-word map");
#endif

  /* The record of a suspended thread. */
  CORRUPT(s->magic, 0, "created thread list holds an invalid thread");
  CORRUPT(s->state, TC_TERMINATED + 1, "thread in an unknown state");
  CORRUPT(s->state, TC_RUNNING, "thread in an unknown state");
  CORRUPT(s->priority, TC_PRIORITIES, "priority out of range");
  CORRUPT(s->user_priority, TC_PRIORITIES, "priority out of range");
  CORRUPT(s->threshold, s->priority + 1u, "threshold above priority");
  CORRUPT(s->user_threshold, s->user_priority + 1u, "threshold above priority");
  CORRUPT(s->ready_list, &tc__k.ready[0], "ready list pointer disagrees");
  CORRUPT(s->ready_word, &tc__k.ready_map[TC_MAP_WORDS - 1] + 1, "ready map bits disagree");
  CORRUPT(s->ready_bit, s->ready_bit >> 1, "ready map bits disagree");
#if TC_PRIORITIES > 32
  CORRUPT(s->ready_group_bit, s->ready_group_bit >> 1, "ready map bits disagree");
#endif
  CORRUPT(s->user_priority, s->priority - 1u, "weaker than the user's");
  CORRUPT(s->user_threshold, s->threshold - 1u, "weaker than the user's");
  CORRUPT(s->slice_left, 0, "time slice counter out of range");
  CORRUPT(s->slice_left, s->time_slice + 1u, "time slice counter out of range");
  CORRUPT(s->wait_q, &sem.waiters, "stopped or suspended thread still waiting");
  CORRUPT(s->timeout.linked, true, "stopped or suspended thread still waiting");
  CORRUPT(s->flags, TC_TF_SUSPEND_AFTER, "stopped or suspended thread with scheduling flags");
  CORRUPT(s->state, TC_READY, "ready threads and ready-list entries differ in number");
  CORRUPT(s->created_node.next, NULL, "list node with a NULL link");

  /* Ready, sleeping and pending threads. */
  CORRUPT(r->wait_q, &sem.waiters, "ready thread still waiting");
  CORRUPT(r->timeout.linked, true, "ready thread still waiting");
  CORRUPT(r->flags, TC_TF_SUSPEND_AFTER, "ready thread with a delayed suspension");
  CORRUPT(z->wait_q, &sem.waiters, "sleeping thread in a wait queue");
  CORRUPT(w1.wait_q, NULL, "pending thread without a wait queue");
  CORRUPT(w1.wait_q, &sem2.waiters, "pending thread missing from its wait queue");
  CORRUPT(w1.sched_node.next, NULL, "list node with a NULL link");
  CORRUPT(w1.sched_node.prev, NULL, "list node with a NULL link");
  /* w1 is checked first (created first); its queue holds w2. */
  CORRUPT(w2.magic, 0, "wait queue holds something that is not a thread");
  CORRUPT(w2.state, TC_SUSPENDED, "thread in a wait queue is not pending");
  CORRUPT(w2.wait_q, &sem2.waiters, "thread in a wait queue it does not wait on");
  CORRUPT(w2.priority, w1.priority - 1u, "wait queue out of priority order");

  /* The delta list: z's sleep is its only entry. */
  CORRUPT(z->timeout.expire, NULL, "delta list entry without an expiry function");
  CORRUPT(z->timeout.node.next, NULL, "list node with a NULL link");
  /* Unmarked, with a pending thread marked instead so that the count agrees. */
  CORRUPT2(z->timeout.linked, false, w1.timeout.linked, true, "delta list entry not marked linked");
  tct_log("checked");
  tct_end(0);
}

static void thread_records(void)
{
  tct_begin();
  OK(tc_sem_create(&sem, "s", 0, 1));
  OK(tc_sem_create(&sem2, "s2", 0, 1));
  OK(tc_thread_create(&run, "run", thread_damage, NULL, TCT_STACK(0), 12, 11, 0, TC_AUTO_START));
  tct_run_kernel();
  CHECK_LOG("checked");
}

/* ---- the preempted list and the scheduler's pointers ------------------------------------ */

static tc_thread a_thr, b_thr, c_thr, d_thr;
static tc_hisr hisr;

static void hisr_fn(void) { tct_log("hisr"); }

static void scheduler_damage(void *arg)
{
  (void)arg;
  tc_thread *a = &a_thr, *b = &b_thr, *c = &c_thr, *s = &s_thr;
  /* Preempted: b by a, a by c (the runner); the list holds a (threshold 5), then b (8). */
  CHECK(tc__k.preempted.head == &a->preempt_node);
  CORRUPT(a->preempt_node.next, NULL, "list node with a NULL link");
  CORRUPT(a->flags, 0, "preempted list and flagged threads differ in number");
  CORRUPT(b->threshold, 4, "preempted list out of threshold order");

  /* Something else in the preempted list; b unflagged so that the numbers agree. */
  const char *why[3];
  for (unsigned i = 0; i < 3; i++) {
    mask();
    tc_list saved = tc__k.preempted;
    b->flags = 0;
    if (i == 0) fake_thread(&fake, 0, TC_READY, TC_TF_PREEMPTED);
    if (i == 1) fake_thread(&fake, TC_MAGIC_THREAD, TC_SUSPENDED, TC_TF_PREEMPTED);
    if (i == 2) fake_thread(&fake, TC_MAGIC_THREAD, TC_READY, 0);
    fake.preempt_node.next = fake.preempt_node.prev = &fake.preempt_node;
    tc__k.preempted.head = &fake.preempt_node;
    why[i] = tc_check();
    tc__k.preempted = saved;
    b->flags = TC_TF_PREEMPTED;
    unmask();
    NAMED(why[i], "preempted list holds a thread that is not a ready, preempted thread");
  }

  /* current, next, chosen. */
  CORRUPT(tc__k.current, b, "a switch is pending outside an interrupt");
  CORRUPT(tc__k.current, fake_thread(&fake, 0, TC_READY, 0), "current is neither a thread nor an HISR");
  CORRUPT(tc__k.current, fake_thread(&fake, TC_MAGIC_HISR_CTX, TC_READY, 0), "current is neither");
  CORRUPT(tc__k.next, fake_thread(&fake, 0, TC_READY, 0), "next is not a ready thread or HISR");
  CORRUPT(tc__k.next, s, "next is not a ready thread or HISR");
  CORRUPT(tc__k.chosen, fake_thread(&fake, 0, TC_READY, 0), "the chosen thread is not a ready thread");
  CORRUPT(tc__k.chosen, s, "the chosen thread is not a ready thread");
  CORRUPT(tc__k.chosen, fake_thread(&fake, TC_MAGIC_THREAD, TC_READY, TC_TF_HISR), "chosen thread is not a ready");
  CORRUPT(tc__k.chosen, NULL, "threads are ready and none is chosen");

  /* The rule itself, where next is rightly an HISR (activated under the scheduler lock): a
   * thread above c's threshold made ready behind the scheduler's back. */
  tc_sched_lock();
  OK(tc_hisr_activate(&hisr));
  mask();
  d_thr.state = TC_READY;
  tc__ready_insert(&d_thr, false);
  const char *rule = tc_check();
  tc__ready_remove(&d_thr);
  d_thr.state = TC_SUSPENDED;
  unmask();
  NAMED(rule, "a ready thread above the running thread's threshold is not running");
  tct_log("unlock");
  tc_sched_unlock(); /* the HISR runs */

  /* A finished HISR still current: wrong in a thread, right in an interrupt handler (on a
   * port that switches in an exception, the switch away from it waits for the handler). */
  CORRUPT(tc__k.current, &hisr.ctx, "a finished HISR holds the CPU");
  tc_isr_enter();
  mask();
  tc__k.current = &hisr.ctx;
  const char *in_isr = tc_check();
  tc__k.current = c;
  unmask();
  CHECK(in_isr == NULL);
  tc_isr_exit();
  STEP();
  tct_log("checked");
  tct_end(0);
}

static void resume_c(void *arg)
{
  (void)arg;
  OK(tc_thread_resume(&c_thr)); /* above a's threshold: a is preempted */
}

static void resume_a(void *arg)
{
  (void)arg;
  OK(tc_thread_resume(&a_thr)); /* above b's threshold: b is preempted */
}

static void scheduler_records(void)
{
  tct_begin();
  OK(tc_hisr_create(&hisr, "h", hisr_fn, 0, TCT_STACK(5)));
  OK(tc_thread_create(&b_thr, "b", resume_a, NULL, TCT_STACK(0), 12, 8, 0, TC_AUTO_START));
  OK(tc_thread_create(&a_thr, "a", resume_c, NULL, TCT_STACK(1), 7, 5, 0, 0));
  OK(tc_thread_create(&c_thr, "c", scheduler_damage, NULL, TCT_STACK(2), 3, 3, 0, 0));
  OK(tc_thread_create(&d_thr, "d", nop, NULL, TCT_STACK(3), 1, 1, 0, 0));
  OK(tc_thread_create(&s_thr, "s", nop, NULL, TCT_STACK(4), 20, 20, 0, 0));
  tct_run_kernel();
  CHECK_LOG("unlock hisr checked");
}

/* ---- HISRs ------------------------------------------------------------------------------ */

static tc_hisr h1, h2, fake_hisr;

static void hisr_damage(void *arg)
{
  (void)arg;
  const char *not_hisr = "HISR list holds something that is not an HISR";
  CORRUPT(h1.magic, 0, not_hisr);
  CORRUPT(h1.ctx.magic, 0, not_hisr);
  CORRUPT(h1.ctx.flags, TC_TF_HISR | TC_TF_PREEMPTED, not_hisr);
  CORRUPT(h1.priority, TC_HISR_PRIORITIES, "HISR priority out of range");
  CORRUPT(h1.ctx.state, TC_READY, "HISR activated state disagrees with its list");
  CORRUPT(h1.ctx.state, TC_SLEEPING, "HISR context in a thread state");
  CORRUPT(h1.pending, 1, "HISR with pending activations is not queued");
  CORRUPT(h1.activations, h1.activations + 1u, "HISR runs and pending disagree");
#if TC_STACK_PAINT_GUARD /* (with the MPU stack guard, the region is the guard) */
  CORRUPT(h1.ctx.stack_base[0], 0, "HISR stack guard overwritten");
#endif
  CORRUPT(tc__k.hisr_top, &h2.ctx, "hisr_top is not the first HISR");

  /* Something queued that was never activated: not an HISR, in the wrong list, one too many. */
  static const char *const wrong[3] = {"HISR queued in the wrong list", "HISR queued in the wrong list",
                                       "queued HISRs and activated HISRs differ in number"};
  for (unsigned i = 0; i < 3; i++) {
    mask();
    memset(&fake_hisr, 0, sizeof fake_hisr);
    fake_hisr.magic = i == 0 ? 0 : TC_MAGIC_HISR;
    fake_hisr.priority = i == 1 ? 0 : 2;
    tc_node *n = &fake_hisr.ctx.sched_node;
    n->next = n->prev = n;
    tc__k.hisr_ready[2].head = n;
    const char *why = tc_check();
    tc__k.hisr_ready[2].head = NULL;
    unmask();
    NAMED(why, wrong[i]);
  }

  /* Broken links of an activated HISR (queued, not yet run: the scheduler is locked). */
  tc_sched_lock();
  OK(tc_hisr_activate(&h1));
  CORRUPT(h1.ctx.sched_node.next, NULL, "HISR list links disagree");
  CORRUPT(h1.ctx.sched_node.prev, &junk, "HISR list links disagree");
  tc_sched_unlock();
  tct_log("checked");
}

static void hisr_records(void)
{
  tct_begin();
  OK(tc_hisr_create(&h1, "h1", hisr_fn, 1, TCT_STACK(1)));
  OK(tc_hisr_create(&h2, "h2", hisr_fn, 2, TCT_STACK(2)));
  OK(tc_thread_create(&run, "run", hisr_damage, NULL, TCT_STACK(0), 12, 12, 0, TC_AUTO_START));
  tct_run_kernel();
  CHECK_LOG("hisr checked");
}

/* ---- semaphores, mutexes, event groups, wait queues ------------------------------------- */

static tc_thread w3, w4, w5, w6;
static tc_sem sem3;
static tc_mutex m_owned, m_free, m_inherit, fake_mutex;
static tc_event event;

static void lock_forever(void *arg) { (void)tc_mutex_lock(arg, TC_WAIT_FOREVER); }
static void wait_flag(void *arg)
{
  uint32_t actual;
  (void)tc_event_wait(arg, 0x1u, TC_EVENT_ANY, &actual, TC_WAIT_FOREVER);
}

static void sync_damage(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&m_owned, TC_NO_WAIT));
  /* Two waiters (priority 10, above the runner) on each of a semaphore, a mutex, an event. */
  OK(tc_thread_create(&w1, "w1", take_forever, &sem, TCT_STACK(1), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&w2, "w2", take_forever, &sem, TCT_STACK(2), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&w3, "w3", lock_forever, &m_owned, TCT_STACK(3), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&w4, "w4", lock_forever, &m_owned, TCT_STACK(4), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&w5, "w5", wait_flag, &event, TCT_STACK(5), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&w6, "w6", wait_flag, &event, TCT_STACK(6), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&s_thr, "s", nop, NULL, TCT_STACK(7), 20, 10, 0, 0));
  tc_thread *s = &s_thr;

  /* Semaphores: sem (count 0, w1 and w2 wait), sem2 (count 1 of 3), sem3 (count 0). */
  CORRUPT(sem2.magic, 0, "semaphore list holds something that is not a semaphore");
  CORRUPT(sem2.max, 0, "semaphore count above its maximum");
  CORRUPT(sem2.count, sem2.max + 1u, "semaphore count above its maximum");
  CORRUPT(sem.count, 1, "semaphore has waiters and a non-zero count");

  /* A wait queue that only the object's checker sees (its waiters are fakes, no thread of
   * the created list): every check of tc__waitq_check. */
  static const char *const queue_damage[6] = {
      "wait queue links disagree", "wait queue links disagree", "does not wait on it",
      "does not wait on it",       "does not wait on it",       "wait queue out of priority order"};
  for (unsigned i = 0; i < 6; i++) {
    mask();
    fake_waiter(&fake, &sem3.waiters, 5, 0);
    const char *sane = tc_check();
    tc_node saved = fake.sched_node;
    if (i == 0) fake.sched_node.next = NULL;
    if (i == 1) fake.sched_node.prev = &junk;
    if (i == 2) fake.magic = 0;
    if (i == 3) fake.state = TC_READY;
    if (i == 4) fake.wait_q = &sem.waiters;
    if (i == 5) fake_waiter(&fake2, &sem3.waiters, 4, 1);
    const char *why = tc_check();
    fake.sched_node = saved;
    sem3.waiters.threads.head = NULL;
    unmask();
    CHECK(sane == NULL);
    NAMED(why, queue_damage[i]);
  }

  /* Mutexes: m_owned (the runner's, w3 and w4 wait), m_free, m_inherit (free, TC_INHERIT). */
  CORRUPT(m_free.magic, 0, "mutex list holds something that is not a mutex");
  CORRUPT(m_free.options, 0x80u, "mutex with an unknown option");
  CORRUPT(m_inherit.waiters.reprioritized, NULL, "mutex wait-queue hook disagrees with its options");
  CORRUPT(w3.wait_seq, w4.wait_seq + 1u, "order they began to wait");
  CORRUPT(m_free.count, 1, "free mutex with a lock count");
  CORRUPT2(m_owned.owner, NULL, m_owned.count, 0, "free mutex has waiters");
  CORRUPT(m_owned.count, 0, "owned mutex with a lock count of 0");
  CORRUPT(m_owned.owner, fake_thread(&fake, 0, TC_READY, 0), "mutex owner is not a thread");
  CORRUPT(m_owned.owner, fake_thread(&fake, TC_MAGIC_THREAD, TC_COMPLETED, 0), "owned by a thread that has ended");
  CORRUPT(m_owned.owner, fake_thread(&fake, TC_MAGIC_THREAD, TC_TERMINATED, 0), "owned by a thread that has ended");
  CORRUPT(m_owned.owner, s, "mutex missing from its owner's list");
  fake_thread(&fake, TC_MAGIC_THREAD, TC_READY, 0);
  fake.mutexes.head = &m_owned.owner_node;
  fake.wait_q = &m_owned.waiters;
  CORRUPT(m_owned.owner, &fake, "mutex owner waits for its own mutex");
  for (unsigned i = 0; i < 2; i++) {
    mask();
    memset(&fake_mutex, 0, sizeof fake_mutex);
    fake_mutex.magic = i == 0 ? 0 : TC_MAGIC_MUTEX;
    fake_mutex.owner = s; /* not the runner, whose list it is put in */
    tc__list_push_back(&run.mutexes, &fake_mutex.owner_node);
    const char *why = tc_check();
    tc__list_remove(&run.mutexes, &fake_mutex.owner_node);
    unmask();
    NAMED(why, "thread lists a mutex it does not own");
  }
  {
    /* The priority with everything kept with it (list, map bits), so that only the rule fails. */
    mask();
    tc_thread saved = *s;
    tc__set_priority(s, s->user_priority - 1u);
    const char *why = tc_check();
    *s = saved;
    unmask();
    NAMED(why, "effective priority disagrees with the inheritance rule");
  }
  CORRUPT(s->threshold, s->user_threshold - 1u, "effective threshold disagrees with the inheritance rule");

  /* Event groups: event (w5 and w6 wait for flag 1, ANY). */
  CORRUPT(event.magic, 0, "event list holds something that is not an event group");
  CORRUPT(w5.wait_seq, w6.wait_seq + 1u, "order they began to wait");
  CORRUPT(w5.wait_info[0], 0, "event waiter with an invalid request");
  CORRUPT(w5.wait_info[1], 0x8u, "event waiter with an invalid request");
  CORRUPT(event.flags, 0x1u, "still waits although the flags satisfy it");
  tct_log("checked");
  tct_end(0);
}

static void sync_records(void)
{
  tct_begin();
  OK(tc_sem_create(&sem, "s", 0, 3));
  OK(tc_sem_create(&sem2, "s2", 1, 3));
  OK(tc_sem_create(&sem3, "s3", 0, 3));
  OK(tc_mutex_create(&m_owned, "owned", 0));
  OK(tc_mutex_create(&m_free, "free", 0));
  OK(tc_mutex_create(&m_inherit, "inherit", TC_INHERIT));
  OK(tc_event_create(&event, "e"));
  OK(tc_thread_create(&run, "run", sync_damage, NULL, TCT_STACK(0), 12, 12, 0, TC_AUTO_START));
  tct_run_kernel();
  CHECK_LOG("checked");
}

/* ---- queues and message ports ----------------------------------------------------------- */

static tc_queue q_empty, q_part, q_full;
static uint32_t q_buf[3][3];
static tc_port p_empty, p_part, p_full;
static void *p_slots[3][2];
static uint32_t word = 7;

static void queue_receive(void *arg)
{
  uint32_t msg;
  (void)tc_queue_receive(arg, &msg, TC_WAIT_FOREVER);
}
static void queue_send(void *arg) { (void)tc_queue_send(arg, &word, TC_WAIT_FOREVER); }
static void port_receive(void *arg)
{
  void *msg;
  (void)tc_port_receive(arg, &msg, TC_WAIT_FOREVER);
}
static void port_send(void *arg) { (void)tc_port_send(arg, &word, TC_WAIT_FOREVER); }

/* The slot `n` slots after `p` in queue `q`'s ring. */
static uint8_t *slot_after(const tc_queue *q, const uint8_t *p, size_t n)
{
  size_t i = ((size_t)(p - q->start) / q->msg_size + n) % q->capacity;
  return q->start + i * q->msg_size;
}

static void channel_damage(void *arg)
{
  (void)arg;
  OK(tc_queue_send(&q_part, &word, TC_NO_WAIT));
  OK(tc_queue_send(&q_full, &word, TC_NO_WAIT));
  OK(tc_port_send(&p_part, &word, TC_NO_WAIT));
  OK(tc_port_send(&p_full, &word, TC_NO_WAIT));
  /* Receivers on the empty ones, a sender on each full one (priority 10, above the runner). */
  OK(tc_thread_create(&w1, "w1", queue_receive, &q_empty, TCT_STACK(1), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&w2, "w2", queue_receive, &q_empty, TCT_STACK(2), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&w3, "w3", queue_send, &q_full, TCT_STACK(3), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&w4, "w4", port_receive, &p_empty, TCT_STACK(4), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&w5, "w5", port_receive, &p_empty, TCT_STACK(5), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&w6, "w6", port_send, &p_full, TCT_STACK(6), 10, 10, 0, TC_AUTO_START));
  tc_queue *q = &q_part;

  const char *geometry = "queue geometry invalid";
  CORRUPT(q->magic, 0, "queue list holds something that is not a queue");
  CORRUPT(q->start, NULL, geometry);
  CORRUPT(q->msg_size, 0, geometry);
  CORRUPT(q->capacity, 0, geometry);
  CORRUPT(q->end, q->end + 1, geometry);
  CORRUPT(q->words, q->words + 1u, geometry);
  CORRUPT(q->count, q->capacity + 1u, "queue count out of range");
  const char *read = "queue read position off its slots";
  CORRUPT(q->read, q->start - q->msg_size, read);
  CORRUPT(q->read, q->end, read);
  CORRUPT(q->read, q->start + 1, read);
  const char *write = "queue write position disagrees with the read position and the count";
  CORRUPT(q->write, q->start - q->msg_size, write);
  CORRUPT(q->write, q->end, write);
  CORRUPT(q->write, q->write + 1, write);
  CORRUPT(q->write, slot_after(q, q->write, 1), write);
  CORRUPT(w1.wait_seq, w2.wait_seq + 1u, "order they began to wait");
  /* One message in a queue with receivers waiting (its write position moved with the count). */
  CORRUPT2(q_empty.count, 1, q_empty.write, slot_after(&q_empty, q_empty.write, 1),
           "queue has waiters while neither empty nor full");
  CORRUPT(w1.wait_info[0], 0, "queue waiter without a message buffer");
  CORRUPT(w1.wait_info[1], 1u, "sender waits on an empty queue");
  CORRUPT(w3.wait_info[1], 0u, "receiver waits on a full queue");

  tc_port *p = &p_part;
  CORRUPT(p->magic, 0, "message port list holds something that is not a port");
  CORRUPT(p->slots, NULL, "message port geometry invalid");
  CORRUPT(p->n_slots, 0, "message port geometry invalid");
  CORRUPT(p->count, p->n_slots + 1u, "message port count or index out of range");
  CORRUPT(p->out, p->n_slots, "message port count or index out of range");
  CORRUPT(w4.wait_seq, w5.wait_seq + 1u, "order they began to wait");
  CORRUPT(p_empty.count, 1, "message port has waiters while neither empty nor full");
  CORRUPT(w4.wait_info[1], 1u, "sender waits on an empty message port");
  CORRUPT(w4.wait_info[0], 0, "sender waits on an empty message port");
  CORRUPT(w6.wait_info[1], 0u, "receiver waits on a full message port");
  tct_log("checked");
  tct_end(0);
}

static void channel_records(void)
{
  tct_begin();
  OK(tc_queue_create(&q_empty, "empty", 4, q_buf[0], 8));
  OK(tc_queue_create(&q_part, "part", 4, q_buf[1], 12));
  OK(tc_queue_create(&q_full, "full", 4, q_buf[2], 4));
  OK(tc_port_create(&p_empty, "empty", p_slots[0], 2));
  OK(tc_port_create(&p_part, "part", p_slots[1], 2));
  OK(tc_port_create(&p_full, "full", p_slots[2], 1));
  OK(tc_thread_create(&run, "run", channel_damage, NULL, TCT_STACK(0), 12, 12, 0, TC_AUTO_START));
  tct_run_kernel();
  CHECK_LOG("checked");
}

/* ---- block and byte pools --------------------------------------------------------------- */

static tc_block_pool bp_empty, bp_part;
static uint64_t bp_mem[2][TC_BLOCK_POOL_MEM(16, 3) / 8];
static tc_byte_pool yp_wait, yp_part;
static uint64_t yp_mem[2][64];

/* A byte pool block's header as byte_pool.c lays it out (two words, then the free links). */
typedef struct yblock {
  size_t head;
  uintptr_t tag;
  struct yblock *next, *prev;
} yblock;
#define YBLOCK(mem) ((yblock *)((uint8_t *)(mem) - TC_BYTE_HEADER))
#define YSIZE(b)    ((b)->head & ~(size_t)7u)
#define YRIGHT(b)   ((yblock *)((uint8_t *)(b) + YSIZE(b)))

static void block_alloc(void *arg)
{
  void *b;
  (void)tc_block_alloc(arg, &b, TC_WAIT_FOREVER);
}
static void byte_alloc(void *arg)
{
  void *m;
  (void)tc_byte_alloc(arg, &m, 300, TC_WAIT_FOREVER);
}

static void pool_damage(void *arg)
{
  (void)arg;
  /* bp_empty: every block taken, w1 and w2 wait; bp_part: one block taken of three. */
  void *held[3], *one;
  for (unsigned i = 0; i < 3; i++) OK(tc_block_alloc(&bp_empty, &held[i], TC_NO_WAIT));
  OK(tc_block_alloc(&bp_part, &one, TC_NO_WAIT));
  OK(tc_thread_create(&w1, "w1", block_alloc, &bp_empty, TCT_STACK(1), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&w2, "w2", block_alloc, &bp_empty, TCT_STACK(2), 10, 10, 0, TC_AUTO_START));
  tc_block_pool *bp = &bp_part;

  CORRUPT(bp->magic, 0, "block pool list holds something that is not a block pool");
  CORRUPT(bp->block_size, 0, "block pool geometry corrupted");
  CORRUPT(bp->block_size, 12, "block pool geometry corrupted");
  CORRUPT(bp->slot, bp->slot + 8u, "block pool geometry corrupted");
  CORRUPT(bp->start, bp->start + 4, "block pool bounds corrupted");
  CORRUPT(bp->end, bp->end + 8, "block pool bounds corrupted");
  CORRUPT(bp->available, bp->total + 1u, "more free blocks than blocks");
  CORRUPT(bp->available, bp->available - 1u, "free count disagrees with its headers");
  const char *leaves = "block free list leaves its pool";
  CORRUPT(bp->free_list, (uintptr_t *)bp->start - 1, leaves);
  CORRUPT(bp->free_list, (uintptr_t *)bp->end, leaves);
  CORRUPT(bp->free_list, (uintptr_t *)(bp->start + TC_BLOCK_HEADER), leaves);
  CORRUPT(*bp->free_list, (uintptr_t)bp->free_list, "block free list longer than the free count");
  CORRUPT(*bp->free_list, 0, "block free list shorter than the free count");
  CORRUPT(w1.wait_seq, w2.wait_seq + 1u, "order they began to wait");
  /* A block put back on the free list behind the waiters' backs. */
  mask();
  uintptr_t *h = (uintptr_t *)held[0] - 1, saved = *h;
  *h = (uintptr_t)bp_empty.free_list;
  bp_empty.free_list = h;
  bp_empty.available++;
  const char *why = tc_check();
  bp_empty.available--;
  bp_empty.free_list = (uintptr_t *)*h;
  *h = saved;
  unmask();
  NAMED(why, "threads wait on a block pool that has free blocks");

  /* yp_wait: mostly taken, w3 and w4 wait for more than is left; yp_part: blocks a, b, c
   * taken and b freed again: [a used][b free][c used][rest free]. */
  void *big, *ma, *mb, *mc;
  OK(tc_byte_alloc(&yp_wait, &big, 256, TC_NO_WAIT));
  OK(tc_thread_create(&w3, "w3", byte_alloc, &yp_wait, TCT_STACK(3), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&w4, "w4", byte_alloc, &yp_wait, TCT_STACK(4), 10, 10, 0, TC_AUTO_START));
  OK(tc_byte_alloc(&yp_part, &ma, 40, TC_NO_WAIT));
  OK(tc_byte_alloc(&yp_part, &mb, 40, TC_NO_WAIT));
  OK(tc_byte_alloc(&yp_part, &mc, 40, TC_NO_WAIT));
  OK(tc_byte_free(mb));
  tc_byte_pool *yp = &yp_part;
  yblock *a = YBLOCK(ma), *b = YBLOCK(mb), *c = YBLOCK(mc), *rest = YRIGHT(c);
  CHECK((uint8_t *)a == yp->start && YRIGHT(a) == b && YRIGHT(b) == c && yp->free_list == b);

  CORRUPT(yp->magic, 0, "byte pool list holds something that is not a byte pool");
  CORRUPT(yp->start, yp->start + 4, "byte pool bounds corrupted");
  CORRUPT(yp->end, yp->start, "byte pool bounds corrupted");
  CORRUPT(yp->end, yp->end - 4, "byte pool bounds corrupted");
  const char *size = "byte pool block size corrupted";
  CORRUPT(a->head, (a->head & 7u) | 8u, size);
  CORRUPT(a->head, (a->head & 7u) | (size_t)(yp->end - yp->start + 8), size);
  CORRUPT(a->head, a->head ^ 2u, "PREV_IN_USE disagrees with its neighbour");
  CORRUPT(a->tag, 0, "byte pool block header overwritten");
  CORRUPT(b->tag, 0, "byte pool free block header overwritten");
  CORRUPT2(c->head, c->head & ~(size_t)1u, c->tag, b->tag, "two free byte pool blocks are adjacent");
  CORRUPT(((size_t *)c)[-1], YSIZE(b) + 8u, "byte pool free block size copy disagrees");
  CORRUPT(yp->free_list, NULL, "free list is not the free blocks in address order");
  CORRUPT(b->prev, rest, "byte pool free list back link wrong");
  CORRUPT(rest->next, a, "byte pool free list continues past the free blocks");
  const char *counters = "byte pool counters disagree with its blocks";
  CORRUPT(yp->available, yp->available + 8u, counters);
  CORRUPT(yp->free_blocks, yp->free_blocks + 1u, counters);
  CORRUPT(yp->used_blocks, yp->used_blocks + 1u, counters);
  CORRUPT(w3.wait_seq, w4.wait_seq + 1u, "order they began to wait");
  CORRUPT(w3.wait_info[0], 8u, "the first byte pool waiter fits and was not served");
  tct_log("checked");
  tct_end(0);
}

static void pool_records(void)
{
  tct_begin();
  OK(tc_block_pool_create(&bp_empty, "empty", 16, bp_mem[0], sizeof bp_mem[0]));
  OK(tc_block_pool_create(&bp_part, "part", 16, bp_mem[1], sizeof bp_mem[1]));
  OK(tc_byte_pool_create(&yp_wait, "wait", yp_mem[0], sizeof yp_mem[0]));
  OK(tc_byte_pool_create(&yp_part, "part", yp_mem[1], sizeof yp_mem[1]));
  OK(tc_thread_create(&run, "run", pool_damage, NULL, TCT_STACK(0), 12, 12, 0, TC_AUTO_START));
  tct_run_kernel();
  CHECK_LOG("checked");
}

/* ---- timers ------------------------------------------------------------------------------ */

static tc_timer tm1, tm2, tm3, fake_timer;
static tc_timeout fake_timeout;

static void log_cb(void *arg) { tct_log("%s", (const char *)arg); }
static void no_expiry(tc_timeout *to) { (void)to; }

static void timer_damage(void *arg)
{
  (void)arg;
  CORRUPT(tm1.magic, 0, "timer list holds something that is not a timer");
  CORRUPT(tm1.fn, NULL, "timer without a callback or initial ticks");
  CORRUPT(tm1.initial, 0, "timer without a callback or initial ticks");
  CORRUPT(tm1.timeout.expire, no_expiry, "timer timeout with a foreign expiry function");
  CORRUPT(tm1.due, 1, "timer due count disagrees with the due list");
  CORRUPT(tm1.callbacks, tm1.expirations + 1u, "timer owes more callbacks than it expired");

  /* Marked active but missing from the delta list (where something else stands in for it,
   * so that the delta list's length agrees). */
  mask();
  fake_timeout.delta = 5;
  fake_timeout.linked = true;
  fake_timeout.expire = no_expiry;
  tc__list_push_back(&tc__k.timeouts, &fake_timeout.node);
  tm1.timeout.linked = true;
  const char *why = tc_check();
  tm1.timeout.linked = false;
  tc__list_remove(&tc__k.timeouts, &fake_timeout.node);
  unmask();
  NAMED(why, "active timer missing from the delta list");

  /* Two timers expire while the scheduler is locked: both owe their callback, the timers'
   * HISR is activated and waits for the unlock. */
  OK(tc_timer_activate(&tm2));
  OK(tc_timer_activate(&tm3));
  tc_sched_lock();
  tct_work(2u * (tc_cycles_hz() / TC_TICK_HZ));
  STEP();
  tc_timer_info_t info;
  OK(tc_timer_info(&tm2, &info));
  CHECK_EQ(info.due, 1);
  CHECK(tc__k.hisr_top != NULL);
  CORRUPT(tc__k.hisr_top->state, TC_SUSPENDED, "timer callbacks due and the timers' HISR not activated");
  tct_log("unlock");
  tc_sched_unlock();
  tct_log("checked");
}

static void timer_records(void)
{
  tct_begin();
  OK(tc_timer_create(&tm1, "tm1", log_cb, "tm1", 5, 0, 0));
  OK(tc_timer_create(&tm2, "tm2", log_cb, "tm2", 1, 0, 0));
  OK(tc_timer_create(&tm3, "tm3", log_cb, "tm3", 1, 0, 0));
  OK(tc_thread_create(&run, "run", timer_damage, NULL, TCT_STACK(0), 12, 12, 0, TC_AUTO_START));
  tct_run_kernel();
  CHECK_LOG("unlock tm2 tm3 checked");
}

/* The due list alone (no timer created: the timers' own checks walk the due list first). */
static void due_list_damage(void *arg)
{
  (void)arg;
  /* Something in the due list that is no timer owing callbacks. */
  static const char *const due_damage[5] = {"due list holds a timer that owes nothing", "due list holds a timer that owes nothing",
                                            "due list links disagree", "due list links disagree",
                                            "due list holds a timer twice, or a deleted one"};
  for (unsigned i = 0; i < 5; i++) {
    mask();
    memset(&fake_timer, 0, sizeof fake_timer);
    fake_timer.magic = i == 0 ? 0 : TC_MAGIC_TIMER;
    fake_timer.due = i == 1 ? 0 : 1;
    tc_node *n = &fake_timer.due_node;
    n->next = n->prev = n;
    if (i == 2) n->next = NULL;
    if (i == 3) n->prev = &junk;
    tc__k.timers_due.head = n;
    const char *why = tc_check();
    tc__k.timers_due.head = NULL;
    unmask();
    NAMED(why, due_damage[i]);
  }

  tct_log("checked");
}

static void due_list_records(void)
{
  tct_begin();
  OK(tc_thread_create(&run, "run", due_list_damage, NULL, TCT_STACK(0), 12, 12, 0, TC_AUTO_START));
  tct_run_kernel();
  CHECK_LOG("checked");
}

/* ---- task ports ------------------------------------------------------------------------- */

static tc_thread receiver, poster1, poster2, waiter, done1, done2;

static void post_forever(void *arg) { (void)tc_thread_post(arg, 1, TC_WAIT_FOREVER); }
static void receive_forever(void *arg)
{
  (void)arg;
  uint32_t w;
  (void)tc_thread_receive(&w, TC_WAIT_FOREVER);
}
static void some_hook(tc_waitq *q, tc_thread *t) { (void)q, (void)t; }

static void taskport_damage(void *arg)
{
  (void)arg;
  /* receiver (suspended) holds a word, poster1 and poster2 wait to post another; waiter
   * waits for a word; done1 completed, done2 terminated. */
  OK(tc_thread_create(&receiver, "receiver", nop, NULL, TCT_STACK(1), 20, 20, 0, 0));
  OK(tc_thread_post(&receiver, 1, TC_NO_WAIT));
  OK(tc_thread_create(&poster1, "p1", post_forever, &receiver, TCT_STACK(2), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&poster2, "p2", post_forever, &receiver, TCT_STACK(3), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&waiter, "waiter", receive_forever, NULL, TCT_STACK(4), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&done1, "done1", nop, NULL, TCT_STACK(5), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(&done2, "done2", nop, NULL, TCT_STACK(6), 10, 10, 0, 0));
  OK(tc_thread_terminate(&done2));

  CORRUPT(poster1.wait_seq, poster2.wait_seq + 1u, "order they began to wait");
  CORRUPT(receiver.port_waiters.reprioritized, some_hook, "task port wait queue has a hook");
  CORRUPT(waiter.port_full, true, "thread waits for a word beside a word or posters");
  /* A poster beside the thread that waits for a word. */
  mask();
  fake_waiter(&fake, &waiter.port_waiters, waiter.priority + 1u, waiter.wait_seq + 1u);
  const char *why = tc_check();
  tc__list_remove(&waiter.port_waiters.threads, &fake.sched_node);
  unmask();
  NAMED(why, "thread waits for a word beside a word or posters");
  CORRUPT(receiver.port_full, false, "posters wait for an empty task port slot");
  CORRUPT(done1.port_full, true, "an ended thread's task port is still in use");
  CORRUPT(done2.port_full, true, "an ended thread's task port is still in use");
  tct_log("checked");
  tct_end(0);
}

static void taskport_records(void)
{
  tct_begin();
  OK(tc_thread_create(&run, "run", taskport_damage, NULL, TCT_STACK(0), 12, 12, 0, TC_AUTO_START));
  tct_run_kernel();
  CHECK_LOG("checked");
}

TCT_MAIN("test_check", TCT_CASE(checker_detects_corruption), TCT_CASE(thread_records),
         TCT_CASE(scheduler_records), TCT_CASE(hisr_records), TCT_CASE(sync_records),
         TCT_CASE(channel_records), TCT_CASE(pool_records), TCT_CASE(timer_records), TCT_CASE(due_list_records),
         TCT_CASE(taskport_records))
