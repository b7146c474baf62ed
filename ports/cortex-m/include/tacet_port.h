/* SPDX-License-Identifier: MIT */
/*
 * Cortex-M port (ARMv7-M: Cortex-M3, Cortex-M4/M4F): the port contract of tacet/port.h.
 *
 * Model (ports/cortex-m/README.md has the full story):
 *
 *   - Threads, and the startup context that becomes the idle context, run in Thread mode on
 *     the process stack (PSP); exception handlers run on the main stack (MSP), so no thread
 *     stack has to reserve room for nested interrupts.
 *   - The kernel masks interrupts with BASEPRI = TC_CM_BASEPRI. Interrupts of a numerically
 *     lower (more urgent) priority are never masked by the kernel ("zero-latency"); they must
 *     not call kernel services (the rule: tacet/cortex_m.h), and with TC_CHECKS=1 a service
 *     they call refuses (TC_PORT_IN_UNMASKED_ISR below).
 *   - TC_PORT_SWITCH records the context to run next and pends PendSV. PendSV runs at the
 *     lowest priority, so it fires when the kernel unmasks (thread) or when the last handler
 *     returns (interrupt): it saves r4-r11 and EXC_RETURN (and s16-s31 when the outgoing
 *     context used the FPU), swaps stack pointers and restores. It calls C only to divert a
 *     thread with signals pending into its handlers (trampoline.c), off the common path.
 *   - The tick is SysTick; tc_cycles() is a board timer (mps2: CMSDK timer 0 at 25 MHz).
 */
#ifndef TACET_PORT_CORTEX_M_H
#define TACET_PORT_CORTEX_M_H

#include <stdbool.h>
#include <stdint.h>

#include "tacet_board.h"

/* Idle with WFI (1), or by spinning with interrupts unmasked (0): exactly reproducible
 * idle time under QEMU -icount, where a sleeping core is not counted in instructions (see
 * cortex_m.c). */
#ifndef TC_CM_IDLE_WFI
#define TC_CM_IDLE_WFI 1
#endif

/* With WFI: sleep through the ticks before the next timeout instead of waking for each
 * (cortex_m.c, "Tickless idle"). */
#ifndef TC_CM_TICKLESS
#define TC_CM_TICKLESS 1
#endif

#if !defined(__ARM_ARCH_7M__) && !defined(__ARM_ARCH_7EM__)
#error "ports/cortex-m needs an ARMv7-M core (Cortex-M3 / M4 / M4F): check -mcpu"
#endif

/* Interrupt priorities (8-bit register values; a core implements only the top bits, at
 * least 3, so the defaults use only the top 3). TC_CM_BASEPRI is the most urgent priority
 * the kernel masks: handlers at priority values >= TC_CM_BASEPRI may call kernel services;
 * values below it are zero-latency and may not (tacet/cortex_m.h states the rule). */
#ifndef TC_CM_BASEPRI
#define TC_CM_BASEPRI 0x40u
#endif
/* SysTick: a kernel interrupt; the lowest priority by default, like PendSV. */
#ifndef TC_CM_TICK_PRIORITY
#define TC_CM_TICK_PRIORITY 0xFFu
#endif
#if TC_CM_BASEPRI == 0 || TC_CM_BASEPRI > 0xFF
#error "TC_CM_BASEPRI must be 1..255 (0 would mask nothing)"
#endif
#if TC_CM_TICK_PRIORITY < TC_CM_BASEPRI
#error "TC_CM_TICK_PRIORITY must be a kernel priority (>= TC_CM_BASEPRI)"
#endif

#include "tacet_cm_guard.h"

/* A thread's saved context: its process stack pointer. Below it on the thread's stack lie
 * r4-r11 and EXC_RETURN (9 words), s16-s31 when EXC_RETURN bit 4 is clear, then the frame
 * the hardware pushed. The kernel embeds it at offset 0 of tc_thread. */
typedef struct {
  void *sp;
  uint32_t diverted; /* its return leads through the signal trampoline (trampoline.c) */
#if TC_MPU_STACK_GUARD
  uint32_t guard; /* its guard region, as PendSV writes it into MPU_RBAR: address, VALID, number */
#endif
} tc_cm_context;

