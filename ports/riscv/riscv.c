/* SPDX-License-Identifier: MIT */
/*
 * RISC-V port, C part: thread frames, the interrupt dispatch and the end of a trap, the tick
 * (CLINT mtimecmp), the start-up context that idles, signal delivery, ending a run.
 * The switch itself and the trap's entry and exit are switch.S.
 *
 * Idle. As on Cortex-M, the context that calls tc_kernel_start() becomes the idle context:
 * TC_PORT_START loops there, handing the CPU to the chosen thread (tc__switch_commit switches
 * at once: the call returns when the kernel switches to NULL again) and waiting for interrupts
 * (WFI) when nothing is ready. Idle is not a thread (no control block, no priority, never in
 * the ready set), and tc_kernel_start() can return.
 */
#include <string.h>

#include "internal.h"
#include "rv_private.h"
#include "tacet/riscv.h"
#if TC_TRACE
#include "../common/trace_dump.h"
#endif

#if TC_POWER
_Static_assert(offsetof(tc_rv_switch_state, stamp) == 8, "switch.S stores the stamp there");
#endif
tc_rv_switch_state tc__rv_sw;
tc_rv_context tc__rv_idle;
uint8_t tc__rv_irq_number;

/* The external definitions of the inline helpers (tacet_port.h). */
extern inline bool tc__rv_in_trap(void);
extern inline void tc__rv_switch_later(void);
extern inline unsigned tc__rv_irq_disable(void);
extern inline void tc__rv_irq_restore(unsigned s);
extern inline uint64_t tc__rv_cycles(void);
extern inline uint32_t tc__rv_cycles32_down(void);

static volatile bool stopping;
static int exit_code;

/* ---- CLINT: the software interrupt and the timer ------------------------------------------ */

#define CLINT_MSIP     (*(volatile uint32_t *)(TC_BOARD_CLINT + 0x0000u))
#define CLINT_MTIMECMP ((volatile uint32_t *)(TC_BOARD_CLINT + 0x4000u))
#define CLINT_MTIME    ((volatile uint32_t *)(TC_BOARD_CLINT + 0xBFF8u))

#define MIP_MSIP (1u << 3)
#define MIP_MTIP (1u << 7)
#define MIP_MEIP (1u << 11)

/* mtime counts per tick: PERIOD and REM/TC_TICK_HZ. A timer whose rate is not a whole number
 * of ticks (the FE310's 32,768 Hz at 1000 Hz: 32.768 counts) puts each boundary on the count
 * at or below its exact time, the fraction carried from one to the next (`frac`, in units of
 * 1/TC_TICK_HZ count): the periods differ by one count, and n ticks are always n/TC_TICK_HZ
 * seconds to within one count. When the rate divides, REM is 0 and the fraction compiles away. */
#define PERIOD ((uint64_t)TC_BOARD_TIMER_HZ / TC_TICK_HZ)
#define REM    (TC_BOARD_TIMER_HZ % TC_TICK_HZ)

#if TC_BOARD_TIMER_HZ < TC_TICK_HZ
#error "TC_TICK_HZ: faster than the machine timer"
#endif

uint64_t tc_rv_mtime(void)
{
  uint32_t hi, lo;
  do {
    hi = CLINT_MTIME[1];
    lo = CLINT_MTIME[0];
  } while (CLINT_MTIME[1] != hi);
  return (uint64_t)hi << 32 | lo;
}

/* mtimecmp in two 32-bit halves without a moment at which it lies below both the old and the
 * new value (which would raise a spurious interrupt): the high half at its maximum first. */
static void mtimecmp_set(uint64_t at)
{
  CLINT_MTIMECMP[1] = UINT32_MAX;
  CLINT_MTIMECMP[0] = (uint32_t)at;
  CLINT_MTIMECMP[1] = (uint32_t)(at >> 32);
}

static uint64_t next_tick; /* mtime at the coming tick boundary (mtimecmp, unless suppressed) */
#if REM != 0
static uint32_t frac; /* the exact boundary is next_tick + frac / TC_TICK_HZ */
#endif

/* The boundary k ticks after the coming one. */
static inline uint64_t boundary_after(uint32_t k)
{
#if REM != 0
  return next_tick + (frac + (uint64_t)k * TC_BOARD_TIMER_HZ) / TC_TICK_HZ;
#else
  return next_tick + (uint64_t)k * PERIOD;
#endif
}

