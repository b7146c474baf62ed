/* SPDX-License-Identifier: MIT */
/*
 * The MPU stack guard on the Cortex-M port (TC_MPU_STACK_GUARD; ports/cortex-m/guard.c,
 * docs/stack-guard.md), under QEMU, whose mps2 boards model the ARMv7-M MPU.
 *
 * Each victim thread gets a stack laid out as [below | guard | usable] (guarded_area): the
 * kernel puts the guard region at `guard` and the usable stack right above it; `below` stands
 * for whatever memory precedes a stack. Both are filled with a pattern first, so a test can
 * tell that an overflow was stopped at its first write into the guard: nothing in `guard`
 * changed (no access) and nothing in `below` either, while the usable stack was used up to
 * its last byte (high-water mark = stack size). The overflows come every way the port knows:
 * the thread's own stores (a recursion, a push one word too deep), the hardware stacking an
 * interrupt's frame, PendSV saving the thread at a switch, and (M4F with a 32-byte guard) the
 * lazy save of the FPU registers.
 */
#include <string.h>

#include "tacet/cortex_m.h"
#include "tct.h"

#if !TC_MPU_STACK_GUARD
#error "test_stack_guard needs a kernel built with TC_MPU_STACK_GUARD=1"
#endif

#define G      TC_PORT_STACK_GUARD
/* A guard smaller than an exception frame with FP state (M4F, TC_CM_STACK_GUARD_SIZE=32):
 * such a frame, or PendSV's save of s16-s31, can land below the guard, so a thread with FP
 * state (tct_log's formatting gives it some) is not reliably stopped at the guard. The
 * program built that way runs the cases that do not depend on it, and shows the lazy save
 * faulting. */
#if defined(__ARM_FP) && TC_PORT_STACK_GUARD < 104
#define SMALL_FP_GUARD 1
#else
#define SMALL_FP_GUARD 0
#endif
#define USABLE 1024u
#define FILL   0x5Au

typedef struct {
  uint8_t below[G];
  uint8_t guard[G];
  uint8_t usable[USABLE];
} guarded_area;

static guarded_area areas[4] __attribute__((aligned(G)));
#define STACK_OF(i) areas[(i)].guard, (size_t)(G + USABLE)

static tc_thread v, w, h, x;
static tc_hisr hisr;
static uint8_t hisr_stack[G + USABLE] __attribute__((aligned(G)));

/* ---- hardware ----------------------------------------------------------------------------- */

#define MPU_RNR   (*(volatile uint32_t *)0xE000ED98u)
#define MPU_RBAR  (*(volatile uint32_t *)0xE000ED9Cu)
#define SCB_CFSR  (*(volatile uint32_t *)0xE000ED28u)
#define SCB_MMFAR (*(volatile uint32_t *)0xE000ED34u)
#define DACCVIOL  (1u << 1)
#define MSTKERR   (1u << 4)
#define MLSPERR   (1u << 5)
#define MEMMANAGE_EXCEPTION 4u

#define IRQ_KERNEL 30u /* a kernel interrupt, priority 0x80 */

/* The base of the guard region the MPU has armed now. */
static uintptr_t armed_guard(void)
{
  MPU_RNR = TC_CM_STACK_GUARD_REGION;
  return MPU_RBAR & ~(uintptr_t)0x1Fu;
}

static unsigned ipsr(void)
{
  unsigned r;
  __asm volatile("mrs %0, ipsr" : "=r"(r));
  return r & 0x1FFu;
}

/* ---- the hook ----------------------------------------------------------------------------- */

static tc_thread *hit;
static unsigned hits, hit_exception;
static uint32_t hit_cfsr, hit_mmfar;

void tc_stack_overflow_hook(tc_thread *t)
{
  hit = t;
  hits++;
  hit_exception = ipsr();
  hit_cfsr = SCB_CFSR;
  hit_mmfar = SCB_MMFAR;
}

static void begin(void)
{
  tct_begin();
  hit = NULL;
  hits = hit_exception = 0;
  hit_cfsr = hit_mmfar = 0;
  memset(areas, FILL, sizeof areas);
}

static bool filled(const uint8_t *p, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (p[i] != FILL) return false;
  return true;
}

