/* SPDX-License-Identifier: MIT */
/* The component list RTX5 and CMSIS-FreeRTOS include (anchors.cmake): only the device header
 * (mps2_device.h); no event recorder. */
#ifndef TM_RTE_COMPONENTS_H
#define TM_RTE_COMPONENTS_H
#ifndef CMSIS_device_header
#define CMSIS_device_header "mps2_device.h"
#endif
#endif