/* Make the boundary k ticks after the coming one the coming one. */
static inline void boundary_advance(uint32_t k)
{
#if REM != 0
  uint64_t s = frac + (uint64_t)k * TC_BOARD_TIMER_HZ;
  next_tick += s / TC_TICK_HZ;
  frac = (uint32_t)(s % TC_TICK_HZ);
#else
  next_tick += (uint64_t)k * PERIOD;
#endif
}

static void tick_stop(void)
{
  mtimecmp_set(UINT64_MAX);
}

void tc_rv_software_interrupt(void)
{
  CLINT_MSIP = 1u;
  /* Taken before the next instruction when nothing masks it. */
  __asm volatile("fence" ::: "memory");
}

/* ---- the PLIC ----------------------------------------------------------------------------- */

#define PLIC_PRIORITY  ((volatile uint32_t *)(TC_BOARD_PLIC + 0x000000u))
#define PLIC_ENABLE    ((volatile uint32_t *)(TC_BOARD_PLIC + 0x002000u)) /* context 0: hart 0, M */
#define PLIC_THRESHOLD (*(volatile uint32_t *)(TC_BOARD_PLIC + 0x200000u))
#define PLIC_CLAIM     (*(volatile uint32_t *)(TC_BOARD_PLIC + 0x200004u))

void tc_rv_irq_enable(unsigned source, unsigned priority)
{
  PLIC_PRIORITY[source] = priority;
  PLIC_ENABLE[source / 32u] |= 1u << (source % 32u);
}

void tc_rv_irq_disable(unsigned source) { PLIC_ENABLE[source / 32u] &= ~(1u << (source % 32u)); }

/* ---- interrupts --------------------------------------------------------------------------- */

__attribute__((weak)) void tc_rv_software_handler(void)
{
  TC_PORT_PANIC("machine software interrupt without a handler (define tc_rv_software_handler)", NULL);
}

__attribute__((weak)) void tc_rv_external_handler(unsigned source)
{
  (void)source;
  TC_PORT_PANIC("device interrupt without a handler (define tc_rv_external_handler)", NULL);
}

/* The tick: a kernel interrupt like any other, whose bracket needs no check of the caller
 * (tc__isr_enter: every handler here is masked by the kernel). The next boundary is one period
 * after the last, whatever the delay in taking this one: a tick held back longer than a period
 * is followed at once by the next, so none is lost and their phase never drifts. */
static void tick(void)
{
  next_tick += PERIOD;
#if REM != 0
  /* One tick's advance without the division of boundary_advance(1). */
  frac += REM;
  if (frac >= TC_TICK_HZ) {
    frac -= TC_TICK_HZ;
    next_tick++;
  }
#endif
  mtimecmp_set(next_tick);
  tc__isr_enter();
  tc__tick_announce();
  tc__isr_exit();
}

/* From the trap (switch.S), on the interrupt stack, masked: every interrupt pending and enabled,
 * one after the other -- device interrupts first, then the tick, then the software interrupt --
 * until none is left, so that a decision is committed once, when they are all done. */
void tc__rv_interrupt(void);
void tc__rv_interrupt(void)
{
  for (;;) {
    uint32_t pending, enabled;
    __asm volatile("csrr %0, mip" : "=r"(pending));
    __asm volatile("csrr %0, mie" : "=r"(enabled));
    pending &= enabled;
    if (pending & MIP_MEIP) {
      uint32_t source = PLIC_CLAIM;
      if (source != 0) {
        tc__rv_irq_number = (uint8_t)(TC_RV_IRQ_EXTERNAL + source);
        tc_rv_external_handler(source);
        PLIC_CLAIM = source; /* complete */
      }
    } else if (pending & MIP_MTIP) {
      tc__rv_irq_number = TC_RV_IRQ_TIMER;
      tick();
    } else if (pending & MIP_MSIP) {
      CLINT_MSIP = 0u;
      tc__rv_irq_number = TC_RV_IRQ_SOFTWARE;
      tc_rv_software_handler();
    } else {
      break;
    }
  }
  tc__rv_irq_number = 0;
}

/* ---- the end of a trap -------------------------------------------------------------------- */

/* A context saved by a switch with signals pending is diverted: its switch frame moves 16
 * bytes down, the return address it had goes into the gap, and its frame returns into the
 * trampoline (switch.S), which runs the handlers in the context and then returns where the
 * switch would have. Masked; not for the context the CPU holds (tc__rv_sw.cur). */
