/* SPDX-License-Identifier: MIT */
/*
 * cm_switch: instructions per thread-to-thread context switch on the Cortex-M port, counted
 * by QEMU (-icount shift=5: tc_cycles() ticks at 25 MHz, 1.25 instructions per tick); built
 * for the RISC-V port as rv_switch (-icount shift=0: tc_cycles() counts instructions).
 *
 *   PendSV   the switch handler alone: a thread pends PendSV with nothing to change (the
 *            handler saves and restores the same context) in a loop, minus the same loop
 *            without the pend. On RISC-V, its equivalent: a thread calls the port's switch
 *            routine, tc__rv_switch, to itself (it saves and restores the same context),
 *            masked as the kernel calls it, minus the same loop without the call.
 *   (a)      yield ping-pong: two threads of equal priority call tc_thread_yield() in turn;
 *            one switch = from the call in one thread to the return in the other: the
 *            service, the scheduler's choice, the switch accounting and PendSV.
 *   (b)      preemption by a higher-priority thread made ready by a semaphore give: a thread
 *            gives a semaphore on which a higher-priority thread waits in tc_sem_take(); that
 *            thread runs at once and takes again, which blocks it and switches back; two
 *            switches per round.
 *   (c)      the same preemption through tc_thread_resume() of a suspended higher-priority
 *            thread that suspends itself again (the figure (b) gave before semaphores
 *            existed); two switches per round.
 *
 * Each measurement runs right after a tick and is short enough (below 31,250 instructions,
 * one tick at 1000 Hz) that no interrupt lands inside it: the figures are exact and the same
 * on every run. The loop's own instructions (counter, branch, reading the clock) are measured
 * with an empty loop and subtracted. Exit status 0 when every figure was measured.
 *
 * Built with the MPU stack guard (TC_MPU_STACK_GUARD, cm_switch_guard), it also prints what
 * the guard takes from a stack: 1 KB stacks created at an address aligned to the guard
 * region and at one 8 bytes past it, and the bytes tc_thread_info() no longer counts.
 */
#include <stdio.h>

#include "../cm_figures.h"
#include "tacet/tacet.h"

#define ROUNDS 30u /* 60 switches: well under one tick even in the measurement build */

static tc_thread a, b, low, high;
static tc_sem wake;
static uint8_t stacks[4][1024] __attribute__((aligned(8)));


/* ---- the loop itself -------------------------------------------------------------------- */

static volatile uint32_t sink;

__attribute__((noinline)) static void nothing(void) { sink = 0; }

static uint64_t empty_loop(uint32_t n)
{
  uint64_t t0 = tc_cycles();
  for (uint32_t i = 0; i < n; i++) nothing();
  return tc_cycles() - t0;
}

/* ---- PendSV alone ----------------------------------------------------------------------- */

#if defined(__riscv)
#include "tacet/port.h" /* the switch routine, the kernel's mask */
#define PROGRAM "rv_switch"
#define SWITCH_ALONE "  switch routine tc__rv_switch (call, save ra+s0-s11, swap, restore, return):"

__attribute__((noinline)) static void pend_self(void)
{
  unsigned s = TC_PORT_IRQ_DISABLE();
  tc__rv_switch(tc_thread_self()); /* cur == to: saves this thread and loads it again */
  TC_PORT_IRQ_RESTORE(s);
}

__attribute__((noinline)) static void store_only(void)
{
  unsigned s = TC_PORT_IRQ_DISABLE();
  sink = (uint32_t)(uintptr_t)tc_thread_self();
  TC_PORT_IRQ_RESTORE(s);
}
#else
#define PROGRAM "cm_switch"
#define SWITCH_ALONE "  PendSV handler (save r4-r11+EXC_RETURN, swap, restore):"
#define ICSR (*(volatile uint32_t *)0xE000ED04u)

__attribute__((noinline)) static void pend_self(void)
{
  ICSR = 1u << 28; /* PENDSVSET: cur == next, the handler switches this thread to itself */
  __asm volatile("isb" ::: "memory");
}

__attribute__((noinline)) static void store_only(void)
{
  sink = 1u << 28;
  __asm volatile("isb" ::: "memory");
}
#endif

static uint64_t pendsv_cycles, pendsv_base, loop_cycles;

static void pendsv_probe(void *arg)
{
  (void)arg;
  tc_thread_sleep(1);
  loop_cycles = empty_loop(2 * ROUNDS); /* as many turns as switches in (a) and (b) */
  uint64_t t0 = tc_cycles();
  for (uint32_t i = 0; i < 4 * ROUNDS; i++) pend_self();
  pendsv_cycles = tc_cycles() - t0;
  t0 = tc_cycles();
  for (uint32_t i = 0; i < 4 * ROUNDS; i++) store_only();
  pendsv_base = tc_cycles() - t0;
}

/* ---- (a) yield ping-pong ---------------------------------------------------------------- */

static uint64_t yield_cycles;

static void yielder_a(void *arg)
{
  (void)arg;
  tc_thread_sleep(1); /* both wake on the same tick; a runs first */
  uint64_t t0 = tc_cycles();
  for (uint32_t i = 0; i < ROUNDS; i++) tc_thread_yield();
  yield_cycles = tc_cycles() - t0;
}

static void yielder_b(void *arg)
{
  (void)arg;
  tc_thread_sleep(1);
  for (uint32_t i = 0; i < ROUNDS; i++) tc_thread_yield();
}

/* ---- (b) preemption by a semaphore give ------------------------------------------------- */

static uint64_t give_cycles;

static void taker_entry(void *arg)
{
  (void)arg;
  for (;;) tc_sem_take(&wake, TC_WAIT_FOREVER); /* back to `low` */
}

