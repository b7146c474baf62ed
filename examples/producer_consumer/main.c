/*
 * producer_consumer: seed 002's experiment on Tacet, printed as the seed's table
 * ("Assessing the results"). Usage: producer_consumer [rounds] [switch-cost-cycles]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "pc.h"
#include "tacet/tacet.h"

/* Cycles charged per context switch on the sim port, where kernel services themselves take
 * no virtual time: so the charge is a whole thread-to-thread path -- the service call, the
 * scheduler, the switch accounting and PendSV. 130 is that path on a Cortex-M3 with the lean
 * kernel build, measured in instructions under QEMU -icount (bench/cm_switch, "(b)
 * preemption by a semaphore give", cm_switch_lean; see ports/cortex-m/README.md), at one
 * cycle per instruction. Override with the second argument. */
#define DEFAULT_SWITCH_COST 130u

static const pc_params base = {.rounds = 1000, .produce_cycles = 150, .consume_cycles = 150};

/* A whole decimal number in [min, max], or false. */
static bool parse_number(const char *text, unsigned long long min, unsigned long long max, unsigned long long *out)
{
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || text[0] == '-' || v < min || v > max) return false;
  *out = v;
  return true;
}

int main(int argc, char **argv)
{
  unsigned long long rounds = base.rounds, cost = DEFAULT_SWITCH_COST;
  if (argc > 3 || (argc > 1 && !parse_number(argv[1], 1, 1000000, &rounds)) ||
      (argc > 2 && !parse_number(argv[2], 0, 1000000, &cost))) {
    fprintf(stderr, "usage: producer_consumer [rounds 1..1000000] [switch-cost-cycles 0..1000000]\n");
    return 2;
  }
  pc_result r[2];
  bool charged = false;
  const unsigned thresholds[2] = {4, 1};
  for (int i = 0; i < 2; i++) {
    pc_params p = base;
    p.producer_threshold = thresholds[i];
    p.rounds = (unsigned)rounds;
    tc_kernel_init();
    charged = pc_port_setup(cost);
    int code = pc_run(&p, &r[i]);
    if (code != 0) {
      fprintf(stderr, "producer_consumer: case %d failed (code %d)\n", i + 1, code);
      return 1;
    }
  }
  const char *unit = pc_port_time_unit();
  printf("Seed 002 producer/consumer on Tacet (port %s): %llu rounds of 9 messages,\n", TC_PORT_NAME, rounds);
  printf("%" PRIu32 " cycles of work to produce and %" PRIu32 " to consume a message; elapsed time in %s.\n",
         base.produce_cycles, base.consume_cycles, unit);
  if (charged)
    printf("Each context switch is charged %llu cycles (second argument).\n\n", cost);
  else
    printf("Context switches cost what this port's switch costs.\n\n");
  uint64_t e0 = pc_port_elapsed(r[0].elapsed), e1 = pc_port_elapsed(r[1].elapsed);
  printf("%-22s %22s %26s %8s\n", "Measurement", "Case 1 (unique prio.)", "Case 2 (preempt.-threshold)", "Ratio");
  printf("%-22s %22" PRIu64 " %26" PRIu64 " %7.0f%%\n", "Context switches", r[0].context_switches,
         r[1].context_switches, 100.0 * (double)r[0].context_switches / (double)r[1].context_switches);
  printf("%-22s %22" PRIu64 " %26" PRIu64 " %7.0f%%\n", "Elapsed time", e0, e1, 100.0 * (double)e0 / (double)e1);
  printf("%-22s %22" PRIu64 " %26" PRIu64 " %8s\n", "Messages sent", r[0].sent, r[1].sent, "same");
  printf("%-22s %22" PRIu64 " %26" PRIu64 " %8s\n", "Messages received", r[0].received, r[1].received, "same");
  printf("\nPer 9 messages: %.2f vs %.2f context switches (seed 002: 18 vs 4); elapsed ratio %.2f "
         "(seed 002 measured 7,531 vs 4,420 ticks: 1.70).\n",
         9.0 * (double)r[0].context_switches / (double)r[0].sent, 9.0 * (double)r[1].context_switches / (double)r[1].sent,
         (double)e0 / (double)e1);
  return 0;
}
