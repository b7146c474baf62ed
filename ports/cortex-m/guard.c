/* SPDX-License-Identifier: MIT */
/*
 * Cortex-M port: the MPU stack guard (TC_MPU_STACK_GUARD; docs/stack-guard.md).
 *
 * One PMSAv7 region (TC_CM_STACK_GUARD_REGION), no access for anyone and never executable,
 * TC_CM_STACK_GUARD_SIZE bytes, lies right below the usable stack of the context the CPU
 * runs: every context -- thread, HISR, the startup/idle context -- carries the region's RBAR
 * value (tc_cm_context.guard), and PendSV stores the incoming one's as soon as it makes it
 * `cur`. So the guard armed is always that of tc__cm_sw.cur, and only that one: a context
 * that writes into another's guard area writes memory like any other. PRIVDEFENA keeps the
 * default memory map everywhere else, for privileged code (all of Tacet's); HardFault and
 * NMI run with the MPU off (HFNMIENA clear).
 *
 * The first write into the region faults (MemManage, which runs at TC_CM_BASEPRI: the most
 * urgent kernel priority, so never inside a kernel critical section). How the fault comes:
 *
 *   DACCVIOL   a store by the thread's own code (a push, a local), MMFAR in the region; or
 *              PendSV's save of r4-r11/EXC_RETURN (s16-s31) at a switch away from it: the
 *              hardware frame fitted, the rest did not. Often together with
 *   MSTKERR    the hardware's stacking of an exception frame on the thread's stack: of the
 *              MemManage itself after a DACCVIOL, or of an interrupt that came when the
 *              stack had room for less than a frame.
 *   MLSPERR    the lazy save of s0-s15 (M4F) into the space an FP frame reserved, when a
 *              handler first uses the FPU. With the default 128-byte guard the frame's
 *              lowest 32 bytes, which the hardware writes at once, always fault first
 *              (MSTKERR), so this comes only with a smaller TC_CM_STACK_GUARD_SIZE, after
 *              those 32 bytes were written below the region.
 *   MUNSTKERR  an exception return reading a frame from the region (no path of the port
 *              writes one there; counted as the same overflow).
 *
 * Each names the faulting context's stack: the address (MMFAR), the process stack pointer
 * where the frame went, or FPCAR, lies in the armed region. Anything else is no overflow: the
 * port's fault report (startup.c) stops the run as before.
 *
 * Then the context never runs again: the kernel calls tc_stack_overflow_hook() and
 * terminates the thread (tc__stack_guard_hit), and the port makes sure nothing writes on its
 * stack below the guard's top once more: PSP is moved to a harmless frame at the top of the
 * dead stack, whose pc is a trap, and the handler returns with a basic-frame EXC_RETURN, so
 * that PendSV -- pended by the termination, it tail-chains -- saves the dead context there
 * and loads the next one. When the fault came from PendSV's own save, PendSV is restarted
 * from its first instruction instead of resumed. A pending lazy FP save for the dead context
 * is abandoned (FPCCR.LSPACT), so that no handler's FPU use writes into its stack again.
 *
 * What cannot be stopped is reported and stops the run (TC_PORT_PANIC, exit status 134): an
 * overflow with the kernel masked (then MemManage cannot preempt: the fault escalates to
 * HardFault, and the kernel's data may be half-updated), of an HISR (nothing terminates an
 * HISR), of the startup/idle context, and of a thread inside its own tc_isr_enter() bracket.
 */
#include "cm_private.h"
#include "internal.h"

#if TC_MPU_STACK_GUARD

#define MPU_TYPE (*(volatile uint32_t *)0xE000ED90u)
#define MPU_CTRL (*(volatile uint32_t *)0xE000ED94u)
#define MPU_RNR  (*(volatile uint32_t *)0xE000ED98u)
#define MPU_RBAR (*(volatile uint32_t *)0xE000ED9Cu)
#define MPU_RASR (*(volatile uint32_t *)0xE000EDA0u)
#define MPU_CTRL_ENABLE     (1u << 0)
#define MPU_CTRL_PRIVDEFENA (1u << 2)
#define MPU_RBAR_VALID      (1u << 4)
#define MPU_RASR_ENABLE     (1u << 0)
#define MPU_RASR_XN         (1u << 28) /* AP (bits 26:24) = 0: no access, privileged or not */

#define SCB_SHPR_MEMMANAGE (*(volatile uint8_t *)0xE000ED18u)
#define SCB_CFSR  (*(volatile uint32_t *)0xE000ED28u)
#define SCB_MMFAR (*(volatile uint32_t *)0xE000ED34u)
#define FPCCR     (*(volatile uint32_t *)0xE000EF34u)
#define FPCAR     (*(volatile uint32_t *)0xE000EF38u)
#define FPCCR_LSPACT 1u
#define FPCCR_THREAD (1u << 3) /* the lazy frame was stacked from Thread mode */

