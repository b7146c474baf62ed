/* SPDX-License-Identifier: MIT */
/*
 * RV32 start-up (machine mode): the entry, the reset code, stdout and stderr on the board's
 * console, the command line, fault reports, panic, the exit.
 *
 * Stacks. main() and then the idle context run on the linker script's startup stack; threads on
 * their own; the C part of every trap on the interrupt stack (switch.S), whose size is one
 * trap's worth: traps do not nest.
 *
 * picolibc supplies the C library; its libsemihost the system calls (open, read, write,
 * lseek, close, _exit) over semihosting, which QEMU serves: host files and the exit status.
 * stdout and stderr are this file's, on the console, so printing costs no trap into QEMU per
 * character.
 */
#include <semihost.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/report.h"
#include "rv_private.h"
#include "tacet/port.h"
#if TC_TRACE
#include "../common/trace_dump.h"
#endif

int main(int argc, char **argv);
/* picolibc: tp, the thread pointer, at the thread-local block (errno). */
void _set_tls(void *tls);
void __libc_init_array(void);

extern char __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[];
extern char __tls_base[];

/* The entry: gp and sp, the trap vector, nothing else before C. mscratch = 0: not in a trap. */
__attribute__((naked, noreturn, section(".text.tc__rv_entry"))) void _start(void);
void _start(void)
{
  __asm volatile(".option push\n\t"
                 ".option norelax\n\t" /* gp is not set yet: no gp-relative address here */
                 "la gp, __global_pointer$\n\t"
                 ".option pop\n\t"
                 "la sp, __tc_rv_main_stack_top\n\t"
                 "la t0, tc__rv_trap\n\t"
                 "csrw mtvec, t0\n\t"
                 "csrw mscratch, zero\n\t"
                 "csrw mie, zero\n\t"
                 "j tc__rv_reset");
}

/* stdout and stderr: the console, unbuffered (a line reaches it before the program goes on). */
static int console_put(char c, FILE *f)
{
  (void)f;
  tc__rv_console_write(&c, 1);
  return (unsigned char)c;
}
static FILE console = FDEV_SETUP_STREAM(console_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdin = &console; /* (reads nothing) */
FILE *const stdout = &console;
FILE *const stderr = &console;

#ifndef TC_RV_CMDLINE_SIZE
#define TC_RV_CMDLINE_SIZE 256u /* bytes, with the terminating NUL */
#endif
#ifndef TC_RV_ARGS
#define TC_RV_ARGS 16u /* words of the command line that reach argv */
#endif

/* The host's command line (semihosting SYS_GET_CMDLINE; QEMU: the -kernel path and the words of
 * -append, or the arg= values of -semihosting-config), split at spaces and tabs. argc 0 when
 * there is none or it does not fit. */
static int command_line(char ***argv)
{
  static char line[TC_RV_CMDLINE_SIZE];
  static char *args[TC_RV_ARGS + 1];
  int argc = 0;
  if (sys_semihost_get_cmdline(line, sizeof line) == 0) {
    line[sizeof line - 1] = '\0'; /* do not trust the host to terminate it */
    argc = tc__split_words(line, args, (int)TC_RV_ARGS);
  }
  args[argc] = NULL;
  *argv = args;
  return argc;
}

__attribute__((noreturn, used)) void tc__rv_reset(void);
void tc__rv_reset(void)
{
#if defined(__riscv_flen)
  /* mstatus.FS Initial: the FPU on, its registers not yet used by anyone. */
  __asm volatile("li t0, 0x2000\n\tcsrs mstatus, t0" ::: "t0");
#endif
  /* The linker script's symbols bound one region each, which C sees as different arrays. */
  /* cppcheck-suppress comparePointers ; __data_start and __data_end bound .data and .tdata */
  memcpy(__data_start, __data_load, (size_t)(__data_end - __data_start));
  /* cppcheck-suppress comparePointers ; __bss_start and __bss_end bound .tbss and .bss */
  memset(__bss_start, 0, (size_t)(__bss_end - __bss_start));
  _set_tls(__tls_base);
  __libc_init_array();
  tc__rv_board_init();
  char **argv;
  int argc = command_line(&argv);
#if TC_TRACE
  argc = tc__trace_dump_args(argc, argv); /* ports/common/trace_dump.c */
#endif
  exit(main(argc, argv));
}

/* exit() ends in _exit (libsemihost: SYS_EXIT_EXTENDED, the status QEMU exits with). */
_Noreturn void tc__rv_exit(int code)
{
#if TC_TRACE
  tc__trace_dump_end_of_run(); /* a run still recording (ports/common/trace_dump.c) */
#endif
  _exit(code);
}

/* ---- reports ---------------------------------------------------------------------------- */

/* The reports' writer (ports/common/report.c): the console. */
void tc__report_write(const char *s, size_t n) { tc__rv_console_write(s, n); }

/* An exception: the trap frame holds the registers of the code that faulted. */
void tc__rv_fault(uint32_t mcause, const uint32_t *frame)
{
  uint32_t mtval;
  __asm volatile("csrr %0, mtval" : "=r"(mtval));
  fflush(stdout);
  tc__report("tacet: fault:");
  tc__report_hex("mcause", mcause);
  tc__report_hex("mepc", frame[16]);
  tc__report_hex("mtval", mtval);
  tc__report_hex("ra", frame[0]);
  tc__report_hex("sp", (uint32_t)(uintptr_t)frame);
  tc__report("\n");
  tc__rv_exit(136);
}

/* A panic from a handler names the interrupt: the handler to look at. */
void tc__rv_panic(const char *msg, const char *detail)
{
  __asm volatile("csrci mstatus, 8" ::: "memory");
  fflush(stdout);
  tc__report_panic(msg, detail);
  if (tc__rv_irq_number != 0) {
    tc__report(" (in interrupt ");
    tc__report_decimal(tc__rv_irq_number);
    tc__report(")");
  }
  tc__report("\n");
  tc__rv_exit(134);
}
