/* SPDX-License-Identifier: MIT */
/*
 * Energy accounting and power policies (kernel/power.c, include/tacet/power.h): the API's
 * statuses, the accounting identities, the closed form, each policy's choice in scripted
 * situations and, on the sim port, deadlines under static scaling and RT-DVS over a thousand
 * seeded random task sets. Built against a kernel with TC_POWER=1 only.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "tacet/power.h"
#include "tct.h"

#if __has_include("tacet/sim.h")
#include "tacet/sim.h"
#define SIM 1
#else
#define SIM 0
#endif

#if !TC_POWER
#error "test_power needs a kernel built with TC_POWER=1"
#endif

/* Four points; on the sim port every frequency divides into whole ticks at any TC_TICK_HZ the
 * tests use (10 and 1000 Hz). */
static const tc_opp POINTS[] = {
    {10000000u, 900u}, {20000000u, 1000u}, {40000000u, 1100u}, {80000000u, 1300u}};
#define NPOINTS 4u
#define C_EFF 1.0e-9
#define P_STATIC 0.002

static tc_thread threads[8];
static tc_hisr hisr;
#define A (&threads[0])
#define B (&threads[1])
#define C (&threads[2])

static double closed_form(uint64_t cycles, unsigned p)
{
  double v = POINTS[p].millivolt / 1000.0;
  return C_EFF * v * v * (double)cycles + P_STATIC * (double)cycles / POINTS[p].freq_hz;
}

static bool near(double got, double want) { return fabs(got - want) <= 1e-9 * fabs(want) + 1e-18; }

static void check_parts_add_up(const tc_energy_report_t *r)
{
  for (unsigned p = 0; p < TC_POWER_POINTS; p++)
    CHECK_EQ(r->total.cycles[p], r->threads.cycles[p] + r->hisrs.cycles[p] + r->idle.cycles[p] +
                                     r->switching.cycles[p]);
  CHECK(near(r->total.joules, r->threads.joules + r->hisrs.joules + r->idle.joules + r->switching.joules));
  CHECK(near(r->total.seconds, r->threads.seconds + r->hisrs.seconds + r->idle.seconds + r->switching.seconds));
}

static void spin(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1));
}

/* ---- the table ---------------------------------------------------------------------------- */

static void no_table_refuses_everything(void)
{
  tct_begin();
  tc_energy_report_t r;
  tc_energy_t e;
  unsigned n = 99;
  CHECK(tc_power_points(&n) == NULL);
  CHECK_EQ(n, 0);
  EXPECT_ARG(tc_energy_report(&r), TC_INVALID);
  EXPECT_ARG(tc_power_set_point(0), TC_INVALID);
  EXPECT_ARG(tc_power_policy(TC_POLICY_FIXED), TC_INVALID);
  uint8_t classes[TC_LOAD_CLASSES] = {0, 0, 0, 0};
  EXPECT_ARG(tc_power_classes(classes), TC_INVALID);
  OK(tc_thread_create(A, "a", spin, NULL, TCT_STACK(0), 5, 5, 0, 0));
  EXPECT_ARG(tc_energy_thread(A, &e), TC_INVALID);
}

