/* SPDX-License-Identifier: MIT */
/*
 * What the Cortex-M benchmarks print (bench/cm_switch, bench/trace_cost): instructions counted
 * by QEMU (-icount, tc_cm_cycles_to_instructions), per event, with two decimals.
 */
#ifndef TACET_BENCH_CM_FIGURES_H
#define TACET_BENCH_CM_FIGURES_H

#include <stdio.h>

#include "tacet/cortex_m.h"

/* Instructions x100 (two decimals) per event, for `cycles` of tc_cycles() over `events`
 * events; 0 when there were none. */
static inline uint32_t per_event_x100(uint64_t cycles, uint32_t events)
{
  return events != 0 ? (uint32_t)(tc_cm_cycles_to_instructions(cycles * 100u) / events) : 0;
}

static inline void print_x100(const char *what, uint32_t v)
{
  printf("%s %lu.%02lu instructions\n", what, (unsigned long)(v / 100), (unsigned long)(v % 100));
}

/* The core and the QEMU board the figures were counted on. */
#if defined(__ARM_FP)
#define CM_FIGURES_CPU "cortex-m4f (mps2-an386)"
#else
#define CM_FIGURES_CPU "cortex-m3 (mps2-an385)"
#endif

#endif /* TACET_BENCH_CM_FIGURES_H */
