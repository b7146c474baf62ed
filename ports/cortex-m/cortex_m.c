/* SPDX-License-Identifier: MIT */
/*
 * Cortex-M port, C part: thread frames, the tick, the start-up/idle context, ending a run.
 * The switch itself is pendsv.S; the board (boards/<name>/) provides the memory map, the
 * number of interrupt lines and tc_cycles(); semihosting.c the console and the exit status.
 *
 * Idle. The context that calls tc_kernel_start() -- main(), in Thread mode on the process
 * stack like every thread -- becomes the idle context: TC_PORT_START loops there, handing the
 * CPU to the chosen thread (tc__switch_commit, then unmask: PendSV saves this context in
 * tc__cm_idle and loads the thread) and waiting for interrupts (WFI) when nothing is ready.
 * When the kernel switches to NULL, PendSV loads tc__cm_idle and the loop continues where it
 * left off. So idle is neither a thread (no control block, no priority, never in the ready
 * set) nor special to PendSV (it is a context like any other), and tc_kernel_start() can
 * return: tc_cm_stop() or the end-of-run rule (TC_CM_IDLE_EXIT) just leave the loop.
 */
#include <string.h>

#include "cm_private.h"
#include "internal.h"
#if TC_TRACE
#include "../common/trace_dump.h"
#endif

#if TC_POWER
_Static_assert(offsetof(tc_cm_switch_state, stamp) == 20, "pendsv.S stores the stamp there");
#endif
#include "tacet/cortex_m.h"

/* System control block, SysTick. */
#define SCB_ICSR      (*(volatile uint32_t *)0xE000ED04u)
#define SCB_SHPR_PENDSV  (*(volatile uint8_t *)0xE000ED22u)
#define SCB_SHPR_SYSTICK (*(volatile uint8_t *)0xE000ED23u)
#define ICSR_PENDSVCLR (1u << 27)
#define ICSR_PENDSTCLR (1u << 25)
#define ICSR_PENDSTSET (1u << 26)
#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define SYST_CSR_ENABLE    (1u << 0)
#define SYST_CSR_TICKINT   (1u << 1)
#define SYST_CSR_CLKSOURCE (1u << 2) /* processor clock */
#define SYST_CSR_HOLD (SYST_CSR_TICKINT | SYST_CSR_CLKSOURCE) /* stopped, set up to run */
#define SYST_CSR_RUN  (SYST_CSR_ENABLE | SYST_CSR_HOLD)
#define SYST_MAX      0x01000000u /* SysTick's counter has 24 bits */

#define XPSR_THUMB     0x01000000u
#define EXC_RETURN_PSP 0xFFFFFFFDu /* Thread mode, process stack, no FP frame */

#if (TC_BOARD_CPU_HZ / TC_TICK_HZ) - 1u > 0x00FFFFFFu || TC_BOARD_CPU_HZ % TC_TICK_HZ != 0
#error "TC_TICK_HZ: SysTick cannot divide the processor clock into this tick exactly"
#endif

/* CMSIS-Core's processor clock (tacet/cortex_m.h): a vendor's system_<device>.c defines its
 * own, and its SystemInit() or SystemCoreClockUpdate() sets it. */
__attribute__((weak)) uint32_t SystemCoreClock = TC_BOARD_CPU_HZ;

/* Processor cycles per tick, from SystemCoreClock when the kernel starts (tc__cm_start), and
 * the most ticks one SysTick period can span (tickless idle). */
static uint32_t period, max_span;

tc_cm_switch_state tc__cm_sw;
/* The external definitions of the inline helpers (tacet_port.h). */
extern inline void tc__cm_switch(struct tc_thread *to);
extern inline unsigned tc__cm_ipsr(void);
extern inline void tc__cm_switch_later(void);
extern inline bool tc__cm_in_unmasked_isr(void);

uint8_t tc__cm_kernel_level;

/* BASEPRI boosts the execution priority to its group priority: the priority without its
 * subpriority bits, the low PRIGROUP + 1. A handler is held back by the kernel's mask when its
 * group priority is not more urgent, that is when its priority is at least the kernel level's
 * group priority (an unimplemented bit reads as 0 in both). NMI and HardFault (2, 3) have
 * fixed priorities above every other. Result: the flags LO when above; no register changed. */
