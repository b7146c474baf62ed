/* SPDX-License-Identifier: MIT */
/*
 * The RISC-V port's own cases: what only it does. Every register of a thread that an interrupt
 * preempts survives the trap, a switch away and back, and a signal handler run before the
 * thread goes on; a handler raised inside a critical section runs at the unmask; the trap's end
 * commits only the last decision; tickless idle sleeps through ticks and counts the ones a
 * device interrupt finds passed; a handler ends the run; the FPU's registers survive (the
 * rv32imafc build); the tick is exactly its mtime period (the spinning idle's build).
 */
#include <string.h>

#include "internal.h"
#include "tacet/riscv.h"
#include "tct.h"

static tc_thread th[4];
#define L (&th[0])
#define H (&th[1])
#define M (&th[2])

static void make(tc_thread *t, const char *name, void (*fn)(void *), unsigned prio, unsigned options)
{
  OK(tc_thread_create(t, name, fn, NULL, TCT_STACK(t - th), prio, prio, 0, options));
}

/* The machine software interrupt's handler (the harness's, tct_riscv.c), which calls this;
 * the cases raise the interrupt themselves. */
void tct_rv_software_handler_set(void (*fn)(void *), void *arg);
static void (*volatile on_software)(void);
static void software_isr(void *arg)
{
  (void)arg;
  on_software();
}

/* A fresh kernel, log and marks (tct_begin), the software interrupt's handler ours. */
static void begin(void)
{
  tct_begin();
  tct_rv_software_handler_set(software_isr, NULL);
}

static void mark_h(void *arg)
{
  (void)arg;
  tct_mark('H');
}

/* ---- registers across a trap, a switch and a signal handler -------------------------------- */

/* The interrupt sends L a signal, and may resume H (a switch away from L at the trap's end:
 * L's handler then runs when L is switched to again) or make L's handler sleep. */
static volatile uint32_t reg_bad, reg_checked;
static volatile unsigned sig_irqs, sig_handled;
static volatile bool isr_resumes_h, handler_sleeps;

static void signal_l_from_isr(void)
{
  tct_mark('i');
  sig_irqs++;
  OK(tc_signal_send(L, 1u << sig_irqs));
  if (isr_resumes_h) OK(tc_thread_resume(H));
}

static void interrupted_handler(uint32_t signals)
{
  tct_mark('h');
  sig_handled |= signals;
  CHECK(tc_thread_self() == L);
  volatile char clobber[64];
  memset((char *)clobber, 0x5A, sizeof clobber); /* calls, and the caller-saved registers */
  if (handler_sleeps) OK(tc_thread_sleep(1)); /* the thread blocks inside its handler */
}

/* Every register a thread owns (all but sp, gp, tp) holds a known value when the software
 * interrupt is raised; after the trap -- its handler, a switch away and back, a signal handler
 * -- each is compared. ra is compared first and then serves as the scratch register. */
#define FILL(r, v) "li " #r ", " #v "\n\t"
#define CHECK_REG(r, v) "li ra, " #v "\n\tbne " #r ", ra, 1f\n\t"
#define REGS(X)                                                                                  \
  X(t2, 0x102) X(s0, 0x103) X(s1, 0x104) X(a0, 0x105) X(a1, 0x106) X(a2, 0x107) X(a3, 0x108)     \
  X(a4, 0x109) X(a5, 0x10A) X(a6, 0x10B) X(a7, 0x10C) X(s2, 0x10D) X(s3, 0x10E) X(s4, 0x10F)     \
  X(s5, 0x110) X(s6, 0x111) X(s7, 0x112) X(s8, 0x113) X(s9, 0x114) X(s10, 0x115) X(s11, 0x116)   \
  X(t3, 0x117) X(t4, 0x118) X(t5, 0x119) X(t6, 0x11A)

