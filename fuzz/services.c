/* SPDX-License-Identifier: MIT */
/*
 * Fuzz harness: random sequences of kernel services from every calling context -- threads
 * (with and without the scheduler lock, and inside their signal handlers), LISRs (bracketed
 * with tc_isr_enter/exit in a thread as the tests do, and simulated interrupts the sim port
 * raises in the middle of a thread's work), HISRs and timer callbacks -- with blocking,
 * timeouts, time slicing, deletion and re-creation of objects and threads.
 *
 * Four worker threads, two HISRs, two timers and the workers' signal handlers each take their
 * next operation from the input when they run; which runs when is the kernel's business, and
 * deterministic on the sim port. A supervisor (the driver, below every worker) runs when all
 * of them wait: it lets time pass, resumes suspended workers and re-creates ended ones.
 *
 * Checked after every operation: tc_check(), in the context that made the call; the status
 * is one the service documents for that call in that context (a wait outside a thread that
 * may block: TC_CALLER_ERROR); and where it is cheap, against what the harness knows: the
 * caller owns a mutex it locked (recursively, as counted) and TC_NOT_OWNER otherwise; memory
 * from a pool is lent to one holder at a time and comes back TC_OK; every message received
 * is one that was sent; an event wait returns flags that satisfy it.
 */
#include <string.h>

#include "fuzz.h"
#include "internal.h"
#include "tacet/sim.h"

#define N_WORKERS 4u
/* Who holds pool memory: each worker, each worker inside its signal handler (which may
 * interrupt the worker's own allocation), and every handler together. */
#define HOLDERS   (2u * N_WORKERS + 1u)

static tc_thread workers[N_WORKERS];
static tc_hisr hisrs[2];
static tc_timer timers[2];
static tc_sem sem;
static tc_mutex mutexes[2]; /* with priority inheritance, and without */
static tc_queue queue;
static uint32_t queue_buf[3];
static tc_event event;
static tc_port port;
static void *port_slots[2];
static tc_block_pool blocks;
static uint64_t block_mem[TC_BLOCK_POOL_MEM(16, 3) / 8];
static tc_byte_pool bytes;
static uint64_t byte_mem[48];

/* What the harness knows. */
static uint32_t locks[N_WORKERS][2]; /* mutex recursion counts, per worker */
static void *held_block[HOLDERS], *held_bytes[HOLDERS];

enum { IN_THREAD, IN_LISR, IN_HISR, IN_TIMER };

static void any_op(unsigned cx);

/* ---- what a status may be ---------------------------------------------------------------- */

static int worker_index(const tc_thread *t)
{
  for (unsigned i = 0; i < N_WORKERS; i++)
    if (t == &workers[i]) return (int)i;
  return -1;
}

static bool has_ended(const tc_thread *t) { return t->state == TC_COMPLETED || t->state == TC_TERMINATED; }

/* Worker priorities are levels 0..17 spread over the priority range, so that the ready map's
 * words beyond the first are used too (TC_PRIORITIES 256: 1 .. 239). */
#define LEVELS 18u
static unsigned priority_of(unsigned level) { return 1u + level * ((TC_PRIORITIES - 2u) / LEVELS); }

/* The worker making the call; -1 in a handler. */
static int self(unsigned cx) { return cx == IN_THREAD ? worker_index(tc_thread_self()) : -1; }

static bool in_signal_handler[N_WORKERS];

static unsigned holder(unsigned cx)
{
  int w = self(cx);
  return w < 0 ? 2u * N_WORKERS : in_signal_handler[w] ? N_WORKERS + (unsigned)w : (unsigned)w;
}

/* Whether the caller may wait: a thread without the scheduler lock. */
static bool may_wait(unsigned cx) { return cx == IN_THREAD && tc__k.lock_nesting == 0; }

/* A timeout: in a thread any, elsewhere TC_NO_WAIT, or now and then a wait that is refused. */
static uint32_t timeout_for(unsigned cx)
{
  if (cx == IN_THREAD) return fz_below(8) == 0 ? TC_WAIT_FOREVER : fz_below(5);
  return fz_below(8) == 0 ? 1u : TC_NO_WAIT;
}

/* The statuses a call that may wait can return: `immediate` when it cannot be served and
 * does not wait; TC_CALLER_ERROR exactly when it asks to wait where that is not allowed. */
