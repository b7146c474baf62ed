/*
 * Cortex-M port internals shared by the core files and the board files.
 */
#ifndef TACET_CM_PRIVATE_H
#define TACET_CM_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

/* Board (boards/<name>/): called by the reset code before main(); starts tc_cycles()'s
 * timer and the console. */
void tc__cm_board_init(void);

/* Console and exit (semihosting.c). */
void tc__cm_console_init(void);
int tc__cm_console_write(int fd, const void *buf, size_t n);
_Noreturn void tc__cm_exit(int code);

/* The program's command line from the host (semihosting.c), for main(): split at spaces and
 * tabs into *argv, static and NULL-terminated, of at most TC_CM_ARGS words. Returns argc: 0
 * when the host has none, or when it does not fit TC_CM_CMDLINE_SIZE bytes. Call once, from
 * the reset code: the words are cut out of one static buffer. */
int tc__cm_command_line(char ***argv);

/* The trace dump (semihosting.c, TC_TRACE): take `--tacet-trace=FILE` out of the command line
 * (returns the new argc); start the trace at each tc_kernel_init() when it was given. The
 * exit writes it to FILE. */
int tc__cm_trace_args(int argc, char **argv);
void tc__cm_trace_init(void);

/* Faults (startup.c): report the stacked registers and the fault status, exit with 136. */
_Noreturn void tc__cm_fault(const uint32_t *frame, uint32_t exc_return);

/* The MPU stack guard (guard.c, TC_MPU_STACK_GUARD). */
struct tc_thread;
void tc__cm_guard_init(void);
void tc__cm_guard_stack_init(struct tc_thread *t);
uint32_t tc__cm_guard_fault(uint32_t exc_return, uint32_t *msp);
void tc__cm_guard_fatal(uint32_t exc_return);

#endif /* TACET_CM_PRIVATE_H */
