/* SPDX-License-Identifier: MIT */
/*
 * dpm: the power-management experiment of Ahn et al., "UbiFOS: A Small Real-Time Operating System
 * for Embedded Systems" (tables 1 and 2) on the sim port, with
 * the S3C2440's operating points (power/s3c2440.yaml, through its generated header).
 *
 * Two workloads shaped like Ahn et al.'s applications, each run for a fixed stretch of virtual
 * time under seven policies: Ahn et al.'s five rows of table 1 (Default, Idle scaling, LS399,
 * LS266, LS96: TC_POLICY_LOAD_SCALING with that row's points for Task+, Task, Task- and idle),
 * static voltage scaling (TC_POLICY_STATIC) and cycle-conserving RM DVS (TC_POLICY_RT_DVS).
 * Every task is declared (tc_power_task) and reports its releases and completions under
 * every policy; only the last two use them.
 *
 *   WAV player, display off: periodic decoding, a light load.
 *     decoder  Task,  every 10 ms, 300,000-400,000 cycles: 441 stereo frames of 16-bit PCM
 *              from the file buffer into the audio DMA buffer (volume, format)
 *     reader   Task-, every 100 ms, 600,000-1,000,000 cycles: the next 17.6 KB of the file
 *              from NAND flash (file system, ECC)
 *     10% + 2.5% of the CPU at 399 MHz at worst.
 *   PushPush game, display on: bursty, input-driven work on a Java VM.
 *     input    Task-, every 20 ms, 15,000-20,000 cycles: scans the keys and, on a key press,
 *              releases the game's move
 *     game     Task, sporadic, 6-12 million cycles per move: the VM interprets the move and
 *              redraws the board; key presses come in bursts of 1-6, 100-200 ms apart,
 *              with 1-3 s pauses between bursts (a seeded generator)
 *     The display is a constant DISPLAY_WATTS of static power (see below).
 *   PushPush (board profile): the same game with the s3c2440 table's `pushpush` profile
 *     (C_eff and static power fitted to Ahn et al.'s PushPush currents) instead of the
 *     constant display: what the paper's 30% needs of the board.
 *
 * A job misses when it ends after the next release of its task (tc_tick_get() and
 * tc_sim_tick_elapsed(): a job that ends exactly at the tick of the next release meets it);
 * a job still pending at the end of the run whose next release has passed counts as a miss.
 * The energy is tc_energy_report()'s total; the program checks that the threads, the HISRs,
 * idle and the switch path add up to it, in cycles and in joules, in every run. Exit status:
 * 0 when every check held.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tacet/power.h"
#include "tacet/sim.h"
#include "tacet/tacet.h"
#include "tacet_power_s3c2440.h"

#define POINTS      TC_POWER_S3C2440_COUNT
#define STACK       16384u
#define MAX_TASKS   3u
#define QUEUE       64u /* pending jobs per task */
#define SUPPLY_VOLT 5.0 /* Ahn et al. measured the board's current at a 5 V supply */

/* The display of the PushPush runs, as constant static power: Ahn et al.'s table 2 at LS96,
 * where both applications run almost everything at 96 MHz, puts PushPush (display on)
 * 0.244 A - 0.194 A = 0.050 A above WAV (display off) at 5 V. */
#define DISPLAY_WATTS 0.25
/* A context switch on the sim port: the order of Tacet's on a 32-bit ARM core
 * (bench/ctx_energy: about 186 instructions per switch on a Cortex-M3). */
#define SWITCH_COST 200u

/* ---- workloads ---------------------------------------------------------------------------- */

typedef struct task task;
struct task {
  const char *name;
  unsigned priority, load_class;
  uint32_t period;                /* ticks; 0: sporadic (released by another task) */
  uint32_t min_gap;               /* sporadic: the least ticks between releases */
  uint64_t work_min, work_max;    /* cycles per job, drawn uniformly */
  void (*after_job)(task *t);     /* a job's end (the input task releases the game) */
  /* Run state. */
  tc_thread thread;
  tc_sem sem;
  tc_timer timer;
  uint32_t rng;
  uint32_t deadline[QUEUE];       /* ticks: each pending job's next release */
  unsigned head, count;
  uint64_t releases, jobs, misses;
  bool busy;                      /* a job popped and not finished */
  uint32_t busy_deadline;
};

typedef struct {
  const char *name;
  const char *what;
  task *tasks;
  unsigned n_tasks;
  uint32_t run_ticks;
  double c_eff, p_static, extra_watts;
  double seed_ls96_saving;        /* Ahn et al.'s table 2: LS96 against Default */
  const char *seed_currents;      /* a row of Ahn et al.'s table 2 */
} workload;

