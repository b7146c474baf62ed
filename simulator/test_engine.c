/* SPDX-License-Identifier: MIT */
/* The simulation engine (engine.h): hand-computed schedules, critical sections with and
 * without priority inheritance, the execution-time models' bounds, the p99, misses at the
 * horizon, switch and release costs, determinism and refused configurations. Built with
 * TSIM_CHECK: the kernel's invariant checker runs after every job of every simulation. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "tct.h"

#define MAX_THREADS 8
#define K           1000u /* the hand-computed schedules count in thousands of cycles */

static tsim_thread threads[MAX_THREADS];
static tsim_mutex mutexes[2];
static tsim_thread_result res[MAX_THREADS];
static tsim_result total;
static tsim_config cfg;
static char error[256];

static void begin(uint32_t n, uint64_t horizon)
{
  memset(threads, 0, sizeof threads);
  memset(mutexes, 0, sizeof mutexes);
  memset(&cfg, 0, sizeof cfg);
  static const char *const names[MAX_THREADS] = {"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"};
  for (uint32_t i = 0; i < MAX_THREADS; i++) threads[i].name = names[i];
  mutexes[0].name = "m0";
  mutexes[1].name = "m1";
  cfg.abi = TSIM_ABI_VERSION;
  cfg.n_threads = n;
  cfg.threads = threads;
  cfg.mutexes = mutexes;
  cfg.horizon = horizon;
  cfg.seed = 1;
}

static void task(uint32_t i, uint32_t priority, uint64_t period, uint64_t wcet)
{
  threads[i].priority = threads[i].threshold = priority;
  threads[i].period = threads[i].deadline = period;
  threads[i].wcet = threads[i].bcet = wcet;
}

static int run(void)
{
  error[0] = '\0';
  int status = tsim_run(&cfg, res, &total, error, sizeof error);
  if (status != 0) printf("    tsim_run: %s\n", error);
  return status;
}

/* Three fully preemptive threads released together (units of K cycles):
 *   t0 T 10 C 3: 0-3, 10-13, 20-23            responses 3 3 3
 *   t1 T 15 C 4: 3-7, 15-19                   responses 7 4
 *   t2 T 30 C 8: 7-10, 13-15, 19-20, 23-25    response 25, preempted three times */
static void rate_monotonic_schedule_by_hand(void)
{
  begin(3, 30 * K);
  task(0, 0, 10 * K, 3 * K);
  task(1, 1, 15 * K, 4 * K);
  task(2, 2, 30 * K, 8 * K);
  CHECK_EQ(run(), 0);
  CHECK_EQ(res[0].completed, 3);
  CHECK_EQ(res[0].response_min, 3 * K);
  CHECK_EQ(res[0].response_max, 3 * K);
  CHECK_EQ(res[1].completed, 2);
  CHECK_EQ(res[1].response_min, 4 * K);
  CHECK_EQ(res[1].response_max, 7 * K);
  CHECK_EQ(res[1].response_sum, 11 * K);
  CHECK_EQ(res[2].completed, 1);
  CHECK_EQ(res[2].response_max, 25 * K);
  CHECK_EQ(res[2].preemptions, 3);
  CHECK_EQ(res[2].preemptions_max, 3);
  CHECK_EQ(res[2].switches_in, 4);
  CHECK_EQ(res[0].preemptions + res[1].preemptions, 0);
  CHECK_EQ(res[0].switches_in, 3);
  CHECK_EQ(res[1].switches_in, 2);
  CHECK_EQ(total.context_switches, 9);
  CHECK_EQ(total.preemptions, 3);
  CHECK_EQ(total.idle_cycles, 5 * K);
  CHECK_EQ(total.missed, 0);
  CHECK_EQ(total.end, 30 * K);
  for (unsigned i = 0; i < 3; i++) {
    CHECK_EQ(res[i].blocking_max, 0);
    CHECK_EQ(res[i].unfinished, 0);
    CHECK_EQ(res[i].cycles, res[i].exec_sum);
  }
}

