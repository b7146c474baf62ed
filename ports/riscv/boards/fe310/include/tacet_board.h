/* SPDX-License-Identifier: MIT */
/*
 * Board: SiFive FE310-G002 (HiFive1 Rev B), one E31 hart (RV32IMAC) in machine mode, as QEMU's
 * sifive_e machine models it (qemu-system-riscv32 -M sifive_e,revb=true). The devices the port
 * uses, from the FE310-G002 manual's memory map (QEMU's is the same):
 *
 *   0x02000000  CLINT                    msip (the machine software interrupt), mtimecmp,
 *                                        mtime: the tick
 *   0x0C000000  PLIC                     device interrupts (sources 1 .. 52, priorities 1 .. 7)
 *   0x10013000  UART 0 (SiFive)          PLIC source 3: the console (stdout, stderr)
 *   0x20000000  QSPI flash, in place     the program from 0x20010000 (fe310.ld)
 *   0x80000000  DTIM                     16 KB of data RAM, the only RAM
 *
 * mtime: on the part it counts the 32,768 Hz low-frequency clock; QEMU 7.2's sifive_e runs it
 * at 10 MHz of virtual time instead (the generic CLINT's rate: one count per 100 instructions
 * at -icount shift=0), and TC_BOARD_TIMER_HZ is QEMU's unless the build sets it
 * (-DTC_BOARD_TIMER_HZ=32768u for the part). 32,768 Hz divides into no whole number of 1 ms
 * ticks: the port's tick keeps the fraction (riscv.c), so a tick falls on the mtime count at or
 * below its exact time and the ticks never drift. The hart's clock: under QEMU -icount shift=0, as on virt,
 * mcycle counts instructions (tc_cycles() at 1 GHz). On the part, mcycle counts the core clock
 * (16 MHz from the internal oscillator after reset, up to 320 MHz from the PLL, which this board
 * code leaves as the boot loader set it): TC_BOARD_CYCLES_HZ is QEMU's.
 *
 * Console: UART 0, polled. Exit status, command line and host files: semihosting (QEMU
 * -semihosting-config enable=on,target=native); on the part, a debugger that serves it.
 */
#ifndef TACET_BOARD_H
#define TACET_BOARD_H

#define TC_BOARD_NAME       "fe310"
#ifndef TC_BOARD_TIMER_HZ
#define TC_BOARD_TIMER_HZ   10000000u   /* mtime under QEMU 7.2; 32768u on the part */
#endif
#define TC_BOARD_CYCLES_HZ  1000000000u /* mcycle: instructions under -icount shift=0 */

#define TC_BOARD_CLINT      0x02000000u
#define TC_BOARD_PLIC       0x0C000000u
#define TC_BOARD_UART       0x10013000u
#define TC_BOARD_PLIC_SOURCES 53u       /* sources 1 .. 52 */
#define TC_BOARD_UART_IRQ   3u

/* A run on this board is a program with an end, as on virt: when no thread is ready and no
 * timeout is pending, tc_kernel_start() returns 0. An application whose threads wait for device
 * interrupts without a timeout builds with TC_RV_IDLE_EXIT=0. */
#ifndef TC_RV_IDLE_EXIT
#define TC_RV_IDLE_EXIT 1
#endif

#endif /* TACET_BOARD_H */