/* The victim on areas[0] was stopped at its first write into the guard. */
static void check_stopped(const char *file, int line, tc_thread *t, uint32_t cause)
{
  tc_thread_info_t i;
  if (hits != 1 || hit != t) tct_fail(file, line, "the hook named the victim, once");
  if (hit_exception != MEMMANAGE_EXCEPTION) tct_fail(file, line, "the hook ran in the MemManage handler");
  if ((hit_cfsr & cause) != cause) tct_fail_eq(file, line, "fault status", (long long)hit_cfsr, cause);
  if (tc_thread_info(t, &i) != TC_OK || i.state != TC_TERMINATED) tct_fail(file, line, "the victim is terminated");
  if (!filled(areas[0].guard, G)) tct_fail(file, line, "nothing was written into the guard");
  if (!filled(areas[0].below, G)) tct_fail(file, line, "nothing was written below the guard");
}
#define CHECK_STOPPED(t, cause) check_stopped(__FILE__, __LINE__, (t), (cause))

static void witness(void *arg)
{
  tct_log("%s", (const char *)arg);
  STEP();
}

/* ---- tc_thread_create and tc_hisr_create: a stack must hold the guard ---------------------- */

static void nop(void *arg) { (void)arg; }
static void nop_hisr(void) {}

static void create_needs_room_for_the_guard(void)
{
  begin();
  uint8_t *aligned = areas[0].guard;
  /* Aligned to the region: it takes exactly G bytes, TC_PORT_STACK_MIN must remain. */
  EXPECT_ARG(tc_thread_create(&v, "v", nop, NULL, aligned, G + TC_PORT_STACK_MIN - 8, 5, 5, 0, 0), TC_INVALID);
  OK(tc_thread_create(&v, "v", nop, NULL, aligned, G + TC_PORT_STACK_MIN, 5, 5, 0, 0));
  tc_thread_info_t i;
  OK(tc_thread_info(&v, &i));
  CHECK_EQ(i.stack_size, TC_PORT_STACK_MIN);
  CHECK(v.stack_base == aligned + G);
  CHECK_EQ(v.ctx.guard & ~(uint32_t)0x1Fu, (uintptr_t)aligned);
  /* Not aligned: the region starts at the next aligned address, the bytes below it are lost. */
  EXPECT_ARG(tc_thread_create(&w, "w", nop, NULL, aligned + 8, G + TC_PORT_STACK_MIN, 5, 5, 0, 0), TC_INVALID);
  OK(tc_thread_create(&w, "w", nop, NULL, aligned + 8, 2 * G + TC_PORT_STACK_MIN - 8, 5, 5, 0, 0));
  CHECK(w.stack_base == aligned + 2 * G);
  OK(tc_thread_info(&w, &i));
  CHECK_EQ(i.stack_size, TC_PORT_STACK_MIN);
  /* An HISR's stack likewise. */
  EXPECT_ARG(tc_hisr_create(&hisr, "h", nop_hisr, 0, hisr_stack, G + TC_PORT_STACK_MIN - 8), TC_INVALID);
  OK(tc_hisr_create(&hisr, "h", nop_hisr, 0, hisr_stack, G + TC_PORT_STACK_MIN));
  CHECK(hisr.ctx.stack_base == hisr_stack + G);
}

#if !SMALL_FP_GUARD
/* ---- a recursion ------------------------------------------------------------------------ */

static volatile uint32_t depth;

/* Small frames (at most 32 bytes each, whatever the options): each step down writes before it
 * could pass the guard. */
__attribute__((noinline)) static uint32_t recurse(uint32_t n)
{
  volatile uint32_t local[2];
  local[0] = n;
  local[1] = n;
  depth = n;
  if (n == UINT32_MAX) return 0;
  return recurse(n + 1) + local[0] + local[1];
}

static void recursing(void *arg)
{
  (void)arg;
  tct_log("v-starts");
  tc_thread_yield(); /* the guard moves away and back */
  (void)recurse(0);
  tct_log("v-returned");
}

