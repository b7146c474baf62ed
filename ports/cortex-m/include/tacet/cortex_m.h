/* SPDX-License-Identifier: MIT */
/*
 * Cortex-M port extras: interrupt handlers, ending a run, QEMU instruction counts, NVIC helpers.
 * Only available when the kernel is built with TACET_PORT=cortex-m.
 *
 * Interrupt handlers on Cortex-M: the port's reading of "Interrupt handlers" (tacet/kernel.h).
 *
 * Names. An external interrupt's handler is the function the board's vendor names for it
 * (tacet_board.h, TC_BOARD_IRQ_HANDLERS): TIMER1_Handler on mps2, as ARM's CMSIS start-up
 * files for the CMSDK call line 9; USART2_IRQHandler on the STM32F407, as ST's do. On a board
 * that names none, line n's is IRQ<n>_Handler. Every one is weak: define it to install it
 * (this header declares them); an interrupt without a handler stops the run.
 *
 * Priorities. A handler may call the services whose context is "any" when its priority is at
 * or below the kernel's mask: its group priority (the bits above AIRCR.PRIGROUP, the ones
 * BASEPRI compares) is not more urgent than TC_CM_BASEPRI's, 0x40 by default -- priority
 * values 0x40 to 0xFF with the top 3 bits every ARMv7-M core implements. Every line resets to
 * priority 0, above the mask: set the priority before enabling the line (tc_cm_irq_priority,
 * then tc_cm_irq_enable). A handler above the mask -- 0x00 to 0x3F ("zero-latency"), NMI,
 * HardFault, and the system handlers left at their reset priority 0 (SVCall, MemManage ...)
 * -- is never delayed by the kernel and must never call it; with TC_CHECKS=1 the service it
 * calls runs tc_isr_priority_hook() -- by default a panic naming the service and the
 * exception -- and returns TC_CALLER_ERROR, nothing changed.
 *
 * Bracket. None is needed: the kernel knows handler mode from IPSR, and a switch a handler
 * makes necessary is made by PendSV (the lowest priority) once every handler has returned.
 * tc_isr_enter() and tc_isr_exit() stay valid: they count the interrupt in
 * tc_kernel_stats().interrupts and mark it in the trace.
 *
 *     void TIMER1_Handler(void)          // mps2: CMSDK timer 1, line 9
 *     {
 *       TC_MPS2_TIMER1->intstatus = 1u;  // acknowledge the device
 *       tc_sem_give(&sample_ready);      // the waiting thread runs when this returns
 *     }
 *     ...
 *     tc_cm_irq_priority(TC_MPS2_TIMER1_IRQ, 0xC0);  // a kernel priority, then
 *     tc_cm_irq_enable(TC_MPS2_TIMER1_IRQ);
 *
 * examples/device_interrupt is a complete program.
 */
#ifndef TACET_CORTEX_M_H
#define TACET_CORTEX_M_H

#include <stdint.h>

#include "tacet/types.h"
#include "tacet_board.h"
#include "tacet_cm_handlers.h" /* void TIMER1_Handler(void); ... */

/* The processor clock in Hz, CMSIS-Core's variable: the clock SysTick counts. The port reads
 * it when the kernel starts (tc_kernel_start()) and programs the tick -- its period and the
 * tickless idle's longest sleep -- from it: SystemCoreClock / TC_TICK_HZ cycles, to the
 * nearest cycle (a clock TC_TICK_HZ does not divide makes each tick that fraction of a cycle
 * off), at most 2^24 (SysTick's counter) or the start panics. The port's definition is weak,
 * TC_BOARD_CPU_HZ: a vendor's system_<device>.c defines its own, and its SystemInit() or
 * SystemCoreClockUpdate() sets it before the kernel starts. A change made after the start
 * takes effect at the next start. tc_cycles() is the board's timer, not this clock. */
extern uint32_t SystemCoreClock;

