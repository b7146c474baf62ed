/* SPDX-License-Identifier: MIT */
/*
 * What board_virt.c gives the porting layers of kernels without a start-up of their own on
 * QEMU's RISC-V virt machine (FreeRTOS), and the virt facts every RISC-V layer shares: the
 * device interrupt the programs raise (the CLINT's machine software interrupt, which Tacet's
 * layer raises the same way through its port), the machine timer's rate, the cycle counter.
 */
#ifndef TM_BOARD_VIRT_H
#define TM_BOARD_VIRT_H

#include <stddef.h>
#include <stdint.h>

#define TM_BOARD_MTIME_HZ 10000000u  /* virt: mtime counts 10 MHz */
#define TM_BOARD_MSIP     (*(volatile uint32_t *)0x02000000u) /* hart 0's software interrupt */
#define TM_BOARD_MTIMECMP 0x02004000u /* hart 0's mtimecmp (64 bits) */
#define TM_BOARD_MTIME    0x0200BFF8u /* mtime (64 bits) */
#define TM_BOARD_MCAUSE_SOFTWARE 0x80000003u

/* Pend the machine software interrupt: taken before the next instruction when mstatus.MIE is
 * set (the kernel enables mie.MSIE: tm_board_irq_setup()). */
static inline void tm_board_irq_raise(void)
{
  TM_BOARD_MSIP = 1u;
  __asm volatile("fence" ::: "memory");
}

/* Its handler's acknowledgement: the CLINT holds the line until msip is cleared. */
static inline void tm_board_irq_clear(void) { TM_BOARD_MSIP = 0u; }

/* mie.MSIE: the software interrupt may interrupt. */
static inline void tm_board_irq_setup(void) { __asm volatile("csrs mie, %0" ::"r"(1u << 3) : "memory"); }

/* The hart's cycle counter, low 32 bits (one per instruction under -icount shift=0): the time
 * source of the kernels' run-time statistics, as Tacet's counters read it. */
static inline uint32_t tm_board_counter(void)
{
  uint32_t c;
  __asm volatile("csrr %0, mcycle" : "=r"(c));
  return c;
}
static inline void tm_board_counter_start(void) {}

/* The trap vector the start-up installs (mtvec, direct mode): the kernel's, named by the
 * porting layer. */
extern void (*const tm_board_trap_vector)(void);

void tm_board_write(const char *text, size_t n);
__attribute__((noreturn)) void tm_board_exit(int status);
__attribute__((noreturn)) void tm_board_unexpected(void);

#endif /* TM_BOARD_VIRT_H */
