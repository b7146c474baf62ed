/* SPDX-License-Identifier: MIT */
/*
 * Carbone's mutex experiment (examples/priority_inversion), from the kernel's own clocks and
 * no trace: High's worst time from mutex get to put is bounded by Low's critical section with
 * a preemption threshold on Low or with priority inheritance, and is not without them, where
 * Medium's work adds to High's wait.
 */
#include "../examples/priority_inversion/pi.h"
#include "tacet/sim.h"
#include "tct.h"

static pi_result run(pi_run_kind kind, uint32_t medium_work_ticks)
{
  pi_params p = pi_seed_params;
  p.kind = kind;
  p.medium_work_ticks = medium_work_ticks;
  pi_result r;
  tct_begin();
  CHECK_EQ(pi_run(&p, &r), 0);
  STEP();
  CHECK(r.pairs > 0);
  CHECK(r.medium_jobs > 0);
  CHECK(r.low_sections > 0);
  /* Kernel services take no virtual time and switches are not charged on this port: the
   * cycles are exactly the ticks' work. */
  CHECK_EQ(r.cycles_min, r.ticks_min * tc_sim_cycles_per_tick());
  CHECK_EQ(r.cycles_max, r.ticks_max * tc_sim_cycles_per_tick());
  CHECK(r.ticks_min >= p.high_cs_ticks);
  return r;
}

/* The longest High can wait with Medium held off: the whole of Low's critical section, then
 * its own. */
static uint64_t bound(void) { return pi_seed_params.low_cs_ticks + pi_seed_params.high_cs_ticks; }

static void plain_is_unbounded(void)
{
  pi_result r = run(PI_PLAIN, pi_seed_params.medium_work_ticks);
  CHECK(r.contended > 0);
  CHECK(r.ticks_max > bound());
  /* Medium's work is what adds: at least one of its computations fell into a wait. */
  CHECK(r.ticks_max >= (uint64_t)pi_seed_params.high_cs_ticks + pi_seed_params.medium_work_ticks);
}

static void plain_without_medium_work_is_bounded(void)
{
  /* The same run with Medium computing nothing: High waits for Low alone. */
  pi_result r = run(PI_PLAIN, 0);
  CHECK(r.contended > 0);
  CHECK(r.ticks_max <= bound());
}

static void threshold_never_finds_the_mutex_held(void)
{
  /* Nobody preempts Low, so Low never sits preempted while holding the mutex: High starts only
   * once Low has released it and gets it at once. */
  for (pi_run_kind kind = PI_THRESHOLD; kind <= PI_BOTH; kind += (PI_BOTH - PI_THRESHOLD)) {
    pi_result r = run(kind, pi_seed_params.medium_work_ticks);
    CHECK_EQ(r.contended, 0);
    CHECK_EQ(r.ticks_min, pi_seed_params.high_cs_ticks);
    CHECK_EQ(r.ticks_max, pi_seed_params.high_cs_ticks);
    /* The price: High may wait for Low's whole section before it runs at all. */
    CHECK(r.wake_to_put_max <= bound());
  }
}

static void inheritance_bounds_the_wait_by_lows_section(void)
{
  pi_result r = run(PI_INHERIT, pi_seed_params.medium_work_ticks);
  CHECK(r.contended > 0);
  CHECK(r.ticks_max > pi_seed_params.high_cs_ticks); /* High did wait */
  CHECK(r.ticks_max <= bound());
}

static void more_pairs_without_inversion(void)
{
  /* Same run length: High's waits in the plain run cost it get/put pairs (Carbone: 17 vs 52). */
  pi_result plain = run(PI_PLAIN, pi_seed_params.medium_work_ticks);
  pi_result threshold = run(PI_THRESHOLD, pi_seed_params.medium_work_ticks);
  pi_result inherit = run(PI_INHERIT, pi_seed_params.medium_work_ticks);
  CHECK(threshold.pairs > plain.pairs);
  CHECK(inherit.pairs > plain.pairs);
  CHECK(threshold.ticks_sum * plain.pairs < plain.ticks_sum * threshold.pairs); /* averages */
}

TCT_MAIN("test_priority_inversion",
         TCT_CASE(plain_is_unbounded),
         TCT_CASE(plain_without_medium_work_is_bounded),
         TCT_CASE(threshold_never_finds_the_mutex_held),
         TCT_CASE(inheritance_bounds_the_wait_by_lows_section),
         TCT_CASE(more_pairs_without_inversion))
