/* SPDX-License-Identifier: MIT */
/*
 * ARMv7-M start-up: the vector table, the reset code, fault reports, panic.
 *
 * Stacks. The reset code moves Thread mode to the process stack (PSP) before any C runs:
 * main() and then the idle context use the "process stack" of the linker script; threads
 * use their own stacks, also through PSP; every exception handler uses the main stack
 * (MSP), whose size is the worst nesting of handlers. So the PendSV switch treats the
 * start-up/idle context exactly like a thread.
 *
 * Handlers. Exceptions and external interrupts have weak handlers under CMSIS names that an
 * application replaces by defining the function: NMI_Handler, HardFault_Handler ..., and for
 * external interrupt lines the names of the board's vendor (TC_BOARD_IRQ_HANDLERS in
 * tacet_board.h: TIMER0_Handler on mps2, USART2_IRQHandler on the STM32F407), or
 * IRQ<n>_Handler for line n on a board that names none. An interrupt nobody handles stops the
 * run with a message: it is a bug, not something to return from.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/report.h"
#include "cm_private.h"
#include "tacet/port.h"
#if TC_TRACE
#include "../common/trace_dump.h"
#endif

typedef void (*tc_cm_vector)(void);

/* main() gets the command line of the semihosting host (QEMU: the -kernel file name and the
 * words of -append), or argc 0 and an empty argv when there is none. (A program may define
 * main(void) instead; under the AAPCS the unused arguments are just registers.) */
int main(int argc, char **argv);

/* Linker script symbols. */
extern char __tc_cm_msp_top[], __tc_cm_psp_top[];
extern char __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[];
extern tc_cm_vector __init_array_start[], __init_array_end[];

void Reset_Handler(void);
void tc__cm_unexpected(void);
void tc__cm_fault_entry(void);
void tc__cm_reset_c(void);

#define WEAK_DEFAULT(name, dflt) void name(void) __attribute__((weak, alias(#dflt)))
WEAK_DEFAULT(NMI_Handler, tc__cm_unexpected);
WEAK_DEFAULT(HardFault_Handler, tc__cm_fault_entry);
#if TC_MPU_STACK_GUARD
void tc__cm_guard_entry(void);
WEAK_DEFAULT(MemManage_Handler, tc__cm_guard_entry);
#else
WEAK_DEFAULT(MemManage_Handler, tc__cm_fault_entry);
#endif
WEAK_DEFAULT(BusFault_Handler, tc__cm_fault_entry);
WEAK_DEFAULT(UsageFault_Handler, tc__cm_fault_entry);
WEAK_DEFAULT(SVC_Handler, tc__cm_unexpected);
WEAK_DEFAULT(DebugMon_Handler, tc__cm_unexpected);
void PendSV_Handler(void);  /* pendsv.S */
void SysTick_Handler(void); /* cortex_m.c */

#ifdef TC_BOARD_IRQ_HANDLERS
/* External interrupts by the vendor's names, in the board's order: X(line, handler). Each
 * name must stand at its own line, and the list must hold every line of the chip. */
#define IRQ_DECLARE(n, name) WEAK_DEFAULT(name, tc__cm_unexpected);
#define IRQ_ENTRY(n, name) name,
#define IRQ_POSITION(n, name) IRQ_AT_##name,
#define IRQ_CHECK(n, name) \
  _Static_assert(IRQ_AT_##name == (n), "TC_BOARD_IRQ_HANDLERS: " #name " is not at line " #n);
#define IRQ_COUNT(n, name) +1
enum { TC_BOARD_IRQ_HANDLERS(IRQ_POSITION) };
TC_BOARD_IRQ_HANDLERS(IRQ_CHECK)
_Static_assert(0 TC_BOARD_IRQ_HANDLERS(IRQ_COUNT) == TC_BOARD_IRQS,
               "TC_BOARD_IRQ_HANDLERS: one name per line, TC_BOARD_IRQS lines");
TC_BOARD_IRQ_HANDLERS(IRQ_DECLARE)
#define IRQ_TABLE_ENTRIES TC_BOARD_IRQ_HANDLERS(IRQ_ENTRY)
#else
/* External interrupts on a board that names none, in blocks of 16 lines: the table lists
 * TC_BOARD_IRQS rounded up to a whole block (a line the chip lacks is never taken, so its
 * slot is only a word of flash). Every line's handler is weak: a board or an application
 * defines IRQ<n>_Handler. */
#define IRQS_0(X)                                                                               \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
#define IRQS_16(X)                                                                              \
  X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)
#define IRQS_32(X)                                                                              \
  X(32) X(33) X(34) X(35) X(36) X(37) X(38) X(39) X(40) X(41) X(42) X(43) X(44) X(45) X(46) X(47)