static void interrupted_with_known_registers(void)
{
  __asm volatile("li t0, %[msip]\n\t"
                 "li t1, 1\n\t"
                 "li ra, 0x101\n\t"
                 REGS(FILL)
                 "sw t1, 0(t0)\n\t" /* the interrupt, its handler, a switch, the signal handler */
                 "nop\n\t"
                 "nop\n\t"
                 "addi ra, ra, -0x101\n\t"
                 "bnez ra, 1f\n\t"
                 CHECK_REG(t0, %[msip])
                 CHECK_REG(t1, 1)
                 REGS(CHECK_REG)
                 "li ra, 0\n\t"
                 "j 2f\n"
                 "1:\tli ra, 1\n"
                 "2:\tla t0, reg_bad\n\t"
                 "sw ra, 0(t0)\n\t"
                 "la t0, reg_checked\n\t"
                 "li t1, 1\n\t"
                 "sw t1, 0(t0)"
                 :
                 : [msip] "i"(TC_BOARD_CLINT)
                 : "ra", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5", "a6",
                   "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
                   "t5", "t6", "memory");
}

static void interrupted_thread(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(L, interrupted_handler));
  interrupted_with_known_registers();
  tct_mark('l');
  tct_log_marks();
}

static void run_interrupted(bool preempts, bool sleeps, const char *want)
{
  begin();
  reg_bad = 99;
  reg_checked = 0;
  sig_irqs = sig_handled = 0;
  isr_resumes_h = preempts;
  handler_sleeps = sleeps;
  on_software = signal_l_from_isr;
  make(L, "L", interrupted_thread, 10, TC_AUTO_START);
  make(H, "H", mark_h, 5, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  STEP();
  CHECK_LOG(want);
  CHECK_EQ(reg_checked, 1);
  CHECK_EQ(reg_bad, 0);
  CHECK_EQ(sig_handled, 0x2u);
  CHECK_EQ(tc_signal_pending(L), 0);
  CHECK_EQ(L->ctx.diverted, 0);
}

static void registers_survive_a_trap_and_a_signal_handler(void)
{
  run_interrupted(false, false, "ihl"); /* interrupt, L's handler, L */
}

static void registers_survive_a_switch_away_at_the_end_of_the_trap(void)
{
  run_interrupted(true, false, "iHhl"); /* interrupt, H, then L's handler, then L */
}

static void signal_handler_that_blocks_returns_into_the_interrupted_code(void)
{
  run_interrupted(false, true, "ihl");
}

/* ---- critical sections, the last decision ------------------------------------------------ */

static void mark_i(void) { tct_mark('i'); }

static void masking_thread(void *arg)
{
  (void)arg;
  unsigned s = tc_interrupt_disable();
  tc_rv_software_interrupt();
  tct_mark('m'); /* held back by mstatus.MIE */
  tc_interrupt_restore(s);
  tct_mark('u'); /* taken at the unmask, before this */
  tct_log_marks();
}

static void handler_inside_a_critical_section_runs_at_the_unmask(void)
{
  begin();
  on_software = mark_i;
  make(L, "L", masking_thread, 10, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("miu");
}

/* The handler resumes H, then M, then suspends H again: one switch, to M, at the trap's end. */
static void change_of_mind(void)
{
  tct_mark('i');
  OK(tc_thread_resume(H));
  OK(tc_thread_resume(M));
  OK(tc_thread_suspend(H));
}

static void mark_m(void *arg)
{
  (void)arg;
  tct_mark('M');
}

static void deciding_thread(void *arg)
{
  (void)arg;
  tc_kernel_stats_t before, after;
  tc_kernel_stats(&before);
  tc_rv_software_interrupt();
  tc_kernel_stats(&after);
  tct_mark('l');
  CHECK_EQ(after.context_switches - before.context_switches, 2); /* to M, back to L */
  tct_log_marks();
}

static void only_the_last_decision_of_a_trap_is_a_switch(void)
{
  begin();
  on_software = change_of_mind;
  make(L, "L", deciding_thread, 10, TC_AUTO_START);
  make(H, "H", mark_h, 3, 0);
  make(M, "M", mark_m, 5, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("iMl");
  CHECK_EQ(H->state, TC_SUSPENDED);
}

static void stop_from_isr(void) { tc_rv_stop(7); }

static void stopped_thread(void *arg)
{
  (void)arg;
  tc_rv_software_interrupt();
  CHECK(false); /* never resumes */
}

static void a_handler_ends_the_run(void)
{
  begin();
  on_software = stop_from_isr;
  make(L, "L", stopped_thread, 10, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 7);
}

/* ---- the tick and idle -------------------------------------------------------------------- */

#if TC_RV_IDLE_WFI && TC_RV_TICKLESS
static volatile uint32_t woke_at, tick_irqs;

static void tickless_sleeper(void *arg)
{
  (void)arg;
  tc_kernel_stats_t before, after;
  tc_kernel_stats(&before);
  OK(tc_thread_sleep(20));
  tc_kernel_stats(&after);
  woke_at = tc_tick_get();
  tick_irqs = (uint32_t)(after.interrupts - before.interrupts);
}

/* A 20-tick sleep with nothing else to do: one timer interrupt (the 20th boundary), not 20. */
static void idle_sleeps_through_ticks(void)
{
  begin();
  make(L, "L", tickless_sleeper, 10, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_EQ(woke_at, 20);
  CHECK(tick_irqs <= 2u);
}

/* The virt RTC's alarm (PLIC source 11), a device interrupt in the middle of a suppressed
 * stretch: its handler sees the tick count it would have seen with every tick. A board without
 * a timed device QEMU models (the FE310: sifive_e has no RTC or PWM in QEMU 7.2) skips it. */
#if defined(TC_BOARD_RTC)
#define RTC(off) (*(volatile uint32_t *)(TC_BOARD_RTC + (off)))
#define RTC_SOURCE TC_BOARD_RTC_IRQ
static volatile uint32_t device_tick;

void tc_rv_external_handler(unsigned source)
{
  if (source != RTC_SOURCE) return;
  RTC(0x1Cu) = 1u; /* CLEAR_INTERRUPT */
  RTC(0x10u) = 0u; /* IRQ_ENABLED: once */
  device_tick = tc_tick_get();
  OK(tc_thread_resume(H));
}

static void early_sleeper(void *arg)
{
  (void)arg;
  /* An alarm 5.5 ticks from now (the RTC counts nanoseconds: instructions at shift=0). */
  uint32_t lo = RTC(0x00u);
  uint64_t now = (uint64_t)RTC(0x04u) << 32 | lo;
  uint64_t at = now + 11u * (1000000000u / TC_TICK_HZ) / 2u;
  RTC(0x10u) = 1u;
  tc_rv_irq_enable(RTC_SOURCE, 1u);
  RTC(0x0Cu) = (uint32_t)(at >> 32);
  RTC(0x08u) = (uint32_t)at;
  uint32_t t0 = tc_tick_get();
  OK(tc_thread_sleep(20));
  CHECK_EQ(tc_tick_get() - t0, 20);
  tc_rv_irq_disable(RTC_SOURCE);
}

static void early_woken(void *arg)
{
  (void)arg;
  tct_log("H@%u", (unsigned)device_tick);
}

static void interrupt_in_a_suppressed_stretch(void)
{
  begin();
  make(L, "L", early_sleeper, 10, TC_AUTO_START);
  make(H, "H", early_woken, 5, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("H@5");
}
#endif /* TC_BOARD_RTC */
#endif

#if !TC_RV_IDLE_WFI
/* The spinning idle: a hundred ticks are a hundred periods of mtime (their phase never
 * drifts). */
static volatile uint64_t span;

static void tick_measurer(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1));
  uint64_t t0 = tc_rv_mtime();
  OK(tc_thread_sleep(100));
  span = tc_rv_mtime() - t0;
}

static void hundred_ticks_are_a_hundred_timer_periods(void)
{
  begin();
  make(L, "L", tick_measurer, 10, TC_AUTO_START);
  CHECK_EQ(tct_run_kernel(), 0);
  /* A hundred periods: a hundred times the count per tick, or, when the timer's rate is not a
   * whole number of ticks (the tick carries the fraction), a hundred ticks' exact time --
   * where periods cut to their whole part come short by a hundred fractions (33 counts at the
   * FE310 tests' 300 Hz). To two counts either way: each reading comes a few instructions after
   * its tick, not always the same few (the first follows the thread's start), and mtime
   * advances every 100 instructions under -icount shift=0, so a reading falls on either side
   * of a count depending on the code's layout (an exact bound failed in a clone at another
   * path). */
  uint64_t hundred = 100u * (uint64_t)TC_BOARD_TIMER_HZ / TC_TICK_HZ;
  CHECK(span + 2u >= hundred);
  CHECK(span <= hundred + 3u);
}
#endif

/* ---- the FPU (rv32imafc) ------------------------------------------------------------------ */

#if defined(__riscv_flen)
/* f0-f31 and fcsr's rounding mode, filled with values of the thread's own; a switch to a thread
 * that fills them with others and an interrupt whose handler does too; then compared. */
static volatile unsigned fp_bad;

static unsigned fp_fill_interrupt_check(float base, volatile int *switch_now)
{
  float f[32], g[32];
  for (unsigned i = 0; i < 32; i++) f[i] = base + (float)i;
  unsigned bad = 0;
  __asm volatile("fsrmi 2\n\t" /* round down: the thread's own mode */
#define FL(i) "flw f" #i ", " #i "*4(%[f])\n\t"
                 FL(0) FL(1) FL(2) FL(3) FL(4) FL(5) FL(6) FL(7) FL(8) FL(9) FL(10) FL(11) FL(12)
                 FL(13) FL(14) FL(15) FL(16) FL(17) FL(18) FL(19) FL(20) FL(21) FL(22) FL(23)
                 FL(24) FL(25) FL(26) FL(27) FL(28) FL(29) FL(30) FL(31)
#undef FL
                 "li t0, 1\n\t"
                 "sw t0, 0(%[sw])\n\t"
                 "li t0, %[msip]\n\t"
                 "li t1, 1\n\t"
                 "sw t1, 0(t0)\n\t" /* the interrupt: its handler uses the FPU and switches */
                 "nop\n\t"
#define FS(i) "fsw f" #i ", " #i "*4(%[g])\n\t"
                 FS(0) FS(1) FS(2) FS(3) FS(4) FS(5) FS(6) FS(7) FS(8) FS(9) FS(10) FS(11) FS(12)
                 FS(13) FS(14) FS(15) FS(16) FS(17) FS(18) FS(19) FS(20) FS(21) FS(22) FS(23)
                 FS(24) FS(25) FS(26) FS(27) FS(28) FS(29) FS(30) FS(31)
#undef FS
                 "frrm t0\n\t"
                 "addi t0, t0, -2\n\t"
                 "snez t0, t0\n\t"
                 "add %[bad], %[bad], t0\n\t"
                 "fsrmi 0"
                 : [bad] "+r"(bad)
                 : [f] "r"(f), [g] "r"(g), [sw] "r"(switch_now), [msip] "i"(TC_BOARD_CLINT)
                 : "t0", "t1", "memory", "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9",
                   "f10", "f11", "f12", "f13", "f14", "f15", "f16", "f17", "f18", "f19", "f20",
                   "f21", "f22", "f23", "f24", "f25", "f26", "f27", "f28", "f29", "f30", "f31");
  for (unsigned i = 0; i < 32; i++) bad += memcmp(&f[i], &g[i], sizeof f[i]) != 0;
  return bad;
}

static volatile int switch_now;

/* Every FP register loaded with `v`, as code that uses them all would leave them (the compiler
 * saves and restores the callee-saved ones, fs0-fs11, around it; the others are the caller's
 * to lose -- or, in an interrupt handler, the trap's to keep). */
#define FP_ALL(X)                                                                                \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16)    \
  X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)
#define FP_LOAD(i) "fmv.w.x f" #i ", %[v]\n\t"
#define FP_CLOBBER(i) "f" #i,
static void fp_clobber_all(uint32_t v)
{
  __asm volatile(FP_ALL(FP_LOAD) "fsrmi 1" : : [v] "r"(v) : FP_ALL(FP_CLOBBER) "memory");
}

static void fp_isr(void)
{
  fp_clobber_all(0x7F800001u); /* the handler's C uses the FPU: a signalling NaN everywhere */
  if (switch_now) {
    switch_now = 0;
    OK(tc_thread_resume(H));
  }
}

/* H and H2, run in between: -1.0f in all 32 registers and another rounding mode, left there when it
 * ends -- the asm does not tell the compiler, which would otherwise restore fs0-fs11 on the way
 * out and hide a switch that did not. */
static void fp_other(void *arg)
{
  (void)arg;
  tct_mark('H');
  __asm volatile(FP_ALL(FP_LOAD) "fsrmi 1" : : [v] "r"(0xBF800000u));
}

/* The synchronous switch (a thread's own call): fs0-fs11 and the rounding mode, which the
 * calling convention keeps across tc_thread_resume(H), hold L's values after H ran. */
#define FS_ALL(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
#define FS_LOAD(i) "fmv.w.x fs" #i ", %[v]\n\taddi %[v], %[v], 1\n\t"
#define FS_STORE(i) "fsw fs" #i ", " #i "*4(%[out])\n\t"
#define FS_CLOBBER(i) "fs" #i,
static unsigned fp_kept_across_a_switch(void)
{
  uint32_t v = 0x42C80000u, out[12], rm;
  __asm volatile(FS_ALL(FS_LOAD) "fsrmi 2" : [v] "+r"(v) : : FS_ALL(FS_CLOBBER) "memory");
  OK(tc_thread_resume(&th[3])); /* runs and ends: the switch to it and back is a call */
  __asm volatile(FS_ALL(FS_STORE) "frrm %[rm]\n\tfsrmi 0"
                 : [rm] "=r"(rm)
                 : [out] "r"(out)
                 : "memory");
  unsigned bad = rm != 2u;
  for (unsigned i = 0; i < 12; i++) bad += out[i] != 0x42C80000u + i;
  return bad;
}

static void fp_thread(void *arg)
{
  (void)arg;
  fp_bad = fp_fill_interrupt_check(100.0f, &switch_now) + 100u * fp_kept_across_a_switch();
}

static volatile uint32_t no_fp_flag;

static void no_fp_thread(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1));
  no_fp_flag = ((tc_thread *)(void *)tc_thread_self())->ctx.fp;
}