static void signal_divert(tc_rv_context *ctx)
{
  if (ctx == &tc__rv_idle || ctx->diverted) return;
  tc_thread *t = (tc_thread *)(void *)ctx;
  if (t->signals == 0) return;
  uint32_t *sp = ctx->sp;
  size_t frame = 16u;
#if defined(__riscv_flen)
  if (ctx->fp) frame += 16u; /* fs0-fs11, fcsr below the integer part */
#endif
  uint32_t *nsp = sp - 4;
  memmove(nsp, sp, frame * sizeof *sp);
  uint32_t *ra = nsp + frame - 16u; /* the integer part: ra first */
  nsp[frame] = *ra;                 /* the gap: where the trampoline finds it */
  *ra = (uint32_t)(uintptr_t)tc__rv_signal_trampoline;
  ctx->sp = nsp;
  ctx->diverted = 1u;
}

/* Masked, from tc_signal_send(), for a thread other than the sender. */
void tc__rv_signal_pending(tc_thread *t)
{
  if (&t->ctx != tc__rv_sw.cur) {
    signal_divert(&t->ctx);
    return;
  }
  /* The thread a handler interrupted: the trap's end delivers (tc__rv_trap_tail). */
  tc__rv_sw.attention = 1u;
}

/* The trampoline's C part, in the diverted context, masked. */
void tc__rv_signal_run(void);
void tc__rv_signal_run(void)
{
  ((tc_rv_context *)(void *)tc__k.current)->diverted = 0u;
  tc__unlock(TC_RV_MSTATUS_MIE);
  tc__signal_deliver();
  (void)tc__lock();
}

/* In the context the trap returns to, masked: its pending signals, as the thread itself. */
static void deliver_signals(void)
{
  tc_thread *t = tc__k.current;
  if (t == NULL || t->signals == 0 || tc__k.isr_nesting != 0) return;
  tc__unlock(TC_RV_MSTATUS_MIE);
  tc__signal_deliver();
  (void)tc__lock();
}

/* From the trap's exit (switch.S) when a handler set `attention`: on the interrupted context's
 * stack, masked, out of the trap (mscratch cleared). The kernel's last decision is committed,
 * as every commit, masked; then the switch, which returns when the interrupted context runs
 * again -- the trap's exit then restores it. */
void tc__rv_trap_tail(void);
void tc__rv_trap_tail(void)
{
  tc__rv_sw.attention = 0;
  if (stopping) {
    /* To the idle context, which ends the run: an interrupted thread never resumes; an
     * interrupted idle context comes straight back and goes on to its loop's end. */
    tc__rv_switch(NULL);
    return;
  }
  tc_thread *from = tc__k.current, *to = tc__k.next;
  /* A thread inside a bracket of its own (tc_isr_enter from a thread, as port-neutral tests
   * do) is a handler to the kernel: its tc_isr_exit() dispatches. */
  if (to != from && tc__k.holds == 0 && tc__k.started) {
    tc__commit_state(from, to);
    tc__rv_switch(to);
  }
  deliver_signals();
}

/* ---- thread frames, start, idle, stop ----------------------------------------------------- */

void tc__rv_init(void)
{
  tick_stop();
  CLINT_MSIP = 0u;
  PLIC_THRESHOLD = 0u;
  tc__rv_sw.cur = &tc__rv_idle;
  tc__rv_sw.attention = 0;
  tc__rv_idle.diverted = 0;
  stopping = false;
  exit_code = 0;
  uint32_t enable = MIP_MSIP | MIP_MTIP | MIP_MEIP;
  __asm volatile("csrs mie, %0" : : "r"(enable));
#if TC_TRACE
  extern char __heap_end[];
  tc__trace_dump_start((size_t)(__heap_end - (char *)sbrk(0))); /* ports/common/trace_dump.c */
#endif
}

/* The first switch to `t` returns into tc__rv_thread_start with s0 = t, on t's stack. */
void tc__rv_stack_init(tc_thread *t)
{
  uint32_t *sp = (uint32_t *)(void *)(t->stack_base + t->stack_size); /* 16-byte aligned */
  sp -= 16;                         /* a switch frame: ra, s0-s11, spare */
  memset(sp, 0, 16 * sizeof *sp);
  sp[0] = (uint32_t)(uintptr_t)tc__rv_thread_start;
  sp[1] = (uint32_t)(uintptr_t)t;   /* s0 */
  t->ctx.sp = sp;
  t->ctx.diverted = 0;
#if defined(__riscv_flen)
  t->ctx.fp = 0;
#endif
}

/* Tickless idle. When the next timeout is n >= 2 ticks away, the ticks in between would wake
 * the hart only to count: mtimecmp is set to the n-th boundary instead, and the ticks slept
 * through are added to the tick count without running (tc__time_skip) -- when that interrupt
 * comes, or when another wakes the hart earlier, counting the boundaries that passed. mtime
 * runs on meanwhile, 64 bits wide: boundaries keep their phase exactly and a sleep has no
 * length limit but the 2^32 ticks of the count. */
