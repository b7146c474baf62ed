/* SPDX-License-Identifier: MIT */
/*
 * FreeRTOS's configuration for Thread-Metric (port_freertos.c), on QEMU's mps2 boards: the
 * kernel's defaults where it has them, what the programs need, the interrupt priorities of
 * a Cortex-M with 3 priority bits. TM_FREERTOS_STATS=1 (the "run-time stats" build) adds the
 * run-time statistics, timed by the CMSDK timer 0, and the trace facility.
 */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#include "board_mps2.h"

#ifndef TM_TICK_HZ
#define TM_TICK_HZ 1000u
#endif

#define configCPU_CLOCK_HZ                      TM_BOARD_CPU_HZ
#define configTICK_RATE_HZ                      ((TickType_t)TM_TICK_HZ)
#define configUSE_PREEMPTION                    1
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 1
#define configUSE_TIME_SLICING                  1
#define configMAX_PRIORITIES                    32
#define configMINIMAL_STACK_SIZE                128
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

#if TM_FREERTOS_STATS
#define configGENERATE_RUN_TIME_STATS                 1
#define configUSE_TRACE_FACILITY                      1
#define portCONFIGURE_TIMER_FOR_RUN_TIME_STATS()      tm_board_counter_start()
#define portGET_RUN_TIME_COUNTER_VALUE()              tm_board_counter()
#else
#define configGENERATE_RUN_TIME_STATS 0
#define configUSE_TRACE_FACILITY      0
#endif

#define INCLUDE_vTaskSuspend        1
#define INCLUDE_vTaskDelay          1
#define INCLUDE_xTaskResumeFromISR  1

/* 3 priority bits: the kernel's interrupts (PendSV, SysTick) at the lowest, 0xE0; services
 * callable from handlers at 0xA0 and below (the programs' device line is at 0xC0). */
#define configPRIO_BITS                      3
#define configKERNEL_INTERRUPT_PRIORITY      (7 << (8 - configPRIO_BITS))
#define configMAX_SYSCALL_INTERRUPT_PRIORITY (5 << (8 - configPRIO_BITS))

/* The port's handlers under the vector table's CMSIS names (board_mps2.c). */
#define vPortSVCHandler     SVC_Handler
#define xPortPendSVHandler  PendSV_Handler
#define xPortSysTickHandler SysTick_Handler

#endif /* FREERTOS_CONFIG_H */
