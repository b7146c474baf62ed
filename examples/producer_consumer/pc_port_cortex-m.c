/* SPDX-License-Identifier: MIT */
/* Cortex-M glue for the experiment: work is a spin of known length, time is instructions
 * counted by QEMU (-icount), and switches cost what the port's switch really costs. */
#include "pc.h"
#include "tacet/cortex_m.h"

/* `cycles` of work as that many instructions: a loop of 2 instructions per turn. */
void pc_work(uint32_t cycles)
{
  uint32_t turns = cycles / 2u;
  if (turns == 0) return;
  __asm volatile("1: subs %0, %0, #1\n\t"
                 "bne 1b"
                 : "+r"(turns)
                 :
                 : "cc");
}

void pc_end_run(void) { tc_cm_stop(0); }

bool pc_port_setup(uint64_t switch_cost)
{
  (void)switch_cost;
  return false; /* nothing to charge: the switch is measured, not modelled */
}

const char *pc_port_time_unit(void) { return "instructions (QEMU icount)"; }

uint64_t pc_port_elapsed(uint64_t cycles) { return tc_cm_cycles_to_instructions(cycles); }
