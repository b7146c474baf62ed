/* SPDX-License-Identifier: MIT */
/* RISC-V glue: work is a spin of known length under QEMU -icount shift=0 (1 ns per
 * instruction), the description's cycles counted at TACET_APP_CLOCK_HZ. */
#include "periodic.h"
#include "tacet/riscv.h"
#include "tacet_app.h"

void periodic_work(uint32_t cycles)
{
  /* A billion instructions a second. */
  tc_rv_spin((uint32_t)((uint64_t)cycles * 1000000000u / TACET_APP_CLOCK_HZ));
}

void periodic_stop(int code) { tc_rv_stop(code); }