/* The same set non-preemptive (every threshold 0): 0-3 t0, 3-7 t1, 7-15 t2 whole while t0's
 * job 1 waits from 10 (blocked 5), 15-18 t0 (response 8), 18-22 t1 (response 7) while t0's
 * job 2 waits from 20 (blocked 2 by t1), 22-25 t0 (response 5). */
static void non_preemptive_schedule_by_hand(void)
{
  begin(3, 30 * K);
  task(0, 0, 10 * K, 3 * K);
  task(1, 1, 15 * K, 4 * K);
  task(2, 2, 30 * K, 8 * K);
  threads[1].threshold = threads[2].threshold = 0;
  CHECK_EQ(run(), 0);
  CHECK_EQ(res[0].response_max, 8 * K);
  CHECK_EQ(res[0].response_sum, (3 + 8 + 5) * K);
  CHECK_EQ(res[0].blocking_max, 5 * K);
  CHECK_EQ(res[0].blocking_sum, (5 + 2) * K);
  CHECK_EQ(res[1].response_max, 7 * K);
  CHECK_EQ(res[1].blocking_max, 0); /* t2 ran 7-15, before t1's job 1 was released */
  CHECK_EQ(res[2].response_max, 15 * K);
  CHECK_EQ(total.preemptions, 0);
}

/* A low thread holds m0 when a high one wants it, and a middle one arrives meanwhile:
 *   t0 (high) offset 3, C 4, locks m0 from 1 for 2      t1 (middle) offset 4, C 5
 *   t2 (low)  offset 0, C 10, locks m0 from 2 for 6
 * With inheritance: t2 0-3, t0 3-4 (waits), t2 4-9 at t0's priority, t0 9-12, t1 12-17,
 * t2 17-19: responses 9, 13, 19; t0 and t1 both blocked 5 by t2.
 * Without: t1 runs 4-9 ahead of the holder, t2 9-14, t0 14-17: t0's response 14. */
static void mutex_blocks_with_and_without_inheritance(void)
{
  for (unsigned inherit = 0; inherit < 2; inherit++) {
    begin(3, 100 * K);
    cfg.n_mutexes = 1;
    mutexes[0].inherit = inherit;
    task(0, 0, 100 * K, 4 * K);
    task(1, 1, 100 * K, 5 * K);
    task(2, 2, 100 * K, 10 * K);
    threads[0].offset = 3 * K;
    threads[1].offset = 4 * K;
    threads[0].n_sections = threads[2].n_sections = 1;
    threads[0].sections[0] = (tsim_section){.mutex = 0, .offset = 1 * K, .length = 2 * K};
    threads[2].sections[0] = (tsim_section){.mutex = 0, .offset = 2 * K, .length = 6 * K};
    CHECK_EQ(run(), 0);
    CHECK_EQ(res[0].lock_waits, 1);
    CHECK_EQ(res[2].lock_waits, 0);
    CHECK_EQ(res[2].response_max, 19 * K);
    CHECK_EQ(res[2].preemptions, 2); /* by t0 at 3, and to t0 when it unlocks */
    if (inherit) {
      CHECK_EQ(res[0].response_max, 9 * K);
      CHECK_EQ(res[1].response_max, 13 * K);
      CHECK_EQ(res[0].blocking_max, 5 * K);
      CHECK_EQ(res[1].blocking_max, 5 * K);
    } else {
      CHECK_EQ(res[0].response_max, 14 * K);
      CHECK_EQ(res[1].response_max, 5 * K);
      CHECK_EQ(res[0].blocking_max, 10 * K); /* t1 4-9 and t2 9-14, both of lower priority */
      CHECK_EQ(res[1].blocking_max, 0);
    }
    CHECK_EQ(res[0].preemptions, 0); /* waiting is not being preempted */
  }
}

