/* SPDX-License-Identifier: MIT */
/*
 * Kernel build options. Each one is a compile definition with its default here; CMake may
 * override any of them (-DTC_PRIORITIES=32 ...), and an application may supply
 * `tacet_app_config.h` on its include path to set them in one place.
 */
#ifndef TACET_CONFIG_H
#define TACET_CONFIG_H

#if defined(__has_include)
#if __has_include("tacet_app_config.h")
#include "tacet_app_config.h"
#endif
#endif

/* Number of priority levels: 32, 64, 256 or 1024. 0 is the highest. */
#ifndef TC_PRIORITIES
#define TC_PRIORITIES 256
#endif

/* Argument checking front layer (NULL, uninitialised objects, ranges, calling context).
 * 0 drops it, so its cost can be measured; the kernel then trusts its callers. */
#ifndef TC_CHECKS
#define TC_CHECKS 1
#endif

/* Context switch, preemption and run-time counters (tc_kernel_stats, tc_thread_info). */
#ifndef TC_STATS
#define TC_STATS 1
#endif

/* The event trace (include/tacet/trace.h, docs/trace.md): 1 compiles the trace points in
 * (tc_trace_enable() starts recording); 0 compiles every one of them out, leaving the kernel
 * byte for byte what it is without the feature. */
#ifndef TC_TRACE
#define TC_TRACE 0
#endif

/* Energy accounting and power policies (include/tacet/power.h, docs/energy.md): 1 counts the
 * cycles of every context, of idle and of the switch path per operating point; 0 compiles
 * all of it out, leaving the kernel byte for byte what it is without the feature. It needs
 * the counters (TC_STATS). TC_POWER_POINTS is the most operating points a table may have. */
#ifndef TC_POWER
#define TC_POWER 0
#endif
#ifndef TC_POWER_POINTS
#define TC_POWER_POINTS 8
#endif

/* Stack painting, high-water mark and the overflow check at each switch. */
#ifndef TC_STACK_CHECK
#define TC_STACK_CHECK 1
#endif

/* MPU stack guard (Cortex-M port, ARMv7-M PMSAv7; docs/stack-guard.md): a no-access MPU
 * region at the bottom of the running context's stack, moved by every context switch, so
 * that the first write past the stack faults; the fault handler calls
 * tc_stack_overflow_hook() and terminates the thread, and the others go on. It takes the
 * lowest TC_PORT_STACK_GUARD bytes of each stack, at an address aligned to that size
 * (32 on a Cortex-M3, 128 on a Cortex-M4F: tacet_port.h says why), plus whatever lies below
 * that alignment; tc_thread_create() and tc_hisr_create() return TC_INVALID for a stack that
 * cannot hold the region and TC_PORT_STACK_MIN bytes above it. With it, the painted guard
 * bytes are no longer compared (at a switch, by tc_check()): the region is the guard.
 * Stack painting and the high-water mark stay (TC_STACK_CHECK).
 * The sim port has no MPU and refuses the option: it keeps the painted guard, checked at
 * each switch, and AddressSanitizer in the sanitizer build. */
#ifndef TC_MPU_STACK_GUARD
#define TC_MPU_STACK_GUARD 0
#endif

/* System tick rate. */
#ifndef TC_TICK_HZ
#define TC_TICK_HZ 1000u
#endif

/* Measure the longest interrupt-masked stretch inside the kernel (measurement builds). */
#ifndef TC_IRQ_OFF_MEASURE
#define TC_IRQ_OFF_MEASURE 0
#endif

#if TC_PRIORITIES != 32 && TC_PRIORITIES != 64 && TC_PRIORITIES != 256 && TC_PRIORITIES != 1024
#error "TC_PRIORITIES must be 32, 64, 256 or 1024"
#endif

#if TC_POWER && !TC_STATS
#error "TC_POWER counts cycles with the counters: it needs TC_STATS=1"
#endif
#if TC_POWER_POINTS < 1 || TC_POWER_POINTS > 16
#error "TC_POWER_POINTS must be 1 to 16"
#endif

#endif /* TACET_CONFIG_H */
