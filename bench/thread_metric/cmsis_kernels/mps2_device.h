/* SPDX-License-Identifier: MIT */
/*
 * A CMSIS device header for QEMU's mps2-an385 (Cortex-M3) and mps2-an386 (Cortex-M4F), enough
 * for the kernels anchors.cmake builds Thread-Metric's CMSIS-RTOS2 programs on (RTX5, FreeRTOS
 * through CMSIS-FreeRTOS): the exception numbers CMSIS-Core names, the core's options,
 * CMSIS-Core itself (from the CMSIS_6 tree given) and SystemCoreClock (system_mps2.c). Tacet's
 * own build needs none of it.
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
  PORT0_6_IRQn = 30 /* Thread-Metric's device interrupt (board_mps2.h) */
} IRQn_Type;

#define __MPU_PRESENT          1U
#define __VTOR_PRESENT         1U
#define __NVIC_PRIO_BITS       3U
#define __Vendor_SysTickConfig 0U

#if defined(__ARM_FP)
#define __CM4_REV     0x0001U
#define __FPU_PRESENT 1U
#include "core_cm4.h"
#else
#define __CM3_REV 0x0201U
#include "core_cm3.h"
#endif

extern uint32_t SystemCoreClock;

#endif
