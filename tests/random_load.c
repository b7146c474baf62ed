/* SPDX-License-Identifier: MIT */
/*
 * The random load of random_load.h.
 *
 * Who counts what: every context that calls services has its own counters (a worker thread
 * and the handler brackets it runs, the HISR, the timer callbacks, each worker's signal
 * handler, the keeper), written by that context alone, so a preemption between a call and
 * its count (a tick on Cortex-M can land anywhere) never loses one. They are summed when the
 * run has come to rest: the workers parked (suspended by themselves, no call half done), the
 * handlers idle (they do nothing once the run stops).
 *
 * Every wait has a timeout, so no sequence can deadlock; the keeper resumes the threads that
 * suspended themselves and, now and then, deletes an object under load and creates it again.
 */
#include "random_load.h"

#include <string.h>

#include "internal.h" /* to see a wait that a signal interrupted */
#include "tct.h"

#define N_THREADS 6

enum { HISR_CTX = N_THREADS, TIMER_CTX, KEEPER_CTX, SIGNAL_CTX0, N_CTX = SIGNAL_CTX0 + N_THREADS };

typedef struct {
  uint32_t rng;
  uint64_t calls, steps, not_served, runs;
  uint64_t served[RL_OBJECT_OPS];
  /* the books: what this context put into an object or took out of it */
  uint64_t sem_given, sem_taken, queue_sent, queue_received, port_sent, port_received;
  uint64_t posted[N_THREADS], words_received;
  uint64_t queue_dropped, port_dropped, recreated; /* keeper: objects deleted with contents */
} context;

static context ctx[N_CTX];
static tc_thread th[N_THREADS + 1]; /* the workers, then the keeper */
static volatile bool stop, parked[N_THREADS];
static uint64_t target_calls, progress_every;
static void (*progress_fn)(const rl_stats *);

static tc_sem sem;
static tc_mutex mutexes[2]; /* [0] with priority inheritance, [1] without */
static tc_queue queue;
static uint64_t queue_mem[4];
static tc_port port;
static void *port_slots[3];
static tc_event event;
static tc_block_pool blocks;
static uint64_t block_mem[TC_BLOCK_POOL_MEM(16, 4) / 8 + 1];
static tc_byte_pool bytes;
static uint64_t byte_mem[96];
static tc_hisr hisr;
static uint64_t hisr_stack[TC_PORT_STACK_MIN / 8 + 256];
static tc_timer periodic, once;

#define SEM_INITIAL 1u
#define BLOCK_SIZE  16u

/* What each worker holds (it alone releases it). */
static unsigned held_mutex[N_THREADS][2];
static uint8_t *held_block[N_THREADS];
static uint8_t *held_bytes[N_THREADS];
static size_t held_size[N_THREADS];

/* A service call, counted for context c. */
#define SVC(c, call) ((c)->calls++, (call))

static uint32_t next_rand(context *c)
{
  /* xorshift32: small, and the same sequence on every host */
  c->rng ^= c->rng << 13;
  c->rng ^= c->rng >> 17;
  c->rng ^= c->rng << 5;
  return c->rng;
}

static unsigned pick(context *c, unsigned n) { return next_rand(c) % n; }

/* A status that must be one of two (or, below, one a wait may end with): a failure prints it. */
#define CHECK_ONE_OF(st, a, b)                          \
  do {                                                  \
    tc_status st_ = (st);                               \
    if (st_ != (a) && st_ != (b)) CHECK_EQ(st_, (a));   \
  } while (0)

/* How a wait with a timeout may end: served, empty/full at once, timed out, aborted by
 * tc_thread_wait_abort() or a signal handler, or released by the deletion of the object. */
static bool wait_status(tc_status st, tc_status immediate)
{
  return st == TC_OK || st == immediate || st == TC_TIMEOUT || st == TC_WAIT_ABORTED ||
         st == TC_DELETED;
}

#define CHECK_WAIT(st, immediate)                           \
  do {                                                      \
    if (!wait_status((st), (immediate))) CHECK_EQ((st), TC_OK); \
  } while (0)