/* The switch request shared with the PendSV handler (pendsv.S relies on this layout). */
typedef struct {
  tc_cm_context *cur;     /* the context the CPU holds: a thread's, or &tc__cm_idle */
  tc_cm_context *next;    /* the context PendSV switches to */
  uint32_t attention;     /* one of the two below is set: PendSV calls C before it loads */
  tc_cm_context *deliver; /* non-NULL: a context that was live when it was signalled, to divert
                             once PendSV has saved it (TC_PORT_SIGNAL_PENDING) */
  uint32_t commit_later;  /* a handler's decision waits for PendSV to commit it (cortex_m.c) */
#if TC_POWER
  uint32_t stamp;         /* the kernel's stamp (TC_PORT_STAMP): PendSV stores the clock here
                             as it loads the incoming context */
#endif
} tc_cm_switch_state;

extern tc_cm_switch_state tc__cm_sw;
extern tc_cm_context tc__cm_idle; /* the startup context, which idles */

#define TC_CM_ICSR      (*(volatile uint32_t *)0xE000ED04u)
#define TC_CM_PENDSVSET (1u << 28)

static inline unsigned tc__cm_irq_disable(void)
{
  unsigned old;
  __asm volatile("mrs %0, basepri" : "=r"(old));
  /* BASEPRI_MAX only ever raises the mask, so a caller that is already above the kernel
   * level (a zero-latency handler, by mistake) is not lowered. */
  __asm volatile("msr basepri_max, %0" : : "r"(TC_CM_BASEPRI) : "memory");
  return old;
}

static inline void tc__cm_irq_restore(unsigned s)
{
  /* The ISB makes an interrupt (or a PendSV switch) unmasked here happen before the next
   * instruction: a thread that blocked must not run on past tc__unlock(). */
  __asm volatile("msr basepri, %0\n\tisb" : : "r"(s) : "memory");
}

/* The same without the ISB, after a section that asked for no switch: an interrupt held back
 * may be taken a few instructions later (the ISB is what makes it immediate), which nothing
 * the caller does next depends on. */
static inline void tc__cm_irq_restore_quiet(unsigned s)
{
  __asm volatile("msr basepri, %0" : : "r"(s) : "memory");
}

/* In an exception handler: IPSR holds its number (0 in Thread mode). Interrupt handlers need no
 * tc_isr_enter/exit: the kernel asks the port to switch later, and PendSV -- the lowest
 * priority, so it runs once every handler is done -- commits the last decision and switches.
 * Not volatile: IPSR is the same from one end of a function's activation to the other (a
 * handler that interrupts it returns with IPSR as it was), so the compiler may merge the
 * reads of one service -- its priority check and its context checks -- into one. */
inline unsigned tc__cm_ipsr(void)
{
  unsigned v;
  __asm("mrs %0, ipsr" : "=r"(v));
  return v;
}

/* The kernel's mask as this core holds it: TC_CM_BASEPRI without the low bits the core does
 * not implement (measured by tc__cm_init, with TC_CHECKS=1: only the checks need it). */
extern uint8_t tc__cm_kernel_level;

/* The running exception (IPSR, not 0) is above the kernel's mask: its group priority -- the
 * bits of its priority above AIRCR.PRIGROUP, the only ones BASEPRI compares -- is more urgent
 * than the kernel level's, or it is NMI or HardFault. The answer is in the flags, LO when it
 * is above, and every register is kept (cortex_m.c): called as below, it costs a service's
 * thread path nothing but the test of IPSR -- a call by the C convention would have the
 * service save its arguments first, on every path. */
void tc__cm_unmasked_flags(void);

/* TC_PORT_IN_UNMASKED_ISR: in Thread mode one read of IPSR and a branch. */
inline bool tc__cm_in_unmasked_isr(void)
{
  if (__builtin_expect(tc__cm_ipsr() == 0u, 1) != 0) return false; /* a hint is a long: compared, not the condition */
#ifdef __GCC_ASM_FLAG_OUTPUTS__
  bool above;
  __asm volatile("push {lr}\n\t"
                 "bl tc__cm_unmasked_flags\n\t"
                 "pop {lr}"
                 : "=@cclo"(above));
  return above;
#else
  /* A compiler without flag outputs (clang 14 for Arm): the flags into a register, two
   * instructions more on a handler's path only. */
  uint32_t above;
  __asm volatile("push {lr}\n\t"
                 "bl tc__cm_unmasked_flags\n\t"
                 "pop {lr}\n\t"
                 "ite lo\n\t"
                 "movlo %0, #1\n\t"
                 "movhs %0, #0"
                 : "=r"(above)
                 :
                 : "cc");
  return above != 0u;
#endif
}

