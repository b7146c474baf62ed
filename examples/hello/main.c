/* SPDX-License-Identifier: MIT */
/*
 * hello: three threads share the CPU on the sim port; the kernel counts what every switch
 * cost. `worker` threads of equal priority are time-sliced; `sensor` wakes every 5 ticks,
 * preempts whoever runs, does a little work and sleeps again. At the end the program prints
 * context switches and preemptions per thread, and where the virtual time went.
 */
#include <inttypes.h>
#include <stdio.h>

#include "tacet/sim.h"
#include "tacet/tacet.h"

#define STACK_SIZE 16384
#define RUN_TICKS  100u

static tc_thread sensor, worker_a, worker_b;
static uint8_t stacks[3][STACK_SIZE] __attribute__((aligned(16)));

static void sensor_entry(void *arg)
{
  (void)arg;
  while (tc_tick_get() < RUN_TICKS) {
    tc_sim_consume(20000); /* 200 us of filtering at 100 MHz */
    tc_thread_sleep(5);
  }
  tc_sim_stop(0);
}

static void worker_entry(void *arg)
{
  (void)arg;
  for (;;) tc_sim_consume(1000); /* background computation, preemptible anywhere */
}

static void print_thread(const tc_thread *t)
{
  tc_thread_info_t i;
  tc_thread_info(t, &i);
  printf("  %-9s prio %3u  threshold %3u  switched in %6" PRIu64 "  preempted %6" PRIu64
         "  ran %10" PRIu64 " cycles  stack %5zu/%zu bytes\n",
         i.name, i.priority, i.threshold, i.switches_in, i.preempted, i.cycles, i.stack_high_water,
         i.stack_size);
}

int main(void)
{
  tc_kernel_init();
  tc_sim_set_switch_cost(200);
  tc_thread_create(&sensor, "sensor", sensor_entry, NULL, stacks[0], STACK_SIZE, 5, 5, 0, TC_AUTO_START);
  tc_thread_create(&worker_a, "worker_a", worker_entry, NULL, stacks[1], STACK_SIZE, 10, 10, 2, TC_AUTO_START);
  tc_thread_create(&worker_b, "worker_b", worker_entry, NULL, stacks[2], STACK_SIZE, 10, 10, 2, TC_AUTO_START);
  int code = tc_kernel_start();

  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  printf("Tacet hello on the sim port: %u ticks of %" PRIu64 " cycles\n", tc_tick_get(), tc_sim_cycles_per_tick());
  print_thread(&sensor);
  print_thread(&worker_a);
  print_thread(&worker_b);
  printf("  context switches %" PRIu64 ", preemptions %" PRIu64 ", time slices %" PRIu64
         ", interrupts %" PRIu64 "\n",
         k.context_switches, k.preemptions, k.time_slices, k.interrupts);
  printf("  cycles in switches %" PRIu64 " (%" PRIu64 " per switch), idle %" PRIu64 "\n", k.switch_cycles,
         k.context_switches ? k.switch_cycles / k.context_switches : 0, k.idle_cycles);
  return code;
}