static void check_wait(unsigned cx, uint32_t timeout, tc_status st, tc_status immediate)
{
  fz_trace("  timeout %u: %d", (unsigned)timeout, st);
  if (timeout != TC_NO_WAIT && !may_wait(cx)) {
    CHECK_EQ(st, TC_CALLER_ERROR);
  } else if (timeout == TC_NO_WAIT) {
    CHECK(st == TC_OK || st == immediate);
  } else {
    CHECK(st == TC_OK || st == TC_TIMEOUT || st == TC_DELETED || st == TC_WAIT_ABORTED);
    CHECK(st != TC_TIMEOUT || timeout != TC_WAIT_FOREVER);
  }
}

/* A message of the queue or the port: a number and its complement, so a message that was
 * never sent (or was damaged) does not pass. */
static uint32_t next_msg;

static uint32_t message(void)
{
  uint32_t n = ++next_msg & 0xFFFFu;
  return n << 16 | (~n & 0xFFFFu);
}

static bool is_message(uint32_t m) { return (m >> 16) == (~m & 0xFFFFu); }

/* ---- objects ----------------------------------------------------------------------------- */

static void op_sem(unsigned cx)
{
  if (fz_below(2)) {
    tc_status st = tc_sem_give(&sem);
    CHECK(st == TC_OK || st == TC_FULL);
    return;
  }
  uint32_t timeout = timeout_for(cx);
  check_wait(cx, timeout, tc_sem_take(&sem, timeout), TC_NO_INSTANCE);
}

/* Mutexes created again since the run began. A call during which its mutex was deleted and
 * created again (by a thread that preempted the caller) may have locked the new one (a wait
 * a signal interrupted starts over on whatever mutex is there): what the caller holds is
 * then read back from the mutex, not checked. */
static unsigned mutex_generation[2];

static void resync(unsigned w, unsigned k)
{
  locks[w][k] = mutexes[k].owner == &workers[w] ? mutexes[k].count : 0;
}

static void op_mutex(unsigned cx)
{
  unsigned k = fz_below(2);
  int w = self(cx);
  /* Not from a signal handler: it may run after the call it interrupted was handed the mutex
   * and before that call returned, when the harness cannot know the count yet. */
  if (w >= 0 && in_signal_handler[w]) return;
  tc_mutex *m = &mutexes[k];
  unsigned generation = mutex_generation[k];
  /* What the caller held before the call (the call may let others run before it returns). */
  uint32_t held = w >= 0 ? locks[w][k] : 0;
  if (fz_below(2)) {
    tc_status st = tc_mutex_unlock(m);
    if (w < 0) {
      CHECK_EQ(st, TC_CALLER_ERROR);
    } else if (held == 0) {
      CHECK_EQ(st, TC_NOT_OWNER);
    } else {
      CHECK_EQ(st, TC_OK);
      if (generation != mutex_generation[k]) {
        resync((unsigned)w, k);
        return;
      }
      locks[w][k]--;
      CHECK(locks[w][k] != 0 ? m->owner == &workers[w] && m->count == locks[w][k] : m->owner != &workers[w]);
    }
    return;
  }
  uint32_t timeout = timeout_for(cx);
  tc_status st = tc_mutex_lock(m, timeout);
  if (w < 0) {
    CHECK_EQ(st, TC_CALLER_ERROR);
    return;
  }
  if (held != 0) {
    /* Its own: locked once more (a wait is refused first where none is allowed). */
    CHECK(st == TC_OK || (st == TC_CALLER_ERROR && timeout != TC_NO_WAIT && !may_wait(cx)));
  } else {
    check_wait(cx, timeout, st, TC_NO_INSTANCE);
  }
  fz_trace("  mutex %u worker %d held %u: %d (owner %d, count %u)", k, w, (unsigned)held, st,
           m->owner != NULL ? worker_index(m->owner) : -1, (unsigned)m->count);
  if (generation != mutex_generation[k]) {
    resync((unsigned)w, k);
  } else if (st == TC_OK) {
    locks[w][k]++;
    CHECK(m->owner == &workers[w] && m->count == locks[w][k]);
  }
}

