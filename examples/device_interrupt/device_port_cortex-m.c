/* SPDX-License-Identifier: MIT */
/*
 * Cortex-M glue of examples/device_interrupt: the device is a hardware timer whose interrupt
 * handler, under the name the board's vendor gives it, calls device_interrupt(). mps2 (QEMU):
 * CMSDK timer 1, line 9, TIMER1_Handler. STM32F407: TIM2, line 28, TIM2_IRQHandler.
 *
 * The line gets a kernel priority before it is enabled. Left at its reset priority 0 -- above
 * the kernel's mask -- the handler could interrupt the kernel in the middle of a critical
 * section; with TC_CHECKS=1 its tc_queue_send() is refused and the default hook stops the run:
 * "tacet: panic: kernel service called from an interrupt above the kernel's mask:
 * tc_queue_send (in exception 25, IRQ 9)" (tacet/cortex_m.h).
 */
#include "device.h"
#include "tacet/cortex_m.h"

#define DEVICE_PRIORITY 0xC0u /* a kernel priority: at or below TC_CM_BASEPRI (0x40) */

#if defined(TC_MPS2_TIMER1)

#define DEVICE_IRQ TC_MPS2_TIMER1_IRQ

const char *device_name(void) { return "CMSDK timer 1 (TIMER1_Handler)"; }

void TIMER1_Handler(void)
{
  TC_MPS2_TIMER1->intstatus = 1u; /* acknowledge first: a new expiry raises the line again */
  device_interrupt();
}

static void timer_start(uint32_t period_us)
{
  TC_MPS2_TIMER1->ctrl = 0;
  TC_MPS2_TIMER1->intstatus = 1u;
  TC_MPS2_TIMER1->reload = period_us * (TC_BOARD_CPU_HZ / 1000000u) - 1u; /* on the 25 MHz SYSCLK */
  TC_MPS2_TIMER1->ctrl = 1u | 8u;                                        /* enable, interrupt */
}

static void timer_stop(void)
{
  TC_MPS2_TIMER1->ctrl = 0;
  TC_MPS2_TIMER1->intstatus = 1u;
}

/* QEMU -icount: a tc_cycles() unit is 1.25 instructions. */
const char *device_time_unit(void) { return "instructions (QEMU icount)"; }
uint64_t device_time(uint64_t cycles) { return tc_cm_cycles_to_instructions(cycles); }

#elif defined(TC_STM32_TIM5)

/* TIM2, a 32-bit timer on APB1 like TIM5 (tc_cycles()): 84 MHz, counting up. */
#define DEVICE_IRQ      28u
#define TIM2            ((tc_stm32_timer *)0x40000000u)
#define RCC_APB1ENR     (*(volatile unsigned *)0x40023840u)
#define RCC_APB1ENR_TIM2EN (1u << 0)

const char *device_name(void) { return "TIM2 (TIM2_IRQHandler)"; }

void TIM2_IRQHandler(void)
{
  TIM2->sr = ~1u; /* clear UIF only */
  device_interrupt();
}

static void timer_start(uint32_t period_us)
{
  RCC_APB1ENR |= RCC_APB1ENR_TIM2EN;
  (void)RCC_APB1ENR; /* the clock reaches the timer before its first access */
  TIM2->cr1 = 0;
  TIM2->psc = TC_BOARD_CYCLES_HZ / 1000000u - 1u; /* 1 MHz */
  TIM2->arr = period_us - 1u;
  TIM2->egr = 1u; /* load the prescaler */
  TIM2->sr = 0;
  TIM2->dier = 1u; /* interrupt at the update */
  TIM2->cr1 = 1u;
}

static void timer_stop(void)
{
  TIM2->cr1 = 0;
  TIM2->sr = 0;
}

const char *device_time_unit(void) { return "cycles of TIM5 (84 MHz)"; }
uint64_t device_time(uint64_t cycles) { return cycles; }

#else
#error "examples/device_interrupt: no device timer for this board"
#endif

void device_start(uint32_t period_us)
{
  tc_cm_irq_clear_pending(DEVICE_IRQ);
  tc_cm_irq_priority(DEVICE_IRQ, DEVICE_PRIORITY); /* first: the line resets to priority 0 */
  tc_cm_irq_enable(DEVICE_IRQ);
  timer_start(period_us);
}

void device_stop(void)
{
  timer_stop();
  tc_cm_irq_disable(DEVICE_IRQ);
  tc_cm_irq_clear_pending(DEVICE_IRQ);
}

/* `cycles` of work as that many instructions: a loop of 2 instructions per turn. */
void device_work(uint32_t cycles)
{
  uint32_t turns = cycles / 2u;
  __asm volatile("1: subs %0, %0, #1\n\t"
                 "bne 1b"
                 : "+r"(turns)
                 :
                 : "cc");
}

void device_end_run(void) { tc_cm_stop(0); }