__attribute__((naked)) void tc__cm_unmasked_flags(void)
{
  __asm volatile("push {r0-r3}\n\t"
                 "mrs r0, ipsr\n\t"
                 "cmp r0, #4\n\t"           /* NMI, HardFault: LO already */
                 "blo 2f\n\t"
                 "ldr r1, =0xE000ED0C\n\t"  /* AIRCR */
                 "ldr r1, [r1]\n\t"
                 "ubfx r1, r1, #8, #3\n\t"  /* PRIGROUP */
                 "mvn r2, #1\n\t"
                 "lsl r2, r2, r1\n\t"       /* the group bits */
                 "ldr r1, =tc__cm_kernel_level\n\t"
                 "ldrb r1, [r1]\n\t"
                 "and r2, r2, r1\n\t"       /* the kernel level's group priority */
                 "cmp r0, #16\n\t"
                 "ite hs\n\t"
                 "ldrhs r1, =0xE000E3F0\n\t" /* an external interrupt's: NVIC_IPR[n - 16] */
                 "ldrlo r1, =0xE000ED14\n\t" /* a system handler's: SHPR[n - 4] */
                 "ldrb r1, [r1, r0]\n\t"
                 "cmp r1, r2\n"
                 "2:\tpop {r0-r3}\n\t"
                 "bx lr\n\t"
                 ".ltorg");
}

void tc__cm_switch_idle(void)
{
  tc__cm_sw.next = &tc__cm_idle;
  TC_CM_ICSR = TC_CM_PENDSVSET;
}

/* trampoline.c, linked only into programs that use signals. */
extern void tc__cm_signal_divert(tc_cm_context *ctx) __attribute__((weak));

/* PendSV, when `attention` is set, after it saved the outgoing context and before it loads
 * the next: returns the context to load. A handler that asked for a switch
 * (TC_PORT_SWITCH_LATER) has its last decision committed first, masked as every commit: the
 * kernel's part of the commit, and the port's done here (PendSV is already running, so
 * nothing is pended). Then a context that was live when a handler signalled it, saved now,
 * is diverted through the trampoline, whether it is loaded next or later. */
tc_cm_context *tc__cm_pendsv_attention(void);
tc_cm_context *tc__cm_pendsv_attention(void)
{
  unsigned s = tc__cm_irq_disable();
  tc__cm_sw.attention = 0;
  tc_cm_context *next = tc__cm_sw.next;
  if (tc__cm_sw.commit_later != 0) {
    tc__cm_sw.commit_later = 0;
    tc_thread *from = tc__k.current, *to = tc__k.next;
    /* A thread inside a bracket of its own (tc_isr_enter from Thread mode, as port-neutral
     * tests do) is a handler to the kernel: tc_isr_exit() will dispatch. */
    if (to != from && tc__k.holds == 0 && tc__k.started) {
      tc__commit_state(from, to);
      next = to != NULL ? &to->ctx : &tc__cm_idle;
      tc__cm_sw.next = next;
    }
  }
  tc_cm_context *deliver = tc__cm_sw.deliver;
  if (deliver != NULL) {
    tc__cm_sw.deliver = NULL;
    if (tc__cm_signal_divert != NULL) tc__cm_signal_divert(deliver);
  }
  /* No ISB: PendSV goes on with its own instructions; a kernel interrupt pending meanwhile
   * preempts it wherever it is. */
  __asm volatile("msr basepri, %0" : : "r"(s) : "memory");
  return next;
}
tc_cm_context tc__cm_idle;
static volatile bool tc__cm_stopping;
static int exit_code;

static void systick_stop(void)
{
  SYST_CSR = 0;
  SCB_ICSR = ICSR_PENDSTCLR;
}

void tc__cm_init(void)
{
  systick_stop();
  SCB_ICSR = ICSR_PENDSVCLR;
  SCB_SHPR_PENDSV = 0xFFu;
#if TC_CHECKS
  /* Read back, PendSV's priority shows which bits the core implements, and so the level
   * BASEPRI really masks at: what a handler's priority is compared with (TC_CHECKS only). */
  tc__cm_kernel_level = (uint8_t)(TC_CM_BASEPRI & SCB_SHPR_PENDSV);
  if (tc__cm_kernel_level == 0u)
    TC_PORT_PANIC("TC_CM_BASEPRI masks nothing: the core implements none of its bits", NULL);
#endif
  SCB_SHPR_SYSTICK = (uint8_t)TC_CM_TICK_PRIORITY;
  tc__cm_sw.cur = &tc__cm_idle;
  tc__cm_sw.next = &tc__cm_idle;
  tc__cm_sw.deliver = NULL;
  tc__cm_stopping = false;
  exit_code = 0;
#if TC_TRACE
  extern char __heap_end[];
  tc__trace_dump_start((size_t)(__heap_end - (char *)_sbrk(0))); /* ports/common/trace_dump.c */
#endif
#if TC_MPU_STACK_GUARD
  tc__cm_guard_init(); /* the startup context's guard armed: it is `cur` */
#endif
}

