/* SPDX-License-Identifier: MIT */
/*
 * workloads: run every workload of bench/workloads once in a thread, check that it passed its
 * self-check and called its three points in order, and print what a run costs: instructions
 * under QEMU -icount on Cortex-M, host time on the sim port. Exit status 0 when all passed.
 */
#include <stdio.h>

#include "tacet/tacet.h"
#include "workloads.h"

#if __has_include("tacet/sim.h")
#include "tacet/sim.h"
#define SIM 1
#define STACK_SIZE (24u * 1024u)
#elif defined(__riscv)
#include "tacet/riscv.h"
#define SIM 0
#define STACK_SIZE (WL_STACK_BYTES + 2048u)
#define tc_cm_cycles_to_instructions tc_rv_cycles_to_instructions
#else
#include "tacet/cortex_m.h"
#define SIM 0
#define STACK_SIZE (WL_STACK_BYTES + 2048u)
#endif

static tc_thread runner;
static uint8_t stack[STACK_SIZE] __attribute__((aligned(8)));
static unsigned failures;

typedef struct {
  unsigned next; /* the point expected next */
  bool in_order;
} points;

static void count_point(wl_point p, void *ctx)
{
  points *seen = ctx;
  seen->in_order &= (unsigned)p == seen->next;
  seen->next++;
}

static void runner_entry(void *arg)
{
  (void)arg;
  for (unsigned i = 0; i < WL_COUNT; i++) {
    const wl_workload *w = &wl_workloads[i];
    points seen = {0, true};
    uint64_t t0 = tc_cycles();
    bool ok = w->run(count_point, &seen);
    uint64_t cycles = tc_cycles() - t0;
    bool all = seen.in_order && seen.next == WL_POINTS;
#if SIM
    printf("  %-10s %s  %5lu bytes of data\n", w->name, ok && all ? "ok    " : "FAILED",
           (unsigned long)w->footprint);
    (void)cycles;
#else
    printf("  %-10s %s  %5lu bytes of data  %7lu instructions\n", w->name, ok && all ? "ok    " : "FAILED",
           (unsigned long)w->footprint, (unsigned long)tc_cm_cycles_to_instructions(cycles));
#endif
    if (!ok) printf("  %s: the self-check failed\n", w->name);
    if (!all) printf("  %s: the points were not called once each, in order\n", w->name);
    failures += !ok || !all;
  }
}

int main(void)
{
  printf("workloads on %s (bench/workloads): self-check and points\n", TC_PORT_NAME);
  tc_kernel_init();
  tc_thread_create(&runner, "runner", runner_entry, NULL, stack, sizeof stack, 10, 10, 0, TC_AUTO_START);
  tc_kernel_start();
  printf("%u of %u workloads passed\n", WL_COUNT - failures, WL_COUNT);
  return failures != 0;
}
