/* SPDX-License-Identifier: MIT */
/*
 * FreeRTOS's configuration for Thread-Metric (port_freertos.c) on QEMU's RISC-V virt machine
 * (its GCC/RISC-V port): the same options as on Cortex-M (../FreeRTOSConfig.h) -- the
 * kernel's defaults where it has them, what the programs need -- and virt's CLINT for the
 * tick. TM_FREERTOS_STATS=1 (the "run-time stats" build) adds the run-time statistics, timed
 * by the hart's cycle counter, and the trace facility.
 */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#include "board_virt.h"

#ifndef TM_TICK_HZ
#define TM_TICK_HZ 1000u
#endif

/* The port derives the tick's mtimecmp step from the clock: mtime's rate, not the hart's. */
#define configCPU_CLOCK_HZ                      TM_BOARD_MTIME_HZ
#define configTICK_RATE_HZ                      ((TickType_t)TM_TICK_HZ)
#define configMTIME_BASE_ADDRESS                TM_BOARD_MTIME
#define configMTIMECMP_BASE_ADDRESS             TM_BOARD_MTIMECMP
#define configISR_STACK_SIZE_WORDS              1024
#define configUSE_PREEMPTION                    1
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 1
#define configUSE_TIME_SLICING                  1
#define configMAX_PRIORITIES                    32
#define configMINIMAL_STACK_SIZE                256
#define configMAX_TASK_NAME_LEN                 8
#define configTICK_TYPE_WIDTH_IN_BITS           TICK_TYPE_WIDTH_32_BITS
#define configSUPPORT_STATIC_ALLOCATION         1
#define configSUPPORT_DYNAMIC_ALLOCATION        0
#define configUSE_MUTEXES                       0
#define configUSE_COUNTING_SEMAPHORES           1
#define configUSE_TIMERS                        0
#define configUSE_IDLE_HOOK                     0
#define configUSE_TICK_HOOK                     0
#define configCHECK_FOR_STACK_OVERFLOW          0
/* configENABLE_FPU: 1 in the RV32IMAFC build, on the command line (anchors_riscv.cmake), where
 * the port's assembly sees it too. */

#if TM_FREERTOS_STATS
#define configGENERATE_RUN_TIME_STATS            1
#define configUSE_TRACE_FACILITY                 1
#define portCONFIGURE_TIMER_FOR_RUN_TIME_STATS() tm_board_counter_start()
#define portGET_RUN_TIME_COUNTER_VALUE()         tm_board_counter()
#else
#define configGENERATE_RUN_TIME_STATS 0
#define configUSE_TRACE_FACILITY      0
#endif

#define INCLUDE_vTaskSuspend       1
#define INCLUDE_vTaskDelay         1
#define INCLUDE_xTaskResumeFromISR 1

#endif /* FREERTOS_CONFIG_H */