/* Messages carry a check of themselves, so that a message delivered torn, twice-written or
 * from the wrong slot is caught where it arrives. */
static uint32_t check8(uint32_t v) { return (v * 2654435761u) >> 24; }
static uint64_t seal64(uint32_t v) { return (uint64_t)v << 32 | (v ^ 0xa5a5a5a5u); }
static bool sealed64(uint64_t m) { return (uint32_t)m == ((uint32_t)(m >> 32) ^ 0xa5a5a5a5u); }
static uint32_t seal32(uint32_t v) { return (v & 0xffffffu) << 8 | check8(v & 0xffffffu); }
static bool sealed32(uint32_t w) { return (w & 0xffu) == check8(w >> 8); }

/* Memory a worker holds is filled with a pattern of its own and checked when released. */
static uint8_t pattern(unsigned who, size_t k) { return (uint8_t)(0x5au ^ who * 17u ^ k); }
static void fill(uint8_t *p, size_t n, unsigned who)
{
  for (size_t k = 0; k < n; k++) p[k] = pattern(who, k);
}
static bool intact(const uint8_t *p, size_t n, unsigned who)
{
  for (size_t k = 0; k < n; k++)
    if (p[k] != pattern(who, k)) return false;
  return true;
}

/* The object services a handler may call: nothing that waits. */
static const uint8_t handler_ops[] = {
  RL_SEM_GIVE, RL_QUEUE_SEND, RL_EVENT_SET, RL_SEM_TAKE, RL_QUEUE_RECEIVE, RL_PORT_SEND,
  RL_PORT_RECEIVE, RL_POST, RL_SIGNAL, RL_TIMER, RL_HISR,
};

static void timer_step(context *c)
{
  tc_status st;
  switch (pick(c, 3)) {
  case 0:
    st = SVC(c, tc_timer_activate(&once));
    CHECK_ONE_OF(st, TC_OK, TC_STATE_ERROR);
    break;
  case 1:
    CHECK_EQ(SVC(c, tc_timer_deactivate(&once)), TC_OK);
    st = TC_OK;
    break;
  default:
    st = SVC(c, tc_timer_change(&once, 1 + pick(c, 3), pick(c, 2) * (1 + pick(c, 2))));
    CHECK_ONE_OF(st, TC_OK, TC_STATE_ERROR);
    break;
  }
  if (st != TC_OK) c->not_served++;
}

/* One object service from context c: worker `who` (its thread, or a handler bracket it runs:
 * in_handler), or a handler of its own (who < 0: the HISR, a timer callback). */
