/* SPDX-License-Identifier: MIT */
/*
 * The CMSIS-RTOS2 tests' fixture on the kernel's harness (tests/tct.h): a case runs its body
 * in a CMSIS thread of osPriorityNormal, between osKernelInitialize() and osKernelStart(),
 * and the run ends when the body returns. Each step is checked with the kernel's invariant
 * checker (STEP, inside EXPECT).
 */
#ifndef OS2_FIXTURE_H
#define OS2_FIXTURE_H

#include "cmsis_os2.h"
#include "tacet_os2.h"
#include "tct.h"

/* Run `body` as the CMSIS thread "main" of a fresh kernel. */
void os2_run(void (*body)(void));

/* Run `fn` as an interrupt handler at a kernel priority, now (tct_interrupt). */
void os2_isr(void (*fn)(void));

/* A CMSIS call returns `status`; the kernel is consistent afterwards. */
#define OS2_EXPECT(call, status) EXPECT((long long)(call), (long long)(status))
#define OS2_OK(call) OS2_EXPECT(call, osOK)

/* A thread attribute with a priority (and nothing else). */
static inline osThreadAttr_t os2_prio(osPriority_t p)
{
  osThreadAttr_t a = {0};
  a.priority = p;
  return a;
}

#endif /* OS2_FIXTURE_H */