static void op_queue(unsigned cx)
{
  uint32_t timeout = timeout_for(cx);
  switch (fz_below(4)) {
  case 0: {
    uint32_t m = message();
    check_wait(cx, timeout, tc_queue_send(&queue, &m, timeout), TC_FULL);
    break;
  }
  case 1: {
    uint32_t m = message();
    check_wait(cx, timeout, tc_queue_send_front(&queue, &m, timeout), TC_FULL);
    break;
  }
  case 2: {
    uint32_t m = 0;
    tc_status st = tc_queue_receive(&queue, &m, timeout);
    check_wait(cx, timeout, st, TC_NO_INSTANCE);
    if (st == TC_OK) CHECK(is_message(m));
    break;
  }
  default:
    OK(tc_queue_flush(&queue));
    break;
  }
}

static void op_port(unsigned cx)
{
  uint32_t timeout = timeout_for(cx);
  if (fz_below(2)) {
    check_wait(cx, timeout, tc_port_send(&port, (void *)(uintptr_t)message(), timeout), TC_FULL);
    return;
  }
  void *m = NULL;
  tc_status st = tc_port_receive(&port, &m, timeout);
  check_wait(cx, timeout, st, TC_NO_INSTANCE);
  if (st == TC_OK) CHECK(is_message((uint32_t)(uintptr_t)m));
}

static void op_event(unsigned cx)
{
  uint32_t flags = 1u << fz_below(4) | 1u << fz_below(4);
  switch (fz_below(3)) {
  case 0:
    OK(tc_event_set(&event, flags));
    break;
  case 1:
    OK(tc_event_clear(&event, flags));
    break;
  default: {
    unsigned mode = (fz_below(2) ? TC_EVENT_ALL : TC_EVENT_ANY) | (fz_below(2) ? TC_EVENT_CLEAR : 0u);
    uint32_t timeout = timeout_for(cx), actual = 0;
    tc_status st = tc_event_wait(&event, flags, mode, &actual, timeout);
    check_wait(cx, timeout, st, TC_NO_INSTANCE);
    if (st == TC_OK) CHECK((mode & TC_EVENT_ALL) ? (actual & flags) == flags : (actual & flags) != 0);
    break;
  }
  }
}

/* Pools (byte, block) created again since the run began. */
static unsigned pool_generation[2];

/* Allocate into a holder's hand, or give back what it holds. */
static void op_pool(unsigned cx)
{
  bool block = fz_below(2);
  void **hand = block ? &held_block[holder(cx)] : &held_bytes[holder(cx)];
  if (*hand != NULL) {
    /* Out of the hand first: the free may let other threads run, and one of them end the
     * caller, before it returns. With nobody waiting, the memory stays free: a second free
     * is refused. */
    void *p = *hand;
    *hand = NULL;
    bool alone = (block ? blocks.waiters.threads.head : bytes.waiters.threads.head) == NULL;
    fz_trace("  holder %u frees %s %p", holder(cx), block ? "block" : "bytes", p);
    EXPECT(block ? tc_block_free(p) : tc_byte_free(p), TC_OK);
    if (alone) EXPECT(block ? tc_block_free(p) : tc_byte_free(p), TC_INVALID);
    return;
  }
  uint32_t timeout = timeout_for(cx);
  unsigned generation = pool_generation[block];
  tc_status st = block ? tc_block_alloc(&blocks, hand, timeout)
                       : tc_byte_alloc(&bytes, hand, 1u + fz_below(96), timeout);
  check_wait(cx, timeout, st, TC_NO_INSTANCE);
  fz_trace("  holder %u got %s %p", holder(cx), block ? "block" : "bytes", *hand);
  CHECK((*hand != NULL) == (st == TC_OK));
  /* Memory handed over before the pool was deleted and created again on the same memory
   * (while the caller had not run yet) is the new pool's now: not the holder's to use. */
  if (generation != pool_generation[block]) *hand = NULL;
  if (*hand != NULL) memset(*hand, 0x5a, block ? 16u : 1u); /* it is the holder's now */
}