static void bad_tables_change_nothing(void)
{
  tct_begin();
  tc_opp t[TC_POWER_POINTS + 1];
  memcpy(t, POINTS, sizeof POINTS);
  EXPECT_ARG(tc_power_init(NULL, 2, C_EFF, P_STATIC), TC_INVALID);
  EXPECT_ARG(tc_power_init(t, 0, C_EFF, P_STATIC), TC_INVALID);
  for (unsigned i = 0; i <= TC_POWER_POINTS; i++) t[i] = (tc_opp){1000000u * (i + 1), 1000u + i};
  EXPECT_ARG(tc_power_init(t, TC_POWER_POINTS + 1, C_EFF, P_STATIC), TC_INVALID);
  OK(tc_power_init(t, TC_POWER_POINTS, C_EFF, P_STATIC)); /* the most points it may have */
  /* A valid table in place: each bad one leaves it. */
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  memcpy(t, POINTS, sizeof POINTS);
  t[1].freq_hz = t[2].freq_hz; /* not strictly increasing */
  EXPECT_ARG(tc_power_init(t, NPOINTS, C_EFF, P_STATIC), TC_INVALID);
  memcpy(t, POINTS, sizeof POINTS);
  t[3] = POINTS[0], t[0] = POINTS[3]; /* unsorted */
  EXPECT_ARG(tc_power_init(t, NPOINTS, C_EFF, P_STATIC), TC_INVALID);
  memcpy(t, POINTS, sizeof POINTS);
  t[2].millivolt = 950u; /* a voltage that goes down as the frequency goes up */
  EXPECT_ARG(tc_power_init(t, NPOINTS, C_EFF, P_STATIC), TC_INVALID);
  memcpy(t, POINTS, sizeof POINTS);
  t[0].millivolt = 0;
  EXPECT_ARG(tc_power_init(t, NPOINTS, C_EFF, P_STATIC), TC_INVALID);
  memcpy(t, POINTS, sizeof POINTS);
  t[0].freq_hz = 0;
  EXPECT_ARG(tc_power_init(t, NPOINTS, C_EFF, P_STATIC), TC_INVALID);
  t[0].freq_hz = TC_TICK_HZ - 1u; /* slower than the tick */
  EXPECT_ARG(tc_power_init(t, NPOINTS, C_EFF, P_STATIC), TC_INVALID);
  EXPECT_ARG(tc_power_init(POINTS, NPOINTS, 0.0, P_STATIC), TC_INVALID);
  EXPECT_ARG(tc_power_init(POINTS, NPOINTS, -1e-9, P_STATIC), TC_INVALID);
  EXPECT_ARG(tc_power_init(POINTS, NPOINTS, (double)NAN, P_STATIC), TC_INVALID);
  EXPECT_ARG(tc_power_init(POINTS, NPOINTS, (double)INFINITY, P_STATIC), TC_INVALID);
  EXPECT_ARG(tc_power_init(POINTS, NPOINTS, C_EFF, -0.001), TC_INVALID);
  EXPECT_ARG(tc_power_init(POINTS, NPOINTS, C_EFF, (double)NAN), TC_INVALID);
  unsigned n = 0;
  const tc_opp *now = tc_power_points(&n);
  CHECK_EQ(n, NPOINTS);
  CHECK(now != NULL && memcmp(now, POINTS, sizeof POINTS) == 0);
  CHECK_EQ(tc_power_point(), NPOINTS - 1); /* the highest after init */
  /* A point or a class out of range changes nothing either. */
  EXPECT_ARG(tc_power_set_point(NPOINTS), TC_INVALID);
  CHECK_EQ(tc_power_point(), NPOINTS - 1);
  uint8_t classes[TC_LOAD_CLASSES] = {3, 2, 1, NPOINTS};
  EXPECT_ARG(tc_power_classes(classes), TC_INVALID);
  EXPECT_ARG(tc_power_classes(NULL), TC_INVALID);
  EXPECT_ARG(tc_power_policy(TC_POLICY_RT_DVS + 1), TC_INVALID);
  OK(tc_power_set_point(1));
  CHECK_EQ(tc_power_point(), 1);
}

static void in_thread_after_start(void *arg)
{
  (void)arg;
  EXPECT(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC), TC_CALLER_ERROR);
  tc_energy_phase ph;
  OK(tc_energy_phase_begin(&ph));
  tc_energy_t sys, own;
  OK(tc_energy_phase_end(&ph, &sys, &own));
  EXPECT_ARG(tc_energy_phase_begin(NULL), TC_INVALID);
  EXPECT_ARG(tc_energy_phase_end(NULL, &sys, &own), TC_INVALID);
  EXPECT_ARG(tc_power_complete(), TC_INVALID); /* not a declared task */
  EXPECT_ARG(tc_power_task(A, 10, 0), TC_INVALID);
  EXPECT_ARG(tc_power_task(A, 0, 10), TC_INVALID);
  EXPECT_ARG(tc_power_task(NULL, 10, 10), TC_INVALID);
  EXPECT_ARG(tc_power_release(B), TC_INVALID); /* not declared */
  EXPECT_ARG(tc_power_thread_class(A, TC_LOAD_IDLE), TC_INVALID);
  EXPECT_ARG(tc_power_thread_class(NULL, TC_LOAD_LOW), TC_INVALID);
  EXPECT_ARG(tc_energy_thread(A, NULL), TC_INVALID);
  EXPECT_ARG(tc_energy_hisr(NULL, &own), TC_INVALID);
  EXPECT_ARG(tc_energy_report(NULL), TC_INVALID);
  /* No declared task: static scaling has nothing to be feasible for. */
  EXPECT(tc_power_policy(TC_POLICY_STATIC), TC_NO_INSTANCE);
  CHECK_EQ(tc_power_point(), NPOINTS - 1);
}

static void handler_calls(void *arg)
{
  (void)arg;
  tc_energy_report_t r;
  uint8_t classes[TC_LOAD_CLASSES] = {0, 0, 0, 0};
  tc_energy_phase ph;
  CHECK_EQ(tc_power_set_point(0), TC_CALLER_ERROR);
  CHECK_EQ(tc_power_policy(TC_POLICY_FIXED), TC_CALLER_ERROR);
  CHECK_EQ(tc_power_classes(classes), TC_CALLER_ERROR);
  CHECK_EQ(tc_power_thread_class(A, TC_LOAD_LOW), TC_CALLER_ERROR);
  CHECK_EQ(tc_power_task(A, 10, 10), TC_CALLER_ERROR);
  CHECK_EQ(tc_power_complete(), TC_CALLER_ERROR);
  CHECK_EQ(tc_energy_report(&r), TC_CALLER_ERROR);
  tc_energy_t e;
  CHECK_EQ(tc_energy_thread(A, &e), TC_CALLER_ERROR);
  CHECK_EQ(tc_energy_phase_begin(&ph), TC_CALLER_ERROR);
  CHECK_EQ(tc_power_point(), NPOINTS - 1);
}

static void in_thread_handlers(void *arg)
{
  (void)arg;
  tct_interrupt(handler_calls, NULL);
  STEP();
}

