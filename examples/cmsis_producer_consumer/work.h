/* SPDX-License-Identifier: MIT */
/* The one thing CMSIS-RTOS2 cannot say: spend `cycles` of CPU time, preemptibly (work_port_<port>.c). */
#ifndef CPC_WORK_H
#define CPC_WORK_H

#include <stdint.h>

void work(uint32_t cycles);

#endif
