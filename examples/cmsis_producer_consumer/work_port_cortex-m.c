/* SPDX-License-Identifier: MIT */
/* Cortex-M: work is a spin of known length, 2 instructions a turn (under QEMU -icount,
 * instructions are time). */
#include "work.h"

void work(uint32_t cycles)
{
  uint32_t turns = cycles / 2u;
  if (turns == 0) return;
  __asm volatile("1: subs %0, %0, #1\n\t"
                 "bne 1b"
                 : "+r"(turns)
                 :
                 : "cc");
}
