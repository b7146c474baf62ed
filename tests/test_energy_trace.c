/* SPDX-License-Identifier: MIT */
/*
 * The energy snapshot of a trace (kernel/power.c, TC_TRACE_EV_ENERGY in include/tacet/trace.h,
 * docs/trace.md): tc_trace_disable() records the energy books, and every figure in it is the
 * one tc_energy_report(), tc_energy_thread() and tc_energy_hisr() give for the same run --
 * threads at two points, idle at a third, an HISR, a deleted thread and a deleted HISR; the
 * POWER events say where the clock changed, a POLICY event which policy was chosen; a snapshot taken from an interrupt handler; a
 * stop-mode buffer that fills drops it, and says so; a ring smaller than it keeps its end;
 * no table, no snapshot. Built against a kernel with TC_POWER=1 and TC_TRACE=1.
 */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "tacet/power.h"
#include "tct.h"

#if !TC_POWER || !TC_TRACE
#error "test_energy_trace needs a kernel built with TC_POWER=1 and TC_TRACE=1"
#endif

/* The harness records no trace of its own: each case enables the one it checks. */
const bool tct_no_trace = true;

static const tc_opp POINTS[] = {{10000000u, 900u}, {20000000u, 1000u}, {40000000u, 1100u}};
#define NPOINTS  3u
#define C_EFF    1.5e-9
#define P_STATIC 0.003

static uint64_t buf[4096]; /* 32 KB */
static tc_thread th[3];
static tc_hisr hisr, gone_hisr;
#define A (&th[0])
#define B (&th[1])
#define C (&th[2])

/* ---- reading the buffer --------------------------------------------------------------------- */

static const tc_trace_header *header(void)
{
  size_t n;
  const tc_trace_header *h = tc_trace_buffer(&n);
  CHECK(h != NULL && n >= sizeof *h);
  return h;
}

static const tc_trace_event *slot(const tc_trace_header *h, uint32_t i)
{
  return (const tc_trace_event *)(const void *)((const char *)h + h->events_offset) + i;
}

/* The i-th event kept, oldest first, and how many are kept (a ring that wrapped: all slots,
 * the oldest at `next`). */
static uint32_t kept(const tc_trace_header *h) { return (h->flags & TC_TRACE_F_WRAPPED) ? h->events : h->next; }
static const tc_trace_event *event(const tc_trace_header *h, uint32_t i)
{
  uint32_t first = (h->flags & TC_TRACE_F_WRAPPED) ? h->next : 0;
  return slot(h, (first + i) % h->events);
}

static unsigned record_of(const tc_trace_event *e) { return (unsigned)(e->arg[0] & 0xFFu); }
static unsigned point_of(const tc_trace_event *e) { return (unsigned)((e->arg[0] >> 8) & 0xFFu); }
static unsigned part_of(const tc_trace_event *e) { return (unsigned)((e->arg[0] >> 16) & 0xFFu); }
static uint64_t value_of(const tc_trace_event *e) { return (uint64_t)e->arg[2] << 32 | (uint32_t)e->arg[3]; }

