/* SPDX-License-Identifier: MIT */
/* What the libFuzzer harnesses share (fuzz.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

/* ---- the input -------------------------------------------------------------------------- */

static const uint8_t *in_data;
static size_t in_size, in_pos;

void fz_input(const uint8_t *data, size_t size)
{
  in_data = data;
  in_size = size;
  in_pos = 0;
}

bool fz_done(void) { return in_pos >= in_size; }

unsigned fz_byte(void) { return in_pos < in_size ? in_data[in_pos++] : 0u; }

unsigned fz_below(unsigned n) { return fz_byte() % n; }

uint32_t fz_timeout(void)
{
  unsigned c = fz_below(6);
  return c == 0 ? TC_NO_WAIT : c == 5 ? TC_WAIT_FOREVER : c;
}

/* ---- failures --------------------------------------------------------------------------- */

static bool tracing;

void fz_trace(const char *fmt, ...)
{
  if (!tracing) return;
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
}

/* A failed check has printed where and what; abort so that libFuzzer saves the input. */
static void fail_hook(void)
{
  fflush(stdout);
  abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc, (void)argv;
  tct_fail_hook = fail_hook;
  const char *trace = getenv("FZ_TRACE");
  tracing = trace != NULL && trace[0] == '1';
  return 0;
}

/* ---- the run ---------------------------------------------------------------------------- */

static tc_thread driver;
static void (*driver_step)(void);
static bool driver_done;

static void driver_entry(void *arg)
{
  (void)arg;
  while (!fz_done()) {
    driver_step();
    STEP();
  }
  driver_done = true;
  tct_end(0);
}

