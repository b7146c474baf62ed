/* SPDX-License-Identifier: MIT */
/*
 * STM32F407 board: the clock tree at 168 MHz, and tc_cycles() from TIM5.
 *
 * Clocks. Reset leaves the core on the 16 MHz internal oscillator (HSI). The board starts
 * the crystal (HSE, 8 MHz on the STM32F4DISCOVERY), feeds the main PLL with HSE / M = 1 MHz
 * (its input must lie within 1-2 MHz), multiplies it by N = 336 (the VCO must stay within
 * 100-432 MHz) and divides by P = 2 for a 168 MHz system clock; Q = 7 gives the 48 MHz that
 * USB and the SDIO need. Before the switch the flash gets the 5 wait states that 168 MHz
 * needs on a 2.7-3.6 V supply (with the prefetch buffer and both caches: the ART
 * accelerator), and the buses their dividers: AHB 1 (168 MHz), APB1 4 (42 MHz, its maximum),
 * APB2 2 (84 MHz, its maximum). The regulator needs scale 1 for 168 MHz, which is its state
 * at reset on the F405/F407, so the power controller is left alone. A board with another
 * crystal changes TC_STM32_HSE_HZ and PLL_M.
 *
 * tc_cycles(). TIM5 is one of the two 32-bit timers. It sits on APB1, whose divider is not
 * 1, so it runs at twice PCLK1: 84 MHz. It counts down from 0xFFFFFFFF (every 51 s) and its
 * update interrupt at the wrap counts the upper 32 bits, with the same reading rule as the
 * mps2 timer (tc__cm_cycles_down, cm_private.h).
 */
#include "tacet/cortex_m.h"
#include "tacet/port.h"

#include "../../cm_private.h"

#define REG(addr) (*(volatile unsigned *)(addr))

#define RCC_CR      REG(0x40023800u)
#define RCC_PLLCFGR REG(0x40023804u)
#define RCC_CFGR    REG(0x40023808u)
#define RCC_APB1ENR REG(0x40023840u)
#define FLASH_ACR   REG(0x40023C00u)

#define RCC_CR_HSEON  (1u << 16)
#define RCC_CR_HSERDY (1u << 17)
#define RCC_CR_PLLON  (1u << 24)
#define RCC_CR_PLLRDY (1u << 25)
#define RCC_APB1ENR_TIM5EN (1u << 3)

#define PLL_M 8u   /* HSE / 8 = 1 MHz */
#define PLL_N 336u /* x 336 = 336 MHz */
#define PLL_P 2u   /* / 2 = 168 MHz */
#define PLL_Q 7u   /* / 7 = 48 MHz */
#define PLLCFGR_VALUE                                                                        \
  (PLL_M | (PLL_N << 6) | ((PLL_P / 2u - 1u) << 16) | (1u << 22) /* PLLSRC: HSE */ |          \
   (PLL_Q << 24))

#if TC_STM32_HSE_HZ / PLL_M * PLL_N / PLL_P != TC_BOARD_CPU_HZ
#error "stm32f407.c: the PLL settings do not give TC_BOARD_CPU_HZ"
#endif

#define FLASH_ACR_5WS   5u
#define FLASH_ACR_CACHE ((1u << 8) | (1u << 9) | (1u << 10)) /* PRFTEN, ICEN, DCEN */

#define CFGR_SW_PLL       2u
#define CFGR_SWS_MASK     (3u << 2)
#define CFGR_SWS_PLL      (2u << 2)
#define CFGR_HPRE_DIV1    (0u << 4)
#define CFGR_PPRE1_DIV4   (5u << 10)
#define CFGR_PPRE2_DIV2   (4u << 13)

#define TIM5 TC_STM32_TIM5
_Static_assert(0x40000C00u + __builtin_offsetof(tc_stm32_timer, cnt) == TC_BOARD_CYCLES32_DOWN_ADDR,
               "TC_BOARD_CYCLES32_DOWN_ADDR is TIM5's count");

static void clocks_init(void)
{
  RCC_CR |= RCC_CR_HSEON;
  while ((RCC_CR & RCC_CR_HSERDY) == 0u) {}
  RCC_PLLCFGR = PLLCFGR_VALUE;
  RCC_CR |= RCC_CR_PLLON;
  /* Wait states first: the flash must keep up with the clock from the first fetch at it. */
  FLASH_ACR = FLASH_ACR_5WS | FLASH_ACR_CACHE;
  while ((FLASH_ACR & 7u) != FLASH_ACR_5WS) {}
  RCC_CFGR = CFGR_HPRE_DIV1 | CFGR_PPRE1_DIV4 | CFGR_PPRE2_DIV2;
  while ((RCC_CR & RCC_CR_PLLRDY) == 0u) {}
  RCC_CFGR |= CFGR_SW_PLL;
  while ((RCC_CFGR & CFGR_SWS_MASK) != CFGR_SWS_PLL) {}
}

static volatile uint32_t wraps;

void TIM5_IRQHandler(void)
{
  TIM5->sr = ~1u; /* clear UIF only (the flags clear on writing 0) */
  wraps++;
}

uint64_t tc__cm_cycles(void) { return tc__cm_cycles_down(&wraps, &TIM5->cnt, &TIM5->sr, 1u); }

static void cycles_init(void)
{
  RCC_APB1ENR |= RCC_APB1ENR_TIM5EN;
  (void)RCC_APB1ENR; /* the clock reaches the timer before its first access */
  TIM5->cr1 = 1u << 4; /* down, stopped */
  TIM5->psc = 0;
  TIM5->arr = 0xFFFFFFFFu;
  TIM5->egr = 1u;  /* load the prescaler; counting down, the count starts at arr */
  TIM5->sr = 0;    /* forget the update that the load itself flagged */
  TIM5->dier = 1u;
  tc_cm_irq_priority(TC_STM32_TIM5_IRQ, 0);
  tc_cm_irq_enable(TC_STM32_TIM5_IRQ);
  TIM5->cr1 = (1u << 4) | 1u;
}

void tc__cm_board_init(void)
{
  clocks_init();
  tc__cm_console_init(); /* its baud rate divider assumes PCLK1 at 42 MHz */
  cycles_init();
}
