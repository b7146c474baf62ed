/* SPDX-License-Identifier: MIT */
/* Sim port: work is virtual cycles (the port's own services take none). */
#include "tacet/sim.h"
#include "work.h"

void work(uint32_t cycles) { tc_sim_consume(cycles); }
