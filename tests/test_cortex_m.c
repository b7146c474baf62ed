/* SPDX-License-Identifier: MIT */
/*
 * Cortex-M port tests (QEMU mps2-an385 / mps2-an386): what only this port does. Real NVIC
 * interrupts enter the kernel, nest, and cause one switch at the outermost exit (PendSV
 * tail-chains); BASEPRI leaves zero-latency interrupts unmasked; a device interrupt (CMSDK
 * timer 1) preempts a busy thread, and activates an HISR that runs before any thread;
 * switch requests made while masked collapse into the last one; the FPU registers of every
 * thread survive switches and interrupts that use the FPU, and only threads that used it pay
 * for s16-s31; tc_cycles() is monotonic across the timer's wrap; ten ticks are ten SysTick
 * periods, of SystemCoreClock / TC_TICK_HZ cycles when a vendor's code changed the clock
 * before the start; a run can end from an interrupt; a handler above the kernel's mask -- nested in a
 * kernel handler, inside a critical section, a system handler, NMI, a device left at priority
 * 0, under priority grouping -- is refused every service; main() receives the host's command
 * line, and stdio reads host files through semihosting.
 *
 * Inside the sections these tests mask themselves, events are recorded with tct_mark() (a store)
 * rather than tct_log() (a vsnprintf): the interrupt-latency build measures those sections.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tacet/cortex_m.h"
#include "tct.h"

/* Software-triggered interrupts on lines nothing drives under QEMU (GPIO 0 pins 5 to 7). */
#define IRQ_ZERO_LATENCY 29u /* PORT0_5_Handler, priority 0x00: above TC_CM_BASEPRI, never masked */
#define IRQ_LOW          30u /* PORT0_6_Handler, kernel priority 0xC0 */
#define IRQ_HIGH         31u /* PORT0_7_Handler, kernel priority 0x80: preempts IRQ_LOW */

#define SCB_ICSR        (*(volatile uint32_t *)0xE000ED04u)
#define ICSR_PENDSVSET  (1u << 28)

static tc_thread th[6];
#define L (&th[0])
#define M (&th[1])
#define H (&th[2])

static void (*volatile on_low)(void);
static void (*volatile on_high)(void);
static void (*volatile on_zero_latency)(void);

void PORT0_5_Handler(void) { on_zero_latency(); }
void PORT0_6_Handler(void) { on_low(); }
void PORT0_7_Handler(void) { on_high(); }

static void irqs_setup(void)
{
  tc_cm_irq_priority(IRQ_ZERO_LATENCY, 0x00);
  tc_cm_irq_priority(IRQ_LOW, 0xC0);
  tc_cm_irq_priority(IRQ_HIGH, 0x80);
  tc_cm_irq_enable(IRQ_ZERO_LATENCY);
  tc_cm_irq_enable(IRQ_LOW);
  tc_cm_irq_enable(IRQ_HIGH);
}

static void irqs_off(void)
{
  tc_cm_irq_disable(IRQ_ZERO_LATENCY);
  tc_cm_irq_disable(IRQ_LOW);
  tc_cm_irq_disable(IRQ_HIGH);
}

static void make(tc_thread *t, const char *name, void (*fn)(void *), unsigned prio, unsigned options)
{
  OK(tc_thread_create(t, name, fn, NULL, TCT_STACK((unsigned)(t - th)), prio, prio, 0, options));
}

static void log_self(void *arg)
{
  (void)arg;
  tct_log("%s", tc_thread_self()->name);
}

/* ---- nesting: one switch, at the outermost exit, by PendSV -------------------------------- */

static void nested_high(void)
{
  tc_isr_enter();
  tct_log("high");
  CHECK(tc_thread_self() == NULL);
  OK(tc_thread_resume(H)); /* H is chosen, but we are nested: no switch yet */
  tc_isr_exit();
  CHECK_EQ(SCB_ICSR & ICSR_PENDSVSET, 0);
}

static void nested_low(void)
{
  tc_isr_enter();
  tct_log("low-in");
  tc_cm_irq_trigger(IRQ_HIGH); /* more urgent: taken at once, nested */
  tct_log("low-out");
  tc_isr_exit(); /* outermost: the switch to H is requested here ... */
  if (SCB_ICSR & ICSR_PENDSVSET) tct_log("pendsv"); /* ... and made after we return */
}

static void nesting_thread(void *arg)
{
  (void)arg;
  tct_log("L");
  tc_cm_irq_trigger(IRQ_LOW);
  tct_log("L-again");
}

