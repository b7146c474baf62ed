/* SPDX-License-Identifier: MIT */
/*
 * The start-up of a Thread-Metric program on a kernel that brings none of its own, on QEMU's
 * RISC-V virt machine in machine mode (-bios none): the entry, the reset code, the console on
 * the 16550 UART, the command line and the exit status through semihosting (picolibc's
 * libsemihost), with the linker script of Tacet's virt board (its sections and its startup
 * stack; nothing of Tacet's code). board_mps2.c is the same for Cortex-M.
 *
 * main() runs on the startup stack; the kernel's trap vector (tm_board_trap_vector, the
 * porting layer's) is in mtvec from the start, every interrupt masked in mie until the kernel
 * enables its own.
 */
#include <semihost.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board_virt.h"

int main(int argc, char **argv);
void _set_tls(void *tls);
void __libc_init_array(void);

extern char __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[];
extern char __tls_base[];

__attribute__((noreturn, used)) void tm_board_reset(void);

/* The entry (the linker script puts this section first, where QEMU enters): gp and sp, nothing
 * else before C. */
__attribute__((naked, noreturn, section(".text.tc__rv_entry"))) void _start(void);
void _start(void)
{
  __asm volatile(".option push\n\t"
                 ".option norelax\n\t" /* gp is not set yet: no gp-relative address here */
                 "la gp, __global_pointer$\n\t"
                 ".option pop\n\t"
                 "la sp, __tc_rv_main_stack_top\n\t"
                 "csrw mie, zero\n\t"
                 "j tm_board_reset");
}

/* ---- the console: 16550 UART 0, polled ------------------------------------------------------- */

#define UART_THR (*(volatile uint8_t *)0x10000000u)
#define UART_LSR (*(volatile uint8_t *)0x10000005u)
#define LSR_THRE 0x20u

void tm_board_write(const char *text, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    while ((UART_LSR & LSR_THRE) == 0) {
    }
    UART_THR = (uint8_t)text[i];
  }
}

static int console_put(char c, FILE *f)
{
  (void)f;
  tm_board_write(&c, 1);
  return (unsigned char)c;
}
static FILE console = FDEV_SETUP_STREAM(console_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdin = &console;
FILE *const stdout = &console;
FILE *const stderr = &console;

/* exit() ends in libsemihost's _exit: SYS_EXIT_EXTENDED, QEMU's exit status. */
void tm_board_exit(int status) { _exit(status); }

void tm_board_unexpected(void)
{
  uint32_t mcause, mepc;
  __asm volatile("csrr %0, mcause\n\tcsrr %1, mepc" : "=r"(mcause), "=r"(mepc));
  printf("thread_metric: unexpected trap, mcause 0x%08lx, mepc 0x%08lx\n", (unsigned long)mcause, (unsigned long)mepc);
  tm_board_exit(135);
}

/* ---- reset ------------------------------------------------------------------------------------ */

/* The host's command line, split at spaces (as Tacet's port does): argv[0] first. */
#define CMDLINE_SIZE 256
#define MAX_ARGS     16
static char cmdline[CMDLINE_SIZE];
static char *args[MAX_ARGS + 1];

static int command_line(void)
{
  int argc = 0;
  if (sys_semihost_get_cmdline(cmdline, sizeof cmdline) != 0) return 0;
  cmdline[sizeof cmdline - 1] = '\0';
  for (char *p = cmdline; *p != '\0' && argc < MAX_ARGS;) {
    while (*p == ' ' || *p == '\t') *p++ = '\0';
    if (*p == '\0') break;
    args[argc++] = p;
    while (*p != '\0' && *p != ' ' && *p != '\t') p++;
  }
  args[argc] = NULL;
  return argc;
}

void tm_board_reset(void)
{
#if defined(__riscv_flen)
  __asm volatile("li t0, 0x2000\n\tcsrs mstatus, t0" ::: "t0"); /* mstatus.FS Initial: the FPU on */
#endif
  __asm volatile("csrw mtvec, %0" ::"r"(tm_board_trap_vector));
  memcpy(__data_start, __data_load, (size_t)(__data_end - __data_start));
  memset(__bss_start, 0, (size_t)(__bss_end - __bss_start));
  _set_tls(__tls_base); /* picolibc's errno; no kernel here moves tp */
  __libc_init_array();
  int argc = command_line();
  exit(main(argc, args));
}