/* A section longer than what a short job has left is cut at the job's end. */
static void section_is_cut_by_a_short_job(void)
{
  begin(2, 100 * K);
  cfg.n_mutexes = 1;
  mutexes[0].inherit = 1;
  task(0, 0, 100 * K, 3 * K);
  task(1, 1, 100 * K, 10 * K);
  threads[0].offset = 2 * K;
  threads[0].n_sections = threads[1].n_sections = 1;
  threads[0].sections[0] = (tsim_section){.mutex = 0, .offset = 0, .length = 1 * K};
  threads[1].sections[0] = (tsim_section){.mutex = 0, .offset = 1 * K, .length = 8 * K};
  static const uint64_t trace[] = {4 * K}; /* t1 does 4 of its 10: holds m0 from 1 to 4 */
  threads[1].exec = TSIM_EXEC_TRACE;
  threads[1].trace = trace;
  threads[1].trace_len = 1;
  CHECK_EQ(run(), 0);
  CHECK_EQ(res[0].lock_waits, 1);
  CHECK_EQ(res[0].response_max, (4 - 2 + 3) * K); /* waits 2-4, runs 4-7 */
  /* t1's work ends at 4, in the section: it is complete then, though the unlock hands m0 to
   * t0, which runs before t1's thread goes on. */
  CHECK_EQ(res[1].response_max, 4 * K);
  CHECK_EQ(res[1].preemptions_max, 1); /* by t0's release at 2; the hand-over comes after */
  CHECK_EQ(res[1].preemptions, 2);
}

/* A job's end is a scheduling point. t1 (non-preemptive) runs job 0 for 25 K while its jobs
 * 1 and 2 and t0's jobs at 5 K, 15 K and 25 K are released; at 25 K t1 yields and t0 runs its
 * three jobs (responses 21 K, 12 K, 3 K) before t1's job 1 (28-29 K); t1's job 2 is still
 * running at the horizon, 30 K. */
static void backlog_yields_at_the_job_boundary(void)
{
  begin(2, 30 * K);
  task(0, 0, 10 * K, 1 * K);
  task(1, 1, 10 * K, 25 * K);
  threads[0].offset = 5 * K;
  threads[1].threshold = 0;
  static const uint64_t trace[] = {25 * K, 1 * K, 25 * K};
  threads[1].exec = TSIM_EXEC_TRACE;
  threads[1].trace = trace;
  threads[1].trace_len = 3;
  threads[1].deadline = 30 * K;
  CHECK_EQ(run(), 0);
  CHECK_EQ(res[0].completed, 3);
  CHECK_EQ(res[0].response_max, 21 * K);
  CHECK_EQ(res[0].response_sum, (21 + 12 + 3) * K);
  CHECK_EQ(res[0].blocking_max, 20 * K);
  CHECK_EQ(res[1].completed, 2);
  CHECK_EQ(res[1].response_sum, (25 + 19) * K);
  CHECK_EQ(res[1].unfinished, 1);
  CHECK_EQ(res[1].oldest_unfinished, 10 * K);
  CHECK_EQ(res[1].yields, 1); /* at 29 K nothing more urgent is ready: no switch */
  CHECK_EQ(res[1].preemptions, 1); /* the kernel counts the yield's switch */
  CHECK_EQ(res[1].preemptions_max, 0);
}

/* Two threads, a switch cost of 100 cycles: t1 runs last at start-up, so t0's first switch
 * costs; at 20 the CPU comes back from idle to t0, which it ran last: no cost. */
static void switch_cost_by_hand(void)
{
  begin(2, 30 * K);
  task(0, 0, 10 * K, 3 * K);
  task(1, 1, 20 * K, 4 * K);
  cfg.switch_cost = 100;
  CHECK_EQ(run(), 0);
  CHECK_EQ(res[0].response_sum, 3100 + 3100 + 3000);
  CHECK_EQ(res[1].response_sum, 7200 + 7100);
  CHECK_EQ(total.switch_cycles, 400);
  CHECK_EQ(total.context_switches, 4);
}

/* switch_cost_by_hand's schedule priced by the model `fn`: four switches at `each` cycles. */
static void four_switches_at(tsim_switch_cost_fn fn, void *model, uint64_t each)
{
  begin(2, 30 * K);
  task(0, 0, 10 * K, 3 * K);
  task(1, 1, 20 * K, 4 * K);
  cfg.switch_fn = fn;
  cfg.switch_arg = model;
  CHECK_EQ(run(), 0);
  CHECK_EQ(total.context_switches, 4);
  CHECK_EQ(total.switch_cycles, 4 * each);
}

