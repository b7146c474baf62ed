/* SPDX-License-Identifier: MIT */
/*
 * SiFive FE310: the console on UART 0, polled.
 *
 * The SiFive UART is not a 16550: a write to txdata queues a byte in an 8-byte FIFO, and a read
 * of txdata has bit 31 set while the FIFO is full, so the write waits for that bit clear. The
 * transmitter sends only while txctrl.txen is set. Bytes go out as they are (no carriage return
 * before a new line), as on virt. No interrupt: the console works from a fault report, with
 * interrupts masked, as from a thread.
 */
#include "../../rv_private.h"
#include "tacet_board.h"

#define UART_TXDATA (*(volatile uint32_t *)(TC_BOARD_UART + 0x00u))
#define UART_TXCTRL (*(volatile uint32_t *)(TC_BOARD_UART + 0x08u))
#define UART_IE     (*(volatile uint32_t *)(TC_BOARD_UART + 0x10u))
#define TXDATA_FULL 0x80000000u
#define TXCTRL_TXEN 0x1u

void tc__rv_console_write(const char *buf, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    while ((UART_TXDATA & TXDATA_FULL) != 0) {
    }
    UART_TXDATA = (uint8_t)buf[i];
  }
}

void tc__rv_board_init(void)
{
  /* The baud rate divisor (div) is the boot loader's, set for its clock: left alone. */
  UART_IE = 0u;
  UART_TXCTRL |= TXCTRL_TXEN;
}
