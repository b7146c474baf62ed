/* SPDX-License-Identifier: MIT */
/*
 * threads: a port-neutral tour of the thread services; it builds and runs unchanged on the
 * sim port and on the Cortex-M boards (tacet run --target sim|qemu-m3|qemu-m4
 * examples/threads).
 *
 * Two workers of equal priority take turns with tc_thread_yield(); a monitor of higher
 * priority wakes every tick, then resumes a suspended helper of still higher priority, which
 * preempts it. When every thread has completed, nothing can run any more and tc_kernel_start()
 * returns; main() prints what the kernel counted.
 */
#include <inttypes.h>
#include <stdio.h>

#include "tacet/tacet.h"

/* Host C code on the sim port needs big stacks; a Cortex-M thread that calls printf needs
 * about 1 KB. */
#define STACK_SIZE (TC_PORT_STACK_MIN > 4096u ? 4u * TC_PORT_STACK_MIN : 2048u)
#define TURNS      5u
#define TICKS      3u

static tc_thread worker_a, worker_b, monitor, helper;
static uint8_t stacks[4][STACK_SIZE] __attribute__((aligned(16)));

static void worker_entry(void *arg)
{
  const char *name = arg;
  for (unsigned i = 0; i < TURNS; i++) {
    printf("  %s turn %u (tick %" PRIu32 ")\n", name, i, tc_tick_get());
    tc_thread_yield(); /* the other worker runs */
  }
}

static void helper_entry(void *arg)
{
  (void)arg;
  printf("  helper runs before the monitor that resumed it goes on\n");
}

static void monitor_entry(void *arg)
{
  (void)arg;
  for (unsigned i = 0; i < TICKS; i++) {
    tc_thread_sleep(1);
    printf("  monitor awake at tick %" PRIu32 "\n", tc_tick_get());
  }
  tc_thread_resume(&helper); /* higher priority than the monitor: runs at once */
  printf("  monitor done\n");
}

static void print_thread(const tc_thread *t)
{
  tc_thread_info_t i;
  tc_thread_info(t, &i);
  printf("  %-8s prio %2u  switched in %2" PRIu64 "  preempted %2" PRIu64 "  stack %4lu of %lu bytes\n",
         i.name, i.priority, i.switches_in, i.preempted, (unsigned long)i.stack_high_water,
         (unsigned long)i.stack_size);
}

int main(void)
{
  printf("threads on the %s port\n", TC_PORT_NAME);
  tc_kernel_init();
  tc_thread_create(&worker_a, "worker_a", worker_entry, "worker_a", stacks[0], STACK_SIZE, 10, 10, 0, TC_AUTO_START);
  tc_thread_create(&worker_b, "worker_b", worker_entry, "worker_b", stacks[1], STACK_SIZE, 10, 10, 0, TC_AUTO_START);
  tc_thread_create(&monitor, "monitor", monitor_entry, NULL, stacks[2], STACK_SIZE, 5, 5, 0, TC_AUTO_START);
  tc_thread_create(&helper, "helper", helper_entry, NULL, stacks[3], STACK_SIZE, 2, 2, 0, 0);
  int code = tc_kernel_start(); /* returns when every thread has completed */

  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  print_thread(&worker_a);
  print_thread(&worker_b);
  print_thread(&monitor);
  print_thread(&helper);
  printf("  %" PRIu32 " ticks, %" PRIu64 " context switches, %" PRIu64 " preemptions, %" PRIu64
         " interrupts, %" PRIu64 " idle cycles (%" PRIu32 " Hz)\n",
         tc_tick_get(), k.context_switches, k.preemptions, k.interrupts, k.idle_cycles, tc_cycles_hz());
  const char *why = tc_check();
  printf("  kernel invariants: %s\n", why == NULL ? "hold" : why);
  return code != 0 || why != NULL;
}