static task wav_tasks[] = {
  {.name = "decoder", .priority = 10, .load_class = TC_LOAD_NORMAL, .period = 10, .work_min = 300000,
   .work_max = 400000},
  {.name = "reader", .priority = 12, .load_class = TC_LOAD_LOW, .period = 100, .work_min = 600000,
   .work_max = 1000000},
};

static void input_job(task *t);
static task game_tasks[] = {
  {.name = "input", .priority = 8, .load_class = TC_LOAD_LOW, .period = 20, .work_min = 15000, .work_max = 20000,
   .after_job = input_job},
  {.name = "game", .priority = 10, .load_class = TC_LOAD_NORMAL, .min_gap = 100, .work_min = 6000000,
   .work_max = 12000000},
};
#define INPUT (&game_tasks[0])
#define GAME  (&game_tasks[1])

static const workload workloads[] = {
  {"WAV", "WAV player, display off", wav_tasks, 2, 10000, TC_POWER_S3C2440_C_EFF, TC_POWER_S3C2440_P_STATIC, 0.0,
   1.0 - 0.194 / 0.239, "Default 0.239 A, LS399 0.198 A, LS266 0.198 A, LS96 0.194 A"},
  {"PushPush", "PushPush game, display on (+0.25 W static)", game_tasks, 2, 30000, TC_POWER_S3C2440_C_EFF,
   TC_POWER_S3C2440_P_STATIC, DISPLAY_WATTS, 1.0 - 0.244 / 0.348, "Default 0.348 A, LS96 0.244 A"},
  {"PushPush/profile", "PushPush game, the table's pushpush profile", game_tasks, 2, 30000,
   TC_POWER_S3C2440_PUSHPUSH_C_EFF, TC_POWER_S3C2440_PUSHPUSH_P_STATIC, 0.0, 1.0 - 0.244 / 0.348,
   "Default 0.348 A, LS96 0.244 A"},
};
#define WORKLOADS (sizeof workloads / sizeof workloads[0])

/* ---- policies ----------------------------------------------------------------------------- */

typedef struct {
  const char *name;
  unsigned policy;
  const uint8_t *row; /* load scaling: a row of Ahn et al.'s table 1 */
} policy;

static const policy policies[] = {
  {"Default", TC_POLICY_LOAD_SCALING, TC_POWER_S3C2440_DEFAULT},
  {"Idle scaling", TC_POLICY_LOAD_SCALING, TC_POWER_S3C2440_IDLE_SCALING},
  {"LS399", TC_POLICY_LOAD_SCALING, TC_POWER_S3C2440_LS399},
  {"LS266", TC_POLICY_LOAD_SCALING, TC_POWER_S3C2440_LS266},
  {"LS96", TC_POLICY_LOAD_SCALING, TC_POWER_S3C2440_LS96},
  {"Static", TC_POLICY_STATIC, NULL},
  {"RT-DVS", TC_POLICY_RT_DVS, NULL},
};
#define POLICIES (sizeof policies / sizeof policies[0])

typedef struct {
  tc_energy_report_t report;
  uint64_t jobs, misses, unfinished;
  double seconds;
} result;

static result results[WORKLOADS][POLICIES];
static bool failed;

static void fail(const char *what, const workload *w, const policy *p)
{
  printf("FAILED: %s (%s, %s)\n", what, w->name, p->name);
  failed = true;
}

/* ---- the run ------------------------------------------------------------------------------ */

static struct {
  const workload *w;
  bool queue_overflow, service_failed;
  /* PushPush: the scan (multiple of INPUT's period) of each key press. */
  uint32_t presses[512];
  unsigned n_presses, next_press;
} run;

static uint32_t xorshift(uint32_t *s)
{
  uint32_t x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *s = x;
}

static uint64_t draw(task *t, uint64_t lo, uint64_t hi) { return lo + xorshift(&t->rng) % (hi - lo + 1u); }

/* A job of `t` is released now; it must end by `deadline`. */
static void release(task *t, uint32_t deadline)
{
  if (t->count == QUEUE) {
    run.queue_overflow = true;
    return;
  }
  t->deadline[(t->head + t->count++) % QUEUE] = deadline;
  t->releases++;
  if (tc_power_release(&t->thread) != TC_OK || tc_sem_give(&t->sem) != TC_OK) run.service_failed = true;
}

/* A periodic release: expiry k of the timer is at tick k * period (tacet/timer.h: no drift). */
static void periodic(void *arg)
{
  task *t = arg;
  release(t, (uint32_t)(t->releases + 2u) * t->period);
}

