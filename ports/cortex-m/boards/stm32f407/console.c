/* SPDX-License-Identifier: MIT */
/*
 * The console on a chip without a debugger: USART2, transmit only, polled, on PA2 (the pin
 * the STM32F4DISCOVERY leads out), 115200 baud 8N1; and the newlib system calls on top of
 * it. It replaces semihosting.c (TACET_CM_CONSOLE_SOURCES, board.cmake): a semihosting call
 * is a BKPT, which faults when no debugger serves it.
 *
 * Output waits for the transmitter, byte by byte, with interrupts unmasked: a thread that
 * prints holds the CPU for 87 us per byte but masks nothing, so the kernel's interrupt
 * latency is unchanged. "\n" goes out as "\r\n" for terminals. stdin reads nothing (end of
 * file); there are no host files and no command line (main gets argc 0). On exit the last
 * byte leaves the wire and the core stops with interrupts masked: there is no host to tell
 * the status to.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>

#include "../../cm_private.h"
#include "tacet_board.h"

#if TC_TRACE
#error "stm32f407: the trace dump (TC_TRACE) is written to a host file through semihosting"
#endif

#define REG(addr) (*(volatile unsigned *)(addr))

#define RCC_AHB1ENR REG(0x40023830u)
#define RCC_APB1ENR REG(0x40023840u)
#define GPIOA_MODER REG(0x40020000u)
#define GPIOA_AFRL  REG(0x40020020u)
#define USART2_SR   REG(0x40004400u)
#define USART2_DR   REG(0x40004404u)
#define USART2_BRR  REG(0x40004408u)
#define USART2_CR1  REG(0x4000440Cu)

#define RCC_AHB1ENR_GPIOAEN  (1u << 0)
#define RCC_APB1ENR_USART2EN (1u << 17)
#define USART_SR_TC  (1u << 6) /* the last byte has left the wire */
#define USART_SR_TXE (1u << 7) /* the data register takes another byte */
#define USART_CR1_TE (1u << 3)
#define USART_CR1_UE (1u << 13)

#ifndef TC_STM32_CONSOLE_BAUD
#define TC_STM32_CONSOLE_BAUD 115200u
#endif

void tc__cm_console_init(void)
{
  RCC_AHB1ENR |= RCC_AHB1ENR_GPIOAEN;
  RCC_APB1ENR |= RCC_APB1ENR_USART2EN;
  (void)RCC_APB1ENR; /* the clocks reach GPIOA and USART2 before their first access */
  GPIOA_AFRL = (GPIOA_AFRL & ~(0xFu << 8)) | (7u << 8);  /* PA2: alternate function 7, USART2_TX */
  GPIOA_MODER = (GPIOA_MODER & ~(3u << 4)) | (2u << 4); /* PA2: alternate function mode */
  /* 16x oversampling: the divider is PCLK1 / baud in 1/16ths, which is PCLK1 / baud rounded. */
  USART2_BRR = (TC_STM32_PCLK1_HZ + TC_STM32_CONSOLE_BAUD / 2u) / TC_STM32_CONSOLE_BAUD;
  USART2_CR1 = USART_CR1_UE | USART_CR1_TE;
}

static void put(char c)
{
  while ((USART2_SR & USART_SR_TXE) == 0u) {}
  USART2_DR = (unsigned char)c;
}

int tc__cm_console_write(int fd, const void *buf, size_t n)
{
  (void)fd; /* stdout and stderr share the wire */
  const char *p = buf;
  for (size_t i = 0; i < n; i++) {
    if (p[i] == '\n') put('\r');
    put(p[i]);
  }
  return (int)n;
}

_Noreturn void tc__cm_exit(int code)
{
  (void)code;
  __asm volatile("cpsid i" ::: "memory");
  while ((USART2_SR & USART_SR_TC) == 0u) {}
  for (;;) __asm volatile("wfi");
}

int tc__cm_command_line(char ***argv)
{
  static char *none[1] = {NULL};
  *argv = none;
  return 0;
}

/* ---- newlib system calls: descriptors 0, 1 and 2 are the console, there are no others -- */

static int console_fd(int fd)
{
  if (fd >= 0 && fd <= 2) return 1;
  errno = EBADF;
  return 0;
}

int _open(const char *path, int flags, ...)
{
  (void)path;
  (void)flags;
  errno = ENOSYS;
  return -1;
}

int _write(int fd, const void *buf, size_t n)
{
  return console_fd(fd) ? tc__cm_console_write(fd, buf, n) : -1;
}

int _read(int fd, void *buf, size_t n)
{
  (void)buf;
  (void)n;
  return console_fd(fd) ? 0 : -1;
}

int _close(int fd) { return console_fd(fd) ? 0 : -1; }

int _lseek(int fd, int off, int whence)
{
  (void)off;
  (void)whence;
  if (console_fd(fd)) errno = ESPIPE;
  return -1;
}

int _fstat(int fd, struct stat *st)
{
  if (!console_fd(fd)) return -1;
  *st = (struct stat){.st_mode = S_IFCHR};
  return 0;
}

int _isatty(int fd) { return console_fd(fd); }
