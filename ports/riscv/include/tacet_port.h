/* SPDX-License-Identifier: MIT */
/*
 * RISC-V port (RV32, machine mode): the port contract of tacet/port.h.
 *
 * Model (ports/riscv/README.md has the full story):
 *
 *   - Threads, and the startup context that becomes the idle context, run in machine mode on
 *     their own stacks. A trap (interrupt) saves the interrupted context's caller-saved
 *     registers, mepc and mstatus on the interrupted stack (80 bytes, 16-aligned), then runs
 *     its C part on the interrupt stack of the linker script, so no thread stack reserves room
 *     for interrupt handlers.
 *   - The kernel masks interrupts with mstatus.MIE: every interrupt is masked, so no handler is
 *     above the kernel's mask (TC_PORT_ALL_ISRS_MASKED), and handlers do not nest (a trap
 *     clears MIE and the port never sets it again before mret).
 *   - There is no PendSV: a thread hands the CPU over at once, in TC_PORT_SWITCH (switch.S,
 *     tc__rv_switch: the callee-saved registers and ra on its stack, the stack pointers
 *     swapped), as a function call -- the caller-saved registers are dead there. A handler's
 *     decision is committed once, at the end of the trap (TC_PORT_SWITCH_LATER), which then
 *     makes the same call; the interrupted context resumes later through the trap's exit
 *     (restore, mret). RISC-V needs no exception return to leave a trap, so a trap may end in
 *     another context and its own exit run much later.
 *   - "In a handler" is mscratch != 0: the trap entry stores its frame's address there and the
 *     exit clears it (one CSR read, no memory: the Cortex-M port's read of IPSR).
 *   - The tick is the CLINT's mtimecmp (tickless when idle); tc_cycles() is mcycle.
 */
#ifndef TACET_PORT_RISCV_H
#define TACET_PORT_RISCV_H

#include <stdbool.h>
#include <stdint.h>

#include "tacet_board.h"

#if !defined(__riscv) || __riscv_xlen != 32
#error "ports/riscv is for RV32 (check -march / -mabi)"
#endif

/* Idle with WFI (1), or by spinning with interrupts unmasked (0): exactly reproducible idle
 * time under QEMU -icount, where a sleeping hart executes no instructions (riscv.c). */
#ifndef TC_RV_IDLE_WFI
#define TC_RV_IDLE_WFI 1
#endif

/* With WFI: sleep through the ticks before the next timeout instead of waking for each
 * (riscv.c, "Tickless idle"). */
#ifndef TC_RV_TICKLESS
#define TC_RV_TICKLESS 1
#endif

#define TC_RV_MSTATUS_MIE 0x8u

/* A thread's saved context: its stack pointer. On the thread's stack lies what tc__rv_switch
 * saved (ra, s0-s11: the switch frame, switch.S) and, when the thread was interrupted, the
 * trap frame above it. The kernel embeds it at offset 0 of tc_thread. */
typedef struct {
  void *sp;
  uint32_t diverted; /* its switch frame returns through the signal trampoline (riscv.c) */
#if defined(__riscv_flen)
  uint32_t fp; /* its FP state was saved with its switch frame (mstatus.FS was Dirty) */
#endif
} tc_rv_context;

/* The switch state shared with the trap code (switch.S relies on this layout). */
typedef struct {
  tc_rv_context *cur;  /* the context the CPU holds: a thread's, or &tc__rv_idle */
  uint32_t attention;  /* the trap's end calls C (tc__rv_trap_tail): a handler decided a
                          switch, signalled the thread it interrupted, or stopped the run */
#if TC_POWER
  uint32_t stamp;      /* the kernel's stamp (TC_PORT_STAMP): the switch stores the clock here
                          as its last act before the incoming context runs */
#endif
} tc_rv_switch_state;

extern tc_rv_switch_state tc__rv_sw;
extern tc_rv_context tc__rv_idle; /* the startup context, which idles */

/* TC_PORT_IRQ_DISABLE: MIE cleared; returns its old value (TC_RV_MSTATUS_MIE or 0). */
inline unsigned tc__rv_irq_disable(void)
{
  unsigned old;
  __asm volatile("csrrci %0, mstatus, 8" : "=r"(old) : : "memory");
  return old & TC_RV_MSTATUS_MIE;
}

/* TC_PORT_IRQ_RESTORE: MIE set again if it was. A pending interrupt is taken before the next
 * instruction: a CSR write that enables one makes the hart take it at once. */
inline void tc__rv_irq_restore(unsigned s)
{
  __asm volatile("csrs mstatus, %0" : : "r"(s) : "memory");
}

