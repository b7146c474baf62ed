/* SPDX-License-Identifier: MIT */
/*
 * Cortex-M port: the options of the MPU stack guard (TC_MPU_STACK_GUARD; guard.c,
 * docs/stack-guard.md). Preprocessor definitions only: pendsv.S includes it too.
 */
#ifndef TACET_CM_GUARD_H
#define TACET_CM_GUARD_H

#include "tacet/config.h"

#if TC_MPU_STACK_GUARD
/* The MPU stack guard (guard.c, docs/stack-guard.md): a no-access region of
 * TC_CM_STACK_GUARD_SIZE bytes (a power of two, at least 32: PMSAv7's smallest region) below
 * the running context's stack. The default is the smallest size that no single step of the
 * port's own stacking can jump over, so that an overflow faults before it writes below the
 * region: 32 on a core without FPU (an exception frame is 32 bytes; PendSV's save is split so
 * that its first write is its highest), 128 with one (an exception frame with FP state is 104
 * bytes, of which the hardware writes the lowest 32 at once and s0-s15 only later, lazily). */
#ifndef TC_CM_STACK_GUARD_SIZE
#if defined(__ARM_FP)
#define TC_CM_STACK_GUARD_SIZE 128u
#else
#define TC_CM_STACK_GUARD_SIZE 32u
#endif
#endif
/* The MPU region it uses: the highest of the 8, so that it overrides an application's
 * region that covers the stacks. */
#ifndef TC_CM_STACK_GUARD_REGION
#define TC_CM_STACK_GUARD_REGION 7u
#endif
#if TC_CM_STACK_GUARD_SIZE < 32 || (TC_CM_STACK_GUARD_SIZE & (TC_CM_STACK_GUARD_SIZE - 1)) != 0
#error "TC_CM_STACK_GUARD_SIZE must be a power of two, at least 32"
#endif
#if TC_CM_STACK_GUARD_REGION > 7
#error "TC_CM_STACK_GUARD_REGION must be an MPU region number, 0..7"
#endif
#define TC_PORT_STACK_GUARD TC_CM_STACK_GUARD_SIZE
#endif

#endif /* TACET_CM_GUARD_H */
