/* SPDX-License-Identifier: MIT */
/* RISC-V: work is a loop the compiler must keep (an empty asm statement a turn), three
 * instructions a turn at -Os: under QEMU -icount, instructions are time. */
#include "work.h"

void work(uint32_t cycles)
{
  for (uint32_t turn = 0; turn < cycles / 4u; turn++) __asm volatile("" ::: "memory");
}