#define MMFSR_DACCVIOL  (1u << 1)
#define MMFSR_MUNSTKERR (1u << 3)
#define MMFSR_MSTKERR   (1u << 4)
#define MMFSR_MLSPERR   (1u << 5)
#define MMFSR_MMARVALID (1u << 7)
#define MMFSR_ALL       0xFFu

#define EXC_RETURN_THREAD  (1u << 3) /* returns to Thread mode */
#define EXC_RETURN_PSP     (1u << 2) /* the frame is on the process stack */
#define EXC_RETURN_BASIC   (1u << 4) /* no FP state in the frame */
#define EXC_RETURN_PSP_BASIC 0xFFFFFFFDu
#define XPSR_THUMB   0x01000000u
#define XPSR_KEEP    0x3FFu          /* the exception number and the frame's alignment pad bit */
#define PENDSV_EXCEPTION 14u

#define GUARD TC_CM_STACK_GUARD_SIZE
#define FRAME_BYTES    32u  /* r0-r3, r12, lr, pc, xPSR */
#define FRAME_FP_BYTES 104u /* ... s0-s15, FPSCR, a reserved word */
#define FP_AREA_BYTES  72u  /* what the lazy save writes, from FPCAR up */
/* The harmless frame left on a dead thread's stack: room for an FP frame on a core with FPU. */
#if defined(__ARM_FP)
#define DEAD_FRAME_WORDS (FRAME_FP_BYTES / 4u)
#else
#define DEAD_FRAME_WORDS (FRAME_BYTES / 4u)
#endif

_Static_assert(offsetof(tc_cm_context, guard) == 8, "pendsv.S loads the guard at offset 8");
_Static_assert(TC_PORT_STACK_MIN >= 2u * FRAME_FP_BYTES, "a dead stack holds its trap frame and PendSV's save");

void PendSV_Handler(void); /* pendsv.S */

static inline uint32_t guard_rbar(uintptr_t region)
{
  return (uint32_t)region | MPU_RBAR_VALID | TC_CM_STACK_GUARD_REGION;
}

static inline uintptr_t guard_base(const tc_cm_context *c) { return c->guard & ~(uint32_t)0x1Fu; }

void tc__cm_guard_stack_init(tc_thread *t)
{
  t->ctx.guard = guard_rbar((uintptr_t)t->stack_base - GUARD);
}

/* The startup/idle context runs on the linker script's process stack: its guard is the first
 * aligned region at that stack's bottom. */
extern char __tc_cm_psp_top[], __tc_cm_psp_size[];

void tc__cm_guard_init(void)
{
  if (((MPU_TYPE >> 8) & 0xFFu) <= TC_CM_STACK_GUARD_REGION)
    TC_PORT_PANIC("TC_MPU_STACK_GUARD: this core has no MPU region", "TC_CM_STACK_GUARD_REGION");
  uintptr_t bottom = (uintptr_t)__tc_cm_psp_top - (uintptr_t)__tc_cm_psp_size;
  tc__cm_idle.guard = guard_rbar((bottom + GUARD - 1u) & ~(uintptr_t)(GUARD - 1u));
  SCB_SHPR_MEMMANAGE = (uint8_t)TC_CM_BASEPRI;
  MPU_RNR = TC_CM_STACK_GUARD_REGION;
  MPU_RBAR = tc__cm_idle.guard;
  /* SIZE = log2(bytes) - 1. */
  MPU_RASR = MPU_RASR_XN | (uint32_t)(__builtin_ctz(GUARD) - 1) << 1 | MPU_RASR_ENABLE;
  MPU_CTRL |= MPU_CTRL_ENABLE | MPU_CTRL_PRIVDEFENA;
  __asm volatile("dsb\n\tisb" ::: "memory");
}

/* [a, a + n) meets the guard region of `c`. */
static inline bool in_guard(const tc_cm_context *c, uintptr_t a, uintptr_t n)
{
  uintptr_t g = guard_base(c);
  return a < g + GUARD && a + n > g;
}

/* The fault was `cur`'s overflow into its guard (see the top of this file). */
static bool guard_hit(const tc_cm_context *cur, uint32_t mmfsr, uint32_t exc_return, uint32_t psp,
                      bool from_pendsv)
{
  bool thread_mode = (exc_return & EXC_RETURN_THREAD) != 0;
  /* A store: by the thread itself, or by PendSV saving it (a handler's other stores into a
   * thread's stack are none of the thread's doing). */
  if ((mmfsr & (MMFSR_DACCVIOL | MMFSR_MMARVALID)) == (MMFSR_DACCVIOL | MMFSR_MMARVALID) &&
      (thread_mode || from_pendsv) && in_guard(cur, SCB_MMFAR, 1))
    return true;
  /* A frame stacked on, or unstacked from, the process stack. */
  if ((mmfsr & (MMFSR_MSTKERR | MMFSR_MUNSTKERR)) && (exc_return & EXC_RETURN_PSP) &&
      in_guard(cur, psp, (exc_return & EXC_RETURN_BASIC) ? FRAME_BYTES : FRAME_FP_BYTES))
    return true;
#if defined(__ARM_FP)
  if ((mmfsr & MMFSR_MLSPERR) && in_guard(cur, FPCAR, FP_AREA_BYTES)) return true;
#endif
  return false;
}

