/* Sim-port glue for the experiment. */
#include "pc.h"
#include "tacet/sim.h"

void pc_work(uint32_t cycles) { tc_sim_consume(cycles); }

void pc_end_run(void) { tc_sim_stop(0); }
