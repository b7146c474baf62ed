/* SPDX-License-Identifier: MIT */
/* Sim-port glue: work is virtual time at the sim's clock (TC_SIM_CPU_HZ). */
#include "periodic.h"
#include "tacet/sim.h"
#include "tacet_app.h"

void periodic_work(uint32_t cycles)
{
  tc_sim_consume((uint64_t)cycles * TC_SIM_CPU_HZ / TACET_APP_CLOCK_HZ);
}

void periodic_stop(int code) { tc_sim_stop(code); }