/* Key presses in bursts, at multiples of the input task's period (its scans). */
static void make_presses(void)
{
  uint32_t rng = 0x5eed004u, scan = 50; /* the first burst after a second */
  const uint32_t scans = run.w->run_ticks / INPUT->period;
  run.n_presses = run.next_press = 0;
  while (scan < scans && run.n_presses < sizeof run.presses / sizeof run.presses[0]) {
    unsigned burst = 1u + xorshift(&rng) % 6u;
    for (unsigned i = 0; i < burst && scan < scans; i++) {
      run.presses[run.n_presses++] = scan;
      scan += 5u + xorshift(&rng) % 6u; /* 100-200 ms */
    }
    scan += 50u + xorshift(&rng) % 101u; /* a pause of 1-3 s */
  }
}

/* After each key scan: a press since the last one releases a move, due by the next press
 * (or, after the last, by the least gap). */
static void input_job(task *t)
{
  const uint32_t scan = tc_tick_get() / t->period;
  while (run.next_press < run.n_presses && run.presses[run.next_press] <= scan) {
    run.next_press++;
    const uint32_t next = run.next_press < run.n_presses ? run.presses[run.next_press] * t->period
                                                         : tc_tick_get() + GAME->min_gap;
    release(GAME, next);
  }
}

/* The task's job's end is late: after the tick of its next release, or past it within it. */
static bool late(uint32_t deadline)
{
  const uint32_t now = tc_tick_get();
  return (int32_t)(now - deadline) > 0 || (now == deadline && tc_sim_tick_elapsed() > 0);
}

static void task_main(void *arg)
{
  task *t = arg;
  for (;;) {
    if (tc_sem_take(&t->sem, TC_WAIT_FOREVER) != TC_OK) run.service_failed = true;
    t->busy_deadline = t->deadline[t->head];
    t->head = (t->head + 1u) % QUEUE;
    t->count--;
    t->busy = true;
    tc_sim_consume(draw(t, t->work_min, t->work_max));
    if (late(t->busy_deadline)) t->misses++;
    t->busy = false;
    t->jobs++;
    if (t->after_job != NULL) t->after_job(t);
    if (tc_power_complete() != TC_OK) run.service_failed = true;
  }
}

static tc_thread stopper;
static uint8_t stacks[MAX_TASKS + 1u][STACK] __attribute__((aligned(16)));

/* At the end of the run: jobs not done whose next release has passed are misses too. */
static void stop_main(void *arg)
{
  result *r = arg;
  tc_thread_sleep(run.w->run_ticks);
  for (unsigned i = 0; i < run.w->n_tasks; i++) {
    task *t = &run.w->tasks[i];
    r->jobs += t->jobs;
    r->misses += t->misses;
    r->unfinished += t->count + t->busy;
    if (t->busy && late(t->busy_deadline)) r->misses++;
    for (unsigned k = 0; k < t->count; k++)
      if (late(t->deadline[(t->head + k) % QUEUE])) r->misses++;
  }
  if (tc_energy_report(&r->report) != TC_OK) run.service_failed = true;
  tc_sim_stop(0);
}

static void run_case(const workload *w, const policy *p, result *r)
{
  memset(r, 0, sizeof *r);
  memset(&run, 0, sizeof run);
  run.w = w;
  tc_kernel_init();
  tc_sim_set_switch_cost(SWITCH_COST);
  bool ok = tc_power_init(TC_POWER_S3C2440_POINTS, POINTS, w->c_eff, w->p_static + w->extra_watts) == TC_OK &&
            tc_thread_create(&stopper, "stop", stop_main, r, stacks[MAX_TASKS], STACK, 1, 1, 0, TC_AUTO_START) == TC_OK;
  for (unsigned i = 0; ok && i < w->n_tasks; i++) {
    task *t = &w->tasks[i];
    memset(&t->thread, 0, sizeof *t - offsetof(task, thread));
    t->rng = 0x9e3779b9u * (i + 1u);
    /* Declared to the policies: the period (a sporadic task's least gap) and the worst case. */
    ok = tc_sem_create(&t->sem, t->name, 0, QUEUE) == TC_OK &&
         tc_thread_create(&t->thread, t->name, task_main, t, stacks[i], STACK, t->priority, t->priority, 0,
                          TC_AUTO_START) == TC_OK &&
         tc_power_thread_class(&t->thread, t->load_class) == TC_OK &&
         tc_power_task(&t->thread, t->period != 0 ? t->period : t->min_gap, t->work_max) == TC_OK &&
         (t->period == 0 ||
          tc_timer_create(&t->timer, t->name, periodic, t, t->period, t->period, TC_AUTO_ACTIVATE) == TC_OK);
  }
  if (w->tasks == game_tasks) make_presses();
  ok = ok && (p->row == NULL || tc_power_classes(p->row) == TC_OK) && tc_power_policy(p->policy) == TC_OK;
  if (!ok) {
    fail("set-up", w, p);
    return;
  }
  if (tc_kernel_start() != 0) fail("the run", w, p);
  if (run.service_failed) fail("a kernel service failed", w, p);
  if (run.queue_overflow) fail("more than 64 jobs pending", w, p);

  /* The parts add up to the total: threads, HISRs (the timers' callbacks), idle, switches. */
  const tc_energy_report_t *e = &r->report;
  r->seconds = e->total.seconds;
  const double parts = e->threads.joules + e->hisrs.joules + e->idle.joules + e->switching.joules;
  if (e->total.total_cycles !=
          e->threads.total_cycles + e->hisrs.total_cycles + e->idle.total_cycles + e->switching.total_cycles ||
      fabs(parts - e->total.joules) > 1e-9 * e->total.joules)
    fail("the parts do not add up to the total", w, p);
  /* The run lasts its ticks, and the few switches of the stop (sim: the clock runs on through
   * a switch's cost). */
  if (fabs(e->total.seconds - w->run_ticks / (double)TC_TICK_HZ) > 1e-4) fail("run length", w, p);
  if (r->jobs == 0) fail("no job ran", w, p);
}

