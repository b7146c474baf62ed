/* SPDX-License-Identifier: MIT */
/* Sim-port glue for the experiment: virtual cycles, a configurable switch cost. */
#include "pc.h"
#include "tacet/sim.h"

void pc_work(uint32_t cycles) { tc_sim_consume(cycles); }

void pc_end_run(void) { tc_sim_stop(0); }

bool pc_port_setup(uint64_t switch_cost)
{
  tc_sim_set_switch_cost(switch_cost);
  return true;
}

const char *pc_port_time_unit(void) { return "virtual cycles"; }

uint64_t pc_port_elapsed(uint64_t cycles) { return cycles; }
