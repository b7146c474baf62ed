/* SPDX-License-Identifier: MIT */
/*
 * Board: STM32F407 (Cortex-M4F), as on the STM32F4DISCOVERY: an 8 MHz crystal on HSE, the
 * console on USART2 (TX on PA2, 115200 8N1). Built in the test suite, not run: QEMU has no
 * model of this chip's clock tree.
 *
 *   0x08000000  1 MB flash        code and read-only data (aliased at 0 at reset)
 *   0x10000000  64 KB CCM RAM     CPU only: section ".ccm" (stm32f407.ld)
 *   0x20000000  128 KB SRAM       data, heap, stacks
 *   0x40000C00  TIM5              IRQ 50: tc_cycles() (84 MHz, 32 bits, free-running)
 *   0x40004400  USART2            IRQ 38: the console (polled; the interrupt stays off)
 *
 * Clocks (stm32f407.c): SYSCLK 168 MHz from the PLL (HSE 8 MHz / 8 x 336 / 2), AHB 168 MHz,
 * APB1 42 MHz (timers on it 84 MHz), APB2 84 MHz. SysTick counts the processor clock.
 */
#ifndef TACET_BOARD_H
#define TACET_BOARD_H

#define TC_BOARD_NAME       "stm32f407"
#define TC_BOARD_IRQS       82u        /* external interrupt lines: 0 (WWDG) .. 81 (FPU) */
#define TC_BOARD_CPU_HZ     168000000u /* SysTick clock (processor clock) */
#define TC_BOARD_CYCLES_HZ  84000000u  /* tc_cycles() rate: TIM5's clock */

#define TC_STM32_HSE_HZ     8000000u
#define TC_STM32_PCLK1_HZ   42000000u  /* APB1: USART2's clock */
#define TC_STM32_TIM5_IRQ   50u
#define TC_STM32_USART2_IRQ 38u

/* TIM5's count (TIMx_CNT, offset 0x24), for the switch code in assembly (pendsv.S). */
#define TC_BOARD_CYCLES32_DOWN_ADDR 0x40000C24

#ifndef __ASSEMBLER__
/* General-purpose timer registers (TIM2 to TIM5; TIM2 and TIM5 count in 32 bits). */
typedef struct {
  volatile unsigned cr1;  /* bit 0 CEN: count; bit 4 DIR: down */
  volatile unsigned cr2;
  volatile unsigned smcr;
  volatile unsigned dier; /* bit 0 UIE: interrupt at the update (the wrap) */
  volatile unsigned sr;   /* bit 0 UIF: the update happened; cleared by writing 0 */
  volatile unsigned egr;  /* bit 0 UG: load the prescaler and the count now */
  volatile unsigned ccmr[2];
  volatile unsigned ccer;
  volatile unsigned cnt;  /* the count (TC_BOARD_CYCLES32_DOWN_ADDR) */
  volatile unsigned psc;  /* prescaler: counter clock = timer clock / (psc + 1) */
  volatile unsigned arr;  /* the value the count reloads at the wrap */
} tc_stm32_timer;

#define TC_STM32_TIM5 ((tc_stm32_timer *)0x40000C00u)

/* tc_cycles() counting down, modulo 2^32: TIM5 counts down, so its count is read as it is,
 * one load. The switch path accounts run time with it (tacet/port.h, TC_PORT_CYCLES32_DOWN). */
#define TC_BOARD_CYCLES32_DOWN() (*(volatile unsigned *)TC_BOARD_CYCLES32_DOWN_ADDR)
#endif

/* A program on a chip has no end: threads wait for device interrupts, and tc_kernel_start()
 * returns only through tc_cm_stop() (the mps2 boards end a run when nothing can happen). */
#ifndef TC_CM_IDLE_EXIT
#define TC_CM_IDLE_EXIT 0
#endif

#endif /* TACET_BOARD_H */
