/* SPDX-License-Identifier: MIT */
/*
 * Sim port extras: virtual time, simulated interrupts, switch cost, end of run.
 * Only available when the kernel is built with TACET_PORT=sim.
 *
 * A process may make any number of runs, one after the other: tc_kernel_init(), create
 * objects, tc_kernel_start() until it returns. The tests make one per case, the fuzz
 * harnesses (fuzz/) one per input.
 *
 * Interrupt handlers on the sim port (the port's reading of "Interrupt handlers",
 * tacet/kernel.h). A simulated interrupt (the tick, tc_sim_irq_at) has no priority: the
 * kernel's critical sections hold every one back, so every handler may call the services
 * whose context is "any", and none is ever above the kernel's mask. The port brackets each
 * handler with tc_isr_enter()/tc_isr_exit() itself: the handler needs no bracket (one would
 * count the interrupt twice). Handlers do not nest; those due together all run before any
 * thread, as tail-chaining would.
 */
#ifndef TACET_SIM_H
#define TACET_SIM_H

#include "tacet/types.h"

/* Spend `cycles` of virtual CPU time in the calling thread. Simulated interrupts (the tick,
 * tc_sim_irq_at) that fall inside are taken at their exact cycle, and may preempt the caller
 * there; the rest of the consumption continues when the caller runs again. From an interrupt
 * handler the time passes with interrupts masked. */
void tc_sim_consume(uint64_t cycles);

/* Spend the last `cycles` of a piece of work: as tc_sim_consume(), except that interrupts due
 * at the very cycle the work ends are not taken inside it but at the caller's next kernel
 * call, consumption or wait. What the caller does at that instant (record that the work is
 * done, give a semaphore ...) then comes before the interrupts' effects: a job that ends at
 * cycle F is complete at F even when a release at F preempts its thread, as response-time
 * analysis counts it. */
void tc_sim_finish(uint64_t cycles);

/* Virtual cycles since tc_kernel_init(). */
uint64_t tc_sim_now(void);

/* Virtual cycles per system tick: the clock (TC_SIM_CPU_HZ, or with TC_POWER the frequency
 * of the operating point in force) / TC_TICK_HZ. A change of point keeps the tick's period in
 * time, and the time left to every pending event (the tick, tc_sim_irq_at). */
uint64_t tc_sim_cycles_per_tick(void);

/* Cycles since the last tick, at the current clock: with tc_tick_get(), the virtual time to
 * the cycle whatever the clock did (a deadline at tick D is met at tick D with 0 here). */
uint64_t tc_sim_tick_elapsed(void);

/* Raise a simulated interrupt at virtual cycle `cycle`: the port calls `lisr` between
 * tc_isr_enter() and tc_isr_exit() (the handler itself need not: above). Interrupts due
 * at the same cycle are taken in the order they were raised, after the tick of that cycle.
 * Returns TC_OK; TC_INVALID (lisr NULL, cycle in the past); TC_FULL (TC_SIM_MAX_IRQS queued). */
tc_status tc_sim_irq_at(uint64_t cycle, void (*lisr)(void));

/* Virtual cycles charged for every context switch (0 by default): a constant. Replaces a
 * cost function set before. */
void tc_sim_set_switch_cost(uint64_t cycles);

/* A switch cost model: the cycles to charge when the CPU begins running `to` after `from`,
 * the last context it ran before (NULL at the first switch of a run). It is asked exactly
 * where a constant cost is charged: each time the CPU begins a context other than the last
 * one it ran -- a thread, or an HISR (then `to` or `from` is the HISR's context, its `ctx`)
 * -- and not when the CPU comes back from idle to the context it left. The kernel has then
 * already made `to` current, with interrupts masked: the function may read the threads and
 * tc_sim_now() (the time before the cost is charged) and keep its own books, but must call
 * no kernel service. `arg` is passed through. */
typedef uint64_t (*tc_sim_switch_cost_fn)(const struct tc_thread *from, const struct tc_thread *to,
                                          void *arg);

/* Charge every context switch what `cost(from, to, arg)` returns, instead of a constant;
 * NULL goes back to the constant of tc_sim_set_switch_cost (0 unless set). Like the constant,
 * the function is forgotten by tc_kernel_init(): set it after. Context: startup or thread. */
void tc_sim_set_switch_cost_fn(tc_sim_switch_cost_fn cost, void *arg);

/* End the run: tc_kernel_start() returns `exit_code`. From a thread, does not return. */
void tc_sim_stop(int exit_code);

#endif /* TACET_SIM_H */