static void recursion_stopped_at_first_write(void)
{
  begin();
  OK(tc_thread_create(&v, "v", recursing, NULL, STACK_OF(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(&w, "w", witness, "w-runs", STACK_OF(1), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(&x, "x", witness, "x-runs", STACK_OF(2), 9, 9, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("v-starts w-runs x-runs");
  CHECK_STOPPED(&v, DACCVIOL);
  CHECK(hit_mmfar >= (uintptr_t)areas[0].guard && hit_mmfar < (uintptr_t)areas[0].usable);
  CHECK(depth > 10);
  tc_thread_info_t i;
  OK(tc_thread_info(&v, &i));
  /* It had used its stack to the last frame: the next one's first write faulted. */
  CHECK(i.stack_high_water > i.stack_size - 32);
  STEP();
  OK(tc_thread_delete(&v));
  STEP();
}

/* The same with the scheduler locked: the lock ends with the thread. */
static void locked_recursing(void *arg)
{
  (void)arg;
  tc_sched_lock();
  (void)recurse(0);
}

static void recursion_with_the_scheduler_locked(void)
{
  begin();
  OK(tc_thread_create(&v, "v", locked_recursing, NULL, STACK_OF(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(&w, "w", witness, "w-runs", STACK_OF(1), 9, 9, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("w-runs");
  CHECK_STOPPED(&v, DACCVIOL);
  STEP();
}

/* A mutex the victim holds goes to its waiter, as after tc_thread_terminate(). */
static tc_mutex mx;

static void owner_recursing(void *arg)
{
  (void)arg;
  OK(tc_mutex_lock(&mx, TC_NO_WAIT));
  tc_thread_sleep(2); /* w starts waiting for the mutex */
  (void)recurse(0);
}

static void mutex_waiter(void *arg)
{
  (void)arg;
  tc_thread_sleep(1); /* v owns the mutex */
  tc_status st = tc_mutex_lock(&mx, TC_WAIT_FOREVER);
  tct_log("w-got-%d", (int)st);
  STEP();
  OK(tc_mutex_unlock(&mx));
}

static void held_mutex_goes_to_its_waiter(void)
{
  begin();
  OK(tc_mutex_create(&mx, "mx", TC_INHERIT));
  OK(tc_thread_create(&v, "v", owner_recursing, NULL, STACK_OF(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(&w, "w", mutex_waiter, NULL, STACK_OF(1), 3, 3, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("w-got-0");
  CHECK_STOPPED(&v, DACCVIOL);
  STEP();
}

#endif

/* ---- the last byte, and one word more ----------------------------------------------------- */

/* Four words pushed at stack pointer `sp` (interrupts other than MemManage held off by
 * BASEPRI, so that no frame is stacked while the stack pointer is that low), then the stack
 * pointer restored. STMDB writes upwards, from sp - 16. */
__attribute__((noinline)) static void push_at(uintptr_t sp)
{
  __asm volatile("mov r12, sp\n\t"
                 "msr basepri, %1\n\t"
                 "isb\n\t"
                 "mov sp, %0\n\t"
                 "movs r0, #0\n\t"
                 "movs r1, #0\n\t"
                 "movs r2, #0\n\t"
                 "movs r3, #0\n\t"
                 "push {r0-r3}\n\t"
                 "mov sp, r12\n\t"
                 "msr basepri, %2\n\t"
                 "isb"
                 :
                 : "r"(sp), "r"(0x80u), "r"(0u)
                 : "r0", "r1", "r2", "r3", "r12", "memory");
}

static void fills_its_stack(void *arg)
{
  (void)arg;
  CHECK_EQ(armed_guard(), (uintptr_t)areas[0].guard);
  push_at((uintptr_t)v.stack_base + 16); /* the lowest 16 bytes of the stack: not the guard */
  tct_log("v-filled");
}

static void one_word_too_deep(void *arg)
{
  (void)arg;
  push_at((uintptr_t)x.stack_base + 12); /* the first word goes to stack_base - 4 */
  tct_log("x-returned");
}

static void whole_stack_usable_one_word_more_stopped(void)
{
  begin();
  OK(tc_thread_create(&v, "v", fills_its_stack, NULL, STACK_OF(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(&w, "w", witness, "w-runs", STACK_OF(1), 6, 6, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("v-filled w-runs");
  CHECK_EQ(hits, 0);
  tc_thread_info_t i;
  OK(tc_thread_info(&v, &i));
  CHECK_EQ(i.state, TC_COMPLETED);
  CHECK_EQ(i.stack_high_water, i.stack_size); /* its last byte was written */
  STEP();

  begin();
  OK(tc_thread_create(&x, "x", one_word_too_deep, NULL, STACK_OF(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(&w, "w", witness, "w-runs", STACK_OF(1), 6, 6, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("w-runs");
  CHECK_STOPPED(&x, DACCVIOL);
  CHECK_EQ(hit_mmfar, (uintptr_t)x.stack_base - 4);
  STEP();
}

/* ---- the guard follows the running context ------------------------------------------------ */

extern char __tc_cm_psp_top[], __tc_cm_psp_size[];

static unsigned rounds[3], foreign_writes;
static tc_thread *ring[3];

/* Thread i checks that its own guard is the armed one, then writes into the guard area of the
 * next thread, which is not running: an ordinary store. */
static void guard_checker(void *arg)
{
  unsigned i = (unsigned)(uintptr_t)arg;
  for (unsigned r = 0; r < 3; r++) {
    CHECK_EQ(armed_guard(), (uintptr_t)ring[i]->stack_base - G);
    tc_thread *next = ring[(i + 1) % 3];
    next->stack_base[-(int)G / 2] = (uint8_t)(0x10 + i);
    foreign_writes++;
    if (i == 0 && r == 1) OK(tc_hisr_activate(&hisr)); /* runs at once, on its own stack */
    rounds[i]++;
    tc_thread_yield();
  }
}

static uintptr_t hisr_saw;

static void guard_checking_hisr(void)
{
  hisr_saw = armed_guard();
  ring[0]->stack_base[-1] = 0x33; /* a thread's guard area, not armed now */
}

static void guard_moves_with_every_switch(void)
{
  begin();
  /* Three stacks at different places, sizes and alignments: the region is found for each. */
  static uint8_t odd[G + USABLE + 40] __attribute__((aligned(G)));
  ring[0] = &v;
  ring[1] = &w;
  ring[2] = &x;
  OK(tc_thread_create(&v, "v", guard_checker, (void *)0, STACK_OF(1), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(&w, "w", guard_checker, (void *)1, odd + 8, sizeof odd - 8, 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(&x, "x", guard_checker, (void *)2, STACK_OF(3), 5, 5, 0, TC_AUTO_START));
  OK(tc_hisr_create(&hisr, "h", guard_checking_hisr, 0, hisr_stack, sizeof hisr_stack));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_EQ(rounds[0] + rounds[1] + rounds[2], 9);
  CHECK_EQ(foreign_writes, 9);
  CHECK_EQ(hits, 0);
  CHECK_EQ(hisr_saw, (uintptr_t)hisr.ctx.stack_base - G);
  CHECK_EQ(w.stack_base[-(int)G / 2], 0x10);
  CHECK_EQ(x.stack_base[-(int)G / 2], 0x11);
  CHECK_EQ(v.stack_base[-(int)G / 2], 0x12);
  CHECK_EQ(v.stack_base[-1], 0x33);
  /* Back in the startup context: its own guard, at the bottom of the process stack. */
  uintptr_t psp_bottom = (uintptr_t)__tc_cm_psp_top - (uintptr_t)__tc_cm_psp_size;
  CHECK_EQ(armed_guard(), (psp_bottom + G - 1) & ~(uintptr_t)(G - 1));
  STEP();
}

/* ---- exception frames and PendSV's save --------------------------------------------------- */

static volatile unsigned irq_runs;
static volatile bool irq_uses_fpu;
static tc_thread *volatile irq_resumes;

void PORT0_6_Handler(void) /* line 30 */
{
  irq_runs++;
#if defined(__ARM_FP)
  if (irq_uses_fpu) __asm volatile("vmov.f32 s0, #1.0" ::: "s0"); /* the lazy save happens here */
#endif
  if (irq_resumes != NULL) (void)tc_thread_resume(irq_resumes);
}

static void irq_setup(tc_thread *resume, bool fpu)
{
  irq_runs = 0;
  irq_resumes = resume;
  irq_uses_fpu = fpu;
  tc_cm_irq_priority(IRQ_KERNEL, 0x80);
  tc_cm_irq_enable(IRQ_KERNEL);
}

/* The interrupt taken with the stack pointer at `sp` (the victim's registers live as they
 * are), then the stack pointer restored if the victim goes on. */
__attribute__((noinline)) static void interrupt_at(uintptr_t sp)
{
  __asm volatile("mov r12, sp\n\t"
                 "mov sp, %0\n\t"
                 "str %1, [%2]\n\t"
                 "dsb\n\t"
                 "isb\n\t"
                 "mov sp, r12"
                 :
                 : "r"(sp), "r"(IRQ_KERNEL), "r"(&TC_CM_NVIC_STIR)
                 : "r12", "memory");
}

static bool victim_fpu;
static uintptr_t victim_sp_offset;

static void interrupted_low(void *arg)
{
  (void)arg;
#if defined(__ARM_FP)
  if (victim_fpu) __asm volatile("vmov s1, %0" : : "r"(1u) : "s1"); /* FP state: 104-byte frames */
#endif
  interrupt_at((uintptr_t)v.stack_base + victim_sp_offset);
  tct_log("v-went-on");
}

static void run_interrupted(uintptr_t sp_offset, bool fpu, tc_thread *resume, bool irq_fpu)
{
  begin();
  victim_sp_offset = sp_offset;
  victim_fpu = fpu;
  irq_setup(resume, irq_fpu);
  OK(tc_thread_create(&v, "v", interrupted_low, NULL, STACK_OF(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(&h, "h", witness, "h-runs", STACK_OF(1), 1, 1, 0, 0));
  OK(tc_thread_create(&w, "w", witness, "w-runs", STACK_OF(2), 9, 9, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  tc_cm_irq_disable(IRQ_KERNEL);
  CHECK_EQ(irq_runs, 1);
}

/* 16 bytes left: the interrupt's 32-byte frame reaches into the guard. The interrupt still
 * runs (after MemManage). */
static void exception_frame_into_the_guard(void)
{
  run_interrupted(16, false, NULL, false);
  CHECK_LOG("w-runs");
  CHECK_STOPPED(&v, MSTKERR);
  STEP();
#if defined(__ARM_FP) && !SMALL_FP_GUARD
  /* With FP state the frame is 104 bytes, of which the hardware writes the lowest 32 at once:
   * 40 bytes left put those inside a 128-byte guard. */
  run_interrupted(40, true, NULL, false);
  CHECK_LOG("w-runs");
  CHECK_STOPPED(&v, MSTKERR);
  STEP();
#endif
}

/* The frame fits, PendSV's save below it does not: the interrupt readies a higher thread, and
 * the switch away from the victim faults in PendSV, which starts again without the victim. */
static void pendsv_save_into_the_guard(void)
{
  run_interrupted(32 + 8, false, &h, false);
  CHECK_LOG("h-runs w-runs");
  CHECK_STOPPED(&v, DACCVIOL);
  CHECK(hit_mmfar >= (uintptr_t)areas[0].guard && hit_mmfar < (uintptr_t)areas[0].usable);
  STEP();
#if defined(__ARM_FP) && !SMALL_FP_GUARD
  /* With FP state: a 104-byte frame fits, s16-s31 do not. */
  run_interrupted(104 + 8, true, &h, false);
  CHECK_LOG("h-runs w-runs");
  CHECK_STOPPED(&v, DACCVIOL);
  STEP();
#endif
}

#if SMALL_FP_GUARD
/* A guard smaller than an FP frame (TC_CM_STACK_GUARD_SIZE=32 on the M4F): with 40 bytes left
 * the frame's lowest 32 bytes land below the guard, unchecked, and the fault comes only when
 * the handler's first FPU instruction saves s0-s15 into the reserved space (MLSPERR). The
 * thread is still stopped; the 32 bytes below the guard are lost (docs/stack-guard.md: why
 * the M4F's default is 128). */
static void lazy_fp_save_into_the_guard(void)
{
  run_interrupted(40, true, NULL, true);
  CHECK_LOG("w-runs");
  CHECK_EQ(hits, 1);
  CHECK(hit == &v);
  CHECK((hit_cfsr & MLSPERR) != 0);
  CHECK(filled(areas[0].guard, G));
  CHECK(!filled(areas[0].below, G)); /* the frame's first 32 bytes */
  tc_thread_info_t i;
  OK(tc_thread_info(&v, &i));
  CHECK_EQ(i.state, TC_TERMINATED);
  STEP();
}
#endif

#if SMALL_FP_GUARD
TCT_MAIN("test_stack_guard", TCT_CASE(create_needs_room_for_the_guard),
         TCT_CASE(whole_stack_usable_one_word_more_stopped), TCT_CASE(guard_moves_with_every_switch),
         TCT_CASE(exception_frame_into_the_guard), TCT_CASE(pendsv_save_into_the_guard),
         TCT_CASE(lazy_fp_save_into_the_guard))
#else
TCT_MAIN("test_stack_guard", TCT_CASE(create_needs_room_for_the_guard), TCT_CASE(recursion_stopped_at_first_write),
         TCT_CASE(recursion_with_the_scheduler_locked), TCT_CASE(held_mutex_goes_to_its_waiter),
         TCT_CASE(whole_stack_usable_one_word_more_stopped), TCT_CASE(guard_moves_with_every_switch),
         TCT_CASE(exception_frame_into_the_guard), TCT_CASE(pendsv_save_into_the_guard))
#endif
