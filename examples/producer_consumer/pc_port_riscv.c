/* SPDX-License-Identifier: MIT */
/* RISC-V glue for the experiment: work is a spin of known length, time is instructions counted
 * by QEMU (-icount shift=0: mcycle), and switches cost what the port's switch really costs. */
#include "pc.h"
#include "tacet/riscv.h"

void pc_work(uint32_t cycles) { tc_rv_spin(cycles); }

void pc_end_run(void) { tc_rv_stop(0); }

bool pc_port_setup(uint64_t switch_cost)
{
  (void)switch_cost;
  return false; /* nothing to charge: the switch is measured, not modelled */
}

const char *pc_port_time_unit(void) { return "instructions (QEMU icount)"; }

uint64_t pc_port_elapsed(uint64_t cycles) { return tc_rv_cycles_to_instructions(cycles); }
