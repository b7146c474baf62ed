/* SPDX-License-Identifier: MIT */
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

/* tc_cycles() from a 32-bit timer that counts down from 0xFFFFFFFF and wraps every 2^32
 * ticks, whose wrap interrupt (the most urgent priority: it touches nothing of the kernel)
 * counts `*wraps`, the upper 32 bits. A reader that runs while a wrap is pending but not yet
 * counted (interrupts masked, or a handler of the same priority) sees it in the timer's
 * pending flag, `*status & flag`, and counts it itself: the value read tells whether it was
 * read before that wrap (near 0: a counter may hold 0 for one tick before it reloads) or
 * after it (near the top). A dozen instructions, no masking. */
static inline uint64_t tc__cm_cycles_down(const volatile uint32_t *wraps,
                                          const volatile unsigned *value,
                                          const volatile unsigned *status, unsigned flag)
{
  uint32_t w, hi, v;
  do {
    w = *wraps;
    v = *value;
    hi = w + ((*status & flag) != 0u && v >= 0x80000000u);
  } while (*wraps != w); /* the wrap interrupt ran in between: read again */
  return ((uint64_t)hi << 32) | (uint32_t)~v;
}

/* Console and exit (semihosting.c, or the board's own console). */
void tc__cm_console_init(void);
int tc__cm_console_write(int fd, const void *buf, size_t n);
_Noreturn void tc__cm_exit(int code);

/* The program's command line from the host (semihosting.c), for main(): split at spaces and
 * tabs into *argv, static and NULL-terminated, of at most TC_CM_ARGS words. Returns argc: 0
 * when the host has none, or when it does not fit TC_CM_CMDLINE_SIZE bytes. Call once, from
 * the reset code: the words are cut out of one static buffer. */
int tc__cm_command_line(char ***argv);

/* newlib's system calls: the console's (semihosting.c, or a board's own) and the rest
 * (startup.c). newlib's contracts: -1 with errno set on failure. */
struct stat;
int _open(const char *path, int flags, ...);
int _write(int fd, const void *buf, size_t n);
int _read(int fd, void *buf, size_t n);
int _close(int fd);
int _lseek(int fd, int off, int whence);
int _fstat(int fd, struct stat *st);
int _isatty(int fd);
int _getpid(void);
int _kill(int pid, int sig);
void *_sbrk(ptrdiff_t incr);
_Noreturn void _exit(int code);

/* Faults (startup.c): report the stacked registers and the fault status, exit with 136. */
_Noreturn void tc__cm_fault(const uint32_t *frame, uint32_t exc_return);

/* The MPU stack guard (guard.c, TC_MPU_STACK_GUARD). */
struct tc_thread;
void tc__cm_guard_init(void);
void tc__cm_guard_stack_init(struct tc_thread *t);
uint32_t tc__cm_guard_fault(uint32_t exc_return, uint32_t *msp);
void tc__cm_guard_fatal(uint32_t exc_return);

#endif /* TACET_CM_PRIVATE_H */