static void object_step(context *c, int who, bool in_handler)
{
  uint32_t timeout = in_handler ? TC_NO_WAIT : pick(c, 3);
  unsigned op = in_handler ? handler_ops[pick(c, sizeof handler_ops)] : pick(c, RL_OBJECT_OPS);
  tc_status st = TC_OK;
  switch (op) {
  case RL_SEM_GIVE:
    st = SVC(c, tc_sem_give(&sem));
    CHECK_ONE_OF(st, TC_OK, TC_FULL);
    if (st == TC_OK) c->sem_given++;
    break;
  case RL_SEM_TAKE:
    st = SVC(c, tc_sem_take(&sem, timeout));
    CHECK_WAIT(st, TC_NO_INSTANCE);
    if (st == TC_OK) c->sem_taken++;
    break;
  case RL_QUEUE_SEND: {
    uint64_t msg = seal64(next_rand(c));
    st = pick(c, 4) == 0 ? SVC(c, tc_queue_send_front(&queue, &msg, timeout))
                         : SVC(c, tc_queue_send(&queue, &msg, timeout));
    CHECK_WAIT(st, TC_FULL);
    if (st == TC_OK) c->queue_sent++;
    break;
  }
  case RL_QUEUE_RECEIVE: {
    uint64_t msg = 0;
    st = SVC(c, tc_queue_receive(&queue, &msg, timeout));
    CHECK_WAIT(st, TC_NO_INSTANCE);
    if (st == TC_OK) {
      CHECK(sealed64(msg));
      c->queue_received++;
    }
    break;
  }
  case RL_EVENT_SET:
    if (pick(c, 4) == 0)
      st = SVC(c, tc_event_clear(&event, 1u << pick(c, 4)));
    else
      st = SVC(c, tc_event_set(&event, 1u << pick(c, 4)));
    CHECK_EQ(st, TC_OK);
    break;
  case RL_EVENT_WAIT: {
    uint32_t actual = 0, want = 1u << pick(c, 4) | 1u << pick(c, 4);
    unsigned mode = (pick(c, 2) ? TC_EVENT_ANY : TC_EVENT_ALL) | (pick(c, 2) ? TC_EVENT_CLEAR : 0u);
    st = SVC(c, tc_event_wait(&event, want, mode, &actual, timeout));
    CHECK_WAIT(st, TC_NO_INSTANCE);
    if (st == TC_OK) CHECK((mode & TC_EVENT_ALL) ? (actual & want) == want : (actual & want) != 0);
    break;
  }
  case RL_MUTEX: {
    unsigned m = pick(c, 2), i = (unsigned)who;
    if (held_mutex[i][m] != 0 && pick(c, 2) == 0) {
      OK(SVC(c, tc_mutex_unlock(&mutexes[m])));
      held_mutex[i][m]--;
    } else {
      st = SVC(c, tc_mutex_lock(&mutexes[m], timeout));
      CHECK_WAIT(st, TC_NO_INSTANCE);
      if (st == TC_OK) held_mutex[i][m]++;
    }
    break;
  }
  case RL_BLOCK: {
    unsigned i = (unsigned)who;
    if (held_block[i] != NULL) {
      CHECK(intact(held_block[i], BLOCK_SIZE, i));
      OK(SVC(c, tc_block_free(held_block[i])));
      held_block[i] = NULL;
    } else {
      void *p = NULL;
      st = SVC(c, tc_block_alloc(&blocks, &p, timeout));
      CHECK_WAIT(st, TC_NO_INSTANCE);
      if (st == TC_OK) {
        held_block[i] = p;
        fill(p, BLOCK_SIZE, i);
      }
    }
    break;
  }
  case RL_BYTE: {
    unsigned i = (unsigned)who;
    if (held_bytes[i] != NULL) {
      CHECK(intact(held_bytes[i], held_size[i], i));
      OK(SVC(c, tc_byte_free(held_bytes[i])));
      held_bytes[i] = NULL;
    } else {
      void *p = NULL;
      size_t size = 1 + pick(c, 200);
      st = SVC(c, tc_byte_alloc(&bytes, &p, size, timeout));
      CHECK_WAIT(st, TC_NO_INSTANCE);
      if (st == TC_OK) {
        held_bytes[i] = p;
        held_size[i] = size;
        fill(p, size, i);
      }
    }
    break;
  }
  case RL_PORT_SEND:
    st = SVC(c, tc_port_send(&port, (void *)(uintptr_t)seal32(next_rand(c)), timeout));
    CHECK_WAIT(st, TC_FULL);
    if (st == TC_OK) c->port_sent++;
    break;
  case RL_PORT_RECEIVE: {
    void *msg = NULL;
    st = SVC(c, tc_port_receive(&port, &msg, timeout));
    CHECK_WAIT(st, TC_NO_INSTANCE);
    if (st == TC_OK) {
      CHECK(sealed32((uint32_t)(uintptr_t)msg));
      c->port_received++;
    }
    break;
  }
  case RL_POST: {
    unsigned to = pick(c, N_THREADS);
    st = SVC(c, tc_thread_post(&th[to], seal32(next_rand(c)), timeout));
    CHECK_WAIT(st, TC_FULL); /* the workers never end: never TC_STATE_ERROR */
    CHECK(st != TC_DELETED);
    if (st == TC_OK) c->posted[to]++;
    break;
  }
  case RL_RECEIVE: {
    uint32_t word = 0;
    st = SVC(c, tc_thread_receive(&word, timeout));
    CHECK_WAIT(st, TC_NO_INSTANCE);
    if (st == TC_OK) {
      CHECK(sealed32(word));
      c->words_received++;
    }
    break;
  }
  case RL_SIGNAL:
    CHECK_EQ(SVC(c, tc_signal_send(&th[pick(c, N_THREADS)], 1u << pick(c, 3))), TC_OK);
    break;
  case RL_TIMER:
    timer_step(c);
    break;
  case RL_HISR:
    CHECK_EQ(SVC(c, tc_hisr_activate(&hisr)), TC_OK);
    break;
  }
  if (st == TC_OK)
    c->served[op]++;
  else
    c->not_served++;
  STEP();
}