/* The first switch to `t` "returns" from PendSV into tc__thread_run(t) on t's stack, in
 * Thread mode with the kernel unmasked (PendSV only runs when BASEPRI is 0). */
void tc__cm_stack_init(tc_thread *t)
{
  uint32_t *sp = (uint32_t *)(void *)(t->stack_base + t->stack_size); /* 8-byte aligned */
  sp -= 8;                               /* the exception frame */
  sp[0] = (uint32_t)(uintptr_t)t;        /* r0 */
  sp[1] = sp[2] = sp[3] = sp[4] = 0;     /* r1-r3, r12 */
  sp[5] = 0;                             /* lr: tc__thread_run never returns */
  sp[6] = (uint32_t)(uintptr_t)tc__thread_run & ~1u; /* pc (bit 0 is the Thumb bit: in xPSR) */
  sp[7] = XPSR_THUMB;
  sp -= 9;                               /* what PendSV pops: r4-r11, EXC_RETURN */
  memset(sp, 0, 8 * sizeof *sp);
  sp[8] = EXC_RETURN_PSP;
  t->ctx.sp = sp;
  t->ctx.diverted = 0;
#if TC_MPU_STACK_GUARD
  tc__cm_guard_stack_init(t);
#endif
}

/* The tick. SysTick is a kernel interrupt like any device interrupt, at a priority the port
 * sets (TC_CM_TICK_PRIORITY, a kernel priority by a check of the build): no test of the
 * caller's priority, and no bracket (tc__tick_interrupt). */
void SysTick_Handler(void);
void SysTick_Handler(void) { tc__tick_interrupt(); }

/* (Re)start SysTick so that it interrupts in `cycles`, then every period. SysTick loads its
 * counter only from RVR, when it wraps or after CVR is written; waiting for that load before
 * RVR is set to the period keeps a different first period for exactly one period. */
static void systick_restart(uint32_t cycles)
{
  SYST_RVR = (cycles < 2u ? 2u : cycles) - 1u;
  SYST_CVR = 0;
  SYST_CSR = SYST_CSR_RUN;
  while (SYST_CVR == 0) {
  }
  SYST_RVR = period - 1u;
}

/* Nothing to run: let interrupts in until one changes that.
 *
 * With WFI (the default) the core sleeps. PRIMASK closes the window between the decision to
 * sleep (taken masked) and WFI: an interrupt that arrives in between stays pending, wakes WFI
 * (a pending interrupt wakes WFI whatever PRIMASK says) and is taken once idle unmasks.
 *
 * With TC_CM_IDLE_WFI=0 idle spins with interrupts unmasked. Under QEMU -icount a sleeping
 * core executes no instructions, so virtual time has to be advanced by other means: with
 * sleep=on (QEMU's default) it follows the host's clock, so idle time differs from run to
 * run; with sleep=off QEMU jumps to the next timer deadline, deterministically, but QEMU 7.2
 * jumps twice as far as the deadline (a sleep of n cycles lasts 2n). A spinning idle counts
 * instructions like any code: every run of a program is the same sequence of instructions,
 * idle included, at the price of host time spent emulating the idle loop. */
#if TC_CM_IDLE_WFI && TC_CM_TICKLESS

/* Tickless idle. When the next timeout is n >= 2 ticks away, the ticks in between would
 * wake the core only to count: SysTick is reprogrammed to interrupt once, at the n-th tick
 * boundary (at most max_span ticks: its counter has 24 bits), and the ticks slept through are
 * added to the tick count without running (tc__time_skip) -- when the long period ends, or
 * when another interrupt wakes the core earlier, counting the boundaries that passed. Tick
 * boundaries keep their phase, except that SysTick stands still for the few cycles in which
 * it is reprogrammed (stopping it is the only way to load its counter): a tick is late by
 * that much per sleep. */

/* Kernel masked. Returns the ticks the sleep spans (0: not suppressed). */
static uint32_t ticks_suppress(void)
{
  uint32_t span = tc__time_ticks_to_expiry(); /* UINT32_MAX: none pending */
  if (span < 2u) return 0;
  if (span > max_span) span = max_span;
  SYST_CSR = SYST_CSR_HOLD;                         /* stop */
  uint32_t left = SYST_CVR;                         /* to the next boundary */
  if ((SCB_ICSR & ICSR_PENDSTSET) || left == 0) {   /* that boundary has come: no sleep */
    SYST_CSR = SYST_CSR_RUN;
    return 0;
  }
  systick_restart(left + (span - 1u) * period);
  return span;
}

