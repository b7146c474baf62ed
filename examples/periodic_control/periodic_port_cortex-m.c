/* SPDX-License-Identifier: MIT */
/* Cortex-M glue: work is a spin of known length under QEMU -icount shift=5 (32 ns per
 * instruction), the description's cycles counted at TACET_APP_CLOCK_HZ. */
#include "periodic.h"
#include "tacet/cortex_m.h"
#include "tacet_app.h"

void periodic_work(uint32_t cycles)
{
  /* 31.25 million instructions a second; a turn of the loop is 2 instructions. */
  uint32_t turns = (uint32_t)((uint64_t)cycles * 31250000u / TACET_APP_CLOCK_HZ / 2u);
  if (turns == 0) return;
  __asm volatile("1: subs %0, %0, #1\n\t"
                 "bne 1b"
                 : "+r"(turns)
                 :
                 : "cc");
}

void periodic_stop(int code) { tc_cm_stop(code); }
