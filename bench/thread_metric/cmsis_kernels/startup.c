/* SPDX-License-Identifier: MIT */
/*
 * Start-up for a kernel other than Tacet on QEMU's mps2-an385 (compare.py, build.sh): the
 * vector table at 0 with the CMSIS handler names the kernels define (SVC_Handler,
 * PendSV_Handler, SysTick_Handler) and Thread-Metric's interrupt (line 30), reset into
 * newlib's semihosting start-up (rdimon: .bss, the heap, stdio and exit through QEMU). QEMU
 * loads every section of the ELF file where it is linked, .data included.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

uint32_t SystemCoreClock = 25000000u; /* mps2's SYSCLK: the processor and SysTick */

void SystemInit(void);
void SystemInit(void) {}

extern uint32_t __stack_top[];
void _start(void);
void SVC_Handler(void);
void PendSV_Handler(void);
void SysTick_Handler(void);
void PORT0_6_Handler(void);

/* Any other exception or interrupt is a failure of the run. */
static void unexpected(void)
{
  uint32_t ipsr;
  __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
  printf("unexpected exception %lu\n", (unsigned long)ipsr);
  exit(3);
}

typedef void (*vector)(void);
__attribute__((section(".vectors"), used)) static const vector vectors[16 + 32] = {
    [0] = (vector)(uintptr_t)__stack_top,
    [1] = _start,
    [2 ... 10] = unexpected,
    [11] = SVC_Handler,
    [12 ... 13] = unexpected,
    [14] = PendSV_Handler,
    [15] = SysTick_Handler,
    [16 ... 16 + 29] = unexpected,
    [16 + 30] = PORT0_6_Handler,
    [16 + 31] = unexpected,
};