/* Kernel masked, after WFI: count the boundaries passed. */
static void ticks_resume(uint32_t span)
{
  if (SCB_ICSR & ICSR_PENDSTSET) {
    /* The long period ended (SysTick runs on in whole periods): its interrupt, pending,
     * announces the last tick. */
    tc__time_skip(span - 1u);
    return;
  }
  SYST_CSR = SYST_CSR_HOLD;
  uint32_t to_end = SYST_CVR; /* boundaries lie at to_end - k * period, k = 0 .. span-1 */
  uint32_t ahead = to_end == 0 ? 1u : (to_end + period - 1u) / period;
  tc__time_skip(span - ahead);
  systick_restart(to_end == 0 ? 0 : (to_end - 1u) % period + 1u);
}

#elif TC_CM_IDLE_WFI /* (the spinning idle calls neither) */
static inline uint32_t ticks_suppress(void) { return 0; }
static inline void ticks_resume(uint32_t span) { (void)span; }
#endif

static void idle_wait(void)
{
#if TC_CM_IDLE_WFI
  /* Kernel masked (BASEPRI), as the idle loop runs: zero-latency interrupts go on. */
  uint32_t span = ticks_suppress();
  /* PRIMASK only around WFI, which needs BASEPRI 0 to be woken by a kernel interrupt. */
  __asm volatile("cpsid i\n\t"
                 "msr basepri, %0\n\t"
                 "dsb\n\t"
                 "wfi\n\t"
                 "msr basepri, %1\n\t"
                 "cpsie i\n\t"
                 "isb"
                 : : "r"(0u), "r"(TC_CM_BASEPRI) : "memory");
  if (span != 0) ticks_resume(span); /* before any kernel interrupt runs */
#endif
  tc__cm_irq_restore(0); /* pending kernel interrupts are taken here */
  (void)tc__cm_irq_disable();
}

/* The tick period from SystemCoreClock, to the nearest cycle. A clock SysTick cannot divide
 * into TC_TICK_HZ within its 24 bits is a configuration error, as TC_BOARD_CPU_HZ's is at
 * build time. */
static void tick_period_set(void)
{
  uint32_t hz = SystemCoreClock;
  uint32_t p = hz / TC_TICK_HZ + (hz % TC_TICK_HZ >= (TC_TICK_HZ + 1u) / 2u ? 1u : 0u);
  if (p < 2u || p > SYST_MAX)
    TC_PORT_PANIC("SystemCoreClock: SysTick cannot divide it into TC_TICK_HZ ticks", NULL);
  period = p;
  max_span = SYST_MAX / p;
}

int tc__cm_start(void)
{
  tick_period_set();
  systick_restart(period);
  for (;;) {
    if (tc__cm_stopping) break;
    if (tc__k.next != tc__k.current) {
      /* Hand the CPU over: PendSV saves this context and runs the thread; when the kernel
       * switches to idle again we are back here. */
      tc__switch_commit();
      tc__cm_irq_restore(0);
      (void)tc__cm_irq_disable();
    } else if (TC_CM_IDLE_EXIT && tc__time_ticks_to_expiry() == UINT32_MAX) {
      break; /* nothing is ready and nothing will be without an external interrupt */
    } else {
      idle_wait();
    }
  }
  systick_stop();
  SCB_ICSR = ICSR_PENDSVCLR; /* a switch requested after the end would be idle to idle */
  tc__cm_stopping = false;
  return exit_code;
}

void tc__cm_run_end(void)
{
#if TC_TRACE
  tc__trace_dump_end_of_run();
#endif
}

void tc_cm_stop(int code)
{
  TC_ISR_CHECK_VOID("tc_cm_stop");
  unsigned s = tc__cm_irq_disable();
  systick_stop();
  exit_code = code;
  tc__cm_sw.next = &tc__cm_idle;
  TC_CM_ICSR = TC_CM_PENDSVSET;
  tc__cm_stopping = true;
  /* From now on the kernel decides nothing (tc__sched_reschedule, tc__sched_dispatch), so
   * nothing asks PendSV for another context; no thread runs again to ask it directly. */
  tc__k.started = false;
  tc__cm_irq_restore(s);  /* from a thread: PendSV switches to the idle context here */
}

/* SVC numbers other than the port's own #0 (pendsv.S): an application's, if it defines this. */
__attribute__((weak)) void tc_cm_svc(unsigned number, uint32_t *frame)
{
  (void)number;
  (void)frame;
  TC_PORT_PANIC("unexpected SVC", NULL);
}
