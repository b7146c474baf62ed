/* SPDX-License-Identifier: MIT */
/*
 * Board: STM32F407 (Cortex-M4F), as on the STM32F4DISCOVERY: an 8 MHz crystal on HSE, the
 * console on USART2 (TX on PA2, 115200 8N1). Built in the test suite, not run: QEMU has no
 * model of this chip's clock tree.
 *
 *   0x08000000  1 MB flash        code and read-only data (aliased at 0 at reset)
 *   0x10000000  64 KB CCM RAM     CPU only: section ".ccm" (stm32f407.ld)
 *   0x20000000  128 KB SRAM       data, heap, stacks
 *   0x40000C00  TIM5              IRQ 50 (TIM5_IRQHandler): tc_cycles() (84 MHz, 32 bits)
 *   0x40004400  USART2            IRQ 38 (USART2_IRQHandler): the console (polled; the
 *                                 interrupt stays off)
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

/* The handler of each external interrupt line, by the names of ST's CMSIS device files for the
 * STM32F407 (stm32f407xx.h's IRQn_Type, the start-up file's <name>_IRQHandler), so that code
 * written for them -- a CubeMX project's stm32f4xx_it.c, say -- links in unchanged:
 * X(line, handler). Line 79 is the STM32F417's CRYP, absent here: it keeps the port's name for
 * a line without one. The vector table (startup.c) is built from this list, each handler weak
 * until the application defines it; tacet/cortex_m.h declares them all. */
#define TC_BOARD_IRQ_HANDLERS(X)                                                         \
  X(0, WWDG_IRQHandler) X(1, PVD_IRQHandler) X(2, TAMP_STAMP_IRQHandler)                 \
  X(3, RTC_WKUP_IRQHandler) X(4, FLASH_IRQHandler) X(5, RCC_IRQHandler)                  \
  X(6, EXTI0_IRQHandler) X(7, EXTI1_IRQHandler) X(8, EXTI2_IRQHandler)                   \
  X(9, EXTI3_IRQHandler) X(10, EXTI4_IRQHandler) X(11, DMA1_Stream0_IRQHandler)          \
  X(12, DMA1_Stream1_IRQHandler) X(13, DMA1_Stream2_IRQHandler)                          \
  X(14, DMA1_Stream3_IRQHandler) X(15, DMA1_Stream4_IRQHandler)                          \
  X(16, DMA1_Stream5_IRQHandler) X(17, DMA1_Stream6_IRQHandler) X(18, ADC_IRQHandler)    \
  X(19, CAN1_TX_IRQHandler) X(20, CAN1_RX0_IRQHandler) X(21, CAN1_RX1_IRQHandler)        \
  X(22, CAN1_SCE_IRQHandler) X(23, EXTI9_5_IRQHandler) X(24, TIM1_BRK_TIM9_IRQHandler)   \
  X(25, TIM1_UP_TIM10_IRQHandler) X(26, TIM1_TRG_COM_TIM11_IRQHandler)                   \
  X(27, TIM1_CC_IRQHandler) X(28, TIM2_IRQHandler) X(29, TIM3_IRQHandler)                \
  X(30, TIM4_IRQHandler) X(31, I2C1_EV_IRQHandler) X(32, I2C1_ER_IRQHandler)             \
  X(33, I2C2_EV_IRQHandler) X(34, I2C2_ER_IRQHandler) X(35, SPI1_IRQHandler)             \
  X(36, SPI2_IRQHandler) X(37, USART1_IRQHandler) X(38, USART2_IRQHandler)               \
  X(39, USART3_IRQHandler) X(40, EXTI15_10_IRQHandler) X(41, RTC_Alarm_IRQHandler)       \
  X(42, OTG_FS_WKUP_IRQHandler) X(43, TIM8_BRK_TIM12_IRQHandler)                         \
  X(44, TIM8_UP_TIM13_IRQHandler) X(45, TIM8_TRG_COM_TIM14_IRQHandler)                   \
  X(46, TIM8_CC_IRQHandler) X(47, DMA1_Stream7_IRQHandler) X(48, FSMC_IRQHandler)        \
  X(49, SDIO_IRQHandler) X(50, TIM5_IRQHandler) X(51, SPI3_IRQHandler)                   \
  X(52, UART4_IRQHandler) X(53, UART5_IRQHandler) X(54, TIM6_DAC_IRQHandler)             \
  X(55, TIM7_IRQHandler) X(56, DMA2_Stream0_IRQHandler) X(57, DMA2_Stream1_IRQHandler)   \
  X(58, DMA2_Stream2_IRQHandler) X(59, DMA2_Stream3_IRQHandler)                          \
  X(60, DMA2_Stream4_IRQHandler) X(61, ETH_IRQHandler) X(62, ETH_WKUP_IRQHandler)        \
  X(63, CAN2_TX_IRQHandler) X(64, CAN2_RX0_IRQHandler) X(65, CAN2_RX1_IRQHandler)        \
  X(66, CAN2_SCE_IRQHandler) X(67, OTG_FS_IRQHandler) X(68, DMA2_Stream5_IRQHandler)     \
  X(69, DMA2_Stream6_IRQHandler) X(70, DMA2_Stream7_IRQHandler) X(71, USART6_IRQHandler) \
  X(72, I2C3_EV_IRQHandler) X(73, I2C3_ER_IRQHandler) X(74, OTG_HS_EP1_OUT_IRQHandler)   \
  X(75, OTG_HS_EP1_IN_IRQHandler) X(76, OTG_HS_WKUP_IRQHandler) X(77, OTG_HS_IRQHandler) \
  X(78, DCMI_IRQHandler) X(79, IRQ79_Handler) X(80, HASH_RNG_IRQHandler)                 \
  X(81, FPU_IRQHandler)

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
