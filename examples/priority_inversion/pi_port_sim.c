/* SPDX-License-Identifier: MIT */
/* Sim-port glue for the experiment: work is virtual time. Context switches are not charged
 * (tc_sim_set_switch_cost stays 0), so every time this port prints is the threads' work. */
#include "pi.h"
#include "tacet/sim.h"

void pi_work_ticks(uint32_t ticks) { tc_sim_consume((uint64_t)ticks * tc_sim_cycles_per_tick()); }

void pi_end_run(void) { tc_sim_stop(0); }

const char *pi_port_cycles_unit(void) { return "virtual cycles"; }
