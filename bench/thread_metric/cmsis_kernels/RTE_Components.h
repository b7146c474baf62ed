/* SPDX-License-Identifier: MIT */
/* The CMSIS build's component list: only the device header (mps2_device.h). */
#ifndef TM_RTE_COMPONENTS_H
#define TM_RTE_COMPONENTS_H
#ifndef CMSIS_device_header
#define CMSIS_device_header "mps2_device.h"
#endif
#endif