static double double_of(uint64_t bits)
{
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

/* The snapshot read back: the books as tc_energy_report() sees them. */
typedef struct {
  uint32_t first, records; /* its BEGIN's place among the kept events, its length */
  unsigned n, policy, point;
  bool modelled;
  uint64_t changes, switches;
  tc_opp points[NPOINTS];
  double c_eff, p_static;
  uint64_t elapsed[NPOINTS], idle[NPOINTS], deleted[2][NPOINTS];
  uint64_t a[NPOINTS], b[NPOINTS], hisr[NPOINTS], contexts[2][NPOINTS];
  unsigned unknown; /* CONTEXT records of a context the test did not make */
} books;

static void add(uint64_t cycles[NPOINTS], const tc_trace_event *e)
{
  CHECK(point_of(e) < NPOINTS);
  CHECK(value_of(e) != 0); /* zeros are not recorded */
  if (point_of(e) < NPOINTS) cycles[point_of(e)] += value_of(e);
}

/* One record into `k`. */
static void read_record(books *k, const tc_trace_event *e)
{
  switch (record_of(e)) {
  case TC_TRACE_ENERGY_BEGIN:
    k->n = point_of(e);
    k->policy = part_of(e);
    k->modelled = (e->arg[0] >> 24) == 1u;
    k->point = (unsigned)e->arg[1];
    k->changes = value_of(e);
    break;
  case TC_TRACE_ENERGY_POINT:
    if (point_of(e) < NPOINTS) k->points[point_of(e)] = (tc_opp){(uint32_t)e->arg[1], (uint32_t)value_of(e)};
    break;
  case TC_TRACE_ENERGY_C_EFF: k->c_eff = double_of(value_of(e)); break;
  case TC_TRACE_ENERGY_P_STATIC: k->p_static = double_of(value_of(e)); break;
  case TC_TRACE_ENERGY_ELAPSED: add(k->elapsed, e); break;
  case TC_TRACE_ENERGY_IDLE: add(k->idle, e); break;
  case TC_TRACE_ENERGY_DELETED: add(k->deleted[part_of(e) & 1u], e); break;
  case TC_TRACE_ENERGY_CONTEXT:
    add(k->contexts[part_of(e) & 1u], e);
    if (e->arg[1] == (uintptr_t)A) add(k->a, e);
    else if (e->arg[1] == (uintptr_t)B) add(k->b, e);
    else if (e->arg[1] == (uintptr_t)&hisr) add(k->hisr, e);
    else k->unknown++;
    break;
  case TC_TRACE_ENERGY_SWITCHES: k->switches = value_of(e); break;
  case TC_TRACE_ENERGY_END: CHECK_EQ(e->arg[1], k->records); break;
  default: CHECK(!"an unknown record");
  }
}

/* The snapshot among the kept events: its records in a row, BEGIN .. END, then the closing
 * TIME event as the last of all. */
static bool read_books(const tc_trace_header *h, books *k)
{
  memset(k, 0, sizeof *k);
  uint32_t n = kept(h), i = 0;
  while (i < n && event(h, i)->id != TC_TRACE_EV_ENERGY) i++;
  if (i == n) return false;
  k->first = i;
  while (i < n && event(h, i)->id == TC_TRACE_EV_ENERGY) i++;
  k->records = i - k->first;
  CHECK_EQ(i, n - 1);
  CHECK_EQ(event(h, n - 1)->id, TC_TRACE_EV_TIME);
  CHECK_EQ(record_of(event(h, k->first)), TC_TRACE_ENERGY_BEGIN);
  CHECK_EQ(record_of(event(h, i - 1)), TC_TRACE_ENERGY_END);
  for (uint32_t j = k->first; j < i; j++) read_record(k, event(h, j));
  return true;
}

static bool near(double got, double want) { return fabs(got - want) <= 1e-9 * fabs(want) + 1e-18; }

/* The closed form of docs/energy.md over the points, from the snapshot's own table. */
static double joules(const books *k, const uint64_t cycles[NPOINTS])
{
  double e = 0;
  for (unsigned p = 0; p < NPOINTS; p++) {
    double v = k->points[p].millivolt / 1000.0, n = (double)cycles[p];
    e += k->c_eff * v * v * n + k->p_static * n / k->points[p].freq_hz;
  }
  return e;
}

/* Every figure of the snapshot is the report's, and each context's its own energy's. */
static void check_books(const books *k, const tc_energy_report_t *r)
{
  CHECK_EQ(k->n, NPOINTS);
  CHECK(memcmp(k->points, POINTS, sizeof POINTS) == 0);
  CHECK(k->c_eff == C_EFF && k->p_static == P_STATIC);
  CHECK_EQ(k->point, r->point);
  CHECK_EQ(k->policy, r->policy);
  CHECK_EQ(k->changes, r->point_changes);
  CHECK_EQ(k->modelled, r->modelled);
  CHECK_EQ(k->switches, r->context_switches);
  CHECK_EQ(k->unknown, 0);
  for (unsigned p = 0; p < NPOINTS; p++) {
    CHECK_EQ(k->elapsed[p], r->total.cycles[p]);
    CHECK_EQ(k->idle[p], r->idle.cycles[p]);
    CHECK_EQ(k->deleted[0][p] + k->contexts[0][p], r->threads.cycles[p]);
    CHECK_EQ(k->deleted[1][p] + k->contexts[1][p], r->hisrs.cycles[p]);
    /* The switch path as the report derives it, from the snapshot alone. */
    CHECK_EQ(k->elapsed[p] - k->idle[p] - k->deleted[0][p] - k->contexts[0][p] - k->deleted[1][p] -
                 k->contexts[1][p],
             r->switching.cycles[p]);
  }
  CHECK(near(joules(k, k->elapsed), r->total.joules));
  CHECK(near(joules(k, k->idle), r->idle.joules));
}

static void check_context(const books *k, const uint64_t cycles[NPOINTS], const tc_energy_t *e)
{
  for (unsigned p = 0; p < NPOINTS; p++) CHECK_EQ(cycles[p], e->cycles[p]);
  CHECK(near(joules(k, cycles), e->joules));
}

/* ---- a run at two points ---------------------------------------------------------------------- */

static void hisr_fn(void) { tct_work(4000); }
static void gone_fn(void) { tct_work(1500); }

static void activate(void *arg)
{
  (void)arg;
  OK(tc_hisr_activate(&hisr));
  OK(tc_hisr_activate(&gone_hisr));
}

static void short_lived(void *arg)
{
  (void)arg;
  tct_work(7000);
}

static void worker_a(void *arg)
{
  (void)arg;
  tct_work(20000); /* at point 2 */
  STEP();
  OK(tc_power_set_point(1));
  tct_work(30000); /* at point 1 */
  OK(tc_thread_sleep(3)); /* longer than b's work: idle, at point 0 (idle scaling) */
  OK(tc_thread_delete(C)); /* completed by now: its cycles stay, as deleted */
  OK(tc_hisr_delete(&gone_hisr));
  tct_work(5000);
}

static void worker_b(void *arg)
{
  (void)arg;
  tct_work(10000);
  tct_interrupt(activate, NULL);
  STEP();
  tct_work(10000);
}

static void set_up_the_run(void)
{
  OK(tc_hisr_create(&hisr, "h", hisr_fn, 0, TCT_STACK(3)));
  OK(tc_hisr_create(&gone_hisr, "gone", gone_fn, 1, TCT_STACK(4)));
  OK(tc_thread_create(A, "a", worker_a, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", worker_b, NULL, TCT_STACK(1), 6, 6, 0, TC_AUTO_START));
  OK(tc_thread_create(C, "c", short_lived, NULL, TCT_STACK(2), 4, 4, 0, TC_AUTO_START));
}

/* The snapshot holds what the report says, context by context, and the POWER events where
 * the clock changed. */
static void the_snapshot_is_the_report(void)
{
  tct_begin();
  OK(tc_trace_enable(buf, sizeof buf, TC_TRACE_WRAP));
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC)); /* recorded: the clock may change */
  OK(tc_power_set_point(2));
  OK(tc_power_policy(TC_POLICY_IDLE_SCALING));
  EXPECT(tc_power_policy(TC_POLICY_STATIC), TC_NO_INSTANCE); /* no task declared: not traced */
  set_up_the_run();
  CHECK_EQ(tct_run_kernel(), 0);
  STEP();
  tc_energy_report_t r;
  tc_energy_t ea, eb, eh;
  OK(tc_energy_report(&r));
  OK(tc_energy_thread(A, &ea));
  OK(tc_energy_thread(B, &eb));
  OK(tc_energy_hisr(&hisr, &eh));
  OK(tc_trace_disable());
  const tc_trace_header *h = header();
  CHECK(h->flags & TC_TRACE_F_ENERGY);
  CHECK(!(h->flags & TC_TRACE_F_WRAPPED));
  books k;
  CHECK(read_books(h, &k));
  check_books(&k, &r);
  CHECK_EQ(k.policy, TC_POLICY_IDLE_SCALING);
  check_context(&k, k.a, &ea);
  check_context(&k, k.b, &eb);
  check_context(&k, k.hisr, &eh);
  /* What the run was made of: a at two points, idle at the lowest, both deleted parts. */
  CHECK(ea.cycles[2] >= 20000 && ea.cycles[1] >= 30000);
  CHECK(k.idle[0] > 0 && k.idle[1] == 0 && k.idle[2] == 0);
  CHECK(k.deleted[0][2] >= 7000);
  CHECK(k.deleted[1][2] + k.deleted[1][1] >= 1500);
  CHECK(eh.total_cycles >= 4000);
  /* The POWER events: the table's install (no point before it), then each change, its a3
   * saying whether the clock changed with it. */
  uint32_t changes = 0;
  unsigned before = TC_TRACE_NO_POINT;
  for (uint32_t i = 0; i < kept(h); i++) {
    const tc_trace_event *e = event(h, i);
    if (e->id != TC_TRACE_EV_POWER) continue;
    CHECK(e->arg[0] < NPOINTS);
    CHECK_EQ(e->arg[1], POINTS[e->arg[0]].freq_hz);
    CHECK_EQ(e->arg[2], POINTS[e->arg[0]].millivolt);
    CHECK_EQ(e->arg[3] & TC_TRACE_POWER_CLOCK, r.modelled ? 0u : TC_TRACE_POWER_CLOCK);
    CHECK_EQ(e->arg[3] >> 8, before);
    before = (unsigned)e->arg[0];
    changes++;
  }
  CHECK_EQ(changes, r.point_changes + 1); /* the install is no change of point */
  CHECK_EQ(before, r.point);
  /* The one policy chosen, with the point it put in force; the refused one left no event. */
  uint32_t policies = 0;
  for (uint32_t i = 0; i < kept(h); i++) {
    const tc_trace_event *e = event(h, i);
    if (e->id != TC_TRACE_EV_POLICY) continue;
    CHECK_EQ(e->arg[0], TC_POLICY_IDLE_SCALING);
    CHECK_EQ(e->arg[1], 2);
    policies++;
  }
  CHECK_EQ(policies, 1);
}

/* ---- where tracing stops ----------------------------------------------------------------------- */

static void stop_in_handler(void *arg)
{
  (void)arg;
  CHECK_EQ(tc_trace_disable(), TC_OK);
}

static void stopper(void *arg)
{
  (void)arg;
  tct_work(12000);
  tct_interrupt(stop_in_handler, NULL); /* the books brought up to date in an interrupt */
  STEP();
  tct_work(3000);
}

/* From an interrupt handler, mid-run: the snapshot is the books at that moment, which the
 * report after the run has gone on from. */
static void a_snapshot_from_a_handler(void)
{
  tct_begin();
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  OK(tc_trace_enable(buf, sizeof buf, TC_TRACE_STOP));
  OK(tc_thread_create(A, "a", stopper, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  STEP();
  tc_energy_report_t r;
  tc_energy_t ea;
  OK(tc_energy_report(&r));
  OK(tc_energy_thread(A, &ea));
  books k;
  CHECK(read_books(header(), &k));
  CHECK(k.a[NPOINTS - 1] >= 12000);
  CHECK(k.a[NPOINTS - 1] + 3000 <= ea.cycles[NPOINTS - 1]);
  CHECK(k.elapsed[NPOINTS - 1] < r.total.cycles[NPOINTS - 1]);
  CHECK(k.switches <= r.context_switches);
}

static void worker(void *arg)
{
  (void)arg;
  for (unsigned i = 0; i < 40; i++) {
    tct_work(1000);
    tc_thread_yield();
  }
}

/* `threads` workers run, recorded into a buffer of (about) `events` slots in `mode`. */
static const tc_trace_header *small_trace(uint32_t events, unsigned mode, unsigned threads)
{
  tct_begin();
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  size_t small = sizeof(tc_trace_header) + 8u * sizeof(tc_trace_object) + events * sizeof(tc_trace_event);
  OK(tc_trace_enable(buf, small, mode));
  for (unsigned i = 0; i < threads; i++)
    OK(tc_thread_create(&th[i], "w", worker, NULL, TCT_STACK(i), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  STEP();
  return header();
}

/* Stop mode, the buffer full long before the end: every record is lost and counted, and the
 * flag says a snapshot was recorded, so that a decoder can say it is missing. */
static void a_full_buffer_loses_it_and_says_so(void)
{
  const tc_trace_header *h = small_trace(24, TC_TRACE_STOP, 2);
  CHECK(h->flags & TC_TRACE_F_FULL);
  uint32_t lost_before = h->lost;
  OK(tc_trace_disable());
  CHECK(h->flags & TC_TRACE_F_ENERGY);
  books k;
  CHECK(!read_books(h, &k));
  /* BEGIN, 3 points, C_EFF, P_STATIC, ELAPSED at the top point, 2 contexts, SWITCHES, END and
   * the closing TIME, at the least. */
  CHECK(h->lost - lost_before >= 12u);
}

/* A ring smaller than the snapshot: it keeps the snapshot's end (END, then the closing TIME
 * event). */
static void a_small_ring_keeps_its_end(void)
{
  const tc_trace_header *h = small_trace(10, TC_TRACE_WRAP, 1);
  OK(tc_trace_disable());
  CHECK(h->flags & TC_TRACE_F_WRAPPED);
  uint32_t n = kept(h);
  CHECK(n >= 8u && n < 12u);
  CHECK_EQ(event(h, n - 1)->id, TC_TRACE_EV_TIME);
  CHECK_EQ(event(h, n - 2)->id, TC_TRACE_EV_ENERGY);
  CHECK_EQ(record_of(event(h, n - 2)), TC_TRACE_ENERGY_END);
  CHECK(event(h, n - 2)->arg[1] > n - 1); /* more records than the ring holds */
  for (uint32_t i = 0; i + 1 < n; i++) CHECK_EQ(event(h, i)->id, TC_TRACE_EV_ENERGY);
}

/* Without a table the kernel has no books to record. */
static void no_table_no_snapshot(void)
{
  tct_begin();
  OK(tc_trace_enable(buf, sizeof buf, TC_TRACE_WRAP));
  OK(tc_thread_create(A, "a", worker, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  OK(tc_trace_disable());
  const tc_trace_header *h = header();
  CHECK(!(h->flags & TC_TRACE_F_ENERGY));
  books k;
  CHECK(!read_books(h, &k));
  CHECK_EQ(event(h, kept(h) - 1)->id, TC_TRACE_EV_TIME);
  /* With tracing off, a table and a policy record nothing. */
  uint32_t next = h->next;
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  OK(tc_power_policy(TC_POLICY_IDLE_SCALING));
  CHECK_EQ(h->next, next);
  STEP();
}

TCT_MAIN("test_energy_trace", TCT_CASE(the_snapshot_is_the_report), TCT_CASE(a_snapshot_from_a_handler),
         TCT_CASE(a_full_buffer_loses_it_and_says_so), TCT_CASE(a_small_ring_keeps_its_end),
         TCT_CASE(no_table_no_snapshot))
