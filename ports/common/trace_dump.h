/* SPDX-License-Identifier: MIT */
/*
 * The trace dump of a port under QEMU (Cortex-M, RISC-V; trace_dump.c): the trace's file and
 * options from the program's command line, the buffer from the heap, a dump per kernel run
 * written to a host file through the C library's files (semihosting).
 */
#ifndef TACET_TRACE_DUMP_H
#define TACET_TRACE_DUMP_H

#include <stddef.h>

/* From the reset code, before main(): take `--tacet-trace=FILE` and its size and mode options
 * out of the command line; returns the new argc. */
int tc__trace_dump_args(int argc, char **argv);
/* From the port's TC_PORT_INIT (each tc_kernel_init()): start a trace when the command line
 * asked for one. `heap_free`: the bytes the heap has left (the default buffer is all of them
 * but TC_TRACE_DUMP_RESERVE). */
void tc__trace_dump_start(size_t heap_free);
/* From TC_PORT_RUN_END (the run's books closed) and at exit (a run still recording): write the
 * run's dump to the file, the first run's replacing it, later ones after it. */
void tc__trace_dump_end_of_run(void);

#endif /* TACET_TRACE_DUMP_H */
