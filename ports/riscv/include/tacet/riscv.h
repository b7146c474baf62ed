/* SPDX-License-Identifier: MIT */
/*
 * RISC-V port extras: interrupt handlers, ending a run, QEMU instruction counts, the software
 * interrupt and the PLIC. Only available when the kernel is built with TACET_PORT=riscv.
 *
 * Interrupt handlers on RISC-V: the port's reading of "Interrupt handlers" (tacet/kernel.h).
 *
 * Priorities. The kernel masks with mstatus.MIE, which holds back every interrupt of the hart:
 * every handler is at or below the kernel's mask, so every handler may call the services whose
 * context is "any", and there is no zero-latency class of interrupts (the hart has no level
 * between "all" and "none" in machine mode without a CLIC; the PLIC's priorities only order
 * the device interrupts among themselves). Handlers do not nest: a trap runs with MIE clear
 * until its mret. A device interrupt therefore waits at most for the longest critical section
 * of the kernel and for the handlers before it.
 *
 * Names. The port takes the trap (mtvec) and dispatches, in this order, every interrupt
 * pending: device interrupts through the PLIC, claimed one by one, each to
 * tc_rv_external_handler(source); the tick (the CLINT's machine timer, the port's own); the
 * machine software interrupt, to tc_rv_software_handler(). Both are weak: define them to
 * install them; an interrupt without a handler stops the run.
 *
 * Bracket. None is needed: the kernel knows it is in a trap from mscratch (non-zero there), and
 * a switch a handler makes necessary is made at the end of the trap, once every pending
 * interrupt has been handled. tc_isr_enter() and tc_isr_exit() stay valid: they count the
 * interrupt in tc_kernel_stats().interrupts and mark it in the trace.
 *
 *     void tc_rv_external_handler(unsigned source)
 *     {
 *       if (source == TC_BOARD_UART_IRQ) {   // virt: the 16550's line
 *         ... read the device, acknowledge it ...
 *         tc_sem_give(&byte_ready);           // the waiting thread runs when the trap ends
 *       }
 *     }
 *     ...
 *     tc_rv_irq_enable(TC_BOARD_UART_IRQ, 1);  // PLIC priority 1..7; 0 never interrupts
 */
#ifndef TACET_RISCV_H
#define TACET_RISCV_H

#include <stdint.h>

#include "tacet/types.h"
#include "tacet_board.h"

/* End the run: tc_kernel_start() returns `exit_code` in the startup context. The tick stops.
 * From a thread: does not return. From an interrupt handler: the run ends when the trap ends.
 * Context: any. */
void tc_rv_stop(int exit_code);

/* The machine software interrupt (the CLINT's msip): raise it. Taken before the next
 * instruction when interrupts are unmasked, else when the kernel unmasks them; its handler is
 * tc_rv_software_handler(). Context: any. */
void tc_rv_software_interrupt(void);
void tc_rv_software_handler(void);

/* Device interrupts (the PLIC): `source` may interrupt, at PLIC priority `priority` (1 to 7;
 * the order in which pending sources are claimed, the highest first). Its handler is
 * tc_rv_external_handler(source), which acknowledges the device; the port claims and completes
 * the source around it. Context: any. */
void tc_rv_irq_enable(unsigned source, unsigned priority);
void tc_rv_irq_disable(unsigned source);
void tc_rv_external_handler(unsigned source);

/* The machine timer (the CLINT's mtime, TC_BOARD_TIMER_HZ), which the tick runs on. */
uint64_t tc_rv_mtime(void);

/* The interrupt numbers the trace records (its events' `irq`; 0 in a thread). */
#define TC_RV_IRQ_SOFTWARE 3u  /* mcause's code of the machine software interrupt */
#define TC_RV_IRQ_TIMER    7u  /* ... of the machine timer interrupt */
#define TC_RV_IRQ_EXTERNAL 16u /* device interrupts: 16 + the PLIC source */

/* QEMU `-icount shift=N`: one instruction every 2^N ns of virtual time (the board runs QEMU at
 * shift=0: boards/virt/board.cmake). */
#ifndef TC_RV_ICOUNT_SHIFT
#define TC_RV_ICOUNT_SHIFT 0
#endif

/* Convert tc_cycles() units (mcycle: nanoseconds of virtual time under QEMU -icount) into
 * instructions executed under QEMU: at shift=0 the same number. Meaningless on a real hart,
 * where mcycle counts its clock and an instruction may take more than one. */
static inline uint64_t tc_rv_cycles_to_instructions(uint64_t cycles)
{
  return (cycles * (1000000000u / TC_BOARD_CYCLES_HZ)) >> TC_RV_ICOUNT_SHIFT;
}

/* Spend `instructions` instructions (rounded down to an even number): a loop of exactly 2 per
 * turn, preemptible. Under QEMU -icount shift=0 that is as many nanoseconds and as many
 * tc_cycles() units: the work of the examples, tests and benchmarks, of known length. */
static inline void tc_rv_spin(uint32_t instructions)
{
  uint32_t turns = instructions / 2u;
  if (turns == 0) return;
  __asm volatile("1: addi %0, %0, -1\n\t"
                 "bnez %0, 1b"
                 : "+r"(turns));
}

#endif /* TACET_RISCV_H */