static void fpu_registers_survive_switches_and_interrupts(void)
{
  begin();
  fp_bad = 99;
  no_fp_flag = 99;
  on_software = fp_isr;
  make(L, "L", fp_thread, 10, TC_AUTO_START);
  make(H, "H", fp_other, 5, 0);
  make(M, "M", no_fp_thread, 12, TC_AUTO_START);
  make(&th[3], "H2", fp_other, 5, 0);
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_EQ(fp_bad, 0);
  CHECK_EQ(tct_marks(), 2); /* H and H2 ran in between */
  CHECK_EQ(no_fp_flag, 0); /* a thread without FP code: no FP registers saved, ever */
}
#endif

TCT_MAIN("riscv", TCT_CASE(registers_survive_a_trap_and_a_signal_handler),
         TCT_CASE(registers_survive_a_switch_away_at_the_end_of_the_trap),
         TCT_CASE(signal_handler_that_blocks_returns_into_the_interrupted_code),
         TCT_CASE(handler_inside_a_critical_section_runs_at_the_unmask),
         TCT_CASE(only_the_last_decision_of_a_trap_is_a_switch), TCT_CASE(a_handler_ends_the_run),
#if TC_RV_IDLE_WFI && TC_RV_TICKLESS
         TCT_CASE(idle_sleeps_through_ticks),
#if defined(TC_BOARD_RTC)
         TCT_CASE(interrupt_in_a_suppressed_stretch),
#endif
#endif
#if !TC_RV_IDLE_WFI
         TCT_CASE(hundred_ticks_are_a_hundred_timer_periods),
#endif
#if defined(__riscv_flen)
         TCT_CASE(fpu_registers_survive_switches_and_interrupts),
#endif
)