static uint64_t by_incoming(int32_t from, int32_t to, void *arg)
{
  unsigned *calls = arg;
  (*calls)++;
  CHECK(to >= 0 && to < 2);
  CHECK(from >= -1 && from < 2 && from != to);
  return to == 0 ? 10u : 1000u;
}

static void switch_cost_function(void)
{
  begin(2, 30 * K);
  task(0, 0, 10 * K, 3 * K);
  task(1, 1, 20 * K, 4 * K);
  unsigned calls = 0;
  cfg.switch_cost = 5; /* not used: the function is */
  cfg.switch_fn = by_incoming;
  cfg.switch_arg = &calls;
  CHECK_EQ(run(), 0);
  CHECK_EQ(calls, 4);
  CHECK_EQ(total.switch_cycles, 2 * 10 + 2 * 1000);
  CHECK_EQ(res[0].response_max, 3 * K + 10);
}

/* Kim et al.'s figure 2: m tasks on n register files, n - 2 tasks of the highest rate-monotonic
 * priority on files of their own, the other m - (n - 2) on file n - 1 (0-based n - 2), file n
 * the interrupts'. Here table 1's five periods given out of order, on 4 files: T1 and T2 own
 * files 0 and 1, T3, T4 and T5 share file 2. */
static void regfile_mapping_follows_the_paper(void)
{
  static const uint64_t periods[5] = {14, 1, 57, 3, 5}; /* T4 T1 T5 T2 T3 */
  uint32_t file[5];
  CHECK_EQ(tsim_regfile_map(periods, 5, 4, file), 3);
  CHECK_EQ(file[1], 0); /* T1 */
  CHECK_EQ(file[3], 1); /* T2 */
  CHECK_EQ(file[4], 2); /* T3, T4, T5 share */
  CHECK_EQ(file[0], 2);
  CHECK_EQ(file[2], 2);
  /* 6 files: four tasks own one, T5 is alone on the fifth: a file of its own in effect. */
  CHECK_EQ(tsim_regfile_map(periods, 5, 6, file), 1);
  CHECK_EQ(file[1], 0);
  CHECK_EQ(file[3], 1);
  CHECK_EQ(file[4], 2);
  CHECK_EQ(file[0], 3);
  CHECK_EQ(file[2], 4);
  /* 1 or 2 files: everyone on file 0; equal periods go in index order. */
  static const uint64_t equal[3] = {5, 5, 5};
  CHECK_EQ(tsim_regfile_map(equal, 3, 1, file), 0);
  CHECK_EQ(file[0] + file[1] + file[2], 0);
  CHECK_EQ(tsim_regfile_map(equal, 3, 2, file), 3);
  CHECK_EQ(tsim_regfile_map(equal, 3, 4, file), 1);
  CHECK_EQ(file[0], 0);
  CHECK_EQ(file[1], 1);
  CHECK_EQ(file[2], 2);
}

/* Eqs. 1, 3 and 4 on an AVR's figures: PUSH and POP 2 cycles, 32 general registers and SREG,
 * 1 cycle to select a file, 2 to check. Two threads on 3 files: t0 owns file 0, t1 is alone on
 * file 1 -- both switch at eq. 3's cost; on 1 file at eq. 1's; on 2 (shared) at eq. 4's. */
static void regfile_costs_by_hand(void)
{
  uint32_t file[2];
  static const uint64_t periods[2] = {10 * K, 20 * K};
  tsim_regfiles m = {.n_threads = 2, .file = file, .t_str = 2, .n_str = 1, .n_greg = 32, .n_sreg = 1,
                     .n_ch = 1, .t_chk = 2, .base = 10};
  m.n_files = 1;
  (void)tsim_regfile_map(periods, 2, m.n_files, file);
  CHECK_EQ(tsim_regfile_cost(-1, 0, &m), 10 + 2 * 2 * 33);
  m.n_files = 2;
  (void)tsim_regfile_map(periods, 2, m.n_files, file);
  CHECK_EQ(tsim_regfile_cost(0, 1, &m), 10 + 2 * 2 * 33 + 3);
  m.n_files = 3;
  (void)tsim_regfile_map(periods, 2, m.n_files, file);
  CHECK_EQ(tsim_regfile_cost(0, 1, &m), 10 + 2 * 2 * 1 + 3);
  CHECK_EQ(tsim_regfile_cost(1, 0, &m), 10 + 2 * 2 * 1 + 3);
  /* In a run: switch_cost_by_hand's schedule, four switches at 17 cycles each. */
  four_switches_at(tsim_regfile_cost, &m, 17);
}

