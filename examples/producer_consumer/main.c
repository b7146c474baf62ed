/*
 * producer_consumer: seed 002's experiment on Tacet, printed as the seed's table
 * ("Assessing the results"). Usage: producer_consumer [rounds] [switch-cost-cycles]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pc.h"
#include "tacet/sim.h"
#include "tacet/tacet.h"

/* Cycles charged per context switch. 120 cycles is a Cortex-M3/M4 thread-to-thread switch
 * through a kernel service: ~40 for the PendSV save/restore and exception entry/exit and
 * ~80 for the service's scheduling decision (see bench/ and README for the figures
 * measured on QEMU). Override with the second argument. */
#define DEFAULT_SWITCH_COST 120u

static const pc_params base = {.rounds = 1000, .produce_cycles = 150, .consume_cycles = 150};

int main(int argc, char **argv)
{
  unsigned rounds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : base.rounds;
  uint64_t cost = argc > 2 ? strtoull(argv[2], NULL, 10) : DEFAULT_SWITCH_COST;
  if (rounds == 0) {
    fprintf(stderr, "usage: producer_consumer [rounds > 0] [switch-cost-cycles]\n");
    return 2;
  }
  pc_result r[2];
  const unsigned thresholds[2] = {4, 1};
  for (int i = 0; i < 2; i++) {
    pc_params p = base;
    p.producer_threshold = thresholds[i];
    p.rounds = rounds;
    tc_kernel_init();
    tc_sim_set_switch_cost(cost);
    int code = pc_run(&p, &r[i]);
    if (code != 0) {
      fprintf(stderr, "producer_consumer: case %d failed (code %d)\n", i + 1, code);
      return 1;
    }
  }
  printf("Seed 002 producer/consumer on the Tacet sim port: %u rounds of 9 messages,\n", rounds);
  printf("%u cycles to produce and %u to consume a message, %" PRIu64 " cycles per context switch.\n\n",
         base.produce_cycles, base.consume_cycles, cost);
  printf("%-22s %22s %26s %8s\n", "Measurement", "Case 1 (unique prio.)", "Case 2 (preempt.-threshold)", "Ratio");
  printf("%-22s %22" PRIu64 " %26" PRIu64 " %7.0f%%\n", "Context switches", r[0].context_switches,
         r[1].context_switches, 100.0 * (double)r[0].context_switches / (double)r[1].context_switches);
  printf("%-22s %22" PRIu64 " %26" PRIu64 " %7.0f%%\n", "Elapsed cycles", r[0].elapsed, r[1].elapsed,
         100.0 * (double)r[0].elapsed / (double)r[1].elapsed);
  printf("%-22s %22" PRIu64 " %26" PRIu64 " %8s\n", "Messages sent", r[0].sent, r[1].sent, "same");
  printf("%-22s %22" PRIu64 " %26" PRIu64 " %8s\n", "Messages received", r[0].received, r[1].received, "same");
  printf("\nPer 9 messages: %.2f vs %.2f context switches (seed 002: 18 vs 4); elapsed ratio %.2f "
         "(seed 002 measured 7,531 vs 4,420 ticks: 1.70).\n",
         9.0 * (double)r[0].context_switches / (double)r[0].sent, 9.0 * (double)r[1].context_switches / (double)r[1].sent,
         (double)r[0].elapsed / (double)r[1].elapsed);
  return 0;
}
