/* SPDX-License-Identifier: MIT */
/* Port glue of the periodic_control example (periodic_port_<port>.c). */
#ifndef PERIODIC_H
#define PERIODIC_H

#include <stdint.h>

/* Spend `cycles` of CPU time at the description's clock (TACET_APP_CLOCK_HZ), preemptibly. */
void periodic_work(uint32_t cycles);
/* End the run with `code` as the program's exit status. */
void periodic_stop(int code);

#endif