/* A measured cost: every switch costs one of the samples, each sample is drawn, and the same
 * seed draws the same sequence. */
static void measured_cost_draws_the_samples(void)
{
  static const uint64_t costs[3] = {100, 130, 400};
  tsim_measured m = {.n = 3, .costs = costs, .state = 7};
  unsigned seen[3] = {0, 0, 0};
  uint64_t first[8];
  for (unsigned i = 0; i < 3000; i++) {
    uint64_t c = tsim_measured_cost(0, 1, &m);
    CHECK(c == 100 || c == 130 || c == 400);
    seen[c == 100 ? 0 : c == 130 ? 1 : 2]++;
    if (i < 8) first[i] = c;
  }
  /* Uniform over the samples: each about a third of 3000 (a loose bound: it must only fail
   * for a draw that favours one sample or never reaches another). */
  for (unsigned k = 0; k < 3; k++) CHECK(seen[k] > 800 && seen[k] < 1200);
  m.state = 7;
  for (unsigned i = 0; i < 8; i++) CHECK_EQ(tsim_measured_cost(1, 0, &m), first[i]);
  /* One sample: a constant. In a run, switch_cost_by_hand's four switches at 17 cycles. */
  static const uint64_t one[1] = {17};
  tsim_measured c = {.n = 1, .costs = one, .state = 1};
  four_switches_at(tsim_measured_cost, &c, 17);
}

/* Each release costs the interrupt 250 cycles before the thread it makes ready runs. */
static void release_cost_delays_every_job(void)
{
  begin(1, 100 * K);
  task(0, 0, 10 * K, 3 * K);
  cfg.release_cost = 250;
  CHECK_EQ(run(), 0);
  CHECK_EQ(res[0].completed, 10);
  CHECK_EQ(res[0].response_min, 3 * K + 250);
  CHECK_EQ(res[0].response_max, 3 * K + 250);
  CHECK_EQ(total.release_cycles, 10 * 250);
  /* The interrupt's time is nobody's blocking: L runs when H is released at 1 K; H waits only
   * for the interrupt. */
  begin(2, 100 * K);
  task(0, 0, 100 * K, 1 * K);
  task(1, 1, 100 * K, 5 * K);
  threads[0].offset = 1 * K;
  cfg.release_cost = 250;
  CHECK_EQ(run(), 0);
  CHECK_EQ(res[0].response_max, 1 * K + 250);
  CHECK_EQ(res[0].blocking_max, 0);
  CHECK_EQ(res[1].response_max, 250 + 5 * K + 1 * K + 250);
}

/* One thread, T 10 C 15 over 100: jobs end at 15, 30, ..., 90; at 100 four are unfinished,
 * three of them past their deadline. */
static void overload_misses_and_unfinished_jobs(void)
{
  begin(1, 100 * K);
  task(0, 0, 10 * K, 15 * K);
  CHECK_EQ(run(), 0);
  CHECK_EQ(res[0].released, 10);
  CHECK_EQ(res[0].completed, 6);
  CHECK_EQ(res[0].unfinished, 4);
  CHECK_EQ(res[0].oldest_unfinished, 40 * K);
  CHECK_EQ(res[0].missed, 6 + 3);
  CHECK_EQ(res[0].response_max, (15 + 5 * 5) * K);
}