void fz_run(void (*step)(void))
{
  driver_step = step;
  driver_done = false;
  OK(tc_thread_create(&driver, "driver", driver_entry, NULL, TCT_STACK(TCT_MAX_STACKS - 1),
                      FZ_DRIVER_PRIORITY, FZ_DRIVER_PRIORITY, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK(driver_done);
  STEP();
}

/* ---- actors ----------------------------------------------------------------------------- */

static void actor_entry(void *arg)
{
  fz_actor *a = arg;
  for (;;) {
    tc_status st = a->call(a);
    a->status = st;
    a->busy = false;
    STEP();
    OK(tc_thread_suspend(&a->thread)); /* until the driver starts the next call */
  }
}

fz_actor fz_actors[FZ_ACTORS];

static void model_reset(const unsigned priority[FZ_ACTORS]);

void fz_begin(const uint8_t *data, size_t size)
{
  fz_input(data, size);
  tct_begin();
  unsigned priority[FZ_ACTORS];
  for (unsigned i = 0; i < FZ_ACTORS; i++) {
    fz_actor *a = &fz_actors[i];
    memset(a, 0, sizeof *a);
    priority[i] = 1 + fz_below(FZ_ACTOR_PRIORITIES);
    OK(tc_thread_create(&a->thread, "actor", actor_entry, a, TCT_STACK(i), priority[i], priority[i], 0, 0));
  }
  model_reset(priority);
}

fz_actor *fz_take_actor(unsigned n_objects)
{
  fz_actor *a = &fz_actors[fz_below(FZ_ACTORS)];
  unsigned object = fz_below(n_objects);
  uint32_t timeout = fz_timeout();
  if (a->busy) return NULL;
  a->object = object;
  a->timeout = timeout;
  return a;
}

void fz_actor_call(fz_actor *a, fz_call call, unsigned object, bool waits, tc_status status, uintptr_t result,
                   uintptr_t arg)
{
  unsigned i = (unsigned)(a - fz_actors);
  if (waits) {
    fz_model_wait(i, object, a->timeout);
    fz_model[i].arg = arg;
  } else {
    fz_model_returns(i, status, result);
  }
  fz_trace("  actor %u on %u, timeout %u: %s %d", i, object, (unsigned)a->timeout, waits ? "waits" : "returns",
           status);
  CHECK(!a->busy);
  a->call = call;
  a->busy = true;
  OK(tc_thread_resume(&a->thread));
}


/* ---- the model of waiting --------------------------------------------------------------- */

fz_model_actor fz_model[FZ_ACTORS];
uint32_t fz_model_tick;
static uint32_t wait_seq, timed_seq;

static void model_reset(const unsigned priority[FZ_ACTORS])
{
  memset(fz_model, 0, sizeof fz_model);
  for (unsigned i = 0; i < FZ_ACTORS; i++) fz_model[i].priority = priority[i];
  fz_model_tick = 0;
  wait_seq = timed_seq = 0;
}

void fz_model_returns(unsigned i, tc_status status, uintptr_t result)
{
  fz_model_actor *m = &fz_model[i];
  m->busy = m->waiting = m->timed = false;
  m->status = status;
  m->result = result;
}

void fz_model_wait(unsigned i, unsigned object, uint32_t timeout)
{
  fz_model_actor *m = &fz_model[i];
  m->busy = m->waiting = true;
  m->object = object;
  m->seq = wait_seq++;
  m->timed = timeout != TC_WAIT_FOREVER;
  m->deadline = fz_model_tick + timeout;
  m->timed_seq = timed_seq++;
}

static bool served_before(const fz_model_actor *a, const fz_model_actor *b)
{
  return a->priority < b->priority || (a->priority == b->priority && a->seq < b->seq);
}

int fz_model_first(unsigned object)
{
  int first = -1;
  for (unsigned i = 0; i < FZ_ACTORS; i++) {
    const fz_model_actor *m = &fz_model[i];
    if (m->waiting && m->object == object && (first < 0 || served_before(m, &fz_model[first]))) first = (int)i;
  }
  return first;
}

unsigned fz_model_waiting(unsigned object)
{
  unsigned n = 0;
  for (unsigned i = 0; i < FZ_ACTORS; i++) n += fz_model[i].waiting && fz_model[i].object == object;
  return n;
}

void fz_model_priority(unsigned i, unsigned priority) { fz_model[i].priority = priority; }

void fz_model_tick_once(fz_changed expired)
{
  fz_model_tick++;
  for (;;) {
    int next = -1;
    for (unsigned i = 0; i < FZ_ACTORS; i++) {
      const fz_model_actor *m = &fz_model[i];
      if (m->waiting && m->timed && m->deadline == fz_model_tick &&
          (next < 0 || m->timed_seq < fz_model[next].timed_seq))
        next = (int)i;
    }
    if (next < 0) return;
    unsigned object = fz_model[next].object;
    fz_model_returns((unsigned)next, TC_TIMEOUT, 0);
    if (expired != NULL) expired(object);
  }
}

void fz_model_agree(bool (*same_result)(unsigned i, const fz_actor *a))
{
  for (unsigned i = 0; i < FZ_ACTORS; i++) {
    const fz_model_actor *m = &fz_model[i];
    const fz_actor *a = &fz_actors[i];
    /* Read from the control block: tc_thread_info() also measures the stack, byte by byte. */
    CHECK_EQ(a->busy, m->busy);
    CHECK_EQ(a->thread.state, m->waiting ? TC_PENDING : TC_SUSPENDED);
    CHECK_EQ(a->thread.user_priority, m->priority);
    if (!m->busy) {
      CHECK_EQ(a->status, m->status);
      if (same_result != NULL) CHECK(same_result(i, a));
    }
  }
}

/* ---- driver steps the harnesses share --------------------------------------------------- */

unsigned fz_enter(void)
{
  unsigned where = fz_below(3);
  if (where == FZ_IN_LISR) tc_isr_enter();
  if (where == FZ_IN_LOCKED) tc_sched_lock();
  return where;
}

void fz_leave(unsigned where)
{
  if (where == FZ_IN_LISR) tc_isr_exit();
  if (where == FZ_IN_LOCKED) tc_sched_unlock();
}

static void pass_time(fz_changed changed)
{
  unsigned ticks = 1 + fz_below(4);
  fz_trace("  %u ticks", ticks);
  OK(tc_thread_sleep(ticks));
  for (unsigned t = 0; t < ticks; t++) fz_model_tick_once(changed);
  CHECK_EQ(tc_tick_get(), fz_model_tick);
}

static void abort_wait(fz_changed changed)
{
  unsigned i = fz_below(FZ_ACTORS);
  bool waiting = fz_model[i].waiting;
  unsigned object = fz_model[i].object;
  fz_trace("  actor %u (waiting: %d)", i, waiting);
  EXPECT(tc_thread_wait_abort(&fz_actors[i].thread), waiting ? TC_OK : TC_STATE_ERROR);
  if (!waiting) return;
  fz_model_returns(i, TC_WAIT_ABORTED, 0);
  if (changed != NULL) changed(object);
}

static void change_priority(fz_changed changed)
{
  unsigned i = fz_below(FZ_ACTORS);
  unsigned priority = 1 + fz_below(FZ_ACTOR_PRIORITIES);
  fz_trace("  actor %u to %u", i, priority);
  unsigned old;
  OK(tc_thread_priority_change(&fz_actors[i].thread, priority, &old));
  CHECK_EQ(old, fz_model[i].priority);
  fz_model_priority(i, priority);
  if (fz_model[i].waiting && changed != NULL) changed(fz_model[i].object);
}

void fz_step(const fz_op *ops, size_t n, fz_changed changed, void (*agree)(void))
{
  static const struct {
    const char *name;
    void (*fn)(fz_changed changed);
  } shared[] = {{"pass_time", pass_time}, {"abort_wait", abort_wait}, {"change_priority", change_priority}};
  unsigned k = fz_below((unsigned)(n + sizeof shared / sizeof shared[0]));
  fz_trace("%s", k < n ? ops[k].name : shared[k - n].name);
  if (k < n)
    ops[k].fn();
  else
    shared[k - n].fn(changed);
  agree();
}