/* A run of two threads, a (priority 5) first and b (6), at point `point` of the table. */
static void run_two(void (*a)(void *), void (*b)(void *), unsigned point)
{
  tct_begin();
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  OK(tc_power_set_point(point));
  OK(tc_thread_create(A, "a", a, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", b, NULL, TCT_STACK(1), 6, 6, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
}

static void wrong_calling_contexts(void) { run_two(in_thread_after_start, in_thread_handlers, NPOINTS - 1); }

/* ---- accounting ---------------------------------------------------------------------------- */

static void worker(void *arg)
{
  uintptr_t n = (uintptr_t)arg;
  for (unsigned i = 0; i < 5; i++) {
    tct_work(n);
    tc_thread_yield();
  }
}

static void sleeper(void *arg)
{
  (void)arg;
  for (unsigned i = 0; i < 3; i++) {
    CHECK_EQ(tc_power_point(), 2); /* idle scaling: the set point while a thread runs */
    tct_work(20000);
    OK(tc_thread_sleep(100)); /* longer than the others' work: the CPU idles */
  }
}

/* Every part of a run adds up to the elapsed cycles, point by point; threads' energy is the
 * closed form of their cycles. */
static void parts_add_up_to_the_whole(void)
{
  tct_begin();
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  OK(tc_power_set_point(2));
  OK(tc_power_policy(TC_POLICY_IDLE_SCALING));
#if SIM
  tc_sim_set_switch_cost(100);
  CHECK_EQ(tc_cycles_hz(), POINTS[2].freq_hz); /* the sim's clock follows the point */
#endif
  OK(tc_thread_create(A, "a", worker, (void *)(uintptr_t)30000, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", worker, (void *)(uintptr_t)10000, TCT_STACK(1), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(C, "c", sleeper, NULL, TCT_STACK(2), 4, 4, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  tc_energy_report_t r;
  OK(tc_energy_report(&r));
  check_parts_add_up(&r);
  /* Threads ran only at point 2, idle only at point 0. */
  for (unsigned p = 0; p < NPOINTS; p++) {
    if (p != 2) CHECK_EQ(r.threads.cycles[p], 0);
    if (p != 0) CHECK_EQ(r.idle.cycles[p], 0);
  }
  CHECK(r.idle.cycles[0] > 0);
  CHECK(r.threads.cycles[2] >= 5 * 30000 + 5 * 10000 + 3 * 20000);
  CHECK(near(r.threads.joules, closed_form(r.threads.cycles[2], 2)));
  CHECK(near(r.idle.joules, closed_form(r.idle.cycles[0], 0)));
  tc_energy_t e;
  OK(tc_energy_thread(A, &e));
  CHECK(e.total_cycles >= 5 * 30000);
  CHECK(near(e.joules, closed_form(e.cycles[2], 2)));
  CHECK(near(e.dynamic_joules + e.static_joules, e.joules));
  CHECK(r.point_changes >= 6); /* into and out of idle at each of c's sleeps */
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK_EQ(r.context_switches, k.context_switches);
#if SIM
  CHECK(!r.modelled);
  /* The sim's switch cost is the switch path's: every charged cycle, at the point it ran. */
  CHECK_EQ(r.switching.total_cycles, k.switch_cycles);
  CHECK_EQ(r.total.total_cycles, tc_sim_now());
  CHECK(near(r.joules_per_switch, r.switching.joules / (double)r.context_switches));
#else
  CHECK(r.modelled); /* QEMU's board cannot change its clock */
  CHECK(r.switching.total_cycles > 0); /* the switch code's share (TC_PORT_STAMP) */
  /* From the commit to the switch code's stamp, and at idle's edges the change of point the
   * commit makes (books closed, point traced): about 125 instructions a switch on Cortex-M
   * (PendSV), 310 on RISC-V (whose 64-bit sums take a carry test each). */
  CHECK(tct_cycles_to_instructions(r.switching.total_cycles) < 400u * r.context_switches);
#endif
}

/* A thread deleted keeps its energy in the threads' part. */
static void deleted_threads_stay_counted(void)
{
  tct_begin();
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  OK(tc_thread_create(A, "a", worker, (void *)(uintptr_t)7000, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  tc_energy_report_t before, after;
  OK(tc_energy_report(&before));
  OK(tc_thread_delete(A));
  OK(tc_energy_report(&after));
  CHECK_EQ(after.threads.total_cycles, before.threads.total_cycles);
  CHECK(before.threads.cycles[NPOINTS - 1] >= 35000);
  check_parts_add_up(&after);
}

static void phase_worker(void *arg)
{
  (void)arg;
  tc_energy_phase ph;
  OK(tc_energy_phase_begin(&ph));
  tct_work(50000);
  OK(tc_thread_sleep(2)); /* b runs meanwhile: the system's phase, not a's own */
  tct_work(50000);
  tc_energy_t sys, own;
  OK(tc_energy_phase_end(&ph, &sys, &own));
  CHECK(own.total_cycles >= 100000);
  CHECK(own.total_cycles < 150000); /* what tct_work overshoots, and the ticks it took */
  CHECK(sys.total_cycles > own.total_cycles);
  CHECK(near(own.joules, closed_form(own.cycles[1], 1)));
  OK(tc_energy_phase_end(&ph, NULL, NULL));
}

static void phase_other(void *arg)
{
  (void)arg;
  tct_work(20000);
}

static void phases_measure_a_stretch(void) { run_two(phase_worker, phase_other, 1); }

/* ---- policies ------------------------------------------------------------------------------ */

static void class_worker(void *arg)
{
  unsigned want = (unsigned)(uintptr_t)arg;
  for (unsigned i = 0; i < 3; i++) {
    CHECK_EQ(tc_power_point(), want);
    tct_work(1000);
    tc_thread_yield();
  }
  OK(tc_thread_sleep(1));
  CHECK_EQ(tc_power_point(), want);
}

/* Ahn et al.'s load scaling: each thread runs at its class's point, idle at the idle class's. */
static void load_scaling_follows_the_classes(void)
{
  tct_begin();
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  const uint8_t row[TC_LOAD_CLASSES] = {3, 2, 1, 0}; /* Task+, Task, Task-, Idle */
  OK(tc_power_classes(row));
  OK(tc_thread_create(A, "plus", class_worker, (void *)(uintptr_t)3, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "task", class_worker, (void *)(uintptr_t)2, TCT_STACK(1), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(C, "minus", class_worker, (void *)(uintptr_t)1, TCT_STACK(2), 5, 5, 0, TC_AUTO_START));
  OK(tc_power_thread_class(A, TC_LOAD_HIGH));
  OK(tc_power_thread_class(C, TC_LOAD_LOW));
  OK(tc_power_policy(TC_POLICY_LOAD_SCALING));
  CHECK_EQ(tct_run_kernel(), 0);
  tc_energy_t e;
  OK(tc_energy_thread(A, &e));
  CHECK_EQ(e.total_cycles, e.cycles[3]);
  OK(tc_energy_thread(B, &e));
  CHECK_EQ(e.total_cycles, e.cycles[2]);
  OK(tc_energy_thread(C, &e));
  CHECK_EQ(e.total_cycles, e.cycles[1]);
  tc_energy_report_t r;
  OK(tc_energy_report(&r));
  CHECK_EQ(r.idle.total_cycles, r.idle.cycles[0]);
  CHECK(r.idle.total_cycles > 0);
  check_parts_add_up(&r);
}

static void fixed_worker(void *arg)
{
  (void)arg;
  CHECK_EQ(tc_power_point(), 1);
  OK(tc_thread_sleep(1));
  CHECK_EQ(tc_power_point(), 1);
  OK(tc_power_set_point(3)); /* at once, from the thread */
  CHECK_EQ(tc_power_point(), 3);
  OK(tc_power_policy(TC_POLICY_IDLE_SCALING));
  CHECK_EQ(tc_power_point(), 3);
  OK(tc_thread_sleep(1));
  CHECK_EQ(tc_power_point(), 3);
  OK(tc_power_policy(TC_POLICY_LOAD_SCALING)); /* Default row: every class at the top */
  CHECK_EQ(tc_power_point(), 3);
  OK(tc_power_policy(TC_POLICY_FIXED));
  OK(tc_power_set_point(0));
  CHECK_EQ(tc_power_point(), 0);
}

/* The fixed policy stays at its point through idle; every policy switch takes effect at once. */
static void fixed_point_stays_through_idle(void)
{
  tct_begin();
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  OK(tc_power_set_point(1));
  OK(tc_thread_create(A, "a", fixed_worker, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  tc_energy_report_t r;
  OK(tc_energy_report(&r));
  CHECK(r.idle.cycles[1] > 0); /* the first sleep idled at the fixed point */
  CHECK(r.idle.cycles[3] == 0); /* the second at the lowest, under idle scaling */
  CHECK(r.idle.cycles[0] > 0);
  check_parts_add_up(&r);
}

/* Static scaling: the lowest point at which response-time analysis (thresholds included)
 * finds the declared tasks schedulable. At 10/20/40/80 MHz a tick (TC_TICK_HZ) is f/TICK_HZ
 * cycles. */
static void static_scaling_picks_the_lowest_feasible_point(void)
{
  tct_begin();
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  const uint64_t tick20 = POINTS[1].freq_hz / TC_TICK_HZ; /* cycles per tick at 20 MHz */
  OK(tc_thread_create(A, "a", spin, NULL, TCT_STACK(0), 1, 1, 0, 0));
  OK(tc_thread_create(B, "b", spin, NULL, TCT_STACK(1), 2, 2, 0, 0));
  /* a: 150 % of its period at 10 MHz, 75 % at 20 MHz. */
  OK(tc_power_task(A, 10, 75 * tick20 / 10));
  OK(tc_power_release(A)); /* under static scaling a release changes nothing */
  OK(tc_power_policy(TC_POLICY_STATIC));
  CHECK_EQ(tc_power_point(), 1);
  /* b: R = C_b + 2 C_a = 1.0 of its period 20 at 20 MHz (exactly feasible) ... */
  OK(tc_power_task(B, 20, 50 * tick20 / 10));
  OK(tc_power_policy(TC_POLICY_STATIC));
  CHECK_EQ(tc_power_point(), 1);
  /* ... and one cycle more is not: 40 MHz. */
  OK(tc_power_task(B, 20, 50 * tick20 / 10 + 1));
  OK(tc_power_policy(TC_POLICY_STATIC));
  CHECK_EQ(tc_power_point(), 2);
  /* Non-preemptive b (threshold 0): a is blocked by all of b, 75 % + 50 % of a's period ... */
  OK(tc_thread_threshold_change(B, 0, NULL));
  OK(tc_power_policy(TC_POLICY_STATIC));
  CHECK_EQ(tc_power_point(), 2);
  /* Too much for any point: refused, and the policy stays. */
  OK(tc_power_task(B, 20, 1000 * tick20));
  EXPECT(tc_power_policy(TC_POLICY_STATIC), TC_NO_INSTANCE);
  EXPECT(tc_power_policy(TC_POLICY_RT_DVS), TC_NO_INSTANCE);
  CHECK_EQ(tc_power_point(), 2);
  OK(tc_power_task(B, 0, 0)); /* undeclared */
  OK(tc_power_policy(TC_POLICY_STATIC));
  CHECK_EQ(tc_power_point(), 1);
}

#if SIM
/* ---- deadlines under static scaling and RT-DVS, random task sets (sim) ------------------- */

#define MAX_TASKS 6u
typedef struct {
  tc_sem release;
  tc_timer timer;
  uint32_t period;    /* ticks */
  uint64_t wcet;      /* cycles */
  uint32_t deadline;  /* tick of the current job's deadline */
  unsigned pending;   /* releases not yet served */
  unsigned jobs, misses;
} task;

static task tasks[MAX_TASKS];
static uint32_t rng;

static uint32_t next_random(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

static void release(void *arg)
{
  task *t = arg;
  unsigned i = (unsigned)(t - tasks);
  if (t->pending != 0) t->misses++; /* the last job is not done at its deadline */
  t->pending++;
  t->deadline = tc_tick_get() + t->period;
  (void)tc_power_release(&threads[i]);
  (void)tc_sem_give(&t->release);
}

static void periodic(void *arg)
{
  task *t = arg;
  for (;;) {
    if (tc_sem_take(&t->release, TC_WAIT_FOREVER) != TC_OK) return;
    /* The actual work: between half the WCET and all of it. */
    uint64_t work = t->wcet / 2 + next_random() % (t->wcet / 2 + 1);
    tc_sim_consume(work);
    uint32_t now = tc_tick_get();
    if (now > t->deadline || (now == t->deadline && tc_sim_tick_elapsed() != 0)) t->misses++;
    t->jobs++;
    t->pending--;
    OK(tc_power_complete());
  }
}

static void stopper(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(400));
  tc_sim_stop(0);
}

/* One random set: n tasks, periods 4..60 ticks, RM priorities (shortest period first), total
 * utilisation at the top point in [0.3, 0.95) split by UUniFast; thresholds at the priority
 * (fully preemptive) for RT-DVS, random for static scaling. Returns false when the analysis
 * finds it unschedulable even at the top point (skipped). */
static bool run_set(unsigned policy, unsigned *jobs, unsigned *misses, unsigned *lowered)
{
  tct_begin();
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  unsigned n = 2 + next_random() % (MAX_TASKS - 1);
  uint32_t periods[MAX_TASKS];
  for (unsigned i = 0; i < n; i++) periods[i] = 4 + next_random() % 57;
  for (unsigned i = 1; i < n; i++) /* sort: RM order */
    for (unsigned j = i; j > 0 && periods[j] < periods[j - 1]; j--) {
      uint32_t x = periods[j];
      periods[j] = periods[j - 1];
      periods[j - 1] = x;
    }
  double u_total = 0.3 + (next_random() % 650) / 1000.0, left = u_total;
  const uint64_t tick_top = POINTS[NPOINTS - 1].freq_hz / TC_TICK_HZ;
  for (unsigned i = 0; i < n; i++) {
    double u = left;
    if (i + 1 < n) {
      double r = (next_random() % 1000000) / 1000000.0;
      u = left - left * pow(r, 1.0 / (double)(n - 1 - i));
    }
    left -= u;
    task *t = &tasks[i];
    memset(t, 0, sizeof *t);
    t->period = periods[i];
    t->wcet = (uint64_t)(u * (double)(periods[i] * tick_top)) + 2;
    unsigned prio = 10 + i, threshold = policy == TC_POLICY_STATIC ? 10 + next_random() % (i + 1) : prio;
    OK(tc_sem_create(&t->release, "r", 0, 1000));
    OK(tc_thread_create(&threads[i], "t", periodic, t, TCT_STACK(i), prio, threshold, 0, TC_AUTO_START));
    OK(tc_power_task(&threads[i], t->period, t->wcet));
    OK(tc_timer_create(&t->timer, "rel", release, t, 1, t->period, TC_AUTO_START));
  }
  OK(tc_thread_create(&threads[MAX_TASKS], "stop", stopper, NULL, TCT_STACK(MAX_TASKS), 0, 0, 0, TC_AUTO_START));
  tc_status st = tc_power_policy(policy);
  if (st == TC_NO_INSTANCE) return false;
  CHECK_EQ(st, TC_OK);
  CHECK_EQ(tct_run_kernel(), 0);
  tc_energy_report_t r;
  OK(tc_energy_report(&r));
  check_parts_add_up(&r);
  for (unsigned i = 0; i < n; i++) {
    *jobs += tasks[i].jobs;
    *misses += tasks[i].misses;
    if (tasks[i].misses != 0)
      printf("    seed state %u: task %u (period %u, wcet %llu) missed %u\n", (unsigned)rng, i,
             (unsigned)tasks[i].period, (unsigned long long)tasks[i].wcet, tasks[i].misses);
  }
  if (r.threads.cycles[NPOINTS - 1] < r.threads.total_cycles) (*lowered)++;
  return true;
}

static void deadlines_hold_over_random_sets(unsigned policy, const char *name)
{
  unsigned sets = 0, skipped = 0, jobs = 0, misses = 0, lowered = 0;
  rng = 0x13572468u + policy;
  while (sets < 1000) {
    if (run_set(policy, &jobs, &misses, &lowered))
      sets++;
    else
      skipped++;
    if (tct_failures() != 0) break;
  }
  printf("    %s: %u sets (%u unschedulable at the top point skipped), %u jobs, %u misses, "
         "%u sets ran below the top point\n",
         name, sets, skipped, jobs, misses, lowered);
  CHECK_EQ(misses, 0);
  CHECK(lowered > sets / 5); /* it does scale: many sets have slack */
}

static void static_scaling_meets_every_deadline(void)
{
  deadlines_hold_over_random_sets(TC_POLICY_STATIC, "static scaling");
}

static void rt_dvs_meets_every_deadline(void)
{
  deadlines_hold_over_random_sets(TC_POLICY_RT_DVS, "RT-DVS (ccRM)");
}

/* The sim's clock: a tick lasts as long at every point, in more or fewer cycles. */
static void clock_follows_the_point(void *arg)
{
  (void)arg;
  uint64_t t0 = tc_sim_now();
  OK(tc_thread_sleep(2));
  CHECK_EQ(tc_sim_now() - t0, 2 * POINTS[3].freq_hz / TC_TICK_HZ);
  OK(tc_power_set_point(0));
  CHECK_EQ(tc_sim_cycles_per_tick(), POINTS[0].freq_hz / TC_TICK_HZ);
  t0 = tc_sim_now();
  OK(tc_thread_sleep(2));
  CHECK_EQ(tc_sim_now() - t0, 2 * POINTS[0].freq_hz / TC_TICK_HZ);
  CHECK_EQ(tc_sim_tick_elapsed(), 0);
  tc_sim_consume(POINTS[0].freq_hz / TC_TICK_HZ / 4);
  CHECK_EQ(tc_sim_tick_elapsed(), POINTS[0].freq_hz / TC_TICK_HZ / 4);
  uint32_t tick = tc_tick_get();
  /* A quarter of a tick at 10 MHz is done; the three quarters left take 3/4 of a tick at
   * 80 MHz too. */
  OK(tc_power_set_point(3));
  tc_sim_consume(3 * POINTS[3].freq_hz / TC_TICK_HZ / 4 - 1);
  CHECK_EQ(tc_tick_get(), tick);
  tc_sim_consume(1);
  CHECK_EQ(tc_tick_get(), tick + 1);
}

static void sim_clock_follows_the_point(void)
{
  tct_begin();
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  OK(tc_thread_create(A, "a", clock_follows_the_point, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
}
#endif

static void hisr_fn(void) { tct_work(3000); }

static void activator(void *arg)
{
  (void)arg;
  for (unsigned i = 0; i < 4; i++) OK(tc_hisr_activate(&hisr));
}

static void hisrs_have_their_own_part(void)
{
  tct_begin();
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  OK(tc_hisr_create(&hisr, "h", hisr_fn, 0, TCT_STACK(1)));
  OK(tc_thread_create(A, "a", activator, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  tc_energy_t e;
  OK(tc_energy_hisr(&hisr, &e));
  CHECK(e.total_cycles >= 4 * 3000);
  tc_energy_report_t r;
  OK(tc_energy_report(&r));
  CHECK(r.hisrs.total_cycles >= e.total_cycles);
  check_parts_add_up(&r);
  OK(tc_hisr_delete(&hisr));
  tc_energy_report_t after;
  OK(tc_energy_report(&after));
  CHECK_EQ(after.hisrs.total_cycles, r.hisrs.total_cycles);
  EXPECT_ARG(tc_energy_hisr(&hisr, &e), TC_INVALID);
}

/* ---- the API's remaining edges ------------------------------------------------------------- */

/* A table installed between two runs: the threads' switches stay (at the highest point), their
 * run time before the table belongs to no point of it and starts again from zero. */
static void a_table_after_a_run_keeps_the_switches(void)
{
  tct_begin();
  OK(tc_thread_create(A, "a", worker, (void *)(uintptr_t)5000, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", worker, (void *)(uintptr_t)5000, TCT_STACK(1), 5, 5, 0, TC_AUTO_START));
  OK(tc_hisr_create(&hisr, "h", hisr_fn, 0, TCT_STACK(3)));
  OK(tc_thread_create(C, "c", activator, NULL, TCT_STACK(2), 4, 4, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  tc_thread_info_t before, after;
  OK(tc_thread_info(A, &before));
  CHECK(before.switches_in >= 5);
  CHECK(before.cycles >= 5 * 5000);
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  STEP();
  OK(tc_thread_info(A, &after));
  CHECK_EQ(after.switches_in, before.switches_in);
  CHECK_EQ(after.cycles, 0);
  CHECK_EQ(A->counts[NPOINTS - 1].switches_out, before.switches_in);
  tc_energy_t e;
  OK(tc_energy_hisr(&hisr, &e));
  CHECK_EQ(e.total_cycles, 0); /* it ran 4 x 3000 before the table */
  tc_energy_report_t r;
  OK(tc_energy_report(&r)); /* nothing ran since: no cycles, and no division by zero switches */
  CHECK_EQ(r.total.total_cycles, 0);
  CHECK(r.context_switches >= 2 * before.switches_in + 4);
  CHECK(r.joules_per_switch == 0.0);
  STEP();
}

/* Before any switch, the cost per switch is zero, not a division by zero. */
static void no_switch_costs_nothing(void)
{
  tct_begin();
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  tc_energy_report_t r;
  OK(tc_energy_report(&r));
  CHECK_EQ(r.context_switches, 0);
  CHECK(r.joules_per_switch == 0.0);
  unsigned n = 0;
  CHECK(tc_power_points(NULL) == tc_power_points(&n)); /* the count is optional */
  CHECK_EQ(n, NPOINTS);
}

/* Declared tasks are kept in rate-monotonic order (shortest period first, then the higher
 * priority), whatever the order of declaration; a deleted task leaves the analysis. */
static void tasks_keep_rate_monotonic_order(void)
{
  tct_begin();
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  OK(tc_thread_create(A, "a", spin, NULL, TCT_STACK(0), 1, 1, 0, 0));
  OK(tc_thread_create(B, "b", spin, NULL, TCT_STACK(1), 2, 2, 0, 0));
  OK(tc_thread_create(C, "c", spin, NULL, TCT_STACK(2), 3, 3, 0, 0));
  OK(tc_power_task(C, 20, 100)); /* c */
  OK(tc_power_task(A, 20, 100)); /* a, c: same period, a's priority is higher */
  OK(tc_power_task(B, 10, 100)); /* b, a, c */
  const tc_thread *want[] = {B, A, C};
  const tc_node *node = tc__k.power.tasks.head;
  for (unsigned i = 0; i < 3; i++, node = node->next)
    CHECK(TC_CONTAINER_OF(node, tc_thread, power_node) == want[i]);
  CHECK(node == tc__k.power.tasks.head);
  STEP();
  OK(tc_thread_terminate(B));
  OK(tc_thread_delete(B));
  CHECK(TC_CONTAINER_OF(tc__k.power.tasks.head, tc_thread, power_node) == A);
  OK(tc_power_policy(TC_POLICY_STATIC)); /* a and c alone: feasible at the lowest point */
  CHECK_EQ(tc_power_point(), 0);
  STEP();
  OK(tc_thread_terminate(A));
  OK(tc_thread_delete(A));
  OK(tc_thread_terminate(C));
  OK(tc_thread_delete(C));
  CHECK(tc__k.power.tasks.head == NULL);
}

/* tc_power_set_point() waits while a policy of its own chooses the point; the classes and a
 * thread's class take effect at once under load scaling. */
static void the_set_point_waits_for_its_policy(void)
{
  tct_begin();
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  OK(tc_thread_create(A, "a", spin, NULL, TCT_STACK(0), 5, 5, 0, 0));
  OK(tc_power_policy(TC_POLICY_LOAD_SCALING)); /* the Default row: every class at the top */
  CHECK_EQ(tc_power_point(), 3);
  OK(tc_power_set_point(0));
  CHECK_EQ(tc_power_point(), 3);
  const uint8_t row[TC_LOAD_CLASSES] = {3, 2, 1, 0};
  OK(tc_power_classes(row)); /* before the start the point is the normal class's */
  CHECK_EQ(tc_power_point(), 2);
  OK(tc_power_thread_class(A, TC_LOAD_LOW));
  CHECK_EQ(tc_power_point(), 2);
  STEP();
  OK(tc_power_policy(TC_POLICY_FIXED));
  CHECK_EQ(tc_power_point(), 0); /* the point set meanwhile */
  OK(tc_power_policy(TC_POLICY_IDLE_SCALING));
  OK(tc_power_set_point(1));
  CHECK_EQ(tc_power_point(), 1);
  STEP();
}

/* Objects that are not what the call takes: refused, nothing changes. */
static void foreign_objects_are_refused(void)
{
  tct_begin();
  static tc_thread not_a_thread;
  static tc_hisr not_a_hisr;
  tc_energy_phase ph;
  tc_energy_t e;
  EXPECT_ARG(tc_energy_phase_begin(&ph), TC_INVALID); /* no table yet */
  EXPECT_ARG(tc_energy_phase_end(&ph, &e, &e), TC_INVALID);
  EXPECT_ARG(tc_energy_hisr(&not_a_hisr, &e), TC_INVALID);
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  EXPECT_ARG(tc_energy_thread(&not_a_thread, &e), TC_INVALID);
  EXPECT_ARG(tc_energy_thread(NULL, &e), TC_INVALID);
  EXPECT_ARG(tc_energy_hisr(&not_a_hisr, &e), TC_INVALID);
  EXPECT_ARG(tc_energy_hisr(&hisr, NULL), TC_INVALID);
  EXPECT_ARG(tc_power_thread_class(&not_a_thread, TC_LOAD_LOW), TC_INVALID);
  EXPECT_ARG(tc_power_task(&not_a_thread, 10, 10), TC_INVALID);
  EXPECT_ARG(tc_power_release(NULL), TC_INVALID);
  EXPECT_ARG(tc_power_release(&not_a_thread), TC_INVALID);
  CHECK(tc__k.power.tasks.head == NULL);
  STEP();
}

/* A phase is ended by the thread that began it, in a thread. */
static tc_energy_phase shared_phase;

static void phase_from_a_handler(void *arg)
{
  (void)arg;
  tc_energy_t e;
  CHECK_EQ(tc_energy_phase_end(&shared_phase, &e, &e), TC_CALLER_ERROR);
}

static void phase_owner(void *arg)
{
  (void)arg;
  OK(tc_energy_phase_begin(&shared_phase));
  tct_interrupt(phase_from_a_handler, NULL);
  OK(tc_thread_sleep(1)); /* b tries to end it */
  tc_energy_t sys, own;
  OK(tc_energy_phase_end(&shared_phase, &sys, &own));
}

static void phase_stranger(void *arg)
{
  (void)arg;
  tc_energy_t e;
  EXPECT_ARG(tc_energy_phase_end(&shared_phase, &e, &e), TC_INVALID);
}

static void phases_belong_to_their_thread(void) { run_two(phase_owner, phase_stranger, NPOINTS - 1); }

/* RT-DVS: a job past its deadline with work left (it could not run: a thread outside the
 * declared set held the CPU) sends the next decision to the highest point. */
static void hog(void *arg)
{
  (void)arg;
  OK(tc_power_release(B));
  OK(tc_power_release(A)); /* a: due in 2 ticks, and it cannot run before this thread sleeps */
  unsigned low = tc_power_point();
  CHECK(low < NPOINTS - 1); /* two small jobs: a low point will do */
  tct_work(3u * (tc_cycles_hz() / TC_TICK_HZ)); /* past a's deadline */
  OK(tc_power_release(B)); /* the next decision sees a late */
  CHECK_EQ(tc_power_point(), NPOINTS - 1);
  STEP();
}

static void late_job(void *arg)
{
  (void)arg;
  OK(tc_power_complete());
}

static void a_late_job_takes_the_highest_point(void)
{
  tct_begin();
  OK(tc_power_init(POINTS, NPOINTS, C_EFF, P_STATIC));
  OK(tc_thread_create(A, "a", late_job, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(B, "b", spin, NULL, TCT_STACK(1), 6, 6, 0, 0));
  OK(tc_thread_create(C, "hog", hog, NULL, TCT_STACK(2), 1, 1, 0, TC_AUTO_START));
  OK(tc_power_task(A, 2, 1000));
  OK(tc_power_task(B, 10, 1000));
  OK(tc_power_policy(TC_POLICY_RT_DVS));
  CHECK_EQ(tct_run_kernel(), 0);
}

TCT_MAIN("test_power",
         TCT_CASE(no_table_refuses_everything),
         TCT_CASE(bad_tables_change_nothing),
         TCT_CASE(wrong_calling_contexts),
         TCT_CASE(parts_add_up_to_the_whole),
         TCT_CASE(deleted_threads_stay_counted),
         TCT_CASE(phases_measure_a_stretch),
         TCT_CASE(load_scaling_follows_the_classes),
         TCT_CASE(fixed_point_stays_through_idle),
         TCT_CASE(static_scaling_picks_the_lowest_feasible_point),
         TCT_CASE(hisrs_have_their_own_part),
         TCT_CASE(a_table_after_a_run_keeps_the_switches),
         TCT_CASE(no_switch_costs_nothing),
         TCT_CASE(tasks_keep_rate_monotonic_order),
         TCT_CASE(the_set_point_waits_for_its_policy),
         TCT_CASE(foreign_objects_are_refused),
         TCT_CASE(phases_belong_to_their_thread),
         TCT_CASE(a_late_job_takes_the_highest_point),
#if SIM
         TCT_CASE(sim_clock_follows_the_point),
         TCT_CASE(static_scaling_meets_every_deadline),
         TCT_CASE(rt_dvs_meets_every_deadline),
#endif
)
