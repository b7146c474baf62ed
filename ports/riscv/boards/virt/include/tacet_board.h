/* SPDX-License-Identifier: MIT */
/*
 * Board: QEMU's generic RISC-V machine `virt` (qemu-system-riscv32 -M virt -bios none), one hart
 * in machine mode. The devices the port uses, from QEMU's memory map of the machine:
 *
 *   0x00100000  the test device          (unused: the exit status goes through semihosting)
 *   0x00101000  Goldfish RTC             PLIC source 11: an alarm (tests, examples)
 *   0x02000000  CLINT                    msip (the machine software interrupt), mtimecmp,
 *                                        mtime at 10 MHz: the tick
 *   0x0C000000  PLIC                     device interrupts (machine external interrupt)
 *   0x10000000  16550 UART 0             PLIC source 10: the console (stdout, stderr)
 *   0x80000000  RAM                      128 MB by default: the program, loaded by -kernel
 *
 * The hart's clock: QEMU models none. Under -icount, mcycle (and minstret) count nanoseconds of
 * virtual time: QEMU's instruction count shifted by the -icount shift. The port runs at
 * shift=0 (QEMU's options: board.cmake), so one instruction is one nanosecond and mcycle is the
 * number of instructions executed: tc_cycles() runs at 1 GHz, one cycle per instruction, and
 * every figure in cycles is a figure in instructions. mtime counts at 10 MHz, one per 100
 * instructions. Without -icount QEMU's mcycle follows the host's clock: tc_cycles() is then not
 * reproducible.

 * Console: the UART, polled (stdout and stderr are the same stream, QEMU's serial port: its
 * standard output under -nographic). Exit status, command line and host files: semihosting
 * (QEMU -semihosting-config enable=on,target=native).
 */
#ifndef TACET_BOARD_H
#define TACET_BOARD_H

#define TC_BOARD_NAME       "virt"
#define TC_BOARD_TIMER_HZ   10000000u   /* mtime */
#define TC_BOARD_CYCLES_HZ  1000000000u /* mcycle: instructions under -icount shift=0 */

#define TC_BOARD_CLINT      0x02000000u
#define TC_BOARD_PLIC       0x0C000000u
#define TC_BOARD_UART       0x10000000u
#define TC_BOARD_PLIC_SOURCES 96u       /* sources 1 .. 95 (virt's VIRT_IRQCHIP_NUM_SOURCES) */
#define TC_BOARD_UART_IRQ   10u
#define TC_BOARD_RTC        0x00101000u /* Goldfish RTC: nanoseconds, an alarm interrupt */
#define TC_BOARD_RTC_IRQ    11u

/* A run on this board is a program with an end: when no thread is ready and no timeout is
 * pending, tc_kernel_start() returns 0 (the sim port's rule, as on mps2). An application whose
 * threads wait for device interrupts without a timeout builds with TC_RV_IDLE_EXIT=0. */
#ifndef TC_RV_IDLE_EXIT
#define TC_RV_IDLE_EXIT 1
#endif

#endif /* TACET_BOARD_H */
