/*
 * Randomised sequences of thread services from several threads and from simulated interrupt
 * handlers (seeded, reproducible), with the invariant checker after every step and the
 * post-condition of every successful call verified. 10,000 steps per seed.
 */
#include "tct.h"

#define N_THREADS 6
#define STEPS     10000u

static tc_thread th[N_THREADS + 1];
static uint32_t rng;
static unsigned steps;

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

enum mode { THREAD, ISR, LOCKED };

/* One random service call on a random thread. Post-conditions are checked where nothing
 * else can have run in between: with the scheduler locked (no other thread) and interrupts
 * masked (no handler: on hardware the tick can land between any two instructions). */
static void random_step(tc_thread *self, enum mode mode)
{
  tc_thread *t = &th[pick(N_THREADS)];
  unsigned op = pick(mode == THREAD ? 10 : 5);
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
    if (exact) CHECK_EQ(st == TC_OK, before.state == TC_SLEEPING);
    if (exact && st == TC_OK) CHECK(after.state == TC_READY || after.state == TC_SUSPENDED);
    break;
  case 2:
    if (t == self && mode != ISR) break; /* suspending oneself from a thread: see worker() */
    st = tc_thread_suspend(t);
    CHECK_EQ(st, TC_OK);
    OK(tc_thread_info(t, &after));
    if (exact && before.state != TC_SLEEPING) CHECK_EQ(after.state, TC_SUSPENDED);
    if (exact && before.state == TC_SLEEPING) CHECK_EQ(after.state, TC_SLEEPING);
    break;
  case 3: {
    if (mode == ISR) break; /* thread context only */
    unsigned p = 1 + pick(30);
    OK(tc_thread_priority_change(t, p, NULL));
    OK(tc_thread_info(t, &after));
    if (exact) {
      CHECK_EQ(after.user_priority, p);
      CHECK_EQ(after.priority, p);
      CHECK_EQ(after.threshold, before.user_threshold == before.user_priority || before.user_threshold > p
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
    if (exact && st == TC_OK) CHECK_EQ(after.threshold, thr);
    break;
  }
  case 5:
    tc_thread_yield();
    break;
  case 6:
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
}

static void seed_1(void) { run_seed(1u); }
static void seed_2(void) { run_seed(0x9e3779b9u); }
static void seed_3(void) { run_seed(12345u); }

TCT_MAIN("test_random", TCT_CASE(seed_1), TCT_CASE(seed_2), TCT_CASE(seed_3))
