/* SPDX-License-Identifier: MIT */
/*
 * The MPU stack guard's overflows that stop the run (ports/cortex-m/guard.c): one scenario
 * per run, named by the first argument (QEMU -append). ctest matches the message each one
 * must print; a scenario that returns prints "not stopped" and fails.
 *
 *   masked   a thread overflows with the kernel masked: MemManage cannot preempt, the fault
 *            escalates to HardFault, and the thread is named
 *   hisr     an HISR overflows: the hook names it, then the run stops (no HISR can be
 *            terminated)
 *   signal   a signal diverts a thread whose saved stack has no room for the trampoline's
 *            frame (the kernel writes it, where no guard is armed: checked in software)
 *   idle     the startup context overflows the process stack (its guard is armed too; it
 *            runs masked, so this too escalates to HardFault)
 *   other    a MemManage fault that is no overflow (a thread fetches an instruction from the
 *            execute-never system region): the port's fault report, as without the guard
 */
#include <stdio.h>
#include <string.h>

#include "tacet/tacet.h"

#if !TC_MPU_STACK_GUARD
#error "test_stack_guard_fatal needs a kernel built with TC_MPU_STACK_GUARD=1"
#endif

#define G TC_PORT_STACK_GUARD
static uint8_t stacks[2][G + 1024] __attribute__((aligned(G)));
static tc_thread v, w;
static tc_hisr h;

void tc_stack_overflow_hook(tc_thread *t)
{
  printf("hook: %s\n", t->name);
  fflush(stdout);
}

static volatile uint32_t depth;

__attribute__((noinline)) static uint32_t recurse(uint32_t n)
{
  volatile uint32_t local[2];
  local[0] = n;
  local[1] = n;
  depth = n;
  if (n == UINT32_MAX) return 0;
  return recurse(n + 1) + local[0] + local[1];
}

static void masked_recursion(void *arg)
{
  (void)arg;
  (void)TC_PORT_IRQ_DISABLE();
  (void)recurse(0);
}

static void recursing_hisr(void) { (void)recurse(0); }

static void activator(void *arg)
{
  (void)arg;
  tc_hisr_activate(&h);
}

static void signal_handler(uint32_t signals) { (void)signals; }

static void sleeper(void *arg)
{
  (void)arg;
  tc_thread_sleep(TC_WAIT_FOREVER);
}

/* v sleeps; its saved context (r4-r11, EXC_RETURN and the frame: 17 words) is moved to the
 * bottom of its stack, as if it had blocked with 16 bytes to spare, and then signalled. */
static void signaller(void *arg)
{
  (void)arg;
  uint32_t *sp = v.ctx.sp;
  uint32_t *low = (uint32_t *)(void *)(v.stack_base + 16);
  memmove(low, sp, 17 * sizeof *sp);
  v.ctx.sp = low;
  tc_signal_send(&v, 1u);
}

/* A thread, unmasked, so that MemManage itself sees the fault. */
static void execute_never(void *arg)
{
  (void)arg;
  void (*never)(void) = (void (*)(void))(uintptr_t)0xE0000001u; /* system space: execute-never */
  never();
}

static int run_thread(void (*entry)(void *), void (*second)(void *))
{
  tc_kernel_init();
  tc_thread_create(&v, "v", entry, NULL, stacks[0], sizeof stacks[0], 5, 5, 0, TC_AUTO_START);
  if (second != NULL) tc_thread_create(&w, "w", second, NULL, stacks[1], sizeof stacks[1], 6, 6, 0, TC_AUTO_START);
  return tc_kernel_start();
}

int main(int argc, char **argv)
{
  const char *what = argc > 1 ? argv[1] : "";
  if (strcmp(what, "masked") == 0) {
    run_thread(masked_recursion, NULL);
  } else if (strcmp(what, "hisr") == 0) {
    tc_kernel_init();
    tc_hisr_create(&h, "h", recursing_hisr, 0, stacks[1], sizeof stacks[1]);
    tc_thread_create(&v, "v", activator, NULL, stacks[0], sizeof stacks[0], 5, 5, 0, TC_AUTO_START);
    tc_kernel_start();
  } else if (strcmp(what, "signal") == 0) {
    tc_kernel_init();
    tc_thread_create(&v, "v", sleeper, NULL, stacks[0], sizeof stacks[0], 5, 5, 0, TC_AUTO_START);
    tc_signal_handler_set(&v, signal_handler);
    tc_thread_create(&w, "w", signaller, NULL, stacks[1], sizeof stacks[1], 6, 6, 0, TC_AUTO_START);
    tc_kernel_start();
  } else if (strcmp(what, "idle") == 0) {
    tc_kernel_init(); /* arms the startup context's guard */
    (void)recurse(0);
  } else if (strcmp(what, "other") == 0) {
    run_thread(execute_never, NULL);
  } else {
    printf("usage: test_stack_guard_fatal masked|hisr|signal|idle|other\n");
    return 2;
  }
  printf("not stopped (depth %lu)\n", (unsigned long)depth);
  return 1;
}
