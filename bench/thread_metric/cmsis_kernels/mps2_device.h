/* SPDX-License-Identifier: MIT */
/*
 * A CMSIS device header for QEMU's mps2-an385 (Cortex-M3), enough for the kernels that
 * compare.py builds the Thread-Metric CMSIS-RTOS2 program against: the exception numbers
 * CMSIS-Core names, the core's options, CMSIS-Core itself (CMSIS_6, given to build.sh) and
 * SystemCoreClock (startup.c). Tacet's own build needs none of it.
 */
#ifndef TM_MPS2_DEVICE_H
#define TM_MPS2_DEVICE_H

typedef enum IRQn {
  NonMaskableInt_IRQn = -14,
  HardFault_IRQn = -13,
  MemoryManagement_IRQn = -12,
  BusFault_IRQn = -11,
  UsageFault_IRQn = -10,
  SVCall_IRQn = -5,
  DebugMonitor_IRQn = -4,
  PendSV_IRQn = -2,
  SysTick_IRQn = -1,
  PORT0_6_IRQn = 30 /* Thread-Metric's software interrupt */
} IRQn_Type;

#define __CM3_REV              0x0201U
#define __MPU_PRESENT          1U
#define __VTOR_PRESENT         1U
#define __NVIC_PRIO_BITS       3U
#define __Vendor_SysTickConfig 0U

#include "core_cm3.h"

extern uint32_t SystemCoreClock;

#endif