/* The task port of a worker. */
static void op_taskport(unsigned cx)
{
  int w = self(cx);
  uint32_t timeout = timeout_for(cx);
  if (fz_below(2) && w >= 0) {
    uint32_t word = 0;
    tc_status st = tc_thread_receive(&word, timeout);
    check_wait(cx, timeout, st, TC_NO_INSTANCE);
    if (st == TC_OK) CHECK(is_message(word));
    return;
  }
  tc_thread *to = &workers[fz_below(N_WORKERS)];
  tc_status st = tc_thread_post(to, message(), timeout);
  if (st == TC_STATE_ERROR) {
    CHECK(has_ended(to));
  } else if (st == TC_FULL && to == tc_thread_self()) {
    /* posting to oneself never waits */
  } else {
    check_wait(cx, timeout, st, TC_FULL);
  }
}

/* ---- threads ----------------------------------------------------------------------------- */

/* A worker ended: the kernel released its mutexes. */
static void ended(unsigned w) { memset(locks[w], 0, sizeof locks[w]); }

/* A thread service on a worker, with the status its state before the call implies. */
static void op_thread(unsigned cx)
{
  unsigned w = fz_below(N_WORKERS);
  tc_thread *t = &workers[w];
  bool is_self = t == tc_thread_self() && cx == IN_THREAD;
  bool locked_self = is_self && tc__k.lock_nesting != 0;
  bool ended_before = has_ended(t);
  unsigned state = t->state;
  unsigned what = fz_below(cx == IN_LISR ? 3 : 6);
  fz_trace("  worker %u (state %u%s): %s", w, state, is_self ? ", self" : "",
           (const char *const[]){"resume", "suspend", "wait_abort", "terminate", "priority", "threshold"}[what]);
  switch (what) {
  case 0: {
    tc_status st = tc_thread_resume(t);
    STEP();
    if (ended_before || state == TC_READY || state == TC_RUNNING) CHECK_EQ(st, TC_STATE_ERROR);
    if (state == TC_SUSPENDED) CHECK_EQ(st, TC_OK);
    CHECK(st == TC_OK || st == TC_STATE_ERROR); /* a waiting one: OK if its suspension was delayed */
    break;
  }
  case 1:
    /* A LISR may suspend the thread it interrupted in a locked section: that thread runs on,
     * already suspended, until it unlocks; suspending itself then changes nothing (TC_OK). */
    EXPECT(tc_thread_suspend(t), ended_before                 ? TC_STATE_ERROR
                                 : state == TC_SUSPENDED      ? TC_OK
                                 : locked_self                ? TC_CALLER_ERROR
                                                              : TC_OK);
    break;
  case 2: {
    /* Also TC_OK for a wait a signal interrupted: it ends once the handler is done. */
    tc_status st = tc_thread_wait_abort(t);
    STEP();
    if (state == TC_SLEEPING || state == TC_PENDING) CHECK_EQ(st, TC_OK);
    if (ended_before) CHECK_EQ(st, TC_STATE_ERROR);
    CHECK(st == TC_OK || st == TC_STATE_ERROR);
    break;
  }
  case 3:
    if (is_self && fz_below(4) != 0) break; /* now and then */
    EXPECT(tc_thread_terminate(t), locked_self ? TC_CALLER_ERROR : TC_OK); /* oneself: no return */
    if (!locked_self) ended(w);
    break;
  case 4: {
    unsigned old;
    EXPECT(tc_thread_priority_change(t, priority_of(fz_below(LEVELS)), &old), ended_before ? TC_STATE_ERROR : TC_OK);
    break;
  }
  default: {
    unsigned thr = priority_of(fz_below(LEVELS + 2u)) - 1u, old; /* from 0, and beyond the priority */
    /* Out of range is an argument error, found before the thread is looked at. (The want is
     * worked out first: the change may let other threads run, and change t, before it returns.) */
    tc_status want = thr >= TC_PRIORITIES        ? TC_PRIORITY_ERROR
                     : ended_before              ? TC_STATE_ERROR
                     : thr <= t->user_priority   ? TC_OK
                                                 : TC_PRIORITY_ERROR;
    EXPECT(tc_thread_threshold_change(t, thr, &old), want);
    break;
  }
  }
}

static void op_signal(unsigned cx)
{
  (void)cx;
  unsigned w = fz_below(N_WORKERS);
  tc_thread *t = &workers[w];
  fz_trace("  to worker %u (state %u)", w, t->state);
  bool ended_before = has_ended(t);
  EXPECT(tc_signal_send(t, 1u << fz_below(3)), ended_before ? TC_STATE_ERROR : TC_OK);
}

/* A worker's signal handler: runs as the worker, may do what the worker does (wait included),
 * or end the wait it interrupted. */
