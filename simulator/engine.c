/* SPDX-License-Identifier: MIT */
/*
 * The simulation engine (engine.h): a task set on the real kernel, on the sim port.
 *
 * Each task is written as an application would write a periodic thread released by a timer
 * interrupt: a loop that takes its semaphore, does a job and takes it again. The release
 * interrupt is one simulated interrupt (tc_sim_irq_at), always armed for the next release of
 * any thread -- a hardware timer's compare register reprogrammed by its handler, as a
 * tickless kernel does -- so that releases fall on their exact cycle whatever the tick, and
 * the set may have any periods. Its handler gives the semaphore of every thread due, in the
 * task set's order (the description's), and each give is one of the kernel's decisions: the
 * thread chosen by an earlier give holds its threshold against those given after it, and the
 * switch to the chosen thread comes at the handler's exit. The scheduling is the kernel's own.
 *
 * Time 0 is the start-up: every thread runs once to wait on its semaphore, at no cost. The
 * first release interrupt comes at EPOCH, where the books open: the kernel's counters are
 * read there and subtracted at the end, and switches are charged from there on.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "tacet/sim.h"
#include "tacet/tacet.h"

#define EXPORT __attribute__((visibility("default")))

/* Room for the job loop, libm (the normal model), a sanitizer's redzones, and a switch cost
 * model written in Python: it runs on the stack of the thread that leaves the CPU. Without
 * stack painting only the bytes used are ever touched. */
#define STACK_SIZE (8u * TC_PORT_STACK_MIN)
#define EPOCH      1u
/* Times and lengths stay below this, so that sums of two never overflow 64 bits. */
#define TIME_MAX ((uint64_t)1 << 62)

typedef struct {
  tc_thread tcb; /* first: the switch hook finds the engine's thread from the kernel's */
  tc_sem release;
  uint8_t *stack;
  const tsim_thread *spec;
  tsim_thread_result *out;
  uint64_t exec_rng, jitter_rng; /* random streams: execution times, release jitter */
  uint64_t next_release;         /* absolute time of the next release */
  uint64_t released, completed;  /* jobs; the job running or next is number `completed` */
  uint64_t *ring;                /* actual release times of the pending jobs, by job number */
  uint64_t ring_mask;
  uint64_t blocking;             /* accrued by the oldest pending job */
  bool locking;                  /* inside tc_mutex_lock */
  bool yielding;                 /* inside tc_thread_yield, at the end of a job */
  uint64_t *top;                 /* min-heap of the largest responses (for the p99) */
  uint64_t top_n, top_cap;
  uint64_t base_switches_in, base_preempted, base_cycles;
} sim_thread;

static struct {
  const tsim_config *cfg;
  sim_thread *t;
  uint32_t n;
  tc_mutex *mutex;
  uint32_t *heap; /* threads with a release to come, by (next_release, index) */
  uint32_t heap_n;
  uint64_t end;   /* EPOCH + horizon */
  uint64_t mark;  /* since when `current` has run */
  int32_t current; /* the last thread switched to (-1: none yet) */
  bool started;
  bool out_of_memory;
  const char *check_failed; /* TSIM_CHECK: what tc_check() found */
  tc_kernel_stats_t base;
  uint64_t release_cycles;
} state; /* of the run in progress */

/* ---- random streams -------------------------------------------------------------------- */

/* SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA
 * 2014): one word of state, passes BigCrush, and cheap enough for a draw per job. */