#define IRQS_48(X)                                                                              \
  X(48) X(49) X(50) X(51) X(52) X(53) X(54) X(55) X(56) X(57) X(58) X(59) X(60) X(61) X(62) X(63)
#define IRQS_64(X)                                                                              \
  X(64) X(65) X(66) X(67) X(68) X(69) X(70) X(71) X(72) X(73) X(74) X(75) X(76) X(77) X(78) X(79)
#define IRQS_80(X)                                                                              \
  X(80) X(81) X(82) X(83) X(84) X(85) X(86) X(87) X(88) X(89) X(90) X(91) X(92) X(93) X(94) X(95)

#if TC_BOARD_IRQS <= 16
#define IRQ_TABLE(X) IRQS_0(X)
#elif TC_BOARD_IRQS <= 32
#define IRQ_TABLE(X) IRQS_0(X) IRQS_16(X)
#elif TC_BOARD_IRQS <= 48
#define IRQ_TABLE(X) IRQS_0(X) IRQS_16(X) IRQS_32(X)
#elif TC_BOARD_IRQS <= 64
#define IRQ_TABLE(X) IRQS_0(X) IRQS_16(X) IRQS_32(X) IRQS_48(X)
#elif TC_BOARD_IRQS <= 80
#define IRQ_TABLE(X) IRQS_0(X) IRQS_16(X) IRQS_32(X) IRQS_48(X) IRQS_64(X)
#elif TC_BOARD_IRQS <= 96
#define IRQ_TABLE(X) IRQS_0(X) IRQS_16(X) IRQS_32(X) IRQS_48(X) IRQS_64(X) IRQS_80(X)
#else
#error "startup.c: TC_BOARD_IRQS above 96: add a block of 16 lines to IRQ_TABLE"
#endif

#define IRQ_DECLARE(n) WEAK_DEFAULT(IRQ##n##_Handler, tc__cm_unexpected);
#define IRQ_ENTRY(n) IRQ##n##_Handler,
IRQ_TABLE(IRQ_DECLARE)
#define IRQ_TABLE_ENTRIES IRQ_TABLE(IRQ_ENTRY)
#endif

__attribute__((section(".vectors"), used)) const tc_cm_vector tc__cm_vectors[] = {
  (tc_cm_vector)(uintptr_t)__tc_cm_msp_top,
  Reset_Handler,
  NMI_Handler,
  HardFault_Handler,
  MemManage_Handler,
  BusFault_Handler,
  UsageFault_Handler,
  0, 0, 0, 0,
  SVC_Handler,
  DebugMon_Handler,
  0,
  PendSV_Handler,
  SysTick_Handler,
  IRQ_TABLE_ENTRIES
};

/* Thread mode moves to the process stack first, so that no C frame is left on the main
 * stack, which from now on belongs to the handlers. */
__attribute__((naked, noreturn)) void Reset_Handler(void)
{
  __asm volatile("ldr r0, =__tc_cm_psp_top\n\t"
                 "msr psp, r0\n\t"
                 "movs r0, #2\n\t" /* CONTROL.SPSEL: Thread mode uses PSP */
                 "msr control, r0\n\t"
                 "isb\n\t"
                 "b tc__cm_reset_c\n\t"
                 ".pool");
}

#define SCB_VTOR  (*(volatile uint32_t *)0xE000ED08u)
#define SCB_CPACR (*(volatile uint32_t *)0xE000ED88u)
#define SCB_CCR   (*(volatile uint32_t *)0xE000ED14u)
#define SCB_SHCSR (*(volatile uint32_t *)0xE000ED24u)
#define SCB_CFSR  (*(volatile uint32_t *)0xE000ED28u)
#define SCB_HFSR  (*(volatile uint32_t *)0xE000ED2Cu)
#define SCB_MMFAR (*(volatile uint32_t *)0xE000ED34u)
#define SCB_BFAR  (*(volatile uint32_t *)0xE000ED38u)

__attribute__((noreturn, used)) void tc__cm_reset_c(void)
{
#if defined(__ARM_FP)
  SCB_CPACR |= 0xFu << 20; /* CP10, CP11: full access to the FPU */
  __asm volatile("dsb\n\tisb");
#endif
  /* The linker script's symbols bound one region each (.data, .bss), which C sees as
   * different arrays. */
  /* cppcheck-suppress comparePointers ; __data_start and __data_end bound .data */
  memcpy(__data_start, __data_load, (size_t)(__data_end - __data_start));
  /* cppcheck-suppress comparePointers ; __bss_start and __bss_end bound .bss */
  memset(__bss_start, 0, (size_t)(__bss_end - __bss_start));
  SCB_VTOR = (uint32_t)(uintptr_t)tc__cm_vectors;
  SCB_CCR |= 1u << 4;                       /* DIV_0_TRP: division by zero faults */
  SCB_SHCSR |= (1u << 16) | (1u << 17) | (1u << 18); /* separate Mem/Bus/Usage faults */
  for (tc_cm_vector *f = __init_array_start; f < __init_array_end; f++) (*f)();
  tc__cm_board_init();
  char **argv;
  int argc = tc__cm_command_line(&argv);
#if TC_TRACE
  argc = tc__trace_dump_args(argc, argv); /* ports/common/trace_dump.c */
#endif
  exit(main(argc, argv));
}

