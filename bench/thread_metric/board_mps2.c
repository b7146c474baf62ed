/* SPDX-License-Identifier: MIT */
/*
 * The start-up of a Thread-Metric program on a kernel that brings none of its own (ThreadX,
 * FreeRTOS; Tacet's is in its port): the vector table, the reset code, the console, the
 * command line and the exit status through ARM semihosting, and the newlib calls stdio needs.
 * For QEMU's mps2-an385 (Cortex-M3) and mps2-an386 (Cortex-M4F), with the linker script of
 * Tacet's mps2 board (its sections and stacks; nothing of Tacet's code).
 *
 * main() runs in Thread mode on the main stack, which the kernel later takes for its
 * handlers (FreeRTOS resets it from the vector table; ThreadX is told its top). Handlers the
 * kernel's port provides keep the CMSIS names: SVC_Handler, PendSV_Handler, SysTick_Handler.
 * The device interrupt of the Thread-Metric programs is line 30 (PORT0_6_Handler, as on
 * Tacet's board): the porting layer defines it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "board_mps2.h"

typedef void (*vector)(void);

extern char __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[];
extern char __heap_start[], __heap_end[];
extern char __tc_cm_msp_top[];
extern vector __init_array_start[], __init_array_end[];

int main(int argc, char **argv);
void Reset_Handler(void);
void tm_board_unexpected(void);

/* An exception nobody handles (a fault among them) ends the run with status 135. */
void tm_board_unexpected(void)
{
  static const char message[] = "thread_metric: unexpected exception\n";
  tm_board_write(message, sizeof message - 1);
  tm_board_exit(135);
}

#define WEAK_DEFAULT(name) void name(void) __attribute__((weak, alias("tm_board_unexpected")))
WEAK_DEFAULT(NMI_Handler);
WEAK_DEFAULT(HardFault_Handler);
WEAK_DEFAULT(MemManage_Handler);
WEAK_DEFAULT(BusFault_Handler);
WEAK_DEFAULT(UsageFault_Handler);
WEAK_DEFAULT(SVC_Handler);
WEAK_DEFAULT(DebugMon_Handler);
WEAK_DEFAULT(PendSV_Handler);
WEAK_DEFAULT(SysTick_Handler);
WEAK_DEFAULT(PORT0_6_Handler);

#define U  tm_board_unexpected
#define U4 U, U, U, U
__attribute__((section(".vectors"), used)) const vector tm_board_vectors[16 + 32] = {
    (vector)(uintptr_t)__tc_cm_msp_top,
    Reset_Handler,
    NMI_Handler,
    HardFault_Handler,
    MemManage_Handler,
    BusFault_Handler,
    UsageFault_Handler,
    0,
    0,
    0,
    0,
    SVC_Handler,
    DebugMon_Handler,
    0,
    PendSV_Handler,
    SysTick_Handler,
    U4, U4, U4, U4, U4, U4, U4, /* lines 0..27 */
    U,  U,  PORT0_6_Handler, U, /* lines 28..31 */
};

#define SCB_VTOR  (*(volatile uint32_t *)0xE000ED08u)
#define SCB_CPACR (*(volatile uint32_t *)0xE000ED88u)

/* ---- semihosting ----------------------------------------------------------------------------- */

#define SYS_OPEN          0x01
#define SYS_WRITE         0x05
#define SYS_GET_CMDLINE   0x15
#define SYS_EXIT_EXTENDED 0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

static int32_t semihost(uint32_t op, void *block)
{
  register uint32_t r0 __asm("r0") = op;
  register void *r1 __asm("r1") = block;
  __asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return (int32_t)r0;
}

static int32_t console = -1;

void tm_board_write(const char *text, size_t n)
{
  if (console < 0) {
    uint32_t open[3] = {(uint32_t)(uintptr_t)":tt", 4 /* "w" */, 3};
    console = semihost(SYS_OPEN, open);
  }
  uint32_t write[3] = {(uint32_t)console, (uint32_t)(uintptr_t)text, (uint32_t)n};
  (void)semihost(SYS_WRITE, write);
}