/* In a trap: mscratch holds the trap frame's address (0 outside). Not volatile: mscratch is the
 * same from one end of a function's activation to the other (a trap that interrupts it clears
 * it again before it resumes), so the compiler may merge a service's reads into one. */
inline bool tc__rv_in_trap(void)
{
  uint32_t v;
  __asm("csrr %0, mscratch" : "=r"(v));
  return v != 0u;
}

/* TC_PORT_SWITCH_LATER: the trap's end commits the kernel's last decision. */
inline void tc__rv_switch_later(void) { tc__rv_sw.attention = 1u; }

/* TC_PORT_SWITCH (switch.S): save the running context, load `to`'s (NULL: idle); returns when
 * the saved context runs again. Masked. */
void tc__rv_switch(struct tc_thread *to);

/* `t` has signals pending and is not the calling thread (riscv.c). */
void tc__rv_signal_pending(struct tc_thread *t);

void tc__rv_init(void);
void tc__rv_stack_init(struct tc_thread *t);
int tc__rv_start(void);
void tc__rv_run_end(void);
_Noreturn void tc__rv_panic(const char *msg, const char *detail);

/* tc_cycles(): mcycle, 64 bits read as two halves (the high one again, to see a carry). */
inline uint64_t tc__rv_cycles(void)
{
  uint32_t hi, lo, hi2;
  do {
    __asm volatile("csrr %0, mcycleh" : "=r"(hi));
    __asm volatile("csrr %0, mcycle" : "=r"(lo));
    __asm volatile("csrr %0, mcycleh" : "=r"(hi2));
    /* cppcheck-suppress uninitvar ; the asm statements above set hi and hi2 */
  } while (hi != hi2);
  return (uint64_t)hi << 32 | lo;
}

/* The switch path's clock, counting down: the complement of mcycle's low word. */
inline uint32_t tc__rv_cycles32_down(void)
{
  uint32_t lo;
  __asm volatile("csrr %0, mcycle" : "=r"(lo));
  return ~lo;
}

/* The interrupt being handled, for the trace (0 in a thread): riscv.c. */
extern uint8_t tc__rv_irq_number;

#define TC_PORT_NAME "riscv"
#if defined(__riscv_flen)
#define TC_PORT_CPU_NAME "rv32imafc"
#else
#define TC_PORT_CPU_NAME "rv32imac"
#endif
#define TC_PORT_IRQ_NUMBER() tc__rv_irq_number
#define TC_PORT_STACK_ALIGN 16u
#if defined(__riscv_flen)
#define TC_PORT_STACK_MIN 512u /* a trap frame with the FP registers, a switch frame with them */
#else
#define TC_PORT_STACK_MIN 256u /* an 80-byte trap frame, a 64-byte switch frame, a little to run */
#endif
#define TC_PORT_IRQ_UNMASKED        TC_RV_MSTATUS_MIE /* what TC_PORT_IRQ_DISABLE returns then */
#define TC_PORT_CONTEXT             tc_rv_context
#define TC_PORT_INIT()              tc__rv_init()
#define TC_PORT_IRQ_DISABLE()       tc__rv_irq_disable()
#define TC_PORT_IRQ_RESTORE(s)      tc__rv_irq_restore(s)
#define TC_PORT_STACK_INIT(t)       tc__rv_stack_init(t)
#define TC_PORT_SWITCH(from, to)    ((void)(from), tc__rv_switch(to))
#define TC_PORT_START()             tc__rv_start()
#define TC_PORT_RUN_END()           tc__rv_run_end()
#define TC_PORT_CYCLES()            tc__rv_cycles()
#define TC_PORT_CYCLES32_DOWN()     tc__rv_cycles32_down()
#define TC_PORT_CYCLES_HZ()         ((uint32_t)TC_BOARD_CYCLES_HZ)
#define TC_PORT_PANIC(msg, detail)  tc__rv_panic((msg), (detail))
#define TC_PORT_SIGNAL_PENDING(t)   tc__rv_signal_pending(t)
#define TC_PORT_IN_ISR()            tc__rv_in_trap()
#define TC_PORT_SWITCH_LATER()      tc__rv_switch_later()
#if TC_POWER
#define TC_PORT_STAMP               tc__rv_sw.stamp /* switch.S stores it */
#endif
/* mstatus.MIE masks every interrupt: no handler can preempt a critical section of the kernel. */
#define TC_PORT_ALL_ISRS_MASKED     1

#endif /* TACET_PORT_RISCV_H */