enum mode { THREAD, ISR, LOCKED };
static void handler_steps_of(void *arg);

/* A wait that a signal ended to run the handler, and that tc_thread_wait_abort() can still
 * end for good, although the thread is ready or running its handler (kernel/signal.c). */
static bool wait_interrupted(const tc_thread *t)
{
  return t->wait_status == TC__WAIT_SIGNALED || (t->signal_state & 0x02u) != 0;
}

/* One random service call of worker i. Post-conditions are checked where nothing else can
 * have run in between: with the scheduler locked (no other thread) and interrupts masked (no
 * handler: on hardware the tick can land between any two instructions). */
static void random_step(unsigned i, enum mode mode)
{
  context *c = &ctx[i];
  tc_thread *self = &th[i], *t = &th[pick(c, N_THREADS)];
  unsigned op = pick(c, mode == THREAD ? 14 : 7);
  bool lock = mode == THREAD && op < 5 && pick(c, 2) == 0;
  bool exact = op < 5 && (mode != THREAD || lock);
  if (lock) SVC(c, tc_sched_lock());
  unsigned irq = exact ? SVC(c, tc_interrupt_disable()) : 0;
  tc_thread_info_t before, after;
  OK(SVC(c, tc_thread_info(t, &before)));
  tc_status st;
  switch (op) {
  case 0:
    st = SVC(c, tc_thread_resume(t));
    CHECK_ONE_OF(st, TC_OK, TC_STATE_ERROR);
    OK(SVC(c, tc_thread_info(t, &after)));
    /* A sleeping thread is resumed only when its suspension was delayed (not visible here). */
    if (exact && before.state == TC_SUSPENDED) CHECK_EQ(st, TC_OK);
    if (exact && (before.state == TC_READY || before.state == TC_RUNNING)) CHECK_EQ(st, TC_STATE_ERROR);
    if (exact && st == TC_OK) CHECK(after.state != TC_SUSPENDED);
    break;
  case 1: {
    bool interrupted = wait_interrupted(t);
    st = SVC(c, tc_thread_wait_abort(t));
    CHECK_ONE_OF(st, TC_OK, TC_STATE_ERROR);
    OK(SVC(c, tc_thread_info(t, &after)));
    if (exact && !interrupted) CHECK_EQ(st == TC_OK, before.state == TC_SLEEPING || before.state == TC_PENDING);
    if (exact && st == TC_OK && !interrupted) CHECK(after.state == TC_READY || after.state == TC_SUSPENDED);
    break;
  }
  case 2:
    if (t == self && mode != ISR) break; /* suspending oneself from a thread: see worker() */
    CHECK_EQ(SVC(c, tc_thread_suspend(t)), TC_OK);
    OK(SVC(c, tc_thread_info(t, &after)));
    /* A sleeping or pending thread is suspended when its wait ends. */
    if (exact && before.state != TC_SLEEPING && before.state != TC_PENDING) CHECK_EQ(after.state, TC_SUSPENDED);
    if (exact && (before.state == TC_SLEEPING || before.state == TC_PENDING)) CHECK_EQ(after.state, before.state);
    break;
  case 3: {
    if (mode == ISR) break; /* threads, HISRs and timer callbacks only */
    unsigned p = 1 + pick(c, 30);
    OK(SVC(c, tc_thread_priority_change(t, p, NULL)));
    OK(SVC(c, tc_thread_info(t, &after)));
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
    unsigned thr = 1 + pick(c, 30);
    st = SVC(c, tc_thread_threshold_change(t, thr, NULL));
    if (exact) CHECK_EQ(st, thr <= before.user_priority ? TC_OK : TC_PRIORITY_ERROR);
    OK(SVC(c, tc_thread_info(t, &after)));
    if (exact && st == TC_OK) CHECK_EQ(after.user_threshold, thr);
    break;
  }
  case 5:
  case 6:
    if (mode != THREAD) {
      object_step(c, (int)i, true);
    } else if (op == 5) {
      SVC(c, tc_thread_yield());
    } else {
      st = SVC(c, tc_thread_sleep(pick(c, 3)));
      CHECK_ONE_OF(st, TC_OK, TC_WAIT_ABORTED);
    }
    break;
  case 7:
    tct_work(1000u * (1 + pick(c, 150))); /* up to 1.5 ticks: slices expire, sleepers wake */
    break;
  case 8:
    /* A handler does a few things; the switch happens at its exit. */
    tct_interrupt(handler_steps_of, self);
    break;
  case 9:
    SVC(c, tc_sched_lock());
    random_step(i, LOCKED);
    EXPECT_ARG(SVC(c, tc_thread_sleep(1)), TC_CALLER_ERROR); /* refused by the checking layer */
    SVC(c, tc_sched_unlock());
    break;
  default: /* 10..13 from a thread, 5..6 from a handler or with the scheduler locked */
    object_step(c, (int)i, mode != THREAD);
    break;
  }
  if (exact) SVC(c, tc_interrupt_restore(irq));
  if (lock) SVC(c, tc_sched_unlock());
  STEP();
}

