/* SPDX-License-Identifier: MIT */
/*
 * sim_engine: simulated jobs per second of host time, on one core, for a 10-thread periodic
 * set run by the simulation engine (simulator/engine.h) on the real kernel.
 *
 * The set: periods 1 ms to 100 ms at the sim port's 100 MHz (log-spaced, ten threads), each
 * thread 7 % of the CPU (utilisation 0.7), rate-monotonic priorities, fixed execution times,
 * released together (all at 0); run fully preemptive, with every threshold 0 (non-preemptive) and with
 * each thread's threshold the priority of the thread above it. A benchmark, not a test: it
 * reads the host's monotonic clock; the job counts are the engine's.
 * Usage: sim_engine [jobs per case, default 2000000]
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "engine.h"

#define N 10

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
  uint64_t jobs = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000000u;
  static const char *const names[N] = {"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"};
  tsim_thread threads[N] = {0};
  double per_cycle = 0;
  for (unsigned i = 0; i < N; i++) {
    uint64_t period = (uint64_t)llround(100000.0 * pow(10.0, 2.0 * i / (N - 1)));
    threads[i] = (tsim_thread){.name = names[i], .priority = i, .threshold = i, .period = period,
                               .deadline = period, .wcet = period * 7 / 100, .exec = TSIM_EXEC_FIXED};
    per_cycle += 1.0 / (double)period;
  }
  tsim_config cfg = {.abi = TSIM_ABI_VERSION, .n_threads = N, .threads = threads, .seed = 1};
  cfg.horizon = (uint64_t)((double)jobs / per_cycle);
  static const char *const modes[] = {"fully preemptive", "thresholds", "non-preemptive"};
  printf("sim_engine: %u threads, periods 1-100 ms at 100 MHz, utilisation 0.70, horizon %.1f s of "
         "virtual time\n", N, (double)cfg.horizon / 1e8);
  int status = 0;
  for (unsigned mode = 0; mode < 3; mode++) {
    for (unsigned i = 0; i < N; i++)
      threads[i].threshold = mode == 0 ? i : mode == 2 ? 0 : (i == 0 ? 0 : i - 1);
    tsim_thread_result res[N];
    tsim_result total;
    char error[200];
    double t0 = now_s();
    if (tsim_run(&cfg, res, &total, error, sizeof error) != 0) {
      fprintf(stderr, "sim_engine: %s\n", error);
      return 1;
    }
    double s = now_s() - t0;
    printf("%-17s %9" PRIu64 " jobs in %6.3f s: %10.0f jobs/s (%5.0f ns per job); %" PRIu64
           " switches, %" PRIu64 " preemptions, %" PRIu64 " missed\n",
           modes[mode], total.completed, s, (double)total.completed / s, s * 1e9 / (double)total.completed,
           total.context_switches, total.preemptions, total.missed);
    /* Fully preemptive, the set is schedulable (rate-monotonic, utilisation 0.7 < 0.718 for ten
     * threads): a miss there is an error. Non-preemptive, the 7 ms jobs make the 1 ms one miss. */
    if (total.completed == 0 || (mode == 0 && total.missed != 0)) status = 1;
  }
  return status;
}
