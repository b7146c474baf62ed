/* SPDX-License-Identifier: MIT */
/*
 * FreeRTOS's configuration for Thread-Metric through ARM's CMSIS-FreeRTOS wrapper
 * (anchors.cmake): the wrapper's own FreeRTOSConfig.h (TM_WRAPPER_CONFIG, the file in the tree
 * given), then what differs from it: no time slicing (as on Tacet's layer and RTX5 here: the
 * cooperative test's premise) and RTX5's 32 KB for what the kernel allocates (six 1 KB stacks
 * and the test's objects).
 */
#ifndef TM_FREERTOS_CONFIG_H
#define TM_FREERTOS_CONFIG_H

#include TM_WRAPPER_CONFIG

#undef configUSE_TIME_SLICING
#define configUSE_TIME_SLICING 0
#undef configTOTAL_HEAP_SIZE
#define configTOTAL_HEAP_SIZE ((size_t)32768)

#endif
