/* SPDX-License-Identifier: MIT */
/*
 * The device of examples/device_interrupt: an interrupt every `period_us` microseconds, as a
 * sensor that has a sample ready would raise. The port glue (device_port_<port>.c) makes it
 * from what the port has -- a hardware timer and its interrupt handler on Cortex-M, a
 * simulated interrupt on the sim port -- and its handler calls device_interrupt() once per
 * interrupt; main.c does the rest, the same on every port.
 */
#ifndef DEVICE_H
#define DEVICE_H

#include <stdbool.h>
#include <stdint.h>

/* The port glue (device_port_<port>.c). */
const char *device_name(void);            /* what raises the interrupt, for the report */
void device_start(uint32_t period_us);    /* from a thread: interrupts begin */
void device_stop(void);                   /* from a thread: no interrupt after this returns */
void device_work(uint32_t cycles);        /* spend CPU time preemptibly, as real work would */
void device_end_run(void);                /* end the run: tc_kernel_start() returns */
/* How time is reported: the unit's name, and tc_cycles() units converted to it. */
const char *device_time_unit(void);
uint64_t device_time(uint64_t cycles);

/* main.c: the work of the interrupt handler, called by the port's handler once per interrupt,
 * at a priority the kernel masks. */
void device_interrupt(void);

#endif