/* Responses 1..100 (K cycles) by a trace, each ten times: the 990th smallest of 1000 is 99. */
static void p99_is_the_nearest_rank(void)
{
  static uint64_t trace[100];
  for (unsigned i = 0; i < 100; i++) trace[i] = (uint64_t)(i * 37 % 100 + 1) * K;
  begin(1, 1000 * 200 * K);
  task(0, 0, 200 * K, 100 * K);
  threads[0].exec = TSIM_EXEC_TRACE;
  threads[0].trace = trace;
  threads[0].trace_len = 100;
  CHECK_EQ(run(), 0);
  CHECK_EQ(res[0].completed, 1000);
  CHECK_EQ(res[0].response_p99, 99 * K);
  CHECK_EQ(res[0].response_max, 100 * K);
  CHECK_EQ(res[0].response_min, 1 * K);
  CHECK_EQ(res[0].response_sum, 10 * 5050 * K);
  /* 50 jobs: the 50th smallest, the largest of them. */
  cfg.horizon = 50 * 200 * K;
  CHECK_EQ(run(), 0);
  CHECK_EQ(res[0].completed, 50);
  CHECK_EQ(res[0].response_p99, res[0].response_max);
}

/* Each model stays in [bcet, wcet]; over 20,000 jobs the uniform and normal ones reach near
 * both ends of the window and their mean is where it should be. */
static void execution_time_models_keep_their_bounds(void)
{
  const uint64_t jobs = 20000;
  begin(4, jobs * 10 * K);
  for (uint32_t i = 0; i < 4; i++) {
    task(i, i, 10 * K, 2 * K);
    threads[i].bcet = 1 * K;
  }
  threads[1].exec = TSIM_EXEC_UNIFORM;
  threads[2].exec = TSIM_EXEC_NORMAL; /* wide window against the deviation: normal draws */
  threads[2].mean = 1500;
  threads[2].stddev = 200;
  threads[3].exec = TSIM_EXEC_NORMAL; /* narrow window: uniform draws, kept by the density */
  threads[3].mean = 1100;
  threads[3].stddev = 2000;
  CHECK_EQ(run(), 0);
  CHECK_EQ(res[0].exec_min, 2 * K);
  CHECK_EQ(res[0].exec_max, 2 * K);
  for (uint32_t i = 1; i < 4; i++) {
    CHECK_EQ(res[i].completed, jobs);
    CHECK(res[i].exec_min >= 1 * K && res[i].exec_max <= 2 * K);
    CHECK(res[i].exec_min <= 1 * K + 20 && res[i].exec_max >= 2 * K - 20);
  }
  double mean1 = (double)res[1].exec_sum / (double)jobs, mean2 = (double)res[2].exec_sum / (double)jobs;
  CHECK(fabs(mean1 - 1500.0) < 10.0);
  CHECK(fabs(mean2 - 1500.0) < 10.0);
  /* The narrow one: a normal of sd 2000 around 1100 over [1000, 2000] falls slowly from the
   * left end, so its mean is below the window's middle but well inside it. */
  double mean3 = (double)res[3].exec_sum / (double)jobs;
  CHECK(mean3 > 1400.0 && mean3 < 1500.0);
}

/* Release jitter of 30 cycles on a lone thread (T 10 K, C 2 K): responses from the nominal
 * release in [2 K, 2 K + 30], and both ends reached. */
static void jitter_stays_within_its_bound(void)
{
  begin(1, 2000 * 10 * K);
  task(0, 0, 10 * K, 2 * K);
  threads[0].jitter = 30;
  CHECK_EQ(run(), 0);
  CHECK_EQ(res[0].response_min, 2 * K);
  CHECK_EQ(res[0].response_max, 2 * K + 30);
  CHECK_EQ(res[0].completed, 2000);
}

/* A set with everything in it, run twice: the same bytes. Another seed: other results. */
static void runs_are_deterministic(void)
{
  static tsim_thread_result first[MAX_THREADS];
  static tsim_result first_total;
  begin(6, 400 * K);
  cfg.n_mutexes = 2;
  mutexes[0].inherit = 1;
  static const uint64_t trace[] = {900, 2500, 1700};
  for (uint32_t i = 0; i < 6; i++) {
    task(i, 2 * i, (7 + 5 * i) * K, (1 + i / 2) * K);
    threads[i].threshold = i == 0 ? 0 : 2 * i - 2;
    threads[i].offset = i * 300;
    threads[i].jitter = i % 2 ? 500 : 0;
    threads[i].exec = i % 4;
    threads[i].bcet = 400;
    threads[i].mean = 600;
    threads[i].stddev = 300;
    threads[i].n_sections = 1;
    threads[i].sections[0] = (tsim_section){.mutex = i % 2, .offset = 100, .length = 300};
  }
  threads[3].trace = trace;
  threads[3].trace_len = 3;
  threads[3].wcet = 2500;
  cfg.switch_cost = 40;
  cfg.release_cost = 15;
  CHECK_EQ(run(), 0);
  memcpy(first, res, sizeof first);
  first_total = total;
  CHECK(total.completed > 100 && total.preemptions > 0);
  CHECK_EQ(run(), 0);
  CHECK(memcmp(first, res, sizeof first) == 0);
  CHECK(memcmp(&first_total, &total, sizeof total) == 0);
  cfg.seed = 2;
  CHECK_EQ(run(), 0);
  CHECK(memcmp(first, res, sizeof first) != 0);
}

