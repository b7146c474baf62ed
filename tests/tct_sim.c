/* Sim-port part of the test harness. */
#include "tacet/sim.h"
#include "tct.h"

int tct_run_kernel(void) { return tc_kernel_start(); }

void tct_end(int code) { tc_sim_stop(code); }

void tct_work(uint64_t cycles) { tc_sim_consume(cycles); }