/* The interrupt handler of worker `arg`'s step: a few steps, counted as the worker's (it is
 * stopped meanwhile). */
static void handler_steps_of(void *arg)
{
  unsigned i = (unsigned)((tc_thread *)arg - th);
  unsigned n = 1 + pick(&ctx[i], 3);
  for (unsigned k = 0; k < n; k++) random_step(i, ISR);
}

static void sum(rl_stats *s)
{
  memset(s, 0, sizeof *s);
  for (unsigned k = 0; k < N_CTX; k++) {
    s->calls += ctx[k].calls;
    s->steps += ctx[k].steps;
    s->not_served += ctx[k].not_served;
    for (unsigned op = 0; op < RL_OBJECT_OPS; op++) s->served[op] += ctx[k].served[op];
    s->recreated += ctx[k].recreated;
  }
  s->hisr_runs = ctx[HISR_CTX].runs;
  s->timer_callbacks = ctx[TIMER_CTX].runs;
  for (unsigned k = 0; k < N_THREADS; k++) s->signal_handlers += ctx[SIGNAL_CTX0 + k].runs;
}

static uint64_t total_calls(void)
{
  uint64_t n = 0;
  for (unsigned k = 0; k < N_CTX; k++) n += ctx[k].calls;
  return n;
}

static bool stopping(void)
{
  if (!stop && (tct_failures() != 0 || total_calls() >= target_calls)) stop = true;
  return stop;
}

static void worker(void *arg)
{
  unsigned i = (unsigned)(uintptr_t)arg;
  context *c = &ctx[i];
  while (!stopping()) {
    c->steps++;
    random_step(i, THREAD);
    if (pick(c, 20) == 0) {
      CHECK_EQ(SVC(c, tc_thread_suspend(&th[i])), TC_OK); /* until someone resumes it */
      STEP();
    }
  }
  /* At rest: no call of this thread is half done, so its books can be read. */
  parked[i] = true;
  for (;;) (void)tc_thread_suspend(&th[i]);
}

/* Handlers of their own: a few non-waiting services each time, none once the run stops. */
static void handler_steps(context *c)
{
  c->runs++;
  if (stop) return;
  unsigned n = 1 + pick(c, 3);
  for (unsigned k = 0; k < n; k++) object_step(c, -1, true);
}

static void hisr_fn(void) { handler_steps(&ctx[HISR_CTX]); }

