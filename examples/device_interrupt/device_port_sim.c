/* SPDX-License-Identifier: MIT */
/*
 * Sim-port glue of examples/device_interrupt: the device is a simulated interrupt on the
 * virtual clock (tc_sim_irq_at), which its handler raises again one period later. The port
 * brackets the handler with tc_isr_enter()/tc_isr_exit() itself, and every simulated
 * interrupt is one the kernel masks: it may call the services whose context is "any"
 * (tacet/sim.h).
 *
 * Kernel services take no virtual time on the sim port: the interrupt-to-thread time is the
 * switch cost the simulation is told, 130 cycles here as in examples/producer_consumer.
 */
#include "device.h"
#include "tacet/sim.h"
#include "tacet/tacet.h"

#define SWITCH_COST 130u

static uint64_t period;
static bool running;

const char *device_name(void) { return "a simulated interrupt (tc_sim_irq_at)"; }

static void device_handler(void)
{
  if (!running) return;
  (void)tc_sim_irq_at(tc_sim_now() + period, device_handler); /* the next one */
  device_interrupt();
}

void device_start(uint32_t period_us)
{
  tc_sim_set_switch_cost(SWITCH_COST);
  period = (uint64_t)period_us * (tc_cycles_hz() / 1000000u);
  running = true;
  (void)tc_sim_irq_at(tc_sim_now() + period, device_handler);
}

void device_stop(void) { running = false; }

void device_work(uint32_t cycles) { tc_sim_consume(cycles); }

void device_end_run(void) { tc_sim_stop(0); }

const char *device_time_unit(void) { return "virtual cycles"; }
uint64_t device_time(uint64_t cycles) { return cycles; }
