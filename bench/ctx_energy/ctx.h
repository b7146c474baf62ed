/* SPDX-License-Identifier: MIT */
/*
 * Pillai and Isha's experiment ("A Quantitative Study Based on Direct Measurement on Embedded
 * Processors: Limiting Context Switches for Energy Saving"; context switches on an LPC2148, tables 2-3, figs. 9-10) on Tacet: a
 * UART-transmission task and a MAC task of 4, 16 or 32 multiply-accumulates, run once one
 * after the other in one thread (no switch) and once with the MAC task preempting the UART
 * task half-way through its transmission; the context switch costs the difference. The
 * experiment (ctx.c) is the same on every port; the port glue (ctx_port_<port>.c) transmits
 * the bytes, raises the interrupt and reads the clock.
 */
#ifndef CTX_H
#define CTX_H

#include <stdbool.h>
#include <stdint.h>

/* The bytes the UART task transmits per run, and where the MAC task preempts it. */
#define CTX_UART_BYTES 64u
#define CTX_UART_SPLIT 32u
/* Transmissions per run, each with its MAC job (and, preempted, its two switches): the clock
 * counts 40 ns units on QEMU, 1.25 instructions, and ten of them make the per-transmission
 * figures exact to an eighth of an instruction. Ten still fit in one tick. */
#define CTX_REPEATS 10u

/* After tc_kernel_init(): the port's settings for a run (the UART, the interrupt, the sim
 * port's switch cost). */
void ctx_port_setup(void);
/* Return right after a tick (from a thread): a measurement shorter than a tick that starts
 * here sees no tick. */
void ctx_wait_tick(void);
/* Transmit `n` bytes through the board's UART, waiting for each to be taken. */
void ctx_uart_send(const uint8_t *bytes, unsigned n);
/* The `n` bytes transmitted since ctx_port_setup() all went out (accepted by the device;
 * sim: received in order, `message` of `length` bytes over and over). */
bool ctx_uart_check(const uint8_t *message, unsigned length, unsigned n);
/* Account `ops` multiply-accumulates of CPU time where the port does not run real
 * instructions (sim); nothing on hardware, where the MAC code is timed as it runs. */
void ctx_mac_cost(unsigned ops);
/* Raise an interrupt now whose handler (between tc_isr_enter and tc_isr_exit) calls
 * ctx_irq(); it is taken before ctx_raise_irq() returns. */
void ctx_raise_irq(void);
void ctx_irq(void);
/* CPU cycles per tc_cycles() unit: QEMU instructions (one cycle per instruction assumed) on
 * the Cortex-M port, virtual cycles on the sim port. */
double ctx_cycles_per_unit(void);
/* How far apart two runs of the same code may read in tc_cycles() units: 0 on the sim port,
 * 1 on QEMU (the 40 ns timer and the 32 ns instruction clock meet in another phase in each
 * run, and the kernel's accounting reads the clock twice: tc_energy_report's books). */
uint64_t ctx_clock_jitter(void);
/* End the run: tc_kernel_start() returns. */
void ctx_end_run(void);
/* The sim port's switch cost in cycles (0 on hardware: the switch is measured there). */
uint64_t ctx_switch_cost(void);
/* One line naming the target and how its cycles are counted. */
const char *ctx_port_description(void);
/* True where a change of operating point changes the clock (sim), false where the points
 * are modelled only (QEMU). */
bool ctx_port_scales(void);

#endif
