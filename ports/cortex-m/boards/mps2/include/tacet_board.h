/* SPDX-License-Identifier: MIT */
/*
 * Board: ARM MPS2 with the AN385 (Cortex-M3) or AN386 (Cortex-M4F) FPGA image, as QEMU models
 * them (`-M mps2-an385` / `-M mps2-an386`). Both images have the same memory map and devices:
 *
 *   0x00000000  4 MB ZBT SSRAM1     code and read-only data ("flash" in the linker script)
 *   0x20000000  4 MB ZBT SSRAM2/3   data, heap, stacks
 *   0x40000000  CMSDK APB timer 0   IRQ 8: tc_cycles() (25 MHz, free-running)
 *   0x40001000  CMSDK APB timer 1   IRQ 9: free for the application (tests use it)
 *   0x40002000  CMSDK dual timer    IRQ 10
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
