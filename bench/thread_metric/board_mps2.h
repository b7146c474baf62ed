/* SPDX-License-Identifier: MIT */
/*
 * What board_mps2.c gives the porting layers of kernels without a start-up of their own, and
 * the mps2 facts every Cortex-M layer shares: the device interrupt's line and the way it is
 * raised, the same on every kernel so that the programs measure the kernels, not the path
 * into them.
 */
#ifndef TM_BOARD_MPS2_H
#define TM_BOARD_MPS2_H

#include <stddef.h>
#include <stdint.h>

#define TM_BOARD_CPU_HZ   25000000u /* mps2: SysTick counts the 25 MHz processor clock */
#define TM_BOARD_IRQ      30u       /* GPIO 0 pin 6, which nothing drives: raised by software */
#define TM_BOARD_IRQ_PRIO 0xC0u     /* below every kernel's interrupt mask */

#define TM_BOARD_NVIC_ISER (*(volatile uint32_t *)0xE000E100u)
#define TM_BOARD_NVIC_IPR  ((volatile uint8_t *)0xE000E400u)
#define TM_BOARD_NVIC_STIR (*(volatile uint32_t *)0xE000EF00u)
#define TM_BOARD_SHPR      ((volatile uint8_t *)0xE000ED18u) /* system handlers 4..15 */
#define TM_BOARD_SYST_CSR  (*(volatile uint32_t *)0xE000E010u)
#define TM_BOARD_SYST_RVR  (*(volatile uint32_t *)0xE000E014u)
#define TM_BOARD_SYST_CVR  (*(volatile uint32_t *)0xE000E018u)
#define TM_BOARD_TIMER0_VALUE (*(volatile uint32_t *)0x40000004u)

/* The device line at a kernel-masked priority, enabled. */
static inline void tm_board_irq_setup(void)
{
  TM_BOARD_NVIC_IPR[TM_BOARD_IRQ] = TM_BOARD_IRQ_PRIO;
  TM_BOARD_NVIC_ISER = 1u << TM_BOARD_IRQ;
}

/* Pend it from software: it is taken before the next instruction when nothing masks it. */
static inline void tm_board_irq_raise(void)
{
  TM_BOARD_NVIC_STIR = TM_BOARD_IRQ;
  __asm volatile("dsb\n\tisb" ::: "memory");
}

/* A 32-bit counter of the 25 MHz clock, counting up (the CMSDK timer 0, which Tacet's own
 * port uses the same way): the time source of the kernels' run-time statistics. */
void tm_board_counter_start(void);
static inline uint32_t tm_board_counter(void) { return 0xFFFFFFFFu - TM_BOARD_TIMER0_VALUE; }

void tm_board_write(const char *text, size_t n);
__attribute__((noreturn)) void tm_board_exit(int status);

#endif /* TM_BOARD_MPS2_H */
