/* SPDX-License-Identifier: MIT */
/*
 * Carbone's experiment (examples/producer_consumer): the exact switch counts, 18 and 4 per
 * 9 messages, over many rounds, and what the threshold saves in virtual time.
 */
#include "../examples/producer_consumer/pc.h"
#include "tacet/sim.h"
#include "tct.h"

#define ROUNDS 500u

static void run(unsigned threshold, uint64_t switch_cost, pc_result *r)
{
  pc_params p = {.producer_threshold = threshold, .rounds = ROUNDS, .produce_cycles = 150, .consume_cycles = 150};
  tct_begin();
  pc_port_setup(switch_cost);
  CHECK_EQ(pc_run(&p, r), 0);
  STEP();
  CHECK_EQ(r->sent, 9 * ROUNDS);
  CHECK_EQ(r->received, 9 * ROUNDS);
}

static void fully_preemptive_switches_18_per_9(void)
{
  pc_result r;
  run(4, 0, &r);
  CHECK_EQ(r.context_switches, 18 * ROUNDS);
  CHECK_EQ(r.preemptions, 9 * ROUNDS); /* every message preempts D once */
}

static void threshold_switches_4_per_9(void)
{
  pc_result r;
  run(1, 0, &r);
  CHECK_EQ(r.context_switches, 4 * ROUNDS);
  CHECK_EQ(r.preemptions, 1 * ROUNDS); /* only D's yield */
}

static void switch_cost_shows_in_elapsed_time(void)
{
  pc_result free1, free2, paid1, paid2;
  run(4, 0, &free1);
  run(1, 0, &free2);
  run(4, 120, &paid1);
  run(1, 120, &paid2);
  /* Work is identical; the difference is exactly the switches times their cost. */
  CHECK_EQ(free1.elapsed, free2.elapsed);
  CHECK_EQ(paid1.elapsed - free1.elapsed, 120 * 18 * ROUNDS);
  CHECK_EQ(paid2.elapsed - free2.elapsed, 120 * 4 * ROUNDS);
}

TCT_MAIN("test_producer_consumer",
         TCT_CASE(fully_preemptive_switches_18_per_9),
         TCT_CASE(threshold_switches_4_per_9),
         TCT_CASE(switch_cost_shows_in_elapsed_time))