/* End the run: tc_kernel_start() returns `exit_code` in the startup context. SysTick stops.
 * From a thread (interrupts unmasked): does not return. From an interrupt handler: the run
 * ends when the handler returns. Context: any kernel context; from a handler above the
 * kernel's mask it is refused as a service is (above: "Priorities"), and returns. */
void tc_cm_stop(int exit_code);

/* Supervisor calls. The port uses SVC #0 itself (to return from a thread's signal
 * handlers, ports/cortex-m/trampoline.c); an application that uses other SVC numbers defines
 * this function, which the SVC handler calls with the number and the caller's stacked frame
 * (r0-r3, r12, lr, pc, xPSR: results go back through frame[0..3]). The default stops the
 * run: an SVC nobody handles is a bug. */
void tc_cm_svc(unsigned number, uint32_t *frame);

/* QEMU `-icount shift=5`: one instruction every 2^5 ns of virtual time. */
#ifndef TC_CM_ICOUNT_SHIFT
#define TC_CM_ICOUNT_SHIFT 5
#endif

/* Convert tc_cycles() units into instructions executed under QEMU `-icount shift=5`
 * (25 MHz timer: 40 ns per cycle, 32 ns per instruction, so 1.25 instructions per cycle).
 * Meaningless on a real chip, where tc_cycles() is time. */
static inline uint64_t tc_cm_cycles_to_instructions(uint64_t cycles)
{
  return (cycles * (1000000000u / TC_BOARD_CYCLES_HZ)) >> TC_CM_ICOUNT_SHIFT;
}

/* ---- NVIC ------------------------------------------------------------------------------- */

#define TC_CM_NVIC_ISER ((volatile uint32_t *)0xE000E100u)
#define TC_CM_NVIC_ICER ((volatile uint32_t *)0xE000E180u)
#define TC_CM_NVIC_ISPR ((volatile uint32_t *)0xE000E200u)
#define TC_CM_NVIC_ICPR ((volatile uint32_t *)0xE000E280u)
#define TC_CM_NVIC_IPR  ((volatile uint8_t *)0xE000E400u)
#define TC_CM_NVIC_STIR (*(volatile uint32_t *)0xE000EF00u)

/* Priority of external interrupt `irq` (8-bit value; the core keeps only its top bits). */
static inline void tc_cm_irq_priority(unsigned irq, uint8_t priority) { TC_CM_NVIC_IPR[irq] = priority; }

/* Let external interrupt `irq` be taken (NVIC ISER). Set its priority first: every line
 * resets to priority 0, more urgent than TC_CM_BASEPRI, and a handler at such a priority
 * must not call the kernel (above: "Priorities"). Context: any. */
static inline void tc_cm_irq_enable(unsigned irq) { TC_CM_NVIC_ISER[irq >> 5] = 1u << (irq & 31u); }

/* Stop external interrupt `irq` from being taken (NVIC ICER). The barriers make it take
 * effect before the caller goes on: once this returns, its handler does not start. A request
 * that arrives meanwhile stays pending. Context: any. */
static inline void tc_cm_irq_disable(unsigned irq)
{
  TC_CM_NVIC_ICER[irq >> 5] = 1u << (irq & 31u);
  __asm volatile("dsb\n\tisb" ::: "memory");
}

/* Make interrupt `irq` pending from software (NVIC STIR): it is taken as soon as its
 * priority allows -- before the next instruction when nothing masks it. */
static inline void tc_cm_irq_trigger(unsigned irq)
{
  TC_CM_NVIC_STIR = irq;
  __asm volatile("dsb\n\tisb" ::: "memory");
}

/* Drop a pending request of external interrupt `irq` (NVIC ICPR): one latched while the line
 * was disabled, say, before enabling it again. Context: any. */
static inline void tc_cm_irq_clear_pending(unsigned irq) { TC_CM_NVIC_ICPR[irq >> 5] = 1u << (irq & 31u); }

#endif /* TACET_CORTEX_M_H */