inline void tc__cm_switch_later(void)
{
  tc__cm_sw.commit_later = 1u;
  tc__cm_sw.attention = 1u;
  TC_CM_ICSR = TC_CM_PENDSVSET;
}

void tc__cm_switch_idle(void);

/* The kernel has made `to` current (NULL: idle). The context is tc_thread's first member.
 * Signals need no test here: a thread signalled while its context is saved was diverted then
 * (TC_PORT_SIGNAL_PENDING, trampoline.c). */
inline void tc__cm_switch(struct tc_thread *to)
{
  /* No switch is asked for once tc_cm_stop() has run: it stops the kernel's decisions. */
  /* Idle is the rare case, out of line: a branch not taken costs less than the conditional
   * select the compiler would make of the two. */
  if (to == NULL) {
    tc__cm_switch_idle();
    return;
  }
  tc__cm_sw.next = (tc_cm_context *)(void *)to;
  TC_CM_ICSR = TC_CM_PENDSVSET;
}

/* `t` has signals pending and is not the calling thread (trampoline.c). Out of line: it is
 * what links the trampoline into a program, and only signal.c calls it. */
void tc__cm_signal_pending(struct tc_thread *t);

void tc__cm_init(void);
void tc__cm_stack_init(struct tc_thread *t);
int tc__cm_start(void);
void tc__cm_run_end(void);
uint64_t tc__cm_cycles(void);
_Noreturn void tc__cm_panic(const char *msg, const char *detail);

#define TC_PORT_NAME "cortex-m"
/* For the trace's header and its events' `irq` (the exception number). */
#if defined(__ARM_FP)
#define TC_PORT_CPU_NAME "cortex-m4f"
#else
#define TC_PORT_CPU_NAME "cortex-m3"
#endif
#define TC_PORT_IRQ_NUMBER() tc__cm_ipsr()
#define TC_PORT_STACK_ALIGN 8u
#if defined(__ARM_FP)
#define TC_PORT_STACK_MIN 384u /* 9 + 16 saved words, a 26-word FP frame, a little to run */
#else
#define TC_PORT_STACK_MIN 256u /* 9 saved words, an 8-word frame, a little to run */
#endif
#define TC_PORT_CONTEXT             tc_cm_context
#define TC_PORT_INIT()              tc__cm_init()
#define TC_PORT_IRQ_DISABLE()       tc__cm_irq_disable()
#define TC_PORT_IRQ_RESTORE(s)      tc__cm_irq_restore(s)
#define TC_PORT_IRQ_RESTORE_QUIET(s) tc__cm_irq_restore_quiet(s)
#define TC_PORT_STACK_INIT(t)       tc__cm_stack_init(t)
#define TC_PORT_SWITCH(from, to)    ((void)(from), tc__cm_switch(to))
#define TC_PORT_START()             tc__cm_start()
#define TC_PORT_RUN_END()           tc__cm_run_end()
#define TC_PORT_CYCLES()            tc__cm_cycles()
#define TC_PORT_CYCLES32_DOWN()     ((uint32_t)TC_BOARD_CYCLES32_DOWN())
#define TC_PORT_CYCLES_HZ()         ((uint32_t)TC_BOARD_CYCLES_HZ)
#define TC_PORT_PANIC(msg, detail)  tc__cm_panic((msg), (detail))
#define TC_PORT_SIGNAL_PENDING(t)   tc__cm_signal_pending(t)
#define TC_PORT_IN_ISR()            (tc__cm_ipsr() != 0u)
#define TC_PORT_IN_UNMASKED_ISR()   tc__cm_in_unmasked_isr()
#define TC_PORT_SWITCH_LATER()      tc__cm_switch_later()
#if TC_POWER
#define TC_PORT_STAMP               tc__cm_sw.stamp /* PendSV stores it (pendsv.S) */
#endif

#endif /* TACET_PORT_CORTEX_M_H */