static void timer_fn(void *arg)
{
  (void)arg;
  handler_steps(&ctx[TIMER_CTX]);
}

static void on_signal(uint32_t signals)
{
  CHECK(signals != 0 && signals < 8);
  context *c = &ctx[SIGNAL_CTX0 + (unsigned)(tc_thread_self() - th)];
  c->runs++;
  /* End the wait this handler interrupted, if it did: that wait returns TC_WAIT_ABORTED. */
  if (pick(c, 4) == 0) CHECK_ONE_OF(SVC(c, tc_signal_abort_wait()), TC_OK, TC_STATE_ERROR);
}

/* Delete an object with whatever waits on it and is in it, and create it again, with nothing
 * else running (scheduler locked, interrupts masked) so that the books see both at once. */
static void recreate(context *c)
{
  SVC(c, tc_sched_lock());
  unsigned irq = SVC(c, tc_interrupt_disable());
  switch (pick(c, 3)) {
  case 0:
    c->queue_dropped += queue.count;
    OK(SVC(c, tc_queue_delete(&queue)));
    OK(SVC(c, tc_queue_create(&queue, "queue", sizeof(uint64_t), queue_mem, sizeof queue_mem)));
    break;
  case 1:
    c->port_dropped += port.count;
    OK(SVC(c, tc_port_delete(&port)));
    OK(SVC(c, tc_port_create(&port, "port", port_slots, 3)));
    break;
  default:
    OK(SVC(c, tc_event_delete(&event)));
    OK(SVC(c, tc_event_create(&event, "event")));
    break;
  }
  c->recreated++;
  SVC(c, tc_interrupt_restore(irq));
  SVC(c, tc_sched_unlock());
}

/* Every token, message, word and block given is taken or still there; what a worker holds is
 * intact; the mutexes are owned as the workers believe. */
static void check_books(void)
{
  uint64_t given = 0, taken = 0, qs = 0, qr = 0, ps = 0, pr = 0, qd = 0, pd = 0;
  for (unsigned k = 0; k < N_CTX; k++) {
    given += ctx[k].sem_given;
    taken += ctx[k].sem_taken;
    qs += ctx[k].queue_sent;
    qr += ctx[k].queue_received;
    ps += ctx[k].port_sent;
    pr += ctx[k].port_received;
    qd += ctx[k].queue_dropped;
    pd += ctx[k].port_dropped;
  }
  CHECK_EQ(sem.count, SEM_INITIAL + given - taken);
  CHECK_EQ(queue.count, qs - qr - qd);
  CHECK_EQ(port.count, ps - pr - pd);
  for (unsigned t = 0; t < N_THREADS; t++) {
    uint64_t posted = 0;
    for (unsigned k = 0; k < N_CTX; k++) posted += ctx[k].posted[t];
    CHECK_EQ(posted - ctx[t].words_received, th[t].port_full ? 1 : 0);
  }
  uint32_t blocks_held = 0;
  for (unsigned i = 0; i < N_THREADS; i++) {
    if (held_block[i] != NULL) {
      blocks_held++;
      CHECK(intact(held_block[i], BLOCK_SIZE, i));
    }
    if (held_bytes[i] != NULL) CHECK(intact(held_bytes[i], held_size[i], i));
  }
  tc_block_pool_info_t bi;
  OK(tc_block_pool_info(&blocks, &bi));
  CHECK_EQ(bi.available, bi.total - blocks_held);
  for (unsigned m = 0; m < 2; m++) {
    unsigned owners = 0;
    for (unsigned i = 0; i < N_THREADS; i++) {
      if (held_mutex[i][m] == 0) continue;
      owners++;
      CHECK(mutexes[m].owner == &th[i]);
      CHECK_EQ(mutexes[m].count, held_mutex[i][m]);
    }
    CHECK(owners <= 1);
    if (owners == 0) CHECK(mutexes[m].owner == NULL);
  }
  /* Freeing everything gives the byte pool back whole. */
  tc_byte_pool_info_t before, after;
  OK(tc_byte_pool_info(&bytes, &before));
  (void)before;
  for (unsigned i = 0; i < N_THREADS; i++)
    if (held_bytes[i] != NULL) OK(tc_byte_free(held_bytes[i]));
  OK(tc_byte_pool_info(&bytes, &after));
  CHECK_EQ(after.used_blocks, 0);
  CHECK_EQ(after.free_blocks, 1);
}

