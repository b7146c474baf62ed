/* SPDX-License-Identifier: MIT */
/*
 * RISC-V port internals shared by the port's files and the board's.
 */
#ifndef TACET_RV_PRIVATE_H
#define TACET_RV_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

/* switch.S */
void tc__rv_trap(void);
void tc__rv_thread_start(void);
void tc__rv_signal_trampoline(void);

/* Board (boards/<name>/): called by the reset code before main(); starts the console. */
void tc__rv_board_init(void);
/* The console (the board's): write `n` bytes, polled, from any context. */
void tc__rv_console_write(const char *buf, size_t n);

/* A trap that is an exception, not an interrupt (switch.S): report and stop. */
_Noreturn void tc__rv_fault(uint32_t mcause, const uint32_t *frame);
_Noreturn void tc__rv_exit(int code);

/* picolibc's heap (its <unistd.h> declares it only outside strict C11). */
void *sbrk(ptrdiff_t incr);

#endif /* TACET_RV_PRIVATE_H */