#if TC_RV_IDLE_WFI && TC_RV_TICKLESS
/* Masked. Returns the ticks the sleep spans (0: not suppressed). */
static uint32_t ticks_suppress(void)
{
  uint32_t span = tc__time_ticks_to_expiry(); /* UINT32_MAX: none pending */
  if (span < 2u || tc_rv_mtime() >= next_tick) return 0; /* that boundary has come */
  mtimecmp_set(boundary_after(span - 1u));
  return span;
}

/* Masked, after WFI: count the boundaries passed. */
static void ticks_resume(uint32_t span)
{
  uint64_t end = boundary_after(span - 1u);
  uint64_t now = tc_rv_mtime();
  uint32_t passed = span - 1u; /* the last, at `end`, is the pending interrupt's to announce */
  if (now < end && now < next_tick) {
    passed = 0;
  } else if (now < end) {
#if REM != 0
    /* The boundaries k >= 0 at or before now: next_tick + (frac + k * HZ) / TICK <= now, that
     * is k < ((now - next_tick + 1) * TICK - frac) / HZ, rounded up. */
    uint64_t x = (now - next_tick + 1u) * TC_TICK_HZ - frac;
    passed = (uint32_t)((x + TC_BOARD_TIMER_HZ - 1u) / TC_BOARD_TIMER_HZ);
#else
    passed = (uint32_t)((now - next_tick) / PERIOD) + 1u;
#endif
  }
  tc__time_skip(passed);
  boundary_advance(passed);
  mtimecmp_set(next_tick);
}
#elif TC_RV_IDLE_WFI
static inline uint32_t ticks_suppress(void) { return 0; }
static inline void ticks_resume(uint32_t span) { (void)span; }
#endif

/* Nothing to run: let interrupts in until one changes that. WFI wakes the hart for an
 * interrupt that is pending and enabled in mie whatever mstatus.MIE says, so the decision to
 * sleep and the sleep itself both run masked, with no window in which an interrupt could come
 * and go unseen; the interrupt is taken when idle unmasks. With TC_RV_IDLE_WFI=0 idle spins
 * unmasked instead: under QEMU -icount, where a sleeping hart executes no instructions, that
 * makes idle time exactly reproducible. */
static void idle_wait(void)
{
#if TC_RV_IDLE_WFI
  uint32_t span = ticks_suppress();
  __asm volatile("wfi" ::: "memory");
  if (span != 0) ticks_resume(span); /* before the tick's handler runs */
#endif
  /* What is pending is taken here. The kernel's own unlock and lock: with TC_IRQ_OFF_MEASURE
   * a masked stretch ends here, not at the unlock of the thread that runs next -- which the
   * switch reaches inside the critical section in which it blocked, before idle began. */
  tc__unlock(TC_RV_MSTATUS_MIE);
  (void)tc__lock();
}

int tc__rv_start(void)
{
  next_tick = tc_rv_mtime() + PERIOD;
#if REM != 0
  frac = REM;
#endif
  mtimecmp_set(next_tick);
  for (;;) {
    if (stopping) break;
    if (tc__k.next != tc__k.current) {
      tc__switch_commit(); /* returns when the kernel switches to idle again */
    } else if (TC_RV_IDLE_EXIT && tc__time_ticks_to_expiry() == UINT32_MAX) {
      break; /* nothing is ready and nothing will be without an external interrupt */
    } else {
      idle_wait();
    }
  }
  tick_stop();
  CLINT_MSIP = 0u;
  tc__rv_sw.attention = 0;
  stopping = false;
  return exit_code;
}

void tc__rv_run_end(void)
{
#if TC_TRACE
  tc__trace_dump_end_of_run();
#endif
}

void tc_rv_stop(int code)
{
  TC_ISR_CHECK_VOID("tc_rv_stop");
  unsigned s = tc__rv_irq_disable();
  tick_stop();
  exit_code = code;
  stopping = true;
  /* From now on the kernel decides nothing (tc__sched_reschedule, tc__sched_dispatch). */
  tc__k.started = false;
  if (tc__rv_in_trap()) {
    tc__rv_sw.attention = 1u; /* the trap's end goes to the idle context */
  } else if (tc__rv_sw.cur != &tc__rv_idle) {
    tc__rv_switch(NULL); /* a thread: it never resumes */
  }
  tc__rv_irq_restore(s);
}
