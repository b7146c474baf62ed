/*
 * Randomised sequences of service calls -- thread services, semaphores, mutexes with and
 * without priority inheritance, a message queue, event flags, block and byte pools -- from
 * several threads and from simulated interrupt handlers (seeded, reproducible), with the
 * invariant checker after every step and the post-condition of every exact call verified.
 * 10,000 steps per seed. Every wait has a timeout, so no sequence can deadlock.
 */
#include <string.h>

#include "tct.h"

#define N_THREADS 6
#define STEPS     10000u

static tc_thread th[N_THREADS + 1];
static uint32_t rng;
static unsigned steps;

/* The shared objects, and what each thread holds of them (it releases only its own). */
static tc_sem sem;
static tc_mutex mutexes[2]; /* [0] with priority inheritance, [1] without */
static tc_queue queue;
static uint64_t queue_mem[4];
static tc_event event;
static tc_block_pool blocks;
static uint64_t block_mem[TC_BLOCK_POOL_MEM(16, 4) / 8 + 1];
static tc_byte_pool bytes;
static uint64_t byte_mem[96];
static unsigned held_mutex[N_THREADS][2];
static void *held_block[N_THREADS];
static void *held_bytes[N_THREADS];
/* Calls that were served, by object, and waits that ended otherwise: the run must exercise
 * each path, not skip it. */
static unsigned served[9], not_served;