static uint64_t next_u64(uint64_t *s)
{
  uint64_t z = (*s += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

static uint64_t stream(uint64_t seed, uint32_t thread, uint32_t which)
{
  uint64_t s = seed ^ (0xD1B54A32D192ED03u * (2u * (uint64_t)thread + which + 1u));
  return next_u64(&s);
}

/* Uniform in [0, bound), bound > 0, without bias (Lemire, "Fast random integer generation in
 * an interval", ACM TOMACS 2019). */
static uint64_t below(uint64_t *s, uint64_t bound)
{
  unsigned __int128 m = (unsigned __int128)next_u64(s) * bound;
  uint64_t low = (uint64_t)m;
  if (low < bound) {
    uint64_t floor = (0u - bound) % bound;
    while (low < floor) {
      m = (unsigned __int128)next_u64(s) * bound;
      low = (uint64_t)m;
    }
  }
  return (uint64_t)(m >> 64);
}

/* Uniform in (0, 1]. */
static double unit(uint64_t *s) { return ((double)(next_u64(s) >> 11) + 1.0) * 0x1.0p-53; }

/* A normal (mean, sd) truncated to [lo, hi] and rounded to a cycle: the continuous law
 * truncated to [lo - 1/2, hi + 1/2), then rounded. Two exact rejection samplers: normal
 * draws (Box-Muller) kept when they fall in the window, when the window is wide against sd
 * (at least about half of them fall in, the mean being inside it); otherwise uniform draws
 * over the window kept with probability density / density at the mean (at least
 * exp(-3.125) of them). */
static uint64_t truncated_normal(uint64_t *s, double mean, double sd, uint64_t lo, uint64_t hi)
{
  double a = (double)lo - 0.5, b = (double)hi + 0.5;
  double v;
  if (b - a >= 2.5 * sd) {
    do {
      double r = sqrt(-2.0 * log(unit(s)));
      v = mean + sd * r * cos(6.283185307179586 * unit(s));
    } while (v < a || v >= b);
  } else {
    for (;;) {
      v = a + (b - a) * (1.0 - unit(s)); /* [a, b) */
      double d = (v - mean) / sd;
      if (unit(s) <= exp(-0.5 * d * d)) break;
    }
  }
  uint64_t x = (uint64_t)floor(v + 0.5 - (double)lo) + lo;
  return x < lo ? lo : x > hi ? hi : x;
}

static uint64_t exec_time(sim_thread *t, uint64_t job)
{
  const tsim_thread *s = t->spec;
  switch (s->exec) {
  case TSIM_EXEC_UNIFORM:
    return s->bcet + below(&t->exec_rng, s->wcet - s->bcet + 1u);
  case TSIM_EXEC_NORMAL:
    return truncated_normal(&t->exec_rng, s->mean, s->stddev, s->bcet, s->wcet);
  case TSIM_EXEC_TRACE:
    return s->trace[job % s->trace_len];
  default:
    return s->wcet;
  }
}

/* ---- releases -------------------------------------------------------------------------- */

static uint64_t nominal(const sim_thread *t, uint64_t job)
{
  return EPOCH + t->spec->offset + job * t->spec->period;
}

/* The time of release number `job`: nominal, plus jitter drawn in [0, jitter], and never
 * before the previous release (releases stay in order, each within its jitter). */
static uint64_t release_time(sim_thread *t, uint64_t job, uint64_t previous)
{
  uint64_t at = nominal(t, job);
  if (t->spec->jitter != 0) at += below(&t->jitter_rng, t->spec->jitter + 1u);
  return at > previous ? at : previous;
}

static bool heap_before(uint32_t a, uint32_t b)
{
  uint64_t ta = state.t[a].next_release, tb = state.t[b].next_release;
  return ta < tb || (ta == tb && a < b);
}

static void heap_down(uint32_t i)
{
  for (;;) {
    uint32_t l = 2u * i + 1u, r = l + 1u, m = i;
    if (l < state.heap_n && heap_before(state.heap[l], state.heap[m])) m = l;
    if (r < state.heap_n && heap_before(state.heap[r], state.heap[m])) m = r;
    if (m == i) return;
    uint32_t x = state.heap[i];
    state.heap[i] = state.heap[m];
    state.heap[m] = x;
    i = m;
  }
}

static void heap_up(uint32_t i)
{
  while (i > 0 && heap_before(state.heap[i], state.heap[(i - 1u) / 2u])) {
    uint32_t p = (i - 1u) / 2u, x = state.heap[i];
    state.heap[i] = state.heap[p];
    state.heap[p] = x;
    i = p;
  }
}

/* Keep the actual release time of a pending job: the ring doubles when the backlog fills it. */
static bool ring_push(sim_thread *t, uint64_t at)
{
  uint64_t pending = t->released - t->completed;
  if (pending > t->ring_mask) {
    uint64_t cap = 2u * (t->ring_mask + 1u);
    uint64_t *ring = malloc(cap * sizeof *ring);
    if (ring == NULL) return false;
    for (uint64_t j = t->completed; j < t->released; j++) ring[j & (cap - 1u)] = t->ring[j & t->ring_mask];
    free(t->ring);
    t->ring = ring;
    t->ring_mask = cap - 1u;
  }
  t->ring[t->released & t->ring_mask] = at;
  return true;
}

static void open_books(void)
{
  state.started = true;
  state.mark = tc_sim_now();
  tc_kernel_stats(&state.base);
  state.base.interrupts--; /* this release interrupt is the run's first */
  for (uint32_t i = 0; i < state.n; i++) {
    tc_thread_info_t info;
    (void)tc_thread_info(&state.t[i].tcb, &info);
    state.t[i].base_switches_in = info.switches_in;
    state.t[i].base_preempted = info.preempted;
    state.t[i].base_cycles = info.cycles;
  }
}

static void blocking_books(int32_t runner, uint64_t now);

/* The release timer's handler: give the semaphore of every thread due -- those due at one
 * cycle in index order (heap_before) -- re-arm the timer for the next release (or the end of
 * the run), and end the run at the horizon. */
static void release_irq(void)
{
  if (!state.started) open_books();
  /* The interrupted thread ran until now; the handler's time is nobody's (blocking). */
  blocking_books(state.current, tc_sim_now());
  if (tc_sim_now() >= state.end) {
    tc_sim_stop(0);
    return;
  }
  while (state.heap_n != 0 && state.t[state.heap[0]].next_release <= tc_sim_now()) {
    sim_thread *t = &state.t[state.heap[0]];
    if (state.cfg->release_cost != 0) {
      tc_sim_consume(state.cfg->release_cost); /* interrupts are masked: it only passes time */
      state.release_cycles += state.cfg->release_cost;
    }
    if (!ring_push(t, t->next_release)) {
      state.out_of_memory = true;
      tc_sim_stop(1);
      return;
    }
    t->released++;
    (void)tc_sem_give(&t->release);
    t->next_release = release_time(t, t->released, t->next_release);
    if (t->next_release >= state.end) state.heap[0] = state.heap[--state.heap_n];
    heap_down(0);
  }
  uint64_t next = state.end;
  if (state.heap_n != 0 && state.t[state.heap[0]].next_release < next) next = state.t[state.heap[0]].next_release;
  if (next < tc_sim_now()) next = tc_sim_now();
  (void)tc_sim_irq_at(next, release_irq);
  state.mark = tc_sim_now();
}

/* ---- the switch hook: cost model and blocking --------------------------------------------- */

static int32_t index_of(const tc_thread *p)
{
  if (p == NULL) return -1;
  uintptr_t a = (uintptr_t)p, base = (uintptr_t)state.t;
  if (a < base || a >= base + state.n * sizeof *state.t) return -1;
  return (int32_t)((a - base) / sizeof *state.t);
}

/* `runner` (a thread's index, or -1) ran from state.mark to `now`, with idle in between only
 * while no job was pending: every thread of higher priority with a job pending in that time
 * was blocked by it. */
static void blocking_books(int32_t runner, uint64_t now)
{
  if (runner < 0) return;
  uint32_t p = state.t[runner].spec->priority;
  for (uint32_t j = 0; j < state.n; j++) {
    sim_thread *y = &state.t[j];
    if (y->released == y->completed || y->spec->priority >= p) continue;
    uint64_t since = y->ring[y->completed & y->ring_mask];
    if (since < state.mark) since = state.mark;
    if (now > since) y->blocking += now - since;
  }
}

/* Called by the sim port each time the CPU begins a thread other than the last one it ran,
 * `from`: its books, then the switch's cost, which is nobody's run time. */
static uint64_t on_switch(const tc_thread *from, const tc_thread *to, void *arg)
{
  (void)arg;
  int32_t f = index_of(from), t = index_of(to);
  if (!state.started) { /* the start-up is free */
    state.current = t;
    return 0;
  }
  uint64_t now = tc_sim_now();
  if (f >= 0) {
    sim_thread *x = &state.t[f];
    if (x->locking) x->out->lock_waits++; /* it leaves the CPU inside tc_mutex_lock: it waits */
    if (x->yielding) x->out->yields++;
  }
  blocking_books(f, now);
  const tsim_config *c = state.cfg;
  uint64_t cost = c->switch_fn != NULL ? c->switch_fn(f, t, c->switch_arg) : c->switch_cost;
  state.mark = now + cost;
  state.current = t;
  return cost;
}

/* ---- the threads ------------------------------------------------------------------------ */

static uint64_t preempted(sim_thread *t)
{
  tc_thread_info_t info;
  (void)tc_thread_info(&t->tcb, &info);
  return info.preempted;
}

static void keep_top(sim_thread *t, uint64_t v)
{
  if (t->top_n < t->top_cap) {
    uint64_t i = t->top_n++;
    t->top[i] = v;
    while (i > 0 && t->top[(i - 1u) / 2u] > t->top[i]) {
      uint64_t p = (i - 1u) / 2u, x = t->top[i];
      t->top[i] = t->top[p];
      t->top[p] = x;
      i = p;
    }
    return;
  }
  if (v <= t->top[0]) return;
  t->top[0] = v;
  for (uint64_t i = 0;;) {
    uint64_t l = 2u * i + 1u, r = l + 1u, m = i;
    if (l < t->top_n && t->top[l] < t->top[m]) m = l;
    if (r < t->top_n && t->top[r] < t->top[m]) m = r;
    if (m == i) break;
    uint64_t x = t->top[i];
    t->top[i] = t->top[m];
    t->top[m] = x;
    i = m;
  }
}

/* The job's work is done (now): its response, from its nominal release, and the
 * preemptions the kernel counted since it started. */
static void work_done(sim_thread *t, uint64_t job, uint64_t preempted_before)
{
  tsim_thread_result *r = t->out;
  uint64_t response = tc_sim_now() - nominal(t, job);
  if (r->completed == 0 || response < r->response_min) r->response_min = response;
  if (response > r->response_max) r->response_max = response;
  r->response_sum += response;
  if (response > t->spec->deadline) r->missed++;
  keep_top(t, response);
  uint64_t p = preempted(t) - preempted_before;
  if (p > r->preemptions_max) r->preemptions_max = p;
}

/* The job is over (its last mutex unlocked): the books of its blocking close. */
static void job_over(sim_thread *t)
{
  tsim_thread_result *r = t->out;
  if (t->blocking > r->blocking_max) r->blocking_max = t->blocking;
  r->blocking_sum += t->blocking;
  t->blocking = 0;
  r->completed++;
  t->completed++;
#ifdef TSIM_CHECK
  /* The engine's tests: the kernel's invariants hold after every job. */
  const char *why = tc_check();
  if (why != NULL) {
    state.check_failed = why;
    tc_sim_stop(2);
  }
#endif
}

/* Spend `cycles` of the job's work; the piece that ends it is spent with tc_sim_finish, so
 * that a release at the very cycle the job completes comes after its completion. */
static void work(sim_thread *t, uint64_t job, uint64_t cycles, bool last, uint64_t preempted_before)
{
  if (!last) {
    tc_sim_consume(cycles);
    return;
  }
  tc_sim_finish(cycles);
  work_done(t, job, preempted_before);
}

static void job_loop(void *arg)
{
  sim_thread *t = arg;
  const tsim_thread *s = t->spec;
  tsim_thread_result *r = t->out;
  for (;;) {
    (void)tc_sem_take(&t->release, TC_WAIT_FOREVER);
    uint64_t job = t->completed;
    uint64_t cycles = exec_time(t, job);
    if (job == 0 || cycles < r->exec_min) r->exec_min = cycles;
    if (cycles > r->exec_max) r->exec_max = cycles;
    r->exec_sum += cycles;
    uint64_t before = preempted(t);
    uint64_t done = 0;
    bool ended = false;
    for (uint32_t i = 0; i < s->n_sections && !ended; i++) {
      const tsim_section *c = &s->sections[i];
      if (c->offset >= cycles) break;
      if (c->length == 0) continue; /* held for no work: no section (as the analysis has it) */
      tc_sim_consume(c->offset - done);
      tc_mutex *m = &state.mutex[c->mutex];
      t->locking = true;
      (void)tc_mutex_lock(m, TC_WAIT_FOREVER);
      t->locking = false;
      uint64_t held = cycles - c->offset < c->length ? cycles - c->offset : c->length;
      done = c->offset + held;
      ended = done == cycles;
      work(t, job, held, ended, before);
      (void)tc_mutex_unlock(m);
    }
    if (!ended) work(t, job, cycles - done, true, before);
    job_over(t);
    /* A job's end is a scheduling point, as the task model has it: with its next job already
     * released the thread would take its semaphore without blocking and keep its threshold
     * in force into that job (the kernel gives a threshold up only when the thread blocks,
     * suspends, yields or completes). Yielding gives it up, so a more urgent thread released
     * meanwhile runs first. */
    if (t->released != t->completed) {
      t->yielding = true;
      tc_thread_yield();
      t->yielding = false;
    }
  }
}

/* ---- the run ---------------------------------------------------------------------------- */

static int fail(char *error, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *error, size_t size, const char *fmt, ...)
{
  if (size != 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(error, size, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static int check_thread(const tsim_config *cfg, uint32_t i, char *error, size_t size)
{
  const tsim_thread *s = &cfg->threads[i];
  if (s->priority >= TC_PRIORITIES)
    return fail(error, size, "thread %u: priority %u out of range 0..%u", i, s->priority, TC_PRIORITIES - 1u);
  if (s->threshold > s->priority)
    return fail(error, size, "thread %u: threshold %u above the priority %u", i, s->threshold, s->priority);
  if (s->period == 0 || s->deadline == 0)
    return fail(error, size, "thread %u: period and deadline must be at least 1", i);
  if (s->period >= TIME_MAX || s->deadline >= TIME_MAX || s->offset >= TIME_MAX || s->jitter >= TIME_MAX ||
      s->wcet >= TIME_MAX)
    return fail(error, size, "thread %u: a time is 2^62 cycles or more", i);
  if (s->exec > TSIM_EXEC_TRACE) return fail(error, size, "thread %u: unknown execution-time model %u", i, s->exec);
  if ((s->exec == TSIM_EXEC_UNIFORM || s->exec == TSIM_EXEC_NORMAL) && s->bcet > s->wcet)
    return fail(error, size, "thread %u: bcet above wcet", i);
  if (s->exec == TSIM_EXEC_NORMAL &&
      !(s->stddev > 0 && isfinite(s->stddev) && s->mean >= (double)s->bcet && s->mean <= (double)s->wcet))
    return fail(error, size, "thread %u: the normal model needs stddev > 0 and the mean in [bcet, wcet]", i);
  if (s->exec == TSIM_EXEC_TRACE) {
    if (s->trace == NULL || s->trace_len == 0) return fail(error, size, "thread %u: empty trace", i);
    for (uint64_t k = 0; k < s->trace_len; k++)
      if (s->trace[k] > s->wcet)
        return fail(error, size, "thread %u: trace[%llu] = %llu above wcet", i, (unsigned long long)k,
                    (unsigned long long)s->trace[k]);
  }
  if (s->n_sections > TSIM_MAX_SECTIONS)
    return fail(error, size, "thread %u: more than %u sections", i, TSIM_MAX_SECTIONS);
  uint64_t end = 0;
  for (uint32_t k = 0; k < s->n_sections; k++) {
    const tsim_section *c = &s->sections[k];
    if (c->mutex >= cfg->n_mutexes) return fail(error, size, "thread %u: section %u: no mutex %u", i, k, c->mutex);
    if (c->offset < end || c->length > s->wcet || c->offset > s->wcet - c->length)
      return fail(error, size, "thread %u: section %u overlaps the one before or ends after wcet", i, k);
    end = c->offset + c->length;
  }
  return 0;
}

static void release_memory(void)
{
  if (state.t != NULL) {
    for (uint32_t i = 0; i < state.n; i++) {
      free(state.t[i].stack);
      free(state.t[i].ring);
      free(state.t[i].top);
    }
  }
  free(state.t);
  free(state.mutex);
  free(state.heap);
  memset(&state, 0, sizeof state);
}

/* Releases before the horizon at most (without jitter, which only delays them). */
static uint64_t max_jobs(const tsim_thread *s, uint64_t horizon)
{
  return s->offset < horizon ? (horizon - s->offset - 1u) / s->period + 1u : 0;
}

static bool prepare(const tsim_config *cfg, tsim_thread_result *results)
{
  state.cfg = cfg;
  state.n = cfg->n_threads;
  state.end = EPOCH + cfg->horizon;
  state.current = -1;
  state.t = calloc(state.n, sizeof *state.t);
  state.mutex = calloc(cfg->n_mutexes != 0 ? cfg->n_mutexes : 1u, sizeof *state.mutex);
  state.heap = calloc(state.n, sizeof *state.heap);
  if (state.t == NULL || state.mutex == NULL || state.heap == NULL) return false;
  for (uint32_t i = 0; i < state.n; i++) {
    sim_thread *t = &state.t[i];
    t->spec = &cfg->threads[i];
    t->out = &results[i];
    t->exec_rng = stream(cfg->seed, i, 0);
    t->jitter_rng = stream(cfg->seed, i, 1);
    t->ring_mask = 7u;
    t->top_cap = max_jobs(t->spec, cfg->horizon) / 100u + 1u;
    t->stack = aligned_alloc(16, STACK_SIZE);
    t->ring = malloc((t->ring_mask + 1u) * sizeof *t->ring);
    t->top = malloc(t->top_cap * sizeof *t->top);
    if (t->stack == NULL || t->ring == NULL || t->top == NULL) return false;
  }
  return true;
}

static int create(const tsim_config *cfg, char *error, size_t size)
{
  tc_kernel_init();
  tc_sim_set_switch_cost_fn(on_switch, NULL);
  for (uint32_t i = 0; i < cfg->n_mutexes; i++) {
    const char *name = cfg->mutexes[i].name != NULL ? cfg->mutexes[i].name : "mutex";
    if (tc_mutex_create(&state.mutex[i], name, cfg->mutexes[i].inherit ? TC_INHERIT : 0u) != TC_OK)
      return fail(error, size, "mutex %u: tc_mutex_create failed", i);
  }
  for (uint32_t i = 0; i < state.n; i++) {
    sim_thread *t = &state.t[i];
    const char *name = t->spec->name != NULL ? t->spec->name : "thread";
    if (tc_sem_create(&t->release, name, 0, UINT32_MAX) != TC_OK)
      return fail(error, size, "thread %u: tc_sem_create failed", i);
    tc_status st = tc_thread_create(&t->tcb, name, job_loop, t, t->stack, STACK_SIZE, t->spec->priority,
                                    t->spec->threshold, 0, TC_AUTO_START);
    if (st != TC_OK) return fail(error, size, "thread %u: tc_thread_create failed (status %d)", i, (int)st);
    t->next_release = release_time(t, 0, 0);
    if (t->next_release < state.end) {
      state.heap[state.heap_n] = i;
      heap_up(state.heap_n++);
    }
  }
  if (tc_sim_irq_at(EPOCH, release_irq) != TC_OK) return fail(error, size, "tc_sim_irq_at failed");
  return 0;
}

static int descending(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? 1 : x > y ? -1 : 0;
}

static void close_books(tsim_result *out)
{
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  out->end = tc_sim_now() - EPOCH;
  out->context_switches = k.context_switches - state.base.context_switches;
  out->preemptions = k.preemptions - state.base.preemptions;
  out->interrupts = k.interrupts - state.base.interrupts;
  out->idle_cycles = k.idle_cycles - state.base.idle_cycles;
  out->switch_cycles = k.switch_cycles - state.base.switch_cycles;
  out->release_cycles = state.release_cycles;
  for (uint32_t i = 0; i < state.n; i++) {
    sim_thread *t = &state.t[i];
    tsim_thread_result *r = t->out;
    tc_thread_info_t info;
    (void)tc_thread_info(&t->tcb, &info);
    r->switches_in = info.switches_in - t->base_switches_in;
    r->preemptions = info.preempted - t->base_preempted;
    r->cycles = info.cycles - t->base_cycles;
    r->released = t->released;
    r->unfinished = t->released - t->completed;
    if (r->unfinished != 0) r->oldest_unfinished = state.end - nominal(t, t->completed);
    for (uint64_t j = t->completed; j < t->released; j++)
      if (nominal(t, j) + t->spec->deadline < state.end) r->missed++;
    if (r->completed != 0) {
      /* Nearest rank: the ceil(0.99 n)-th smallest is the (n - ceil(0.99 n) + 1)-th largest,
       * and n - ceil(0.99 n) = floor(n / 100) < top_cap. */
      uint64_t n = r->completed, rank = (99u * n + 99u) / 100u;
      qsort(t->top, t->top_n, sizeof *t->top, descending);
      r->response_p99 = t->top[n - rank];
    }
    out->released += r->released;
    out->completed += r->completed;
    out->missed += r->missed;
  }
}

EXPORT int tsim_run(const tsim_config *cfg, tsim_thread_result *threads, tsim_result *out, char *error,
                    size_t error_size)
{
  if (cfg == NULL || threads == NULL || out == NULL) return fail(error, error_size, "NULL argument");
  if (cfg->abi != TSIM_ABI_VERSION)
    return fail(error, error_size, "ABI version %u, the engine's is %u", cfg->abi, TSIM_ABI_VERSION);
  if (cfg->n_threads == 0 || cfg->threads == NULL) return fail(error, error_size, "no threads");
  if (cfg->n_mutexes != 0 && cfg->mutexes == NULL) return fail(error, error_size, "mutexes NULL");
  if (cfg->horizon == 0 || cfg->horizon >= TIME_MAX)
    return fail(error, error_size, "the horizon must be 1 to 2^62 - 1 cycles");
  for (uint32_t i = 0; i < cfg->n_threads; i++)
    if (check_thread(cfg, i, error, error_size) != 0) return -1;
  memset(threads, 0, cfg->n_threads * sizeof *threads);
  memset(out, 0, sizeof *out);
  release_memory();
  int status = 0;
  if (!prepare(cfg, threads)) {
    status = fail(error, error_size, "out of memory");
  } else if (create(cfg, error, error_size) == 0) {
    (void)tc_kernel_start();
    if (state.out_of_memory)
      status = fail(error, error_size, "out of memory for the releases pending");
    else if (state.check_failed != NULL)
      status = fail(error, error_size, "kernel check failed: %s", state.check_failed);
    else
      close_books(out);
  } else {
    status = -1;
  }
  release_memory();
  if (status != 0) {
    memset(threads, 0, cfg->n_threads * sizeof *threads);
    memset(out, 0, sizeof *out);
  }
  return status;
}

EXPORT uint32_t tsim_abi(uint32_t sizes[6])
{
  sizes[0] = sizeof(tsim_section);
  sizes[1] = sizeof(tsim_thread);
  sizes[2] = sizeof(tsim_mutex);
  sizes[3] = sizeof(tsim_config);
  sizes[4] = sizeof(tsim_thread_result);
  sizes[5] = sizeof(tsim_result);
  return TSIM_ABI_VERSION;
}

EXPORT uint32_t tsim_priorities(void) { return TC_PRIORITIES; }