static void on_signal(uint32_t signals)
{
  int w = worker_index(tc_thread_self());
  CHECK(signals != 0 && w >= 0);
  STEP();
  fz_trace("  worker %d: signal handler (%#x)", w, (unsigned)signals);
  in_signal_handler[w] = true;
  switch (fz_below(4)) {
  case 0: {
    tc_status st = tc_signal_abort_wait();
    CHECK(st == TC_OK || st == TC_STATE_ERROR);
    break;
  }
  case 1:
    any_op(IN_THREAD);
    break;
  default:
    break;
  }
  in_signal_handler[w] = false;
  fz_trace("  worker %d: signal handler returns", w);
}

static void op_sleep_or_yield(unsigned cx)
{
  if (fz_below(2)) {
    tc_thread_yield();
    return;
  }
  tc_status st = tc_thread_sleep(fz_below(4));
  if (!may_wait(cx)) CHECK_EQ(st, TC_CALLER_ERROR);
  else CHECK(st == TC_OK || st == TC_WAIT_ABORTED);
}

/* Spend time: interrupts raised meanwhile are taken, time slices expire. */
static void op_work(unsigned cx)
{
  (void)cx;
  tct_work(1000u * (1u + fz_below(150)));
}

/* ---- handlers ---------------------------------------------------------------------------- */

/* Up to three operations in one handler run. */
static void handler_ops(unsigned cx)
{
  unsigned n = 1 + fz_below(3);
  for (unsigned i = 0; i < n && !fz_done(); i++) any_op(cx);
}

static void lisr(void) { handler_ops(IN_LISR); }
static void hisr0(void) { handler_ops(IN_HISR); }
static void hisr1(void) { handler_ops(IN_HISR); }
static void on_timer(void *arg)
{
  (void)arg;
  handler_ops(IN_TIMER);
}

/* A LISR: bracketed in the caller, or a simulated interrupt that lands during later work. */
static void op_lisr(unsigned cx)
{
  if (cx != IN_THREAD || fz_below(2)) {
    tc_isr_enter();
    handler_ops(IN_LISR);
    tc_isr_exit();
    return;
  }
  tc_status st = tc_sim_irq_at(tc_sim_now() + 1000u * fz_below(200), lisr);
  CHECK(st == TC_OK || st == TC_FULL);
}

static void op_hisr(unsigned cx)
{
  (void)cx;
  OK(tc_hisr_activate(&hisrs[fz_below(2)]));
}

static void timer_create(unsigned k)
{
  unsigned options = fz_below(2) ? TC_AUTO_ACTIVATE : 0u;
  OK(tc_timer_create(&timers[k], "timer", on_timer, NULL, 1 + fz_below(4), fz_below(4), options));
}

static void op_timer(unsigned cx)
{
  unsigned k = fz_below(2);
  tc_timer *tm = &timers[k];
  tc_status st;
  switch (fz_below(cx == IN_THREAD || cx == IN_TIMER ? 4 : 3)) {
  case 0:
    st = tc_timer_activate(tm);
    CHECK(st == TC_OK || st == TC_STATE_ERROR);
    break;
  case 1:
    OK(tc_timer_deactivate(tm));
    break;
  case 2:
    st = tc_timer_change(tm, 1 + fz_below(4), fz_below(4));
    CHECK(st == TC_OK || st == TC_STATE_ERROR);
    break;
  default: /* delete and create again: a callback may do it to its own timer */
    OK(tc_timer_delete(tm));
    timer_create(k);
    break;
  }
}

/* ---- deleting and creating objects again -------------------------------------------------- */

/* Delete one object and create it again, with the scheduler locked so that no other thread
 * sees it missing: its waiters return TC_DELETED. */
