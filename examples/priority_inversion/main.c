/* SPDX-License-Identifier: MIT */
/*
 * priority_inversion: Carbone's mutex experiment on Tacet (pi.h), printed in the shape of
 * the paper's two tables. Usage: priority_inversion [plain|threshold|inherit|both]...
 * (default: all four runs, one after the other). Naming one run lets `tacet run --trace`
 * record just that run, whose priority inversions `tacet trace` then lists.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pi.h"
#include "tacet/tacet.h"


static double average(uint64_t sum, uint32_t n) { return n != 0 ? (double)sum / (double)n : 0.0; }

int main(int argc, char **argv)
{
  bool wanted[PI_RUNS] = {false};
  int runs = 0;
  for (int i = 1; i < argc; i++) {
    int k = 0;
    while (k < PI_RUNS && strcmp(argv[i], pi_run_names[k]) != 0) k++;
    if (k == PI_RUNS) {
      fprintf(stderr, "priority_inversion: unknown run '%s'\n%s", argv[i],
              "usage: priority_inversion [plain|threshold|inherit|both]...\n");
      return 2;
    }
    wanted[k] = true;
    runs++;
  }
  pi_result r[PI_RUNS];
  for (int k = 0; k < PI_RUNS; k++) {
    if (runs != 0 && !wanted[k]) continue;
    pi_params p = pi_seed_params;
    p.kind = (pi_run_kind)k;
    tc_kernel_init();
    int code = pi_run(&p, &r[k]);
    if (code != 0) {
      fprintf(stderr, "priority_inversion: run %s failed (code %d)\n", pi_run_names[k], code);
      return 1;
    }
  }

  printf("Carbone, \"Reducing Context Switching with Preemption-Threshold\": the mutex experiment\n"
         "on Tacet (port %s): High (priority %u), Medium (%u) and Low (%u).\n",
         TC_PORT_NAME, PI_HIGH_PRIORITY, PI_MEDIUM_PRIORITY, PI_LOW_PRIORITY);
  const pi_params *p = &pi_seed_params;
  printf("High sleeps %" PRIu32 " ticks, then holds the mutex for %" PRIu32 " ticks of work; Medium sleeps %" PRIu32
         ", then computes %" PRIu32 ";\nLow holds the mutex for %" PRIu32 " ticks of work, then sleeps %" PRIu32
         ". A run lasts %" PRIu32 " ticks (1 tick = %u us);\ntc_cycles are %s at %" PRIu32 " Hz.\n\n",
         p->high_sleep_ticks, p->high_cs_ticks, p->medium_sleep_ticks, p->medium_work_ticks, p->low_cs_ticks,
         p->low_sleep_ticks, p->run_ticks, 1000000u / TC_TICK_HZ, pi_port_cycles_unit(), tc_cycles_hz());

  printf("Relative time between mutex get and put pairs for High, in ticks\n");
  printf("%-32s %9s %9s %9s %15s\n", "", "Average", "Minimum", "Maximum", "Get-put pairs");
  for (int k = 0; k < PI_RUNS; k++) {
    if (runs != 0 && !wanted[k]) continue;
    printf("%-32s %9.1f %9" PRIu64 " %9" PRIu64 " %15" PRIu32 "\n", pi_run_names[k],
           average(r[k].ticks_sum, r[k].pairs), r[k].ticks_min, r[k].ticks_max, r[k].pairs);
  }
  printf("%-32s %9.1f %9u %9u %15u\n", "Carbone, without threshold", 40.1, 2u, 104u, 17u);
  printf("%-32s %9.1f %9u %9u %15u\n\n", "Carbone, with threshold", 2.0, 2u, 2u, 52u);

  printf("The same pairs in tc_cycles\n");
  printf("%-32s %12s %12s %12s %15s\n", "", "Average", "Minimum", "Maximum", "Get-put pairs");
  for (int k = 0; k < PI_RUNS; k++) {
    if (runs != 0 && !wanted[k]) continue;
    printf("%-32s %12.0f %12" PRIu64 " %12" PRIu64 " %15" PRIu32 "\n", pi_run_names[k],
           average(r[k].cycles_sum, r[k].pairs), r[k].cycles_min, r[k].cycles_max, r[k].pairs);
  }

  printf("\nWhat else the kernel and the threads counted\n");
  printf("%-32s %10s %14s %8s %8s %9s %12s\n", "", "Contended", "Max wake-put", "Medium", "Low", "Switches",
         "Preemptions");
  printf("%-32s %10s %14s %8s %8s\n", "", "gets", "(ticks)", "jobs", "sections");
  for (int k = 0; k < PI_RUNS; k++) {
    if (runs != 0 && !wanted[k]) continue;
    printf("%-32s %10" PRIu32 " %14" PRIu64 " %8" PRIu32 " %8" PRIu32 " %9" PRIu64 " %12" PRIu64 "\n", pi_run_names[k],
           r[k].contended, r[k].wake_to_put_max, r[k].medium_jobs, r[k].low_sections, r[k].context_switches,
           r[k].preemptions);
  }
  printf("\nPriority inversions are counted in the trace of one run (Carbone found 9 without the\n"
         "threshold, 0 with it): tacet run --trace F.tctrace examples/priority_inversion -- RUN,\n"
         "then tacet trace F.tctrace.\n");
  return 0;
}
