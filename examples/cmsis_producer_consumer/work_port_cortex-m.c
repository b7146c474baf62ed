/* SPDX-License-Identifier: MIT */
/* Cortex-M: work is a loop the compiler must keep (an empty asm statement a turn), four
 * instructions a turn at -Os and -O2: under QEMU -icount, instructions are time. */
#include "work.h"

void work(uint32_t cycles)
{
  for (uint32_t turn = 0; turn < cycles / 4u; turn++) __asm volatile("" ::: "memory");
}