static void op_recreate(unsigned cx)
{
  (void)cx;
  tc_sched_lock();
  unsigned what = fz_below(8);
  fz_trace("  object %u", what);
  switch (what) {
  case 0: {
    OK(tc_sem_delete(&sem));
    uint32_t max = 1 + fz_below(3);
    OK(tc_sem_create(&sem, "sem", fz_below(max + 1), max));
    break;
  }
  case 1: {
    unsigned k = fz_below(2);
    OK(tc_mutex_delete(&mutexes[k]));
    OK(tc_mutex_create(&mutexes[k], "mutex", k == 0 ? TC_INHERIT : 0u));
    for (unsigned w = 0; w < N_WORKERS; w++) locks[w][k] = 0;
    mutex_generation[k]++;
    break;
  }
  case 2:
    OK(tc_queue_delete(&queue));
    OK(tc_queue_create(&queue, "queue", 4, queue_buf, 4u * (1 + fz_below(3))));
    break;
  case 3:
    OK(tc_event_delete(&event));
    OK(tc_event_create(&event, "event"));
    break;
  case 4:
    OK(tc_port_delete(&port));
    OK(tc_port_create(&port, "port", port_slots, 1 + fz_below(2)));
    break;
  case 5:
    OK(tc_block_pool_delete(&blocks));
    OK(tc_block_pool_create(&blocks, "blocks", 16, block_mem, sizeof block_mem));
    memset(held_block, 0, sizeof held_block);
    pool_generation[true]++;
    break;
  case 6:
    OK(tc_byte_pool_delete(&bytes));
    OK(tc_byte_pool_create(&bytes, "bytes", byte_mem, sizeof byte_mem));
    memset(held_bytes, 0, sizeof held_bytes);
    pool_generation[false]++;
    break;
  default: {
    unsigned k = fz_below(2);
    tc_status st = tc_hisr_delete(&hisrs[k]);
    CHECK(st == TC_OK || st == TC_STATE_ERROR); /* activated: not now */
    if (st == TC_OK) OK(tc_hisr_create(&hisrs[k], "hisr", k == 0 ? hisr0 : hisr1, fz_below(3), TCT_STACK(N_WORKERS + k)));
    break;
  }
  }
  tc_sched_unlock();
}

/* Queries: consistent with what the harness knows. */
static void op_info(unsigned cx)
{
  (void)cx;
  tc_thread_info_t ti;
  unsigned w = fz_below(N_WORKERS);
  OK(tc_thread_info(&workers[w], &ti));
  CHECK(ti.priority <= ti.user_priority && ti.threshold <= ti.priority);
  tc_timer_info_t mi;
  OK(tc_timer_info(&timers[fz_below(2)], &mi));
  CHECK(mi.active || mi.remaining == 0);
  tc_hisr_info_t hi;
  OK(tc_hisr_info(&hisrs[fz_below(2)], &hi));
  CHECK(hi.runs <= hi.activations);
  tc_kernel_stats_t ks;
  tc_kernel_stats(&ks); /* from any context; its figures have nothing to agree with here */
}

/* Locked sections a worker is in: nested up to a depth its stack allows. */
static unsigned nesting[N_WORKERS];

/* The scheduler locked around a few operations (nested, now and then). */
static void op_locked(unsigned cx)
{
  unsigned w = holder(cx) % N_WORKERS;
  unsigned n = nesting[w] < 3 ? 1 + fz_below(3) : 0;
  nesting[w]++;
  tc_sched_lock();
  for (unsigned i = 0; i < n && !fz_done(); i++) any_op(IN_THREAD);
  tc_sched_unlock();
  nesting[w]--;
}

/* ---- the operations by context ----------------------------------------------------------- */

#define T (1u << IN_THREAD)
#define L (1u << IN_LISR)
#define H (1u << IN_HISR)
#define C (1u << IN_TIMER)

static const struct {
  const char *name;
  void (*fn)(unsigned cx);
  unsigned contexts;
} ops[] = {
    {"sem", op_sem, T | L | H | C},         {"mutex", op_mutex, T},
    {"queue", op_queue, T | L | H | C},     {"port", op_port, T | L | H | C},
    {"event", op_event, T | L | H | C},     {"pool", op_pool, T | L | H | C},
    {"taskport", op_taskport, T | L | H | C}, {"thread", op_thread, T | L | H | C},
    {"signal", op_signal, T | L | H | C},   {"sleep_or_yield", op_sleep_or_yield, T},
    {"work", op_work, T},                   {"lisr", op_lisr, T},
    {"hisr", op_hisr, T | L | H | C},       {"timer", op_timer, T | L | H | C},
    {"recreate", op_recreate, T},           {"info", op_info, T | L | H | C},
    {"locked", op_locked, T},
};
#define N_OPS (sizeof ops / sizeof ops[0])