/* Keeps the system alive (resumes the workers that suspended themselves), recreates objects
 * now and then, reports progress, and balances the books once every worker is at rest. */
static void keeper(void *arg)
{
  (void)arg;
  context *c = &ctx[KEEPER_CTX];
  uint64_t next_report = progress_every;
  for (unsigned round = 1;; round++) {
    OK(SVC(c, tc_thread_sleep(2)));
    unsigned at_rest = 0;
    for (unsigned i = 0; i < N_THREADS; i++) {
      if (parked[i])
        at_rest++;
      else
        (void)SVC(c, tc_thread_resume(&th[i]));
    }
    STEP();
    if (at_rest == N_THREADS) break;
    if (!stop && round % 16 == 0) recreate(c);
    if (progress_fn != NULL && total_calls() >= next_report) {
      rl_stats s;
      sum(&s);
      progress_fn(&s);
      next_report += progress_every;
    }
  }
  OK(tc_timer_deactivate(&periodic));
  OK(tc_timer_deactivate(&once));
  check_books();
  tct_end(0);
}

void rl_run(uint32_t seed, uint64_t calls, void (*progress)(const rl_stats *), uint64_t every,
            rl_stats *out)
{
  tct_begin();
  memset(ctx, 0, sizeof ctx);
  for (unsigned k = 0; k < N_CTX; k++) {
    ctx[k].rng = seed ^ (0x9e3779b9u * (k + 1));
    if (ctx[k].rng == 0) ctx[k].rng = 1;
  }
  stop = false;
  memset((void *)parked, 0, sizeof parked);
  target_calls = calls;
  progress_fn = progress;
  progress_every = every != 0 ? every : UINT64_MAX;
  memset(held_mutex, 0, sizeof held_mutex);
  memset(held_block, 0, sizeof held_block);
  memset(held_bytes, 0, sizeof held_bytes);
  context *c = &ctx[KEEPER_CTX];
  OK(tc_sem_create(&sem, "sem", SEM_INITIAL, 3));
  OK(tc_mutex_create(&mutexes[0], "inherit", TC_INHERIT));
  OK(tc_mutex_create(&mutexes[1], "plain", 0));
  OK(tc_queue_create(&queue, "queue", sizeof(uint64_t), queue_mem, sizeof queue_mem));
  OK(tc_port_create(&port, "port", port_slots, 3));
  OK(tc_event_create(&event, "event"));
  OK(tc_block_pool_create(&blocks, "blocks", BLOCK_SIZE, block_mem, sizeof block_mem));
  OK(tc_byte_pool_create(&bytes, "bytes", byte_mem, sizeof byte_mem));
  OK(tc_hisr_create(&hisr, "hisr", hisr_fn, 1, hisr_stack, sizeof hisr_stack));
  OK(tc_timer_create(&periodic, "periodic", timer_fn, NULL, 1, 1 + pick(c, 3), TC_AUTO_ACTIVATE));
  OK(tc_timer_create(&once, "once", timer_fn, NULL, 2, 0, 0));
  for (unsigned i = 0; i < N_THREADS; i++) {
    unsigned p = 5 + pick(c, 20);
    unsigned thr = p - pick(c, p);
    OK(tc_thread_create(&th[i], "w", worker, (void *)(uintptr_t)i, TCT_STACK(i), p, thr, pick(c, 3),
                        TC_AUTO_START));
    OK(tc_signal_handler_set(&th[i], on_signal));
  }
  OK(tc_thread_create(&th[N_THREADS], "keeper", keeper, NULL, TCT_STACK(N_THREADS), 0, 0, 0,
                      TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  sum(out);
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  out->context_switches = k.context_switches;
  out->preemptions = k.preemptions;
}
