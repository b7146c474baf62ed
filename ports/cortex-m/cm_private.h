/*
 * Cortex-M port internals shared by the core files and the board files.
 */
#ifndef TACET_CM_PRIVATE_H
#define TACET_CM_PRIVATE_H

#include <stddef.h>

/* Board (boards/<name>/): called by the reset code before main(); starts tc_cycles()'s
 * timer and the console. */
void tc__cm_board_init(void);

/* Console and exit (semihosting.c). */
void tc__cm_console_init(void);
int tc__cm_console_write(int fd, const void *buf, size_t n);
_Noreturn void tc__cm_exit(int code);

#endif /* TACET_CM_PRIVATE_H */