static void giver_entry(void *arg)
{
  (void)arg;
  tc_thread_sleep(1); /* `high` has run up to its first take: its start-up is not measured */
  uint64_t t0 = tc_cycles();
  for (uint32_t i = 0; i < ROUNDS; i++) tc_sem_give(&wake);
  give_cycles = tc_cycles() - t0;
}

/* ---- (c) preemption by a resume --------------------------------------------------------- */

static uint64_t resume_cycles;

static void suspender_entry(void *arg)
{
  (void)arg;
  for (;;) tc_thread_suspend(&high); /* back to `low` */
}

static void resumer_entry(void *arg)
{
  (void)arg;
  tc_thread_resume(&high); /* first run of `high`: its start-up is not measured */
  tc_thread_sleep(1);
  uint64_t t0 = tc_cycles();
  for (uint32_t i = 0; i < ROUNDS; i++) tc_thread_resume(&high);
  resume_cycles = tc_cycles() - t0;
}

#if TC_MPU_STACK_GUARD
/* The bytes of a 1 KB stack at `offset` from an address aligned to the guard region that are
 * not usable stack. */
static uint8_t probe_stack[2048] __attribute__((aligned(TC_PORT_STACK_GUARD)));

static void nop_entry(void *arg) { (void)arg; }

static unsigned guard_loss(size_t offset)
{
  tc_thread_info_t i;
  tc_kernel_init();
  if (tc_thread_create(&a, "probe", nop_entry, NULL, probe_stack + offset, 1024, 10, 10, 0, 0) != TC_OK ||
      tc_thread_info(&a, &i) != TC_OK)
    return 0;
  return (unsigned)(1024u - i.stack_size);
}
#endif

static int run(void)
{
  tc_kernel_init();
  tc_thread_create(&a, "pendsv", pendsv_probe, NULL, stacks[0], sizeof stacks[0], 10, 10, 0, TC_AUTO_START);
  int code = tc_kernel_start();

  tc_kernel_init();
  tc_thread_create(&a, "a", yielder_a, NULL, stacks[0], sizeof stacks[0], 10, 10, 0, TC_AUTO_START);
  tc_thread_create(&b, "b", yielder_b, NULL, stacks[1], sizeof stacks[1], 10, 10, 0, TC_AUTO_START);
  code |= tc_kernel_start();

  tc_kernel_init();
  tc_sem_create(&wake, "wake", 0, 1);
  tc_thread_create(&high, "high", taker_entry, NULL, stacks[2], sizeof stacks[2], 5, 5, 0, TC_AUTO_START);
  tc_thread_create(&low, "low", giver_entry, NULL, stacks[3], sizeof stacks[3], 10, 10, 0, TC_AUTO_START);
  code |= tc_kernel_start();

  tc_kernel_init();
  tc_thread_create(&high, "high", suspender_entry, NULL, stacks[2], sizeof stacks[2], 5, 5, 0, 0);
  tc_thread_create(&low, "low", resumer_entry, NULL, stacks[3], sizeof stacks[3], 10, 10, 0, TC_AUTO_START);
  code |= tc_kernel_start();
  return code;
}

int main(void)
{
  int code = run();
  const char *cpu = CM_FIGURES_CPU;
  printf(PROGRAM " on %s, QEMU -icount " FIGURES_ICOUNT "; kernel TC_PRIORITIES=%u TC_CHECKS=%u TC_STATS=%u "
         "TC_STACK_CHECK=%u TC_IRQ_OFF_MEASURE=%u TC_MPU_STACK_GUARD=%u\n",
         cpu, (unsigned)TC_PRIORITIES, (unsigned)TC_CHECKS, (unsigned)TC_STATS, (unsigned)TC_STACK_CHECK,
         (unsigned)TC_IRQ_OFF_MEASURE, (unsigned)TC_MPU_STACK_GUARD);
  uint32_t pendsv = per_event_x100(pendsv_cycles - pendsv_base, 4 * ROUNDS);
  uint32_t loop = per_event_x100(loop_cycles, 2 * ROUNDS);
  uint32_t yield = per_event_x100(yield_cycles, 2 * ROUNDS);
  uint32_t give = per_event_x100(give_cycles, 2 * ROUNDS);
  uint32_t resume = per_event_x100(resume_cycles, 2 * ROUNDS);
  print_x100(SWITCH_ALONE, pendsv);
  print_x100("  loop overhead per switch (subtracted below):", loop);
  print_x100("  (a) yield ping-pong, equal priority, per switch:", yield - loop);
  print_x100("  (b) preemption by a semaphore give to a higher-priority thread / its take, per switch:", give - loop);
  print_x100("  (c) preemption by resume of a higher-priority thread / self-suspend, per switch:", resume - loop);
#if TC_MPU_STACK_GUARD
  unsigned aligned = guard_loss(0), unaligned = guard_loss(8);
  printf("  stack guard: a %u-byte MPU region; bytes a 1 KB stack gives up: %u aligned to it, %u at 8 "
         "bytes past that\n",
         (unsigned)TC_PORT_STACK_GUARD, aligned, unaligned);
  code |= aligned == 0 || unaligned == 0;
#endif
#if TC_IRQ_OFF_MEASURE
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  extern uintptr_t tc__irq_off_from, tc__irq_off_to;
  printf("  longest interrupt-masked stretch in (c): %lu instructions (lock at 0x%lx, unlock at 0x%lx)\n",
         (unsigned long)FIGURES_INSTRUCTIONS(k.max_irq_off), (unsigned long)tc__irq_off_from,
         (unsigned long)tc__irq_off_to);
#endif
  return code != 0 || pendsv_cycles == 0 || yield_cycles == 0 || give_cycles == 0 || resume_cycles == 0;
}
