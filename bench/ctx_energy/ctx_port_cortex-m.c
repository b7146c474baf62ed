/* SPDX-License-Identifier: MIT */
/* Cortex-M glue (QEMU mps2-an385 / an386): the bytes go through the board's CMSDK APB UART,
 * the interrupt is timer 1's line raised from software, and cycles are the instructions QEMU
 * counts (-icount shift=5, one instruction every 32 ns: tc_cm_cycles_to_instructions). */
#include "../cm_figures.h"
#include "ctx.h"
#include "tacet/cortex_m.h"
#include "tacet/tacet.h"

/* CMSDK APB UART registers. UART1: QEMU connects the first UART (UART0) to its console and
 * none to UART1, whose model then takes each byte at once and drops it ("no chardev
 * backend"): the transmission runs the same register accesses without printing 64 bytes
 * into the report at every run. */
typedef struct {
  volatile uint32_t data;
  volatile uint32_t state;     /* bit 0: transmit buffer full */
  volatile uint32_t ctrl;      /* bit 0: transmitter enabled; bit 2: its interrupt enabled */
  volatile uint32_t intstatus; /* bit 0: a byte left the transmit buffer (with bit 2 of ctrl);
                                  write 1 to clear */
  volatile uint32_t bauddiv;
} cmsdk_uart;

#define UART          ((cmsdk_uart *)0x40005000u)
#define UART_TX_FULL  1u
#define UART_TX_EN    1u
#define UART_TX_INTEN 4u /* the status only: the UART's NVIC line stays disabled */
#define UART_TX_INT   1u
#define UART_BAUD     115200u
#define RAISED_IRQ    TC_MPS2_TIMER1_IRQ /* free for applications; the timer itself stays off */

static unsigned sent;

void ctx_port_setup(void)
{
  UART->ctrl = 0;
  UART->bauddiv = TC_BOARD_CPU_HZ / UART_BAUD;
  UART->intstatus = UART_TX_INT;
  UART->ctrl = UART_TX_EN | UART_TX_INTEN;
  sent = 0;
  tc_cm_irq_clear_pending(RAISED_IRQ);
  tc_cm_irq_priority(RAISED_IRQ, 0x80u); /* a kernel priority: its handler gives a semaphore */
  tc_cm_irq_enable(RAISED_IRQ);
}

/* Spinning, not sleeping: the thread runs on from the tick's handler at once. */
void ctx_wait_tick(void)
{
  const uint32_t tick = tc_tick_get();
  while (tc_tick_get() == tick) {
  }
}

void ctx_uart_send(const uint8_t *bytes, unsigned n)
{
  for (unsigned i = 0; i < n; i++) {
    while (UART->state & UART_TX_FULL) {
    }
    UART->data = bytes[i];
  }
  sent += n;
}

bool ctx_uart_check(const uint8_t *message, unsigned length, unsigned n)
{
  (void)message, (void)length;
  /* Every byte sent and the last one gone from the transmit buffer. */
  return sent == n && (UART->state & UART_TX_FULL) == 0 && (UART->intstatus & UART_TX_INT) != 0;
}

void ctx_mac_cost(unsigned ops) { (void)ops; /* the MAC code's own instructions are counted */ }

void TIMER1_Handler(void)
{
  tc_isr_enter();
  ctx_irq();
  tc_isr_exit();
}

void ctx_raise_irq(void) { tc_cm_irq_trigger(RAISED_IRQ); }

/* 1.25: a tc_cycles() unit is 40 ns, an instruction 32 ns (tacet/cortex_m.h). */
double ctx_cycles_per_unit(void) { return (double)tc_cm_cycles_to_instructions(1000000u) / 1e6; }

uint64_t ctx_clock_jitter(void) { return 1; }

void ctx_end_run(void)
{
  tc_cm_irq_disable(RAISED_IRQ);
  tc_cm_stop(0);
}

uint64_t ctx_switch_cost(void) { return 0; }

const char *ctx_port_description(void)
{
  return CM_FIGURES_CPU ", QEMU -icount shift=5: cycles are instructions (one cycle per instruction assumed)";
}

bool ctx_port_scales(void) { return false; }