static void nested_interrupts_switch_once_at_outermost_exit(void)
{
  tct_begin();
  on_low = nested_low;
  on_high = nested_high;
  irqs_setup();
  make(L, "L", nesting_thread, 10, TC_AUTO_START);
  make(H, "H", log_self, 5, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  irqs_off();
  STEP();
  CHECK_LOG("L low-in high low-out pendsv H L-again");
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK_EQ(k.interrupts, 2);
  CHECK_EQ(k.preemptions, 1);
  tc_thread_info_t i;
  OK(tc_thread_info(L, &i));
  CHECK_EQ(i.preempted, 1);
}

/* ---- BASEPRI: zero-latency interrupts run inside the kernel's critical sections --------- */

static void zero_latency(void) { tct_mark('z'); }

static void kernel_irq(void)
{
  tc_isr_enter();
  tct_mark('k');
  tc_isr_exit();
}

static void masking_thread(void *arg)
{
  (void)arg;
  unsigned s = tc_interrupt_disable();
  CHECK_EQ(s, 0); /* BASEPRI was 0: nothing masked */
  unsigned nested = tc_interrupt_disable();
  CHECK_EQ(nested, TC_CM_BASEPRI);
  tc_cm_irq_trigger(IRQ_LOW);          /* a kernel interrupt: held */
  tc_cm_irq_trigger(IRQ_ZERO_LATENCY); /* above the kernel's level: runs now */
  tct_mark('m');
  tc_interrupt_restore(nested);
  tct_mark('m');
  tc_interrupt_restore(s); /* the held interrupt runs here */
  tct_mark('u');
  tct_log_marks();
}

static void basepri_leaves_zero_latency_interrupts_unmasked(void)
{
  tct_begin();
  on_low = kernel_irq;
  on_zero_latency = zero_latency;
  irqs_setup();
  make(L, "L", masking_thread, 10, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  irqs_off();
  STEP();
  /* z: zero-latency handler, m: still masked, k: kernel handler, u: unmasked */
  CHECK_LOG("zmmku");
}

/* ---- several switches requested while masked: the last one counts ------------------------ */

static void collapse_thread(void *arg)
{
  (void)arg;
  unsigned s = tc_interrupt_disable();
  CHECK_EQ(tc_thread_resume(H), TC_OK);  /* the kernel switches to H: PendSV pended, masked */
  CHECK_EQ(tc_thread_suspend(H), TC_OK); /* ... and back to L before PendSV ran */
  tct_mark('m');
  tc_interrupt_restore(s); /* PendSV switches L to L */
  tct_mark('c');
  tct_log_marks();
  STEP();
}

static void last_switch_request_wins(void)
{
  tct_begin();
  make(L, "L", collapse_thread, 10, TC_AUTO_START);
  make(H, "H", log_self, 5, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  STEP();
  CHECK_LOG("mc"); /* masked, continued: H (which would log "H") never ran */
  tc_thread_info_t i;
  OK(tc_thread_info(H, &i));
  CHECK_EQ(i.state, TC_SUSPENDED);
}

/* ---- a device interrupt (CMSDK timer 1) preempts a busy thread --------------------------- */

#define TIMER1_PERIOD 25000u /* cycles: 1 ms */
#define WAKEUPS       10u

static volatile unsigned timer_irqs, timer_resumes, h_runs;
static volatile float isr_float;

static void (*volatile on_timer1)(void);

void TIMER1_Handler(void)
{
  if (on_timer1 != NULL) {
    on_timer1();
    return;
  }
  TC_MPS2_TIMER1->intstatus = 1u;
  tc_isr_enter();
  timer_irqs++;
  isr_float = isr_float * 0.5f + 1.0f; /* an interrupt that uses the FPU (M4F: lazily stacked) */
  if (tc_thread_resume(H) == TC_OK) timer_resumes++; /* H may still be running: not suspended */
  tc_isr_exit();
}

static void timer1_start(void)
{
  TC_MPS2_TIMER1->ctrl = 0;
  TC_MPS2_TIMER1->intstatus = 1u;
  TC_MPS2_TIMER1->reload = TIMER1_PERIOD - 1u;
  TC_MPS2_TIMER1->ctrl = 1u | 8u;
  tc_cm_irq_priority(TC_MPS2_TIMER1_IRQ, 0xA0);
  tc_cm_irq_enable(TC_MPS2_TIMER1_IRQ);
}

static void timer1_stop(void)
{
  TC_MPS2_TIMER1->ctrl = 0;
  tc_cm_irq_disable(TC_MPS2_TIMER1_IRQ);
  TC_MPS2_TIMER1->intstatus = 1u;
  tc_cm_irq_clear_pending(TC_MPS2_TIMER1_IRQ);
}

static void woken(void *arg)
{
  (void)arg;
  for (;;) {
    if (++h_runs == WAKEUPS) timer1_stop();
    CHECK_EQ(tc_thread_suspend(tc_thread_self()), TC_OK);
  }
}

static void busy(void *arg)
{
  (void)arg;
  while (h_runs < WAKEUPS) tct_work(1000);
}

static void device_interrupt_preempts_busy_thread(void)
{
  tct_begin();
  timer_irqs = timer_resumes = h_runs = 0;
  make(L, "busy", busy, 10, TC_AUTO_START);
  make(H, "woken", woken, 3, 0);
  timer1_start();
  CHECK_EQ(tct_run_kernel(), 0);
  timer1_stop();
  STEP();
  CHECK_EQ(h_runs, WAKEUPS);
  CHECK_EQ(timer_resumes, WAKEUPS);
  CHECK_EQ(timer_irqs, WAKEUPS); /* H is short: it always suspended itself before the next one */
  tc_thread_info_t i;
  OK(tc_thread_info(L, &i));
  CHECK_EQ(i.preempted, WAKEUPS);
  OK(tc_thread_info(H, &i));
  CHECK_EQ(i.switches_in, WAKEUPS);
}

/* ---- an HISR activated from a device interrupt ----------------------------------------- */

static tc_hisr hisr;
static uint8_t hisr_stack[1024] __attribute__((aligned(8)));

static void timer1_lisr(void)
{
  TC_MPS2_TIMER1->ctrl = 0; /* one-shot */
  TC_MPS2_TIMER1->intstatus = 1u;
  tc_isr_enter();
  tct_log("lisr");
  OK(tc_hisr_activate(&hisr));
  tc_isr_exit(); /* the HISR runs after this handler, before any thread */
}

static void hisr_fn(void)
{
  tct_log("hisr");
  CHECK(tc_thread_self() == NULL);
  OK(tc_thread_resume(H)); /* runs once the HISR is done */
  tct_log("hisr-end");
}

static void hisr_busy(void *arg)
{
  (void)arg;
  tct_log("busy");
  while (h_runs == 0) tct_work(1000);
  tct_log("busy-end");
}

static void hisr_woken(void *arg)
{
  (void)arg;
  tct_log("H");
  h_runs++;
}

static void hisr_from_a_device_interrupt(void)
{
  tct_begin();
  h_runs = 0;
  on_timer1 = timer1_lisr;
  OK(tc_hisr_create(&hisr, "hisr", hisr_fn, 1, hisr_stack, sizeof hisr_stack));
  make(L, "busy", hisr_busy, 10, TC_AUTO_START);
  make(H, "H", hisr_woken, 3, 0);
  timer1_start();
  CHECK_EQ(tct_run_kernel(), 0);
  timer1_stop();
  on_timer1 = NULL;
  STEP();
  CHECK_LOG("busy lisr hisr hisr-end H busy-end");
}

/* ---- the FPU context ---------------------------------------------------------------------- */

#if defined(__ARM_FP)

#define FP_REGS(X)                                                                          \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) \
  X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)
#define FP_FILL(n)  "vmov s" #n ", %[x]\n\tadds %[x], %[x], #1\n\t"
#define FP_CHECK(n) "vmov %[y], s" #n "\n\tcmp %[y], %[x]\n\tit ne\n\taddne %[bad], %[bad], #1\n\tadds %[x], %[x], #1\n\t"
#define FP_CLOBBER(n) "s" #n,

/* Fill s0-s31 with base, base+1 ..., spin `turns` (preemptible: ticks, timer interrupts,
 * higher-priority threads), then count the registers that changed. Only a switch that saves
 * and restores all 32 registers (s0-s15 by the hardware, s16-s31 by PendSV) passes. */
static unsigned fp_fill_spin_check(uint32_t base, uint32_t turns)
{
  uint32_t x = base, y = 0, bad = 0;
  __asm volatile(FP_REGS(FP_FILL)
                 "1: subs %[n], %[n], #1\n\t"
                 "bne 1b\n\t"
                 "mov %[x], %[base]\n\t"
                 FP_REGS(FP_CHECK)
                 : [x] "+&r"(x), [y] "+&r"(y), [bad] "+&r"(bad), [n] "+&r"(turns)
                 : [base] "r"(base)
                 : FP_REGS(FP_CLOBBER) "cc");
  return bad;
}

static volatile unsigned fp_bad[3];

static void fp_spinner(void *arg)
{
  uintptr_t id = (uintptr_t)arg;
  /* 3 ticks of 2-instruction turns: fp0 and fp1 are time-sliced (1 tick) in the middle. */
  uint32_t turns = (uint32_t)tc_cm_cycles_to_instructions(3u * (tc_cycles_hz() / TC_TICK_HZ)) / 2u;
  fp_bad[id] = fp_fill_spin_check(0x3F800000u + 0x100u * (uint32_t)id, turns);
}

static void fp_sleeper(void *arg)
{
  (void)arg;
  for (int i = 0; i < 6; i++) {
    fp_bad[2] += fp_fill_spin_check(0x40400000u + (uint32_t)i, 10);
    OK(tc_thread_sleep(1));
  }
}

static void no_fp_sleeper(void *arg)
{
  (void)arg;
  for (int i = 0; i < 3; i++) OK(tc_thread_sleep(1));
}

/* EXC_RETURN that PendSV saved with a thread's context (r4-r11, then EXC_RETURN). */
static uint32_t saved_exc_return(const tc_thread *t) { return ((const uint32_t *)t->ctx.sp)[8]; }

static void fpu_registers_survive_switches_and_interrupts(void)
{
  tct_begin();
  fp_bad[0] = fp_bad[1] = fp_bad[2] = 99;
  fp_bad[2] = 0;
  timer_irqs = timer_resumes = h_runs = 0;
  OK(tc_thread_create(&th[0], "fp0", fp_spinner, (void *)0, TCT_STACK(0), 10, 10, 1, TC_AUTO_START));
  OK(tc_thread_create(&th[1], "fp1", fp_spinner, (void *)1, TCT_STACK(1), 10, 10, 1, TC_AUTO_START));
  OK(tc_thread_create(&th[2], "woken", woken, NULL, TCT_STACK(2), 3, 3, 0, 0));
  OK(tc_thread_create(&th[3], "fpsleep", fp_sleeper, NULL, TCT_STACK(3), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(&th[4], "nofp", no_fp_sleeper, NULL, TCT_STACK(4), 6, 6, 0, TC_AUTO_START));
  timer1_start(); /* its handler uses the FPU */
  CHECK_EQ(tct_run_kernel(), 0);
  timer1_stop();
  STEP();
  CHECK_EQ(fp_bad[0], 0);
  CHECK_EQ(fp_bad[1], 0);
  CHECK_EQ(fp_bad[2], 0);
  CHECK_EQ(h_runs, WAKEUPS);
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK(k.time_slices > 0); /* fp0 and fp1 took turns with the registers loaded */
  /* A thread that used the FPU was saved with the extended frame (EXC_RETURN bit 4 clear),
   * one that never did with the basic frame: it paid for no FPU register. */
  CHECK_EQ(saved_exc_return(&th[3]) & 0x10u, 0);
  CHECK_EQ(saved_exc_return(&th[4]), 0xFFFFFFFDu);
}

#else

static void fpu_registers_survive_switches_and_interrupts(void)
{
  /* Cortex-M3: no FPU; PendSV saves no FPU register (EXC_RETURN is always 0xFFFFFFFD). */
}

#endif

/* ---- signals: the PendSV trampoline ------------------------------------------------------ */

/* A thread is interrupted with known values in its registers; the interrupt handler signals
 * it; PendSV diverts its return through the trampoline, the signal handler runs as the thread
 * and clobbers what a C function may, and SVC returns into the interrupted frame: every
 * register and the flags must be as they were. */
static volatile uint32_t reg_bad, reg_apsr;
static volatile unsigned sig_irqs, sig_handled;
static volatile bool handler_sleeps, handler_retriggers, isr_resumes_h;

static void signal_l_from_isr(void)
{
  tc_isr_enter();
  tct_mark('i');
  sig_irqs++;
  OK(tc_signal_send(L, 1u << sig_irqs));
  /* Also a switch away from L: PendSV saves L, runs H, and L's handler runs when L is next
   * switched to. */
  if (isr_resumes_h && sig_irqs == 1) OK(tc_thread_resume(H));
  tc_isr_exit();
}

static void mark_h(void *arg)
{
  (void)arg;
  tct_mark('H');
}

#if defined(__ARM_FP)
#define SIG_FP_CLOBBER()                                                                       \
  __asm volatile(FP_REGS(FP_FILL) : [x] "+&r"(junk) : : FP_REGS(FP_CLOBBER) "memory")
#else
#define SIG_FP_CLOBBER() ((void)junk)
#endif

static void interrupted_handler(uint32_t signals)
{
  uint32_t junk = 0x7F800001u; /* FPU (M4F): a signalling NaN in every register */
  tct_mark('h');
  sig_handled |= signals;
  CHECK(tc_thread_self() == L);
  SIG_FP_CLOBBER();
  if (handler_retriggers && sig_irqs == 1) {
    tc_cm_irq_trigger(IRQ_LOW); /* a second signal while this one runs: after it, not nested */
    tct_mark('r');
  }
  if (handler_sleeps) OK(tc_thread_sleep(1)); /* the thread blocks inside its handler */
}

/* r2-r6, r8-r12, lr and the flags (N set by the compare) hold known values when the
 * software-triggered interrupt is taken after the ISB. */
static void interrupted_with_known_registers(void)
{
  __asm volatile("movw r0, #0xEF00\n\t"
                 "movt r0, #0xE000\n\t" /* NVIC STIR */
                 "mov r1, %[irq]\n\t"
                 "mov r2, #0x22\n\t"
                 "mov r3, #0x33\n\t"
                 "mov r4, #0x44\n\t"
                 "mov r5, #0x55\n\t"
                 "mov r6, #0x66\n\t"
                 "mov r8, #0x88\n\t"
                 "mov r9, #0x99\n\t"
                 "mov r10, #0xAA\n\t"
                 "mov r11, #0xBB\n\t"
                 "mov r12, #0xCC\n\t"
                 "mov lr, #0xEE\n\t"
                 "cmp r2, r3\n\t" /* N=1 Z=0 C=0 V=0 */
                 "str r1, [r0]\n\t"
                 "dsb\n\t"
                 "isb\n\t" /* the interrupt, the signal handler, then on */
                 "mrs r0, apsr\n\t"
                 "mov r1, #0\n\t"
#define REG_CHECK(r, v) "cmp " #r ", #" #v "\n\tit ne\n\taddne r1, r1, #1\n\t"
                 REG_CHECK(r2, 0x22) REG_CHECK(r3, 0x33) REG_CHECK(r4, 0x44) REG_CHECK(r5, 0x55)
                 REG_CHECK(r6, 0x66) REG_CHECK(r8, 0x88) REG_CHECK(r9, 0x99) REG_CHECK(r10, 0xAA)
                 REG_CHECK(r11, 0xBB) REG_CHECK(r12, 0xCC) REG_CHECK(lr, 0xEE)
#undef REG_CHECK
                 "movw r2, #:lower16:reg_bad\n\t"
                 "movt r2, #:upper16:reg_bad\n\t"
                 "str r1, [r2]\n\t"
                 "movw r2, #:lower16:reg_apsr\n\t"
                 "movt r2, #:upper16:reg_apsr\n\t"
                 "str r0, [r2]"
                 :
                 : [irq] "i"(IRQ_LOW)
                 : "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r8", "r9", "r10", "r11", "r12", "lr",
                   "cc", "memory");
}

static void interrupted_thread(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(L, interrupted_handler));
  interrupted_with_known_registers();
  tct_mark('l');
  tct_log_marks();
}

static void run_interrupted(bool sleeps, bool retriggers, bool preempts, const char *want_marks)
{
  tct_begin();
  reg_bad = 99;
  reg_apsr = 0;
  sig_irqs = sig_handled = 0;
  handler_sleeps = sleeps;
  handler_retriggers = retriggers;
  isr_resumes_h = preempts;
  on_low = signal_l_from_isr;
  irqs_setup();
  make(L, "L", interrupted_thread, 10, TC_AUTO_START);
  make(H, "H", mark_h, 5, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  irqs_off();
  STEP();
  CHECK_LOG(want_marks);
  CHECK_EQ(reg_bad, 0);
  CHECK_EQ(reg_apsr & 0xF8000000u, 0x80000000u);
  CHECK_EQ(sig_handled, retriggers ? 0x6u : 0x2u);
  CHECK_EQ(tc_signal_pending(L), 0);
  CHECK_EQ(L->ctx.diverted, 0);
}

static void signal_from_an_interrupt_runs_before_the_thread_goes_on(void)
{
  run_interrupted(false, false, false, "ihl"); /* interrupt, handler, the thread */
}

static void signal_from_an_interrupt_that_switches_away_runs_when_the_thread_resumes(void)
{
  run_interrupted(false, false, true, "iHhl"); /* interrupt, H, then L's handler, then L */
}

static void signal_handler_that_blocks_returns_into_the_interrupted_frame(void)
{
  run_interrupted(true, false, false, "ihl");
}

static void signal_during_the_handler_runs_after_it(void)
{
  /* interrupt, handler 1 (whose interrupt sends 2: a nested diversion that finds the handler
   * running and returns at once), handler 2, the thread */
  run_interrupted(false, true, false, "ihirhl");
}

#if defined(__ARM_FP)

/* The same with the FPU: s0-s31 are loaded, the interrupt's signal handler overwrites all of
 * them (the compiler saves s16-s31 around it, the SVC return restores s0-s15 and FPSCR). */
static unsigned fp_fill_interrupt_check(uint32_t base)
{
  uint32_t x = base, y = 0, bad = 0;
  __asm volatile(FP_REGS(FP_FILL)
                 "str %[irq], [%[stir]]\n\t"
                 "dsb\n\t"
                 "isb\n\t"
                 "mov %[x], %[base]\n\t"
                 FP_REGS(FP_CHECK)
                 : [x] "+&r"(x), [y] "+&r"(y), [bad] "+&r"(bad)
                 : [base] "r"(base), [irq] "r"(IRQ_LOW), [stir] "r"(&TC_CM_NVIC_STIR)
                 : FP_REGS(FP_CLOBBER) "cc", "memory");
  return bad;
}

static void fp_interrupted(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(L, interrupted_handler));
  fp_bad[0] = fp_fill_interrupt_check(0x3F800000u);
}

static void no_fp_interrupted(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(L, interrupted_handler));
  tc_cm_irq_trigger(IRQ_LOW); /* the handler uses the FPU; this thread never does */
  OK(tc_thread_suspend(L));   /* saved by PendSV, the run ends: see below */
}

static void fpu_registers_survive_a_signal_handler(void)
{
  tct_begin();
  sig_irqs = sig_handled = 0;
  handler_sleeps = handler_retriggers = false;
  fp_bad[0] = 99;
  on_low = signal_l_from_isr;
  irqs_setup();
  make(L, "L", fp_interrupted, 10, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_EQ(fp_bad[0], 0);
  CHECK_EQ(sig_handled, 0x2u);
  STEP();

  tct_begin();
  sig_irqs = sig_handled = 0;
  make(L, "L", no_fp_interrupted, 10, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  irqs_off();
  CHECK_EQ(sig_handled, 0x2u);
  /* Saved with the basic frame: the handler's FPU use left the thread FPU-free. */
  CHECK_EQ(saved_exc_return(L), 0xFFFFFFFDu);
  STEP();
}

#else

static void fpu_registers_survive_a_signal_handler(void)
{
  /* Cortex-M3: no FPU. */
}

#endif

/* ---- time --------------------------------------------------------------------------------- */

static void wrap_watcher(void *arg)
{
  (void)arg;
  uint64_t before = tc_cycles();
  /* 300 cycles before the 32-bit counter wraps. (tc_cycles() jumps ahead by up to 2^32: no
   * critical section may span this, or the interrupt-latency build would measure it.) */
  TC_MPS2_TIMER0->value = 300u;
  uint64_t prev = tc_cycles(), max_step = 0;
  CHECK(prev > before);
  for (int i = 0; i < 2000; i++) {
    uint64_t now = tc_cycles();
    CHECK(now >= prev);
    if (now - prev > max_step) max_step = now - prev;
    prev = now;
  }
  CHECK((prev >> 32) > (before >> 32)); /* the wrap was counted */
  CHECK(max_step < 1000); /* a tick interrupt at most */
}

static void cycles_are_monotonic_across_the_timer_wrap(void)
{
  tct_begin();
  make(L, "watcher", wrap_watcher, 10, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  STEP();
}

static uint64_t slept_cycles;

static void tick_measurer(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1)); /* start on a tick */
  uint64_t c0 = tc_cycles();
  OK(tc_thread_sleep(10));
  slept_cycles = tc_cycles() - c0;
}

static void ten_ticks_are_ten_systick_periods(void)
{
  tct_begin();
  make(L, "measurer", tick_measurer, 10, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  STEP();
  CHECK_EQ(tc_cycles_hz(), 25000000u);
  uint64_t period = tc_cycles_hz() / TC_TICK_HZ;
  (void)period;
#if !TC_CM_IDLE_WFI /* a sleeping QEMU core follows the host clock: only a spinning idle is exact */
  CHECK(slept_cycles >= 10u * period - 200u && slept_cycles <= 10u * period + 200u);
#endif
}

/* ---- tickless idle ----------------------------------------------------------------------- */

#if TC_CM_IDLE_WFI && TC_CM_TICKLESS
#define TICKS_PER_WAKE (0x01000000u / (25000000u / TC_TICK_HZ)) /* SysTick's 24 bits */
#else
#define TICKS_PER_WAKE 1u
#endif

static uint32_t t0, h_tick, l_tick;
static unsigned sleep_irqs;

/* Sleep 20 ticks from now, counting them (l_tick) and the interrupts taken (sleep_irqs). */
static void sleep_twenty_counting(void)
{
  t0 = tc_tick_get();
  tc_kernel_stats_t k0, k1;
  tc_kernel_stats(&k0);
  OK(tc_thread_sleep(20));
  tc_kernel_stats(&k1);
  l_tick = tc_tick_get() - t0;
  sleep_irqs = (unsigned)(k1.interrupts - k0.interrupts);
}

static void tickless_sleeper(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1)); /* start on a tick */
  sleep_twenty_counting();
}

static void idle_sleeps_through_ticks(void)
{
  tct_begin();
  make(L, "L", tickless_sleeper, 10, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  STEP();
  CHECK_EQ(l_tick, 20);
  CHECK_EQ(sleep_irqs, (20u + TICKS_PER_WAKE - 1u) / TICKS_PER_WAKE);
}

/* A device interrupt wakes the core in the middle of a suppressed stretch: the ticks that
 * passed are counted before its handler runs, and the sleeper still wakes at its tick. */
static void early_lisr(void)
{
  TC_MPS2_TIMER1->ctrl = 0; /* one-shot */
  TC_MPS2_TIMER1->intstatus = 1u;
  tc_isr_enter();
  h_tick = tc_tick_get() - t0;
  OK(tc_thread_resume(H));
  tc_isr_exit();
}

static void early_sleeper(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1));
  t0 = tc_tick_get();
  /* 2.5 tick periods from now (timer 1 counts the 25 MHz processor clock) */
  TC_MPS2_TIMER1->ctrl = 0;
  TC_MPS2_TIMER1->intstatus = 1u;
  TC_MPS2_TIMER1->value = 5u * (25000000u / TC_TICK_HZ) / 2u;
  TC_MPS2_TIMER1->ctrl = 1u | 8u;
  OK(tc_thread_sleep(20));
  l_tick = tc_tick_get() - t0;
}

