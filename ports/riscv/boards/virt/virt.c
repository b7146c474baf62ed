/* SPDX-License-Identifier: MIT */
/*
 * QEMU virt: the console on 16550 UART 0, polled.
 *
 * QEMU's 16550 sends a byte the moment it is written and never holds the transmitter busy, but a
 * real one does: the write waits for THRE (the holding register empty) as any 16550 driver
 * must. Bytes go out as they are (no carriage return before a new line): QEMU's standard
 * output is read by programs (ctest, tacet run) that split lines at '\n'. No interrupt: the console works from a fault report, with interrupts masked, as from a
 * thread.
 */
#include "../../rv_private.h"
#include "tacet_board.h"

#define UART_THR (*(volatile uint8_t *)(TC_BOARD_UART + 0u)) /* transmit holding (write) */
#define UART_IER (*(volatile uint8_t *)(TC_BOARD_UART + 1u)) /* interrupt enable */
#define UART_FCR (*(volatile uint8_t *)(TC_BOARD_UART + 2u)) /* FIFO control (write) */
#define UART_LCR (*(volatile uint8_t *)(TC_BOARD_UART + 3u)) /* line control */
#define UART_LSR (*(volatile uint8_t *)(TC_BOARD_UART + 5u)) /* line status */
#define LSR_THRE 0x20u
#define LCR_8N1  0x03u

void tc__rv_console_write(const char *buf, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    while ((UART_LSR & LSR_THRE) == 0) {
    }
    UART_THR = (uint8_t)buf[i];
  }
}

void tc__rv_board_init(void)
{
  /* QEMU ignores the baud rate; a real 16550 keeps the divisor its boot code set. */
  UART_IER = 0u;
  UART_LCR = LCR_8N1;
  UART_FCR = 0x07u; /* FIFOs on and cleared */
}
