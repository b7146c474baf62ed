/* SPDX-License-Identifier: MIT */
/*
 * What the benchmarks of the ports under QEMU print (bench/cm_switch, bench/trace_cost):
 * instructions counted by QEMU (-icount: tc_cm_cycles_to_instructions on Cortex-M,
 * tc_rv_cycles_to_instructions on RISC-V), per event, with two decimals.
 */
#ifndef TACET_BENCH_CM_FIGURES_H
#define TACET_BENCH_CM_FIGURES_H

#include <stdio.h>

#if __has_include("tacet/riscv.h")
#include "tacet/riscv.h"
#define FIGURES_INSTRUCTIONS(cycles) tc_rv_cycles_to_instructions(cycles)
#define FIGURES_ICOUNT "shift=0"
#else
#include "tacet/cortex_m.h"
#define FIGURES_INSTRUCTIONS(cycles) tc_cm_cycles_to_instructions(cycles)
#define FIGURES_ICOUNT "shift=5"
#endif

/* Instructions x100 (two decimals) per event, for `cycles` of tc_cycles() over `events`
 * events; 0 when there were none. */
static inline uint32_t per_event_x100(uint64_t cycles, uint32_t events)
{
  return events != 0 ? (uint32_t)(FIGURES_INSTRUCTIONS(cycles * 100u) / events) : 0;
}

static inline void print_x100(const char *what, uint32_t v)
{
  printf("%s %lu.%02lu instructions\n", what, (unsigned long)(v / 100), (unsigned long)(v % 100));
}

/* The core and the QEMU board the figures were counted on. */
#if defined(__riscv_flen)
#define CM_FIGURES_CPU "rv32imafc (virt)"
#elif defined(__riscv)
#define CM_FIGURES_CPU "rv32imac (virt)"
#elif defined(__ARM_FP)
#define CM_FIGURES_CPU "cortex-m4f (mps2-an386)"
#else
#define CM_FIGURES_CPU "cortex-m3 (mps2-an385)"
#endif

#endif /* TACET_BENCH_CM_FIGURES_H */
