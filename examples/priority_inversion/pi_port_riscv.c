/* SPDX-License-Identifier: MIT */
/* RISC-V glue for the experiment: work is a spin of known length under QEMU -icount, where a
 * tick is a fixed number of instructions. */
#include "pi.h"
#include "tacet/riscv.h"
#include "tacet/tacet.h"

/* Instructions per tick under `-icount shift=TC_RV_ICOUNT_SHIFT` (2^shift ns each). */
#define INSTRUCTIONS_PER_TICK ((1000000000u / TC_TICK_HZ) >> TC_RV_ICOUNT_SHIFT)

/* The tick interrupt's own instructions come on top, so a tick of work takes slightly more
 * than a tick of time. */
void pi_work_ticks(uint32_t ticks)
{
  for (uint32_t i = 0; i < ticks; i++) tc_rv_spin(INSTRUCTIONS_PER_TICK);
}

void pi_end_run(void) { tc_rv_stop(0); }

const char *pi_port_cycles_unit(void) { return "instructions (QEMU -icount)"; }