void tm_board_exit(int status)
{
  uint32_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status};
  for (;;) (void)semihost(SYS_EXIT_EXTENDED, block);
}

/* The host's command line, split at spaces (as Tacet's port does): argv[0] first. */
#define CMDLINE_SIZE 256
#define MAX_ARGS     16
static char cmdline[CMDLINE_SIZE];
static char *args[MAX_ARGS + 1];

static int command_line(void)
{
  uint32_t block[2] = {(uint32_t)(uintptr_t)cmdline, sizeof cmdline};
  if (semihost(SYS_GET_CMDLINE, block) != 0) return 0;
  int argc = 0;
  for (char *p = cmdline; *p != '\0' && argc < MAX_ARGS;) {
    while (*p == ' ' || *p == '\t') *p++ = '\0';
    if (*p == '\0') break;
    args[argc++] = p;
    while (*p != '\0' && *p != ' ' && *p != '\t') p++;
  }
  args[argc] = NULL;
  return argc;
}

/* ---- reset ------------------------------------------------------------------------------------ */

void Reset_Handler(void)
{
#if defined(__ARM_FP)
  SCB_CPACR |= 0xFu << 20; /* CP10, CP11: the FPU */
  __asm volatile("dsb\n\tisb");
#endif
  memcpy(__data_start, __data_load, (size_t)(__data_end - __data_start));
  memset(__bss_start, 0, (size_t)(__bss_end - __bss_start));
  SCB_VTOR = (uint32_t)(uintptr_t)tm_board_vectors;
  for (vector *f = __init_array_start; f < __init_array_end; f++) (*f)();
  int argc = command_line();
  exit(main(argc, args));
}

/* ---- the CMSDK timer 0 as a free-running counter (25 MHz, counting down) --------------------- */

#define TIMER0_CTRL   (*(volatile uint32_t *)0x40000000u)
#define TIMER0_RELOAD (*(volatile uint32_t *)0x40000008u)

void tm_board_counter_start(void)
{
  TIMER0_RELOAD = 0xFFFFFFFFu;
  TM_BOARD_TIMER0_VALUE = 0xFFFFFFFFu;
  TIMER0_CTRL = 1u; /* enabled, no interrupt */
}

/* ---- newlib ----------------------------------------------------------------------------------- */

int _write(int fd, const void *buf, size_t n);
int _read(int fd, void *buf, size_t n);
int _close(int fd);
int _lseek(int fd, int offset, int whence);
int _fstat(int fd, struct stat *st);
int _isatty(int fd);
void *_sbrk(ptrdiff_t increment);
void _exit(int status);
int _getpid(void);
int _kill(int pid, int sig);
void _fini(void);

int _write(int fd, const void *buf, size_t n)
{
  (void)fd;
  tm_board_write(buf, n);
  return (int)n;
}

int _read(int fd, void *buf, size_t n)
{
  (void)fd;
  (void)buf;
  (void)n;
  return 0;
}

int _close(int fd)
{
  (void)fd;
  return 0;
}

int _lseek(int fd, int offset, int whence)
{
  (void)fd;
  (void)offset;
  (void)whence;
  return 0;
}

int _fstat(int fd, struct stat *st)
{
  (void)fd;
  memset(st, 0, sizeof *st);
  st->st_mode = S_IFCHR;
  return 0;
}

int _isatty(int fd)
{
  (void)fd;
  return 1;
}

void *_sbrk(ptrdiff_t increment)
{
  static char *brk = __heap_start;
  if (increment > __heap_end - brk) {
    errno = ENOMEM;
    return (void *)-1;
  }
  char *old = brk;
  brk += increment;
  return old;
}

void _exit(int status) { tm_board_exit(status); }

int _getpid(void) { return 1; }

int _kill(int pid, int sig)
{
  (void)pid;
  (void)sig;
  errno = EINVAL;
  return -1;
}

void _fini(void) {}
