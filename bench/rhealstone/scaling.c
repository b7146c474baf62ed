/* SPDX-License-Identifier: MIT */
/*
 * scaling: the cost of a preemption -- make a thread ready, choose it, switch to it -- with
 * 1, 2, 4 ... 256 threads ready (Ahn et al. fig. 14, which plots it for three schedulers). It
 * is O(1) in Tacet: a two-level bitmap of ready priorities and a list per priority.
 *
 *   scaling [K]     K samples per count of ready threads (default 1000, at most 2000)
 *
 * A sample: L, running, resumes H of higher priority, suspended: t1 before
 * tc_thread_resume(H), t2 when H's tc_thread_suspend() returns (the Rhealstone preemption of
 * bench/rhealstone). N ready threads are L and N-1 others that never run while samples are
 * taken, at two policies:
 *
 *   policy=priority     the others at priorities below L's, spread evenly over the levels
 *                       the build has (several per level when there are fewer levels than
 *                       threads), no time slicing;
 *   policy=round_robin  the others at L's own priority, all of them time-sliced (one tick),
 *                       as Ahn et al.'s "priority-based preemptive scheduler with round-robin".
 *
 * Then `param=stamp`: two stamps back to back, what one stamp adds to every sample.
 * Built once per number of priorities (32, 64, 256, 1024: `config priorities=`). The tick runs
 * at 10 Hz in these builds so that it lands in few samples. On the sim port a sample is the
 * switch cost it charges (BM_SIM_SWITCH_COST), and host time beside it. Exit status 0; 2 for
 * a bad argument.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime on the sim port (measure.h) */
#include "measure.h"

#if BM_SIM
#define STACK_SIZE TC_PORT_STACK_MIN
#else
#define STACK_SIZE 512u
#endif
#define MOST 256u
#define REPEAT_DEFAULT 1000u
#define REPEAT_MAX     2000u

static tc_thread low, high, others[MOST - 1u];
static uint8_t stacks[MOST + 1u][STACK_SIZE] __attribute__((aligned(8)));
static bm_series *series;
static volatile bm_time t1;

static void other_entry(void *arg)
{
  (void)arg;
  for (;;) tc_thread_yield();
}

static void high_entry(void *arg)
{
  (void)arg;
  for (;;) {
    tc_thread_suspend(&high);
    bm_record(series, t1, bm_now());
  }
}

static void low_entry(void *arg)
{
  (void)arg;
  tc_thread_resume(&high); /* its first run, to its first suspension: not a sample */
  while (!bm_full(series)) {
    t1 = bm_now();
    tc_thread_resume(&high);
  }
  bm_stop(0);
}

/* Two stamps back to back: what one stamp adds to every sample. */
static void stamp_entry(void *arg)
{
  (void)arg;
  while (!bm_full(series)) {
    bm_time a = bm_now();
    bm_record(series, a, bm_now());
  }
  bm_stop(0);
}

static void stamp_run(unsigned repeat)
{
  tc_kernel_init();
  series = bm_series_new(repeat, "param=stamp case=empty");
  tc_thread_create(&low, "stamp", stamp_entry, NULL, stacks[1], STACK_SIZE, 2, 2, 0, TC_AUTO_START);
  tc_kernel_start();
}

static void run(unsigned ready, bool round_robin, unsigned repeat)
{
  tc_kernel_init();
#if BM_SIM
  tc_sim_set_switch_cost(BM_SIM_SWITCH_COST);
#endif
  series = bm_series_new(repeat, "param=scaling case=empty policy=%s ready=%u",
                         round_robin ? "round_robin" : "priority", ready);
  const unsigned lowest = TC_PRIORITIES - 1u, l_priority = 2, slice = round_robin ? 1u : 0u;
  tc_thread_create(&high, "high", high_entry, NULL, stacks[0], STACK_SIZE, 1, 1, 0, 0);
  tc_thread_create(&low, "low", low_entry, NULL, stacks[1], STACK_SIZE, l_priority, l_priority, slice,
                   TC_AUTO_START);
  for (unsigned i = 0; i + 1u < ready; i++) {
    /* Spread over l_priority+1 .. lowest. */
    unsigned p = round_robin ? l_priority : l_priority + 1u + i * (lowest - l_priority) / (ready - 1u);
    if (tc_thread_create(&others[i], "other", other_entry, NULL, stacks[2 + i], STACK_SIZE, p, p, slice,
                         TC_AUTO_START) != TC_OK)
      bm_die("scaling: creating thread %u at priority %u failed", i, p);
  }
  tc_kernel_start();
}

int main(int argc, char **argv)
{
  unsigned repeat = bm_repeat_arg(argc, argv, REPEAT_DEFAULT, REPEAT_MAX);
  bm_header("scaling", repeat);
  stamp_run(repeat);
  for (unsigned rr = 0; rr < 2; rr++)
    for (unsigned ready = 1; ready <= MOST; ready *= 2u) run(ready, rr == 1, repeat);
  return bm_print();
}
