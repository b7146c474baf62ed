/* SPDX-License-Identifier: MIT */
/*
 * The board side of ARM's CMSIS-RTOS2 validation suite on Tacet's Cortex-M port, QEMU's
 * mps2 boards: the suite's two test interrupts, its suite start and end, its console.
 *
 * The suite's interrupts A and B are external lines 0 and 1 (the UARTs' lines on mps2, unused:
 * Tacet's console is semihosting), at priorities 0xA0 and 0x80 -- the suite's 5 and 4 with the
 * 3 priority bits of these cores, B more urgent than A as the suite wants -- both kernel
 * priorities (at or below TC_CM_BASEPRI), so the handlers may call the kernel.
 */
#include <stddef.h>
#include <unistd.h>

#include "cmsis_os2.h"
#include "tacet/cortex_m.h"

#define IRQ_A_LINE 0u
#define IRQ_B_LINE 1u

/* The suite's names for them (cmsis_rv2.h); declared here, the suite's header being its own. */
extern void (*TST_IRQHandler_A)(void);
extern void (*TST_IRQHandler_B)(void);
void (*TST_IRQHandler_A)(void);
void (*TST_IRQHandler_B)(void);
void TS_Init(void);
void TS_Uninit(void);
void EnableIRQ(int32_t irq_num);
void DisableIRQ(int32_t irq_num);
void SetPendingIRQ(int32_t irq_num);
int stdout_putchar(int ch);
int cmsis_rv2(void);

void UARTRX0_Handler(void)
{
  if (TST_IRQHandler_A != NULL) TST_IRQHandler_A();
}

void UARTTX0_Handler(void)
{
  if (TST_IRQHandler_B != NULL) TST_IRQHandler_B();
}

static unsigned line(int32_t irq_num) { return irq_num == 0 ? IRQ_A_LINE : IRQ_B_LINE; }

void TS_Init(void)
{
  tc_cm_irq_priority(IRQ_A_LINE, 0xA0u);
  tc_cm_irq_priority(IRQ_B_LINE, 0x80u);
  tc_cm_irq_enable(IRQ_A_LINE);
  tc_cm_irq_enable(IRQ_B_LINE);
}

/* The suite is done: end the run (osKernelStart returns, and main). */
void TS_Uninit(void) { tc_cm_stop(0); }

void EnableIRQ(int32_t irq_num) { tc_cm_irq_enable(line(irq_num)); }

void DisableIRQ(int32_t irq_num) { tc_cm_irq_disable(line(irq_num)); }

/* Pend the line and wait until its handler has been taken (the suite checks its results
 * right after). */
void SetPendingIRQ(int32_t irq_num)
{
  unsigned n = line(irq_num);
  tc_cm_irq_trigger(n);
  while ((TC_CM_NVIC_ISPR[n >> 5] & (1u << (n & 31u))) != 0u) {
  }
}

int stdout_putchar(int ch)
{
  char c = (char)ch;
  return write(1, &c, 1) == 1 ? ch : -1;
}

int main(void) { return cmsis_rv2(); }