static void early_woken(void *arg)
{
  (void)arg;
  tct_log("H@%u", (unsigned)(tc_tick_get() - t0));
}

static void interrupt_in_a_suppressed_stretch(void)
{
  tct_begin();
  h_tick = l_tick = 0;
  on_timer1 = early_lisr;
  tc_cm_irq_priority(TC_MPS2_TIMER1_IRQ, 0xA0);
  tc_cm_irq_enable(TC_MPS2_TIMER1_IRQ);
  make(L, "L", early_sleeper, 10, TC_AUTO_START);
  make(H, "H", early_woken, 3, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  timer1_stop();
  on_timer1 = NULL;
  STEP();
  CHECK_EQ(h_tick, 2);
  CHECK_LOG("H@2");
  CHECK_EQ(l_tick, 20);
}

/* ---- SystemCoreClock --------------------------------------------------------------------- */

/* A vendor's SystemCoreClockUpdate() that found the processor at half the board's clock: the
 * kernel started after it ticks every SystemCoreClock / TC_TICK_HZ cycles, twice as often
 * against the board's timer (QEMU's SysTick counts 25 MHz whatever the variable says), and
 * the tickless idle's longest sleep doubles in ticks. A busy thread measures the ticks (a
 * sleeping QEMU core does not keep virtual time exactly: above). */
static uint64_t busy_cycles;

static void clock_measurer(void *arg)
{
  (void)arg;
  uint32_t t = tc_tick_get();
  while (tc_tick_get() == t) { /* start on a tick, as the end is seen: by the same loop */
  }
  t = tc_tick_get();
  uint64_t c0 = tc_cycles();
  while (tc_tick_get() - t < 4u) {
  }
  busy_cycles = tc_cycles() - c0;
  sleep_twenty_counting();
}

static void system_core_clock_sets_the_tick(void)
{
  tct_begin();
  CHECK_EQ(SystemCoreClock, TC_BOARD_CPU_HZ);
  SystemCoreClock = TC_BOARD_CPU_HZ / 2u;
  make(L, "measurer", clock_measurer, 10, TC_AUTO_START);
  int status = tct_run_kernel();
  SystemCoreClock = TC_BOARD_CPU_HZ;
  CHECK_EQ(status, 0);
  STEP();
  uint64_t half = tc_cycles_hz() / TC_TICK_HZ / 2u; /* the board's timer runs at the CPU's rate */
  CHECK(busy_cycles >= 4u * half - 200u && busy_cycles <= 4u * half + 200u);
  CHECK_EQ(l_tick, 20);
#if TC_CM_IDLE_WFI && TC_CM_TICKLESS
  uint32_t span = 0x01000000u / (TC_BOARD_CPU_HZ / 2u / TC_TICK_HZ);
  CHECK_EQ(sleep_irqs, (20u + span - 1u) / span);
#endif
}

/* The next start reads the default again: ten ticks, ten full periods. */
static void system_core_clock_is_read_at_each_start(void)
{
  tct_begin();
  make(L, "measurer", clock_measurer, 10, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  STEP();
  uint64_t full = tc_cycles_hz() / TC_TICK_HZ;
  CHECK(busy_cycles >= 4u * full - 200u && busy_cycles <= 4u * full + 200u);
  CHECK_EQ(sleep_irqs, (20u + TICKS_PER_WAKE - 1u) / TICKS_PER_WAKE);
}

/* ---- ending a run from an interrupt ------------------------------------------------------ */

static void stop_from_isr(void)
{
  tc_isr_enter();
  tct_log("stop");
  tc_cm_stop(7);
  tc_isr_exit();
}

static void forever(void *arg)
{
  (void)arg;
  tc_cm_irq_trigger(IRQ_LOW);
  for (;;) tct_log("unreachable");
}

static void stop_from_an_interrupt_handler(void)
{
  tct_begin();
  on_low = stop_from_isr;
  irqs_setup();
  make(L, "L", forever, 10, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 7);
  irqs_off();
  CHECK_LOG("stop");
}

/* ---- handlers above the kernel's mask call no service ----------------------------------- */

/* With TC_CHECKS=1 a service called from a handler the kernel's BASEPRI mask does not hold
 * back calls tc_isr_priority_hook() and returns TC_CALLER_ERROR, nothing changed (test_context
 * calls every service so, this part what is the port's: nesting, a critical section, system
 * handlers, NMI, a device, priority grouping). This program's hook records instead of the
 * default panic (isr_priority_panics checks that one). */
static unsigned hook_calls;
static const char *hook_service;

void tc_isr_priority_hook(const char *service)
{
  hook_calls++;
  hook_service = service;
}

static tc_sem sem;
static volatile tc_status give_status[2], resume_status;

static void give_and_resume(void)
{
  give_status[0] = tc_sem_give(&sem);
  resume_status = tc_thread_resume(H);
}

static void expect_refused(unsigned calls, const char *last)
{
#if TC_CHECKS
  CHECK_EQ(hook_calls, calls);
  CHECK(hook_service != NULL && strcmp(hook_service, last) == 0);
#else
  (void)calls;
  (void)last;
#endif
}

static void start_refusal_case(void)
{
  tct_begin();
  hook_calls = 0;
  hook_service = NULL;
  give_status[0] = give_status[1] = resume_status = TC_OK;
  OK(tc_sem_create(&sem, "sem", 0, 3));
  make(H, "H", log_self, 5, 0);
}

static void sem_and_h_unchanged(void)
{
  tc_thread_info_t i;
  OK(tc_thread_info(H, &i));
  CHECK_EQ(i.state, TC_SUSPENDED);
  EXPECT(tc_sem_take(&sem, TC_NO_WAIT), TC_NO_INSTANCE); /* the give added nothing */
}

/* The case the mask exists for: a handler above it interrupts a kernel critical section --
 * here a thread's own, where the kernel's lists may be half changed. */
static void zero_latency_give_and_resume(void)
{
  tct_mark('z');
  give_and_resume();
}

static void critical_section_thread(void *arg)
{
  (void)arg;
  unsigned s = tc_interrupt_disable();
  tc_cm_irq_trigger(IRQ_ZERO_LATENCY); /* not held back: runs now, inside the section */
  tct_mark('m');
  tc_interrupt_restore(s);
  tct_log_marks();
}

static void unmasked_handler_inside_a_critical_section_changes_nothing(void)
{
  start_refusal_case();
  on_zero_latency = zero_latency_give_and_resume;
  irqs_setup();
  make(L, "L", critical_section_thread, 10, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  irqs_off();
  STEP();
  if (!TC_CHECKS) return; /* without the checks the kernel trusts its caller */
  CHECK_LOG("zm");
  CHECK_EQ(give_status[0], TC_CALLER_ERROR);
  CHECK_EQ(resume_status, TC_CALLER_ERROR);
  expect_refused(2, "tc_thread_resume");
  sem_and_h_unchanged();
}

/* Nested: a handler at a kernel priority, preempted by one above the mask. The inner one is
 * refused; the outer one, once it runs again, is served, and H runs after both. */
static void inner_zero_latency(void)
{
  tct_mark('i');
  give_status[1] = tc_sem_give(&sem);
}

static void outer_kernel_handler(void)
{
  tct_mark('o');
  tc_cm_irq_trigger(IRQ_ZERO_LATENCY); /* more urgent: nested at once */
  tct_mark('b');
  give_and_resume();
}

static void nesting_refusal_thread(void *arg)
{
  (void)arg;
  tc_cm_irq_trigger(IRQ_LOW);
  tct_log_marks();
  tct_log("L");
}

static void permitted_handler_preempted_by_an_unmasked_one(void)
{
  start_refusal_case();
  on_low = outer_kernel_handler;
  on_zero_latency = inner_zero_latency;
  irqs_setup();
  make(L, "L", nesting_refusal_thread, 10, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  irqs_off();
  STEP();
  if (!TC_CHECKS) return;
  CHECK_LOG("H oib L"); /* H, resumed by the outer handler, runs before L goes on */
  CHECK_EQ(give_status[1], TC_CALLER_ERROR);
  CHECK_EQ(give_status[0], TC_OK);
  CHECK_EQ(resume_status, TC_OK);
  expect_refused(1, "tc_sem_give");
  OK(tc_sem_take(&sem, TC_NO_WAIT)); /* the outer handler's unit, and only it */
  EXPECT(tc_sem_take(&sem, TC_NO_WAIT), TC_NO_INSTANCE);
}

/* System handlers: their priorities are in SCB->SHPR, not in the NVIC. SVCall resets to 0,
 * above the mask; at 0xC0 an SVC's handler is a kernel handler like any other. */
#define SHPR_SVCALL (*(volatile uint8_t *)0xE000ED1Fu)

void tc_cm_svc(unsigned number, uint32_t *frame)
{
  (void)frame;
  if (number == 1u) give_and_resume();
}

static void svc_thread(void *arg)
{
  (void)arg;
  __asm volatile("svc #1" ::: "memory");
  tct_log("after");
}

static void svc_handler_priority_decides(void)
{
  static const uint8_t priorities[] = {0x00, 0x20, 0xC0};
  uint8_t reset = SHPR_SVCALL;
  for (size_t p = 0; p < sizeof priorities; p++) {
    start_refusal_case();
    SHPR_SVCALL = priorities[p];
    make(L, "L", svc_thread, 10, TC_AUTO_START);
    CHECK_EQ(tct_run_kernel(), 0);
    SHPR_SVCALL = reset;
    STEP();
    bool above = priorities[p] < TC_CM_BASEPRI;
    if (above && !TC_CHECKS) continue;
    CHECK_EQ(give_status[0], above ? TC_CALLER_ERROR : TC_OK);
    CHECK_EQ(resume_status, above ? TC_CALLER_ERROR : TC_OK);
    if (above) {
      expect_refused(2, "tc_thread_resume");
      sem_and_h_unchanged();
      CHECK_LOG("after");
    } else {
      CHECK_EQ(hook_calls, 0);
      CHECK_LOG("H after"); /* resumed in the handler, H runs before L goes on */
    }
  }
}

/* NMI has a fixed priority above every other: always refused. */
#define ICSR_NMIPENDSET (1u << 31)
void NMI_Handler(void);
void NMI_Handler(void) { give_and_resume(); }

static void nmi_thread(void *arg)
{
  (void)arg;
  SCB_ICSR = ICSR_NMIPENDSET;
  __asm volatile("dsb\n\tisb" ::: "memory");
  tct_log("after");
}

static void nmi_calls_no_service(void)
{
  start_refusal_case();
  make(L, "L", nmi_thread, 10, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  STEP();
  if (!TC_CHECKS) return;
  CHECK_LOG("after");
  CHECK_EQ(give_status[0], TC_CALLER_ERROR);
  CHECK_EQ(resume_status, TC_CALLER_ERROR);
  expect_refused(2, "tc_thread_resume");
  sem_and_h_unchanged();
}

/* A device: CMSDK timer 1, left at its reset priority 0, the mistake the check is for. */
static void timer1_at_zero(void)
{
  TC_MPS2_TIMER1->ctrl = 0; /* one-shot */
  TC_MPS2_TIMER1->intstatus = 1u;
  give_and_resume();
  h_runs++;
}

static void wait_for_timer1(void *arg)
{
  (void)arg;
  TC_MPS2_TIMER1->ctrl = 0;
  TC_MPS2_TIMER1->intstatus = 1u;
  TC_MPS2_TIMER1->reload = 1000u;
  TC_MPS2_TIMER1->ctrl = 1u | 8u;
  tc_cm_irq_enable(TC_MPS2_TIMER1_IRQ); /* no tc_cm_irq_priority(): still 0 */
  while (h_runs == 0) tct_work(100);
  tct_log("after");
}

static void device_interrupt_left_at_priority_zero_is_refused(void)
{
  start_refusal_case();
  h_runs = 0;
  on_timer1 = timer1_at_zero;
  tc_cm_irq_priority(TC_MPS2_TIMER1_IRQ, 0x00);
  make(L, "L", wait_for_timer1, 10, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  timer1_stop();
  on_timer1 = NULL;
  STEP();
  if (!TC_CHECKS) return;
  CHECK_LOG("after");
  CHECK_EQ(give_status[0], TC_CALLER_ERROR);
  CHECK_EQ(resume_status, TC_CALLER_ERROR);
  expect_refused(2, "tc_thread_resume");
  sem_and_h_unchanged();
}

/* BASEPRI compares group priorities: the bits above AIRCR.PRIGROUP. With PRIGROUP 6 the group
 * is bit 7 alone, TC_CM_BASEPRI 0x40 masks group 0 -- every priority -- and a handler at 0x20
 * is held back by the kernel (the hardware shows it) and may call services. With PRIGROUP 5
 * (bits 7-6) 0x20 is group 0, above the mask, and 0x60 group 0x40, at the kernel's level. */
#define SCB_AIRCR (*(volatile uint32_t *)0xE000ED0Cu)
#define AIRCR_VECTKEY 0x05FA0000u

static void set_prigroup(unsigned g) { SCB_AIRCR = AIRCR_VECTKEY | (g << 8); }

static void grouped_handler(void)
{
  tct_mark('g');
  give_and_resume();
}

static void priority_grouping_decides_what_the_mask_holds(void)
{
  static const struct {
    unsigned prigroup, priority;
    bool masked;
    const char *log;
  } cases[] = {
    {6, 0x20, true, "H mg"}, /* masked: runs at the restore; H, resumed, before L goes on */
    {5, 0x20, false, "gm"},
    {5, 0x60, true, "H mg"},
    {0, 0x3F, false, "gm"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    start_refusal_case();
    on_zero_latency = grouped_handler;
    irqs_setup();
    tc_cm_irq_priority(IRQ_ZERO_LATENCY, (uint8_t)cases[c].priority);
    set_prigroup(cases[c].prigroup);
    make(L, "L", critical_section_thread, 10, TC_AUTO_START); /* 'g' before 'm': not held back */
    CHECK_EQ(tct_run_kernel(), 0);
    set_prigroup(0);
    irqs_off();
    STEP();
    if (!cases[c].masked && !TC_CHECKS) continue;
    CHECK_LOG(cases[c].log);
    CHECK_EQ(give_status[0], cases[c].masked ? TC_OK : TC_CALLER_ERROR);
    CHECK_EQ(resume_status, cases[c].masked ? TC_OK : TC_CALLER_ERROR);
    if (cases[c].masked) {
      CHECK_EQ(hook_calls, 0);
    } else {
      expect_refused(2, "tc_thread_resume");
      sem_and_h_unchanged();
    }
  }
}

/* ---- command line and host files -------------------------------------------------------- */

static int main_argc;
static char **main_argv;

/* ctest runs QEMU with `-kernel <absolute path of this program>` and no -append: the host's
 * command line is that path, so argv[0] is the ELF file QEMU loaded, which the program reads
 * back through stdio (the descriptor calls of semihosting.c, with newlib's buffering and
 * seeks: SEEK_CUR for ftell, SEEK_END, SEEK_SET). */
static void main_gets_the_command_line_and_reads_host_files(void)
{
  CHECK(main_argc >= 1);
  if (main_argc < 1) return;
  CHECK(main_argv[main_argc] == NULL);
  FILE *f = fopen(main_argv[0], "rb");
  CHECK(f != NULL);
  if (f == NULL) return;
  unsigned char magic[4] = {0};
  CHECK_EQ(fread(magic, 1, sizeof magic, f), sizeof magic);
  CHECK(memcmp(magic, "\x7f" "ELF", 4) == 0);
  CHECK_EQ(ftell(f), 4);
  CHECK_EQ(fseek(f, 0, SEEK_END), 0);
  long size = ftell(f);
  CHECK(size > 1000);
  CHECK_EQ(fseek(f, 1, SEEK_SET), 0);
  char elf[4] = {0};
  CHECK(fgets(elf, sizeof elf, f) == elf);
  CHECK(strcmp(elf, "ELF") == 0);
  CHECK_EQ(fclose(f), 0);

  errno = 0;
  CHECK(fopen("/nonexistent/tacet-test-file", "rb") == NULL);
  CHECK_EQ(errno, ENOENT);
}

static const tct_case cases[] = {
  TCT_CASE(nested_interrupts_switch_once_at_outermost_exit),
  TCT_CASE(basepri_leaves_zero_latency_interrupts_unmasked),
  TCT_CASE(last_switch_request_wins),
  TCT_CASE(device_interrupt_preempts_busy_thread),
  TCT_CASE(hisr_from_a_device_interrupt),
  TCT_CASE(fpu_registers_survive_switches_and_interrupts),
  TCT_CASE(signal_from_an_interrupt_runs_before_the_thread_goes_on),
  TCT_CASE(signal_from_an_interrupt_that_switches_away_runs_when_the_thread_resumes),
  TCT_CASE(signal_handler_that_blocks_returns_into_the_interrupted_frame),
  TCT_CASE(signal_during_the_handler_runs_after_it),
  TCT_CASE(fpu_registers_survive_a_signal_handler),
  TCT_CASE(cycles_are_monotonic_across_the_timer_wrap),
  TCT_CASE(ten_ticks_are_ten_systick_periods),
  TCT_CASE(idle_sleeps_through_ticks),
  TCT_CASE(interrupt_in_a_suppressed_stretch),
  TCT_CASE(system_core_clock_sets_the_tick),
  TCT_CASE(system_core_clock_is_read_at_each_start),
  TCT_CASE(stop_from_an_interrupt_handler),
  TCT_CASE(unmasked_handler_inside_a_critical_section_changes_nothing),
  TCT_CASE(permitted_handler_preempted_by_an_unmasked_one),
  TCT_CASE(svc_handler_priority_decides),
  TCT_CASE(nmi_calls_no_service),
  TCT_CASE(device_interrupt_left_at_priority_zero_is_refused),
  TCT_CASE(priority_grouping_decides_what_the_mask_holds),
  TCT_CASE(main_gets_the_command_line_and_reads_host_files)};

/* TCT_MAIN's main() takes no arguments (the sim port's tests want none): this one keeps them
 * for main_gets_the_command_line_and_reads_host_files. */
int main(int argc, char **argv)
{
  main_argc = argc;
  main_argv = argv;
  return tct_main("test_cortex_m", cases, sizeof cases / sizeof cases[0]);
}
