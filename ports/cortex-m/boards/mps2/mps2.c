/* SPDX-License-Identifier: MIT */
/*
 * MPS2 (AN385 / AN386) board: tc_cycles() from CMSDK APB timer 0, and the console.
 *
 * tc_cycles(). Timer 0 counts down from 0xFFFFFFFF at 25 MHz and interrupts when it reaches
 * 0 (every 2^32 ticks, 171.8 s); the interrupt counts the wraps, which give the upper 32 bits.
 * That interrupt has the most urgent priority (0): it touches nothing of the kernel, and
 * nothing that may read the clock can preempt it in the middle of its two stores. A reader
 * that runs while the wrap is pending but not yet counted (PRIMASK set, or a priority-0
 * handler) sees it in INTSTATUS and counts it itself (tc__cm_cycles_down, cm_private.h).
 */
#include "tacet/cortex_m.h"
#include "tacet/port.h"

#include "../../cm_private.h"

static volatile uint32_t wraps;

void TIMER0_Handler(void)
{
  TC_MPS2_TIMER0->intstatus = 1u;
  wraps++;
}

uint64_t tc__cm_cycles(void)
{
  return tc__cm_cycles_down(&wraps, &TC_MPS2_TIMER0->value, &TC_MPS2_TIMER0->intstatus, 1u);
}

void tc__cm_board_init(void)
{
  tc__cm_console_init();
  tc_mps2_timer *t = TC_MPS2_TIMER0;
  t->ctrl = 0;
  t->intstatus = 1u;
  t->reload = 0xFFFFFFFFu; /* also loads the counter */
  t->ctrl = 1u | 8u;       /* enable, interrupt at 0 */
  tc_cm_irq_priority(TC_MPS2_TIMER0_IRQ, 0);
  tc_cm_irq_enable(TC_MPS2_TIMER0_IRQ);
}
