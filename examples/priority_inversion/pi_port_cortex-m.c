/* SPDX-License-Identifier: MIT */
/* Cortex-M glue for the experiment: work is a spin of known length under QEMU -icount, where
 * a tick is a fixed number of instructions. */
#include "pi.h"
#include "tacet/cortex_m.h"
#include "tacet/tacet.h"

/* Instructions per tick under `-icount shift=TC_CM_ICOUNT_SHIFT` (2^shift ns each). */
#define INSTRUCTIONS_PER_TICK ((1000000000u / TC_TICK_HZ) >> TC_CM_ICOUNT_SHIFT)

/* A tick of work as that many instructions: a loop of 2 instructions per turn. The tick
 * interrupt's own instructions come on top, so a tick of work takes slightly more than a
 * tick of time. */
void pi_work_ticks(uint32_t ticks)
{
  for (uint32_t i = 0; i < ticks; i++) {
    uint32_t turns = INSTRUCTIONS_PER_TICK / 2u;
    __asm volatile("1: subs %0, %0, #1\n\t"
                   "bne 1b"
                   : "+r"(turns)
                   :
                   : "cc");
  }
}

void pi_end_run(void) { tc_cm_stop(0); }

const char *pi_port_cycles_unit(void) { return "timer cycles (QEMU -icount)"; }