static const char *const cx_names[] = {"thread", "LISR", "HISR", "timer"};

static void any_op(unsigned cx)
{
  unsigned allowed[N_OPS], n = 0;
  for (unsigned i = 0; i < N_OPS; i++)
    if (ops[i].contexts & (1u << cx)) allowed[n++] = i;
  unsigned op = allowed[fz_below(n)];
  fz_trace("%s %d: %s%s", cx_names[cx], self(cx), ops[op].name, cx == IN_THREAD && tc__k.lock_nesting != 0 ? " (locked)" : "");
  ops[op].fn(cx);
  STEP();
}

/* ---- workers and the supervisor --------------------------------------------------------- */

static void worker(void *arg)
{
  (void)arg;
  while (!fz_done()) any_op(IN_THREAD);
}

static void worker_create(unsigned w)
{
  unsigned level = fz_below(LEVELS);
  unsigned p = priority_of(level), thr = priority_of(level - fz_below(level + 1));
  /* Started once it has its handler: every worker accepts signals. */
  OK(tc_thread_create(&workers[w], "worker", worker, NULL, TCT_STACK(w), p, thr, fz_below(3), 0));
  OK(tc_signal_handler_set(&workers[w], on_signal));
  in_signal_handler[w] = false;
  nesting[w] = 0;
  OK(tc_thread_resume(&workers[w]));
}

/* The driver's step: all workers wait (or the driver would not run). Time passes; suspended
 * workers resume; ended ones give back what they held and start again. */
static void supervise(void)
{
  OK(tc_thread_sleep(1 + fz_below(4)));
  for (unsigned w = 0; w < N_WORKERS && !fz_done(); w++) {
    tc_thread *t = &workers[w];
    if (t->state == TC_SUSPENDED) OK(tc_thread_resume(t));
    if (t->state != TC_COMPLETED && t->state != TC_TERMINATED) continue;
    ended(w);
    fz_trace("supervisor: worker %u starts again (holds %p %p %p %p)", w, held_block[w], held_bytes[w],
             held_block[N_WORKERS + w], held_bytes[N_WORKERS + w]);
    /* One at a time, each taken from its hand just before it is freed: a free may let
     * workers run, and one of them delete a pool and create it again (which empties hands). */
    for (unsigned h = w; h < 2 * N_WORKERS; h += N_WORKERS) {
      void *block = held_block[h];
      held_block[h] = NULL;
      if (block != NULL) OK(tc_block_free(block));
      void *mem = held_bytes[h];
      held_bytes[h] = NULL;
      if (mem != NULL) OK(tc_byte_free(mem));
    }
    OK(tc_thread_delete(t));
    worker_create(w);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fz_input(data, size);
  tct_begin();
  /* Every input starts from the same memory: a finding reproduces from its input alone. */
  memset(workers, 0, sizeof workers);
  memset(hisrs, 0, sizeof hisrs);
  memset(timers, 0, sizeof timers);
  memset(locks, 0, sizeof locks);
  memset(mutex_generation, 0, sizeof mutex_generation);
  memset(pool_generation, 0, sizeof pool_generation);
  memset(held_block, 0, sizeof held_block);
  memset(held_bytes, 0, sizeof held_bytes);
  next_msg = 0;
  OK(tc_sem_create(&sem, "sem", 1, 2));
  OK(tc_mutex_create(&mutexes[0], "inherit", TC_INHERIT));
  OK(tc_mutex_create(&mutexes[1], "plain", 0));
  OK(tc_queue_create(&queue, "queue", 4, queue_buf, sizeof queue_buf));
  OK(tc_event_create(&event, "event"));
  OK(tc_port_create(&port, "port", port_slots, 2));
  OK(tc_block_pool_create(&blocks, "blocks", 16, block_mem, sizeof block_mem));
  OK(tc_byte_pool_create(&bytes, "bytes", byte_mem, sizeof byte_mem));
  OK(tc_hisr_create(&hisrs[0], "hisr0", hisr0, 0, TCT_STACK(N_WORKERS)));
  OK(tc_hisr_create(&hisrs[1], "hisr1", hisr1, 1, TCT_STACK(N_WORKERS + 1)));
  timer_create(0);
  timer_create(1);
  for (unsigned w = 0; w < N_WORKERS; w++) worker_create(w);
  fz_run(supervise);
  return 0;
}