static void expect_refused(const char *words)
{
  error[0] = '\0';
  CHECK_EQ(tsim_run(&cfg, res, &total, error, sizeof error), -1);
  if (strstr(error, words) == NULL) {
    printf("    error %s: want %s\n", error, words);
    CHECK(0);
  }
}

static void bad_configurations_are_refused(void)
{
  begin(1, 100 * K);
  task(0, 0, 10 * K, 3 * K);
  cfg.abi = 99;
  expect_refused("ABI version 99");
  cfg.abi = TSIM_ABI_VERSION;
  cfg.horizon = 0;
  expect_refused("horizon");
  cfg.horizon = 100 * K;
  threads[0].priority = 1024;
  expect_refused("priority 1024 out of range");
  threads[0].priority = 3;
  threads[0].threshold = 4;
  expect_refused("threshold 4 above the priority 3");
  threads[0].threshold = 3;
  threads[0].period = 0;
  expect_refused("period");
  threads[0].period = 10 * K;
  threads[0].exec = TSIM_EXEC_UNIFORM;
  threads[0].bcet = 4 * K;
  expect_refused("bcet above wcet");
  threads[0].exec = TSIM_EXEC_NORMAL;
  threads[0].bcet = 1 * K;
  threads[0].mean = 500;
  threads[0].stddev = 10;
  expect_refused("mean in [bcet, wcet]");
  threads[0].exec = TSIM_EXEC_TRACE;
  expect_refused("empty trace");
  threads[0].exec = TSIM_EXEC_FIXED;
  threads[0].n_sections = 1;
  threads[0].sections[0] = (tsim_section){.mutex = 0, .offset = 0, .length = 1};
  expect_refused("no mutex 0");
  cfg.n_mutexes = 1;
  threads[0].sections[0].length = 3 * K + 1;
  expect_refused("ends after wcet");
  threads[0].sections[0].length = 1;
  CHECK_EQ(run(), 0); /* and after all that, a good one runs */
  CHECK_EQ(res[0].completed, 10);
}

static void abi_sizes(void)
{
  uint32_t sizes[6];
  CHECK_EQ(tsim_abi(sizes), TSIM_ABI_VERSION);
  CHECK_EQ(sizes[1], sizeof(tsim_thread));
  CHECK_EQ(tsim_priorities(), TC_PRIORITIES);
}

TCT_MAIN("test_engine",
         TCT_CASE(rate_monotonic_schedule_by_hand),
         TCT_CASE(non_preemptive_schedule_by_hand),
         TCT_CASE(mutex_blocks_with_and_without_inheritance),
         TCT_CASE(section_is_cut_by_a_short_job),
         TCT_CASE(backlog_yields_at_the_job_boundary),
         TCT_CASE(switch_cost_by_hand),
         TCT_CASE(switch_cost_function),
         TCT_CASE(regfile_mapping_follows_the_paper),
         TCT_CASE(regfile_costs_by_hand),
         TCT_CASE(measured_cost_draws_the_samples),
         TCT_CASE(release_cost_delays_every_job),
         TCT_CASE(overload_misses_and_unfinished_jobs),
         TCT_CASE(p99_is_the_nearest_rank),
         TCT_CASE(execution_time_models_keep_their_bounds),
         TCT_CASE(jitter_stays_within_its_bound),
         TCT_CASE(runs_are_deterministic),
         TCT_CASE(bad_configurations_are_refused),
         TCT_CASE(abi_sizes))
