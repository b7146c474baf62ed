/* SPDX-License-Identifier: MIT */
/*
 * sim_switch: context switches per second of host time on the sim port.
 *
 *   ping-pong  two threads of equal priority yield to each other (one service call per switch)
 *   chain      200 threads in a ring: each resumes the next and suspends itself
 *              (two service calls per switch, the O(1) ready set over 200 threads)
 *
 * A benchmark, not a test: it reads the host's monotonic clock. The switch counts come from
 * the kernel's own counters, so the figure is switches the kernel really made.
 * Usage: sim_switch [switches per case, default 2000000]
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tacet/sim.h"
#include "tacet/tacet.h"

#define STACK_SIZE 16384
#define CHAIN      200

static tc_thread threads[CHAIN];
static uint8_t stacks[CHAIN][STACK_SIZE] __attribute__((aligned(16)));
static uint64_t rounds;

static void pinger(void *arg)
{
  (void)arg;
  for (uint64_t i = 0; i < rounds; i++) tc_thread_yield();
  tc_sim_stop(0);
}

static void link(void *arg)
{
  unsigned i = (unsigned)(uintptr_t)arg;
  tc_thread *next = &threads[(i + 1) % CHAIN];
  for (;;) {
    if (rounds-- == 0) tc_sim_stop(0);
    tc_thread_resume(next);
    tc_thread_suspend(&threads[i]);
  }
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void report(const char *name, double seconds)
{
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  printf("%-10s %9" PRIu64 " switches in %6.3f s: %12.0f switches/s (%6.1f ns per switch)\n", name,
         k.context_switches, seconds, (double)k.context_switches / seconds, seconds * 1e9 / (double)k.context_switches);
}

int main(int argc, char **argv)
{
  uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000000u;
  if (n == 0) {
    fprintf(stderr, "usage: sim_switch [switches per case > 0]\n");
    return 2;
  }
  printf("Tacet sim port, %s context switch, TC_CHECKS=%d TC_STATS=%d TC_PRIORITIES=%d\n",
         TC_SIM_UCONTEXT ? "ucontext" : "assembly", TC_CHECKS, TC_STATS, TC_PRIORITIES);

  tc_kernel_init();
  rounds = n / 2;
  tc_thread_create(&threads[0], "ping", pinger, NULL, stacks[0], STACK_SIZE, 5, 5, 0, TC_AUTO_START);
  tc_thread_create(&threads[1], "pong", pinger, NULL, stacks[1], STACK_SIZE, 5, 5, 0, TC_AUTO_START);
  double t0 = now_s();
  tc_kernel_start();
  report("ping-pong", now_s() - t0);

  tc_kernel_init();
  rounds = n;
  for (unsigned i = 0; i < CHAIN; i++)
    tc_thread_create(&threads[i], "link", link, (void *)(uintptr_t)i, stacks[i], STACK_SIZE, 20 + i % 8, 20 + i % 8, 0,
                     i == 0 ? TC_AUTO_START : 0);
  t0 = now_s();
  tc_kernel_start();
  report("chain-200", now_s() - t0);
  return 0;
}