static uint32_t next_rand(void)
{
  /* xorshift32: small, and the same sequence on every host */
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

static unsigned pick(unsigned n) { return next_rand() % n; }

static bool one_of(tc_status st, tc_status a, tc_status b) { return st == a || st == b; }

/* How a wait with a timeout may end: served, empty/full at once, timed out, or aborted by
 * another thread's tc_thread_wait_abort(). */
static bool wait_status(tc_status st, tc_status immediate)
{
  return st == TC_OK || st == immediate || st == TC_TIMEOUT || st == TC_WAIT_ABORTED;
}

/* An object service from thread `self` (index i), or an ISR-safe one from a handler. */
static void random_object_step(unsigned i, bool in_isr)
{
  uint32_t timeout = in_isr ? TC_NO_WAIT : pick(3);
  tc_status st = TC_OK; /* releases (unlock, free) are checked with OK() */
  uint64_t msg = next_rand();
  unsigned op = pick(in_isr ? 3 : 9);
  switch (op) {
  case 0:
    st = tc_sem_give(&sem);
    CHECK(one_of(st, TC_OK, TC_FULL));
    break;
  case 1:
    st = tc_queue_send(&queue, &msg, timeout);
    CHECK(wait_status(st, TC_FULL));
    break;
  case 2:
    st = tc_event_set(&event, 1u << pick(4));
    CHECK_EQ(st, TC_OK);
    break;
  case 3:
    st = tc_sem_take(&sem, timeout);
    CHECK(wait_status(st, TC_NO_INSTANCE));
    break;
  case 4: {
    unsigned m = pick(2);
    if (held_mutex[i][m] != 0 && pick(2) == 0) {
      OK(tc_mutex_unlock(&mutexes[m]));
      held_mutex[i][m]--;
    } else {
      st = tc_mutex_lock(&mutexes[m], timeout);
      CHECK(wait_status(st, TC_NO_INSTANCE));
      if (st == TC_OK) held_mutex[i][m]++;
    }
    break;
  }
  case 5:
    st = tc_queue_receive(&queue, &msg, timeout);
    CHECK(wait_status(st, TC_NO_INSTANCE));
    break;
  case 6: {
    uint32_t actual = 0, want = 1u << pick(4) | 1u << pick(4);
    unsigned mode = (pick(2) ? TC_EVENT_ANY : TC_EVENT_ALL) | (pick(2) ? TC_EVENT_CLEAR : 0u);
    st = tc_event_wait(&event, want, mode, &actual, timeout);
    CHECK(wait_status(st, TC_NO_INSTANCE));
    if (st == TC_OK) CHECK((mode & TC_EVENT_ALL) ? (actual & want) == want : (actual & want) != 0);
    break;
  }
  case 7:
    if (held_block[i] != NULL) {
      OK(tc_block_free(held_block[i]));
      held_block[i] = NULL;
    } else {
      st = tc_block_alloc(&blocks, &held_block[i], timeout);
      CHECK(wait_status(st, TC_NO_INSTANCE));
      if (st != TC_OK) held_block[i] = NULL;
    }
    break;
  case 8:
    if (held_bytes[i] != NULL) {
      OK(tc_byte_free(held_bytes[i]));
      held_bytes[i] = NULL;
    } else {
      st = tc_byte_alloc(&bytes, &held_bytes[i], 8 + pick(200), timeout);
      CHECK(wait_status(st, TC_NO_INSTANCE));
      if (st != TC_OK) held_bytes[i] = NULL;
    }
    break;
  }
  if (st == TC_OK)
    served[op]++;
  else
    not_served++;
  STEP();
}

enum mode { THREAD, ISR, LOCKED };

/* One random service call on a random thread. Post-conditions are checked where nothing
 * else can have run in between: with the scheduler locked (no other thread) and interrupts
 * masked (no handler: on hardware the tick can land between any two instructions). */
static void random_step(tc_thread *self, enum mode mode)
{
  tc_thread *t = &th[pick(N_THREADS)];
  unsigned op = pick(mode == THREAD ? 14 : 7);
  bool lock = mode == THREAD && op < 5 && pick(2) == 0;
  bool exact = op < 5 && (mode != THREAD || lock);
  if (lock) tc_sched_lock();
  unsigned irq = exact ? tc_interrupt_disable() : 0;
  tc_thread_info_t before, after;
  OK(tc_thread_info(t, &before));
  tc_status st;
  switch (op) {
  case 0:
    st = tc_thread_resume(t);
    CHECK(one_of(st, TC_OK, TC_STATE_ERROR));
    OK(tc_thread_info(t, &after));
    /* A sleeping thread is resumed only when its suspension was delayed (not visible here). */
    if (exact && before.state == TC_SUSPENDED) CHECK_EQ(st, TC_OK);
    if (exact && (before.state == TC_READY || before.state == TC_RUNNING)) CHECK_EQ(st, TC_STATE_ERROR);
    if (exact && st == TC_OK) CHECK(after.state != TC_SUSPENDED);
    break;
  case 1:
    st = tc_thread_wait_abort(t);
    CHECK(one_of(st, TC_OK, TC_STATE_ERROR));
    OK(tc_thread_info(t, &after));
    if (exact) CHECK_EQ(st == TC_OK, before.state == TC_SLEEPING || before.state == TC_PENDING);
    if (exact && st == TC_OK) CHECK(after.state == TC_READY || after.state == TC_SUSPENDED);
    break;
  case 2:
    if (t == self && mode != ISR) break; /* suspending oneself from a thread: see worker() */
    st = tc_thread_suspend(t);
    CHECK_EQ(st, TC_OK);
    OK(tc_thread_info(t, &after));
    /* A sleeping or pending thread is suspended when its wait ends. */
    if (exact && before.state != TC_SLEEPING && before.state != TC_PENDING) CHECK_EQ(after.state, TC_SUSPENDED);
    if (exact && (before.state == TC_SLEEPING || before.state == TC_PENDING)) CHECK_EQ(after.state, before.state);
    break;
  case 3: {
    if (mode == ISR) break; /* thread context only */
    unsigned p = 1 + pick(30);
    OK(tc_thread_priority_change(t, p, NULL));
    OK(tc_thread_info(t, &after));
    if (exact) {
      CHECK_EQ(after.user_priority, p);
      CHECK(after.priority <= p); /* a mutex it owns may lend it a higher one */
      CHECK_EQ(after.user_threshold, before.user_threshold == before.user_priority || before.user_threshold > p
                                         ? p : before.user_threshold);
    }
    break;
  }
  case 4: {
    if (mode == ISR) break;
    unsigned thr = 1 + pick(30);
    st = tc_thread_threshold_change(t, thr, NULL);
    if (exact) CHECK_EQ(st, thr <= before.user_priority ? TC_OK : TC_PRIORITY_ERROR);
    OK(tc_thread_info(t, &after));
    if (exact && st == TC_OK) CHECK_EQ(after.user_threshold, thr);
    break;
  }
  case 5:
    if (mode != THREAD) {
      random_object_step((unsigned)(self - th), true);
      break;
    }
    tc_thread_yield();
    break;
  case 6:
    if (mode != THREAD) {
      random_object_step((unsigned)(self - th), true);
      break;
    }
    st = tc_thread_sleep(pick(3));
    CHECK(one_of(st, TC_OK, TC_WAIT_ABORTED));
    break;
  case 7:
    tct_work(1000u * (1 + pick(150))); /* up to 1.5 ticks: slices expire, sleepers wake */
    break;
  case 8: {
    /* A handler does a few things; the switch happens at its exit. */
    tc_isr_enter();
    unsigned n = 1 + pick(3);
    for (unsigned i = 0; i < n; i++) random_step(self, ISR);
    tc_isr_exit();
    break;
  }
  case 9:
    tc_sched_lock();
    random_step(self, LOCKED);
    EXPECT_ARG(tc_thread_sleep(1), TC_CALLER_ERROR); /* refused by the checking layer */
    tc_sched_unlock();
    break;
  default: /* 10..13 from a thread, 5..6 from a handler or with the scheduler locked */
    random_object_step((unsigned)(self - th), mode != THREAD);
    break;
  }
  if (exact) tc_interrupt_restore(irq);
  if (lock) tc_sched_unlock();
  STEP();
}

static void worker(void *arg)
{
  tc_thread *self = &th[(uintptr_t)arg];
  while (steps < STEPS) {
    steps++;
    random_step(self, THREAD);
    if (pick(20) == 0) {
      CHECK_EQ(tc_thread_suspend(self), TC_OK); /* until someone resumes it */
      STEP();
    }
  }
  tct_end(0);
}

/* Keeps the system alive: now and then resumes every thread. */
static void keeper(void *arg)
{
  (void)arg;
  for (;;) {
    OK(tc_thread_sleep(2));
    for (unsigned i = 0; i < N_THREADS; i++) (void)tc_thread_resume(&th[i]);
    STEP();
  }
}

static void run_seed(uint32_t seed)
{
  tct_begin();
  rng = seed;
  steps = 0;
  memset(held_mutex, 0, sizeof held_mutex);
  memset(held_block, 0, sizeof held_block);
  memset(held_bytes, 0, sizeof held_bytes);
  memset(served, 0, sizeof served);
  not_served = 0;
  OK(tc_sem_create(&sem, "sem", 1, 3));
  OK(tc_mutex_create(&mutexes[0], "inherit", TC_INHERIT));
  OK(tc_mutex_create(&mutexes[1], "plain", 0));
  OK(tc_queue_create(&queue, "queue", sizeof(uint64_t), queue_mem, sizeof queue_mem));
  OK(tc_event_create(&event, "event"));
  OK(tc_block_pool_create(&blocks, "blocks", 16, block_mem, sizeof block_mem));
  OK(tc_byte_pool_create(&bytes, "bytes", byte_mem, sizeof byte_mem));
  for (unsigned i = 0; i < N_THREADS; i++) {
    unsigned p = 5 + pick(20);
    unsigned thr = p - pick(p);
    OK(tc_thread_create(&th[i], "w", worker, (void *)(uintptr_t)i, TCT_STACK(i), p, thr, pick(3), TC_AUTO_START));
  }
  OK(tc_thread_create(&th[N_THREADS], "keeper", keeper, NULL, TCT_STACK(N_THREADS), 0, 0, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK(steps >= STEPS);
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK(k.context_switches > 1000);
  CHECK(k.preemptions > 100);
  for (unsigned op = 0; op < 9; op++) CHECK(served[op] > 20);
  CHECK(not_served > 100);
}

static void seed_1(void) { run_seed(1u); }
static void seed_2(void) { run_seed(0x9e3779b9u); }
static void seed_3(void) { run_seed(12345u); }

TCT_MAIN("test_random", TCT_CASE(seed_1), TCT_CASE(seed_2), TCT_CASE(seed_3))
