/* SPDX-License-Identifier: MIT */
/*
 * CMSIS-Core's system variable for the kernels anchors.cmake builds on CMSIS (their SysTick
 * driver and FreeRTOS's configCPU_CLOCK_HZ read it): mps2's processor clock. board_mps2.c
 * does the rest of a CMSIS start-up (the FPU, the vector table). Tacet's port has its own.
 */
#include "mps2_device.h"
#include "../board_mps2.h"

uint32_t SystemCoreClock = TM_BOARD_CPU_HZ;
