/* SPDX-License-Identifier: MIT */
/*
 * Board: ARM MPS2 with the AN385 (Cortex-M3) or AN386 (Cortex-M4F) FPGA image, as QEMU models
 * them (`-M mps2-an385` / `-M mps2-an386`). Both images have the same memory map and devices:
 *
 *   0x00000000  4 MB ZBT SSRAM1     code and read-only data ("flash" in the linker script)
 *   0x20000000  4 MB ZBT SSRAM2/3   data, heap, stacks
 *   0x40000000  CMSDK APB timer 0   IRQ 8 (TIMER0_Handler): tc_cycles() (25 MHz, free-running)
 *   0x40001000  CMSDK APB timer 1   IRQ 9 (TIMER1_Handler): free for the application (tests
 *                                   and examples/device_interrupt use it)
 *   0x40002000  CMSDK dual timer    IRQ 10 (DUALTIMER_HANDLER)
 *
 * The CPU, SysTick and the APB timers all run from the 25 MHz SYSCLK. Under QEMU with
 * `-icount shift=5` one instruction takes 32 ns of virtual time, so one timer tick (40 ns)
 * is 1.25 instructions: tc_cm_cycles_to_instructions() converts.
 *
 * Console and exit code: ARM semihosting (QEMU `-semihosting-config enable=on,target=native`):
 * stdout and stderr go to QEMU's stdout and stderr, and the value main() returns, or that
 * exit() is called with, becomes QEMU's exit status.
 */
#ifndef TACET_BOARD_H
#define TACET_BOARD_H

#define TC_BOARD_NAME       "mps2"
#define TC_BOARD_IRQS       32u       /* external interrupt lines of the NVIC */
#define TC_BOARD_CPU_HZ     25000000u /* SysTick clock (processor clock) */
#define TC_BOARD_CYCLES_HZ  25000000u /* tc_cycles() rate */

/* Interrupt numbers. */
#define TC_MPS2_TIMER0_IRQ    8u
#define TC_MPS2_TIMER1_IRQ    9u
#define TC_MPS2_DUALTIMER_IRQ 10u

/* The handler of each external interrupt line, by the names of ARM's CMSIS device support for
 * the CMSDK Cortex-M3/M4 systems of the MPS2 (the start-up files of CMSDK_CM3 / CMSDK_CM4, whose
 * interrupt numbers QEMU's mps2-an385/an386 follow), so that code written for them links in
 * unchanged: X(line, handler). The vector table (startup.c) is built from this list, each
 * handler weak until the application defines it; tacet/cortex_m.h declares them all. Lines
 * 24 to 31 are GPIO 0's pins, which nothing drives under QEMU: the tests pend them from
 * software. (DUALTIMER_HANDLER is spelt as ARM spells it.) */
#define TC_BOARD_IRQ_HANDLERS(X)                                                               \
  X(0, UARTRX0_Handler) X(1, UARTTX0_Handler) X(2, UARTRX1_Handler) X(3, UARTTX1_Handler)      \
  X(4, UARTRX2_Handler) X(5, UARTTX2_Handler) X(6, PORT0_COMB_Handler)                         \
  X(7, PORT1_COMB_Handler) X(8, TIMER0_Handler) X(9, TIMER1_Handler) X(10, DUALTIMER_HANDLER)  \
  X(11, SPI_Handler) X(12, UARTOVF_Handler) X(13, ETHERNET_Handler) X(14, I2S_Handler)         \
  X(15, TSC_Handler) X(16, PORT2_COMB_Handler) X(17, PORT3_COMB_Handler)                       \
  X(18, UARTRX3_Handler) X(19, UARTTX3_Handler) X(20, UARTRX4_Handler) X(21, UARTTX4_Handler)  \
  X(22, ADCSPI_Handler) X(23, SHIELDSPI_Handler) X(24, PORT0_0_Handler) X(25, PORT0_1_Handler) \
  X(26, PORT0_2_Handler) X(27, PORT0_3_Handler) X(28, PORT0_4_Handler) X(29, PORT0_5_Handler)  \
  X(30, PORT0_6_Handler) X(31, PORT0_7_Handler)

/* The address of timer 0's count (below), for the switch code in assembly (pendsv.S). */
#define TC_BOARD_CYCLES32_DOWN_ADDR 0x40000004

#ifndef __ASSEMBLER__
/* CMSDK APB timer registers. */
typedef struct {
  volatile unsigned ctrl;      /* bit 0 enable, bit 3 interrupt enable */
  volatile unsigned value;     /* counts down at 25 MHz */
  volatile unsigned reload;    /* value after reaching 0 (writing it also sets `value`) */
  volatile unsigned intstatus; /* bit 0: reached 0; write 1 to clear */
} tc_mps2_timer;

#define TC_MPS2_TIMER0 ((tc_mps2_timer *)0x40000000u)
#define TC_MPS2_TIMER1 ((tc_mps2_timer *)0x40001000u)

/* tc_cycles() counting down, modulo 2^32: timer 0 as it is, one load. The switch path accounts
 * run time with it (tacet/port.h, TC_PORT_CYCLES32_DOWN). */
#define TC_BOARD_CYCLES32_DOWN() ((unsigned)TC_MPS2_TIMER0->value)
#endif /* __ASSEMBLER__ */

/* A run on these boards is a program with an end: when no thread is ready and no timeout is
 * pending, nothing but an external interrupt could continue it, and tc_kernel_start()
 * returns 0 (the sim port's rule). An application whose threads wait for device interrupts
 * without a timeout builds with TC_CM_IDLE_EXIT=0; tc_kernel_start() then returns only
 * through tc_cm_stop(). */
#ifndef TC_CM_IDLE_EXIT
#define TC_CM_IDLE_EXIT 1
#endif

#endif /* TACET_BOARD_H */