static uint32_t read_psp(void)
{
  uint32_t v;
  __asm volatile("mrs %0, psp" : "=r"(v));
  return v;
}

static void trap_resumed(void) { TC_PORT_PANIC("a thread stopped by the stack guard was resumed", NULL); }

/* MemManage (startup.c's entry, on the main stack): `exc_return` as the handler got it, `msp`
 * the main stack pointer at entry, where the interrupted handler's frame lies when
 * exc_return says so. Returns the EXC_RETURN to return with. */
uint32_t tc__cm_guard_fault(uint32_t exc_return, uint32_t *msp)
{
  uint32_t mmfsr = SCB_CFSR & MMFSR_ALL;
  uint32_t psp = read_psp();
  bool thread_mode = (exc_return & EXC_RETURN_THREAD) != 0;
  bool from_pendsv = !thread_mode && (exc_return & EXC_RETURN_PSP) == 0 &&
                     (msp[7] & 0x1FFu) == PENDSV_EXCEPTION;
  tc_cm_context *cur = tc__cm_sw.cur;
  if (!guard_hit(cur, mmfsr, exc_return, psp, from_pendsv))
    tc__cm_fault((exc_return & EXC_RETURN_PSP) ? (const uint32_t *)(uintptr_t)psp : msp, exc_return);

  tc_thread *t = (tc_thread *)(void *)cur;
#if defined(__ARM_FP)
  /* A lazy save still owed to a Thread-mode context is owed to the dead one (the only one that
   * was live): abandoned, or the next FPU instruction -- of any context, once the guard has
   * moved on -- would write s0-s15 into its frame, which may lie in or below its guard. */
  if ((FPCCR & (FPCCR_LSPACT | FPCCR_THREAD)) == (FPCCR_LSPACT | FPCCR_THREAD)) FPCCR &= ~FPCCR_LSPACT;
#endif
  if (cur == &tc__cm_idle || !tc__k.started) TC_PORT_PANIC("stack overflow in the startup/idle context", NULL);
  if (thread_mode && tc__k.isr_nesting != 0)
    TC_PORT_PANIC("stack overflow in a thread inside tc_isr_enter/exit", t->name);

  /* Nothing of the dead context is read again: a trap frame at the top of its stack takes
   * PendSV's save, far above the guard. */
  uint32_t *dead = (uint32_t *)(void *)(t->stack_base + t->stack_size) - DEAD_FRAME_WORDS;
  for (unsigned i = 0; i < DEAD_FRAME_WORDS; i++) dead[i] = 0;
  dead[6] = (uint32_t)(uintptr_t)trap_resumed & ~1u;
  dead[7] = XPSR_THUMB;
  __asm volatile("msr psp, %0" : : "r"(dead) : "memory");
  if (from_pendsv) {
    /* Start PendSV again: it saves the dead context on the trap frame (a basic one: no
     * s16-s31) and loads the next. The IT/ICI bits of an abandoned instruction go. */
    msp[5] = EXC_RETURN_PSP_BASIC;
    msp[6] = (uint32_t)(uintptr_t)PendSV_Handler & ~1u;
    msp[7] = (msp[7] & XPSR_KEEP) | XPSR_THUMB;
  }

  tc__stack_guard_hit(t); /* the hook; the thread ends; PendSV is pended if it was current */
  SCB_CFSR = mmfsr; /* write one to clear (the hook may look at them first) */

  if (!thread_mode) return exc_return; /* back into the handler it preempted */
  /* A mask the thread had raised (BASEPRI above the kernel's level) ends with it, or it would
   * hold PendSV back. */
  __asm volatile("msr basepri, %0" : : "r"(0u) : "memory");
  return EXC_RETURN_PSP_BASIC;
}

/* HardFault or another fault where MemManage could not run: a guard hit is named, then the
 * run stops (the fault report follows if it was none). */
void tc__cm_guard_fatal(uint32_t exc_return)
{
  uint32_t mmfsr = SCB_CFSR & MMFSR_ALL;
  const tc_cm_context *cur = tc__cm_sw.cur;
  if (!guard_hit(cur, mmfsr, exc_return, read_psp(), false)) return;
  /* The startup/idle context runs masked: its overflows always come this way. */
  if (cur == &tc__cm_idle) TC_PORT_PANIC("stack overflow in the startup/idle context", NULL);
  TC_PORT_PANIC("stack overflow where no thread can be stopped (kernel masked)",
                ((const tc_thread *)(const void *)cur)->name);
}

#endif