/* ---- report ------------------------------------------------------------------------------- */

static void print_workload(unsigned wi)
{
  const workload *w = &workloads[wi];
  const double e0 = results[wi][0].report.total.joules;
  printf("\n%s: %s, %.0f s\n", w->name, w->what, w->run_ticks / (double)TC_TICK_HZ);
  printf("%-12s %9s %8s %7s %8s | %5s %5s %5s | %8s %7s %s\n", "policy", "energy J", "vs Def.", "mean W", "A at 5 V",
         "%f96", "%f266", "%f399", "switches", "changes", "misses / jobs (unfinished)");
  for (unsigned pi = 0; pi < POLICIES; pi++) {
    const result *r = &results[wi][pi];
    const tc_energy_t *t = &r->report.total;
    printf("%-12s %9.3f %7.1f%% %7.3f %8.3f |", policies[pi].name, t->joules, (t->joules / e0 - 1.0) * 100.0,
           t->joules / r->seconds, t->joules / r->seconds / SUPPLY_VOLT);
    for (unsigned p = 0; p < POINTS; p++)
      printf(" %5.1f", (double)t->cycles[p] / TC_POWER_S3C2440_POINTS[p].freq_hz / r->seconds * 100.0);
    printf(" | %8" PRIu64 " %7" PRIu64 " %" PRIu64 " / %" PRIu64 " (%" PRIu64 ")\n", r->report.context_switches,
           r->report.point_changes, r->misses, r->jobs, r->unfinished);
  }
  printf("Ahn et al., table 2 (the board at 5 V): %s\n", w->seed_currents);
}

static void print_summary(void)
{
  printf("\nTable 2: energy against Default (negative: a saving), deadline misses in brackets\n");
  printf("%-17s", "workload");
  for (unsigned pi = 0; pi < POLICIES; pi++) printf(" %13s", policies[pi].name);
  printf(" | Ahn et al. LS96\n");
  for (unsigned wi = 0; wi < WORKLOADS; wi++) {
    printf("%-17s", workloads[wi].name);
    const double e0 = results[wi][0].report.total.joules;
    for (unsigned pi = 0; pi < POLICIES; pi++) {
      char cell[32];
      snprintf(cell, sizeof cell, "%+.1f%% (%" PRIu64 ")", (results[wi][pi].report.total.joules / e0 - 1.0) * 100.0,
               results[wi][pi].misses);
      printf(" %13s", cell);
    }
    printf(" | %+.1f%%\n", -workloads[wi].seed_ls96_saving * 100.0);
  }
}

int main(void)
{
  printf("dpm: the power-management experiment of Ahn et al., \"UbiFOS: A Small Real-Time Operating "
         "System for Embedded Systems\", on the sim port; board table s3c2440 "
         "(power/s3c2440.yaml):");
  for (unsigned p = 0; p < POINTS; p++)
    printf(" %.0f MHz", TC_POWER_S3C2440_POINTS[p].freq_hz / 1e6);
  printf(" at %.2f V, C_eff %.4g F, static %.4g W; %u cycles per context switch\n",
         TC_POWER_S3C2440_POINTS[0].millivolt / 1000.0, TC_POWER_S3C2440_C_EFF, TC_POWER_S3C2440_P_STATIC,
         SWITCH_COST);
  for (unsigned wi = 0; wi < WORKLOADS; wi++)
    for (unsigned pi = 0; pi < POLICIES; pi++) run_case(&workloads[wi], &policies[pi], &results[wi][pi]);
  for (unsigned wi = 0; wi < WORKLOADS; wi++) print_workload(wi);
  print_summary();
  printf("\n%s\n", failed ? "dpm: FAILED" : "dpm: every run's parts added up to its total");
  return failed;
}
