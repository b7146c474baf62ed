/* SPDX-License-Identifier: MIT */
/*
 * Kernel start-up, time, scheduler lock, interrupts and counters.
 *
 * Interrupt handlers. An interrupt handler (a LISR) may call the services whose context is
 * "any" -- the LISR column of docs/services.md -- if and only if the kernel's critical
 * sections mask it: its priority is at or below the kernel's level. On Cortex-M that is a
 * priority value whose group priority is not more urgent than TC_CM_BASEPRI's (0x40 by
 * default; every line resets to 0, above it: tacet/cortex_m.h); on RISC-V every interrupt
 * is, the kernel masking with mstatus.MIE (tacet/riscv.h); on the sim port every simulated
 * interrupt is (tacet/sim.h). A handler above that level is never held back by the
 * kernel: it may interrupt the kernel in the middle of changing a list, so it must never call
 * the kernel. With TC_CHECKS=1 every service called from such a handler -- every service that
 * returns a tc_status, and tc_isr_enter() and tc_isr_exit() -- first calls
 * tc_isr_priority_hook(), which by default stops the system, and if the hook returns, returns
 * TC_CALLER_ERROR (a void one just returns) having changed nothing. TC_CHECKS=0 trusts the
 * caller.
 *
 * Whether a handler brackets itself with tc_isr_enter() and tc_isr_exit() is the port's to
 * say, in its header: on Cortex-M and RISC-V the bracket is optional (the kernel tells handler
 * mode from IPSR, or from mscratch, which the RISC-V port's trap sets; the bracket counts the
 * interrupt and marks it in the trace); the sim port brackets
 * its simulated interrupts itself; on a port that cannot tell handler mode (no TC_PORT_IN_ISR,
 * tacet/port.h) every handler that calls a service brackets itself. Either way a switch that
 * a handler makes necessary happens when the last handler is done.
 */
#ifndef TACET_KERNEL_H
#define TACET_KERNEL_H

#include "tacet/types.h"

typedef struct {
  uint64_t context_switches; /* times the CPU began running a thread other than the one whose
                                context it last held (idle is not a thread, nor is an HISR:
                                entering an HISR is not counted, a thread resuming after one
                                is; tacet/hisr.h) */
  uint64_t preemptions;      /* switches away from a thread that was still ready (to a
                                thread or an HISR) */
  uint64_t interrupts;       /* tc_isr_enter calls, outermost and nested */
  uint64_t time_slices;      /* time-slice expiries that rotated a thread */
  uint64_t idle_cycles;      /* cycles in the idle context: no thread, no HISR running
                                (tc_cycles units) */
  uint32_t max_irq_off;      /* longest interrupt-masked stretch measured (tc_cycles units),
                                0 when the measurement build is off */
  uint64_t switch_cycles;    /* cycles charged to context switches themselves (the sim port's
                                tc_sim_set_switch_cost; 0 where the port cannot tell) */
} tc_kernel_stats_t;

/* Reset the kernel; call before creating any object. On the sim port it may be called again
 * after tc_kernel_start() returned, to begin a fresh run. Context: startup only. */
void tc_kernel_init(void);

/* Start scheduling. On hardware ports it never returns. On the sim port it returns when
 * tc_sim_stop() is called (its exit code) or when no thread can ever run again (0).
 * Context: startup only. */
int tc_kernel_start(void);

/* Ticks since tc_kernel_init(). Context: any. */
uint32_t tc_tick_get(void);

/* Nestable scheduler lock: while held, the calling thread is not preempted by other threads
 * (interrupts still run, and what they make ready runs at the outermost unlock). A thread
 * must not block while it holds the lock (blocking services return TC_CALLER_ERROR).
 * Context: thread (from an interrupt: no effect). */
void tc_sched_lock(void);
void tc_sched_unlock(void);

/* Kernel-wide counters. Context: any. */
void tc_kernel_stats(tc_kernel_stats_t *out);

/* Enter / leave a handler (LISR) that calls kernel services (whether it must: "Interrupt
 * handlers", above): a rescheduling decision taken inside takes effect when the outermost
 * handler exits. They nest. Counted in tc_kernel_stats().interrupts. Context: an interrupt
 * handler at a kernel priority (or a thread that plays one, as port-neutral tests do). */
void tc_isr_enter(void);
void tc_isr_exit(void);

/* Called, with TC_CHECKS=1, when an interrupt handler above the kernel's level calls kernel
 * service `service` ("tc_sem_give"): the handler's priority is wrong ("Interrupt handlers",
 * above). It runs in that handler, before the service has touched anything. The default
 * stops the system (TC_PORT_PANIC: "tacet: panic: kernel service called from an interrupt
 * above the kernel's mask: tc_sem_give", on Cortex-M followed by "(in exception 21, IRQ 5)").
 * An application may define its own, to log the mistake; when it returns, the service returns
 * TC_CALLER_ERROR, or returns at once if it is a void one, and the trace records nothing.
 * Context: the offending handler; it must call no kernel service. */
void tc_isr_priority_hook(const char *service);

/* Mask / restore the interrupts that may call the kernel. Context: any. */
unsigned tc_interrupt_disable(void);
void tc_interrupt_restore(unsigned old);

/* The port's best free-running clock: virtual cycles on the sim port, timer ticks on
 * Cortex-M (see tc_cycles_hz()). Context: any. */
uint64_t tc_cycles(void);
uint32_t tc_cycles_hz(void);

/* Verify every internal invariant of the kernel: ready-map bits agree with the ready lists,
 * each thread is in exactly the list its state says, wait queues are in priority order, the
 * delta list is consistent, the chosen thread is the one the scheduling rules choose, stacks
 * are intact and the counters agree. Returns NULL when all hold, else a description of the
 * first one that does not. Context: thread or startup (it masks interrupts while it runs;
 * its cost is linear in the number of objects, so it is meant for tests and debug builds). */
const char *tc_check(void);

#endif /* TACET_KERNEL_H */