/* newlib's exit() runs the .fini_array destructors and then calls _fini(), which the host
 * start files would provide: nothing to do here. */
void _fini(void);
void _fini(void) {}

/* The newlib system calls that do not depend on the console (the console's own, _write,
 * _read ..., are in semihosting.c or in the board's console). They live here, with the
 * reset code, because every program links this file. */
int _getpid(void) { return 1; }

int _kill(int pid, int sig)
{
  (void)pid;
  (void)sig;
  errno = EINVAL;
  return -1;
}

/* The heap lies between the end of .bss and the stacks (linker script). */
extern char __heap_start[], __heap_end[];

void *_sbrk(ptrdiff_t incr)
{
  static char *brk = __heap_start;
  /* cppcheck-suppress comparePointers ; brk lies in the heap that __heap_start/end bound */
  if (incr > __heap_end - brk || incr < __heap_start - brk) {
    errno = ENOMEM;
    return (void *)-1;
  }
  char *old = brk;
  brk += incr;
  return old;
}

void _exit(int code) { tc__cm_exit(code); }

/* ---- reports ---------------------------------------------------------------------------- */

/* The reports' writer (ports/common/report.c): the console's stderr. */
void tc__report_write(const char *s, size_t n) { tc__cm_console_write(2, s, n); }

static uint32_t ipsr(void)
{
  uint32_t v;
  __asm volatile("mrs %0, ipsr" : "=r"(v));
  return v & 0x1FFu;
}

void tc__cm_unexpected(void)
{
  __asm volatile("cpsid i");
  fflush(stdout);
  tc__report("tacet: unexpected exception");
  tc__report_hex("number", ipsr());
  tc__report(" (an interrupt without a handler?)\n");
  tc__cm_exit(135);
}

/* Faults: report the registers the hardware stacked, on whichever stack was in use. */
__attribute__((naked)) void tc__cm_fault_entry(void)
{
  __asm volatile("tst lr, #4\n\t"
                 "ite eq\n\t"
                 "mrseq r0, msp\n\t"
                 "mrsne r0, psp\n\t"
                 "mov r1, lr\n\t"
                 "b tc__cm_fault");
}

#if TC_MPU_STACK_GUARD
/* MemManage with the MPU stack guard: guard.c tells an overflow from another fault and
 * returns the EXC_RETURN to leave with (it reports other faults as below). */
__attribute__((naked)) void tc__cm_guard_entry(void)
{
  __asm volatile("mov r0, lr\n\t"
                 "mov r1, sp\n\t"
                 "push {r0, lr}\n\t" /* (and the 8-byte alignment of the main stack) */
                 "bl tc__cm_guard_fault\n\t"
                 "pop {r1, lr}\n\t"
                 "bx r0");
}
#endif

void tc__cm_fault(const uint32_t *frame, uint32_t exc_return)
{
  static const char *const names[] = {"?", "?", "NMI", "HardFault", "MemManage", "BusFault", "UsageFault"};
  uint32_t n = ipsr();
  __asm volatile("cpsid i");
#if TC_MPU_STACK_GUARD
  tc__cm_guard_fatal(exc_return); /* an overflow caught where it cannot be stopped: named */
#endif
  tc__report("tacet: fault: ");
  tc__report(n < 7 ? names[n] : "?");
  tc__report_hex("pc", frame[6]);
  tc__report_hex("lr", frame[5]);
  tc__report_hex("sp", (uint32_t)(uintptr_t)frame);
  tc__report_hex("exc_return", exc_return);
  tc__report_hex("cfsr", SCB_CFSR);
  tc__report_hex("hfsr", SCB_HFSR);
  tc__report_hex("mmfar", SCB_MMFAR);
  tc__report_hex("bfar", SCB_BFAR);
  tc__report("\n");
  tc__cm_exit(136);
}

/* A panic from a handler names the exception, and an external interrupt its line: the
 * handler to look at. */
void tc__cm_panic(const char *msg, const char *detail)
{
  uint32_t n = ipsr();
  __asm volatile("cpsid i");
  fflush(stdout);
  tc__report_panic(msg, detail);
  if (n != 0) {
    tc__report(" (in exception ");
    tc__report_decimal(n);
    if (n >= 16u) {
      tc__report(", IRQ ");
      tc__report_decimal(n - 16u);
    }
    tc__report(")");
  }
  tc__report("\n");
  tc__cm_exit(134);
}
