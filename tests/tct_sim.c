/* SPDX-License-Identifier: MIT */
/* Sim-port part of the test harness. */
#include "tacet/sim.h"
#include "tct.h"

int tct_run_kernel(void) { return tc_kernel_start(); }

void tct_end(int code) { tc_sim_stop(code); }

void tct_work(uint64_t cycles) { tc_sim_consume(cycles); }

static void (*irq_fn)(void *);
static void *irq_arg;

static void irq_lisr(void) { irq_fn(irq_arg); }

void tct_interrupt(void (*fn)(void *), void *arg)
{
  irq_fn = fn;
  irq_arg = arg;
  /* Due now, so taken within the one cycle that the thread then spends. */
  if (tc_sim_irq_at(tc_sim_now(), irq_lisr) != TC_OK) tct_fail(__FILE__, __LINE__, "tc_sim_irq_at");
  tc_sim_consume(1);
}
