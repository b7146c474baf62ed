/* SPDX-License-Identifier: MIT */
/* Sim-port glue: the UART is a receive buffer on the host and each byte costs a fixed number
 * of virtual cycles, the MAC work too, the interrupt is a simulated one at the current cycle,
 * and every context switch costs the port's switch cost. Virtual cycles are what the sim port
 * counts: only tc_sim_consume() and the switch cost advance them. */
#include "ctx.h"
#include "tacet/sim.h"
#include "tacet/tacet.h"

/* Model inputs, not measurements. A byte: poll the status register, test, store the data,
 * advance (the loop ctx_port_cortex-m.c runs, about 10 instructions on a Cortex-M3); a
 * multiply-accumulate: two loads, the MLA and the loop (about 6). */
#define UART_BYTE_CYCLES 10u
#define MAC_OP_CYCLES    6u
/* The cycles the port charges per switch. 180: a Cortex-M3's preemption switch with energy
 * accounting, as bench/cm_switch (b) counts it on qemu-m3 with TC_POWER=1 (about 180
 * instructions), so that the sim's time and energy per switch, where the clock really follows
 * the point, lie beside qemu-m3's. The difference the experiment measures on the sim port is
 * exactly this figure per switch: the port counts nothing else. */
#define SWITCH_COST 180u

static uint8_t received[CTX_REPEATS * CTX_UART_BYTES];
static unsigned n_received;

void ctx_port_setup(void)
{
  tc_sim_set_switch_cost(SWITCH_COST);
  n_received = 0;
}

/* Virtual time passes only in tc_sim_consume() and idle: sleep to the tick. */
void ctx_wait_tick(void) { tc_thread_sleep(1); }

void ctx_uart_send(const uint8_t *bytes, unsigned n)
{
  for (unsigned i = 0; i < n; i++) {
    tc_sim_consume(UART_BYTE_CYCLES);
    if (n_received < sizeof received) received[n_received] = bytes[i];
    n_received++;
  }
}

bool ctx_uart_check(const uint8_t *message, unsigned length, unsigned n)
{
  if (n_received != n || n > sizeof received) return false;
  for (unsigned i = 0; i < n; i++)
    if (received[i] != message[i % length]) return false;
  return true;
}

void ctx_mac_cost(unsigned ops) { tc_sim_consume((uint64_t)ops * MAC_OP_CYCLES); }

static void lisr(void) { ctx_irq(); }

void ctx_raise_irq(void) { (void)tc_sim_irq_at(tc_sim_now(), lisr); }

double ctx_cycles_per_unit(void) { return 1.0; }

uint64_t ctx_clock_jitter(void) { return 0; }

void ctx_end_run(void) { tc_sim_stop(0); }

uint64_t ctx_switch_cost(void) { return SWITCH_COST; }

const char *ctx_port_description(void) { return "the sim port: cycles are virtual cycles"; }

bool ctx_port_scales(void) { return true; }
