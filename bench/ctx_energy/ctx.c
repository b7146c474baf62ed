/* SPDX-License-Identifier: MIT */
/*
 * ctx_energy: Pillai and Isha's context-switch experiment (tables 2-3, figs. 9-10) on Tacet, on the
 * LPC2148's five operating points (power/lpc2148.yaml, through its generated header).
 *
 * Two threads. The UART task (priority 10) transmits CTX_UART_BYTES bytes through the board's
 * UART; the MAC task (priority 5) waits on a semaphore and then computes n multiply-accumulates
 * (n = 4, 16, 32), whose result is checked. Each (point, n) runs three ways, each on a fresh
 * kernel:
 *   none       the UART task transmits everything, then calls the MAC task's job itself:
 *              Pillai and Isha's sequential program, no context switch;
 *   give       after CTX_UART_SPLIT bytes the UART task gives the semaphore: the MAC task
 *              preempts it, runs its job, waits again, and the UART task resumes;
 *   interrupt  the same preemption, made by an interrupt handler that gives the semaphore
 *              (Pillai and Isha's "an ISR is called to run the high priority task").
 * The context-switch cost is the difference of the total cycles (Pillai and Isha, section 4.2.1),
 * per preemption and per switch (the kernel counts the switches). The kernel's own accounting
 * (tc_energy_report: the switch path's cycles and energy, the switch count) is read before
 * and after and printed beside it.
 *
 * The UART task starts right after a tick and the measured part is far shorter than a tick,
 * so no interrupt but the one asked for lands inside: every figure is exact and the same on
 * every run. `ctx_energy profile` runs the three ways once per n at the highest point and
 * prints nothing but a line per run (for profile.py, which maps QEMU's executed instructions
 * to functions). Exit status: 0 when every self-check held.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ctx.h"
#include "tacet/power.h"
#include "tacet/tacet.h"
#include "tacet_power_lpc2148.h"

#define POINTS  TC_POWER_LPC2148_COUNT
#define C_EFF   TC_POWER_LPC2148_C_EFF
#define P_STAT  TC_POWER_LPC2148_P_STATIC
#define STACK   16384u /* the sim port runs host C code (printf) on thread stacks */
#define MAC_MAX 32u

enum { NONE, GIVE, INTERRUPT, WAYS };
static const char *const way_name[WAYS] = {"none", "give", "interrupt"};

static const unsigned mac_sizes[] = {4u, 16u, 32u};
#define SIZES (sizeof mac_sizes / sizeof mac_sizes[0])

typedef struct {
  uint64_t units;         /* tc_cycles() units over the CTX_REPEATS transmissions */
  uint64_t switches;      /* context switches the kernel counted in between */
  int64_t switch_units;   /* the kernel's switch-path cycles in between (tc_cycles units) */
  double switch_joules;   /* the kernel's switch-path energy in between */
} ctx_result;

static ctx_result results[POINTS][SIZES][WAYS];
static bool failed;

/* ---- the tasks -------------------------------------------------------------------------- */

static int16_t mac_x[MAC_MAX], mac_y[MAC_MAX];
static uint8_t message[CTX_UART_BYTES];

static struct {
  unsigned way, mac_ops, mac_runs;
  int32_t mac_result;
  bool service_failed;
  tc_energy_report_t before, after;
  uint64_t t0, t1;
  uint32_t ticks; /* ticks during the measurement: none */
} run;

static tc_thread uart_thread, mac_thread;
static tc_sem go;
static uint8_t stacks[2][STACK] __attribute__((aligned(16)));

__attribute__((noinline)) static int32_t mac(const int16_t *x, const int16_t *y, unsigned n)
{
  int32_t acc = 0;
  for (unsigned i = 0; i < n; i++) acc += (int32_t)x[i] * y[i];
  return acc;
}

/* The MAC task's work: the same function whichever thread runs it. */
__attribute__((noinline)) static void mac_job(void)
{
  ctx_mac_cost(run.mac_ops);
  run.mac_result = mac(mac_x, mac_y, run.mac_ops);
  run.mac_runs++;
}

/* The fixed point of the UART work where the MAC task is released (or, sequentially, not). */
__attribute__((noinline)) static void preemption_point(void)
{
  if (run.way == GIVE) {
    if (tc_sem_give(&go) != TC_OK) run.service_failed = true;
  } else if (run.way == INTERRUPT) {
    ctx_raise_irq();
  }
}

void ctx_irq(void)
{
  if (tc_sem_give(&go) != TC_OK) run.service_failed = true;
}

static void mac_task(void *arg)
{
  (void)arg;
  for (;;) {
    if (tc_sem_take(&go, TC_WAIT_FOREVER) != TC_OK) run.service_failed = true;
    mac_job();
  }
}

static void uart_task(void *arg)
{
  (void)arg;
  /* The report first: on a core without an FPU its floating point takes thousands of
   * instructions. Then start right after a tick, so that none lands in the measurement. */
  if (tc_energy_report(&run.before) != TC_OK) run.service_failed = true;
  ctx_wait_tick();
  run.ticks = tc_tick_get();
  run.t0 = tc_cycles();
  for (unsigned r = 0; r < CTX_REPEATS; r++) {
    ctx_uart_send(message, CTX_UART_SPLIT);
    preemption_point();
    ctx_uart_send(message + CTX_UART_SPLIT, CTX_UART_BYTES - CTX_UART_SPLIT);
    if (run.way == NONE) mac_job();
  }
  run.t1 = tc_cycles();
  run.ticks = tc_tick_get() - run.ticks;
  if (tc_energy_report(&run.after) != TC_OK) run.service_failed = true;
  ctx_end_run();
}

/* ---- one run ---------------------------------------------------------------------------- */

static void fail(const char *what, unsigned point, unsigned ops, unsigned way)
{
  printf("FAILED: %s (point %u, MAC %u, preemption %s)\n", what, point, ops, way_name[way]);
  failed = true;
}

/* n(n+1)(4n-1)/6: the sum of k(2k-1) for k = 1..n, what mac() must return for the data. */
static int32_t mac_expected(unsigned n) { return (int32_t)(n * (n + 1u) * (4u * n - 1u) / 6u); }

static bool close_to(double a, double b) { return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-18; }

static void run_case(unsigned point, unsigned ops, unsigned way, ctx_result *out)
{
  memset(&run, 0, sizeof run);
  run.way = way;
  run.mac_ops = ops;
  tc_kernel_init();
  ctx_port_setup();
  if (tc_power_init(TC_POWER_LPC2148_POINTS, POINTS, C_EFF, P_STAT) != TC_OK || tc_power_set_point(point) != TC_OK ||
      tc_sem_create(&go, "go", 0, 1) != TC_OK ||
      tc_thread_create(&mac_thread, "mac", mac_task, NULL, stacks[0], STACK, 5, 5, 0, TC_AUTO_START) != TC_OK ||
      tc_thread_create(&uart_thread, "uart", uart_task, NULL, stacks[1], STACK, 10, 10, 0, TC_AUTO_START) != TC_OK) {
    fail("set-up", point, ops, way);
    return;
  }
  (void)tc_kernel_start();

  const tc_energy_report_t *b = &run.before, *a = &run.after;
  out->units = run.t1 - run.t0;
  out->switches = a->context_switches - b->context_switches;
  out->switch_units = (int64_t)(a->switching.total_cycles - b->switching.total_cycles);
  out->switch_joules = a->switching.joules - b->switching.joules;
  const int64_t jitter = (int64_t)ctx_clock_jitter();

  if (run.service_failed) fail("a kernel service failed", point, ops, way);
  if (run.ticks != 0) fail("a tick landed in the measurement", point, ops, way);
  if (run.mac_runs != CTX_REPEATS || run.mac_result != mac_expected(ops)) fail("MAC result", point, ops, way);
  if (!ctx_uart_check(message, CTX_UART_BYTES, CTX_REPEATS * CTX_UART_BYTES))
    fail("UART transmission", point, ops, way);
  if (out->switches != (way == NONE ? 0u : 2u * CTX_REPEATS)) fail("switch count", point, ops, way);
  if (way == NONE ? out->switch_units > jitter || out->switch_units < -jitter : out->switch_units <= jitter)
    fail("switch-path cycles", point, ops, way);
  /* Everything ran at the point set: the kernel's switch energy is the model's closed form of
   * its switch cycles, and the parts add up to the run's total. */
  const double volts = TC_POWER_LPC2148_POINTS[point].millivolt / 1000.0, hz = TC_POWER_LPC2148_POINTS[point].freq_hz;
  const double n = (double)a->switching.total_cycles;
  if (a->point != point || a->total.cycles[point] != a->total.total_cycles) fail("operating point", point, ops, way);
  if (!close_to(a->switching.joules, C_EFF * volts * volts * n + P_STAT * n / hz))
    fail("switch energy", point, ops, way);
  if (!close_to(a->total.joules, a->threads.joules + a->hisrs.joules + a->idle.joules + a->switching.joules) ||
      a->total.total_cycles !=
          a->threads.total_cycles + a->hisrs.total_cycles + a->idle.total_cycles + a->switching.total_cycles)
    fail("parts do not add up to the total", point, ops, way);
  /* The sim port charges its switch cost per switch and counts nothing else of a switch. */
  if (ctx_switch_cost() != 0 && way != NONE && (uint64_t)out->switch_units != out->switches * ctx_switch_cost())
    fail("sim switch cost", point, ops, way);
}

/* ---- report ----------------------------------------------------------------------------- */

/* CPU cycles per transmission (with its MAC job). */
static double cycles(const ctx_result *r) { return (double)r->units * ctx_cycles_per_unit() / CTX_REPEATS; }

/* The difference per switch. Pillai and Isha call the whole difference, a preemption and the
 * return (two switches), the cycles of a context switch. */
static double per_switch(const ctx_result *with, const ctx_result *without)
{
  return ((double)with->units - (double)without->units) * ctx_cycles_per_unit() / (double)with->switches;
}

static void print_table2(void)
{
  const unsigned top = POINTS - 1u;
  printf("\nTable 2: cycles per transmission (%u bytes and one MAC job) at the highest point (%.0f MHz, %.1f V)\n",
         CTX_UART_BYTES, TC_POWER_LPC2148_POINTS[top].freq_hz / 1e6, TC_POWER_LPC2148_POINTS[top].millivolt / 1000.0);
  printf("%-4s %-10s %9s %9s %10s %10s | %-8s %s\n", "MAC", "preemption", "without", "with", "difference", "per switch",
         "kernel:", "switches, switch path per switch (units of tc_cycles = cycles)");
  for (unsigned s = 0; s < SIZES; s++) {
    const ctx_result *r = results[top][s];
    for (unsigned w = GIVE; w < WAYS; w++) {
      const double units = (double)r[w].switch_units / (double)r[w].switches;
      printf("%-4u %-10s %9.1f %9.1f %10.1f %10.1f | %8" PRIu64 ", %.1f units = %.1f cycles\n", mac_sizes[s],
             way_name[w], cycles(&r[NONE]), cycles(&r[w]), cycles(&r[w]) - cycles(&r[NONE]),
             per_switch(&r[w], &r[NONE]), r[w].switches, units, units * ctx_cycles_per_unit());
    }
  }
}

static void print_points(void)
{
  printf("\nFigs. 9-10: time and energy per switch at each point. N: the difference per switch above;\n"
         "E = C_eff V^2 N + P_static N / f (C_eff %.4g F, P_static %.4g W); kernel: tc_energy_report's\n"
         "switch-path energy per switch (N = its units of tc_cycles)\n",
         C_EFF, P_STAT);
  printf("%-5s %4s %4s %4s | %7s %7s %8s %9s | %7s %7s %8s %9s\n", "point", "MHz", "V", "MAC", "give N", "us", "nJ",
         "kernel nJ", "irq N", "us", "nJ", "kernel nJ");
  for (unsigned p = 0; p < POINTS; p++) {
    const double hz = TC_POWER_LPC2148_POINTS[p].freq_hz, volts = TC_POWER_LPC2148_POINTS[p].millivolt / 1000.0;
    for (unsigned s = 0; s < SIZES; s++) {
      const ctx_result *r = results[p][s];
      printf("%-5u %4.0f %4.1f %4u", p, hz / 1e6, volts, mac_sizes[s]);
      for (unsigned w = GIVE; w < WAYS; w++) {
        const double n = per_switch(&r[w], &r[NONE]), joules = C_EFF * volts * volts * n + P_STAT * n / hz;
        const double kernel = r[w].switch_joules / (double)r[w].switches;
        printf(" | %7.1f %7.3f %8.2f %9.2f", n, n / hz * 1e6, joules * 1e9, kernel * 1e9);
      }
      printf("\n");
    }
  }
}

/* Every point gives the same cycles: on QEMU the points are only modelled; on the sim port
 * the clock changes, but the work is counted in cycles. On the sim port the difference is
 * the switch cost, exactly. */
static void check_points(void)
{
  const uint64_t jitter = ctx_clock_jitter();
  for (unsigned p = 0; p < POINTS; p++)
    for (unsigned s = 0; s < SIZES; s++)
      for (unsigned w = 0; w < WAYS; w++) {
        const ctx_result *r = &results[p][s][w], *first = &results[0][s][w];
        if (r->units > first->units + jitter || first->units > r->units + jitter)
          fail("cycles differ between points", p, mac_sizes[s], w);
        if (ctx_switch_cost() != 0 && r->units - results[p][s][NONE].units != r->switches * ctx_switch_cost())
          fail("the difference is not the sim switch cost", p, mac_sizes[s], w);
      }
}

int main(int argc, char **argv)
{
  for (unsigned i = 0; i < MAC_MAX; i++) {
    mac_x[i] = (int16_t)(i + 1u);
    mac_y[i] = (int16_t)(2u * i + 1u);
  }
  for (unsigned i = 0; i < CTX_UART_BYTES; i++) message[i] = (uint8_t)"Tacet ctx_energy UART tx\r\n"[i % 26u];

  if (argc > 1 && strcmp(argv[argc - 1], "profile") == 0) {
    for (unsigned s = 0; s < SIZES; s++)
      for (unsigned w = 0; w < WAYS; w++) {
        ctx_result r;
        run_case(POINTS - 1u, mac_sizes[s], w, &r);
        printf("profile: MAC %u, preemption %s: %.1f cycles per transmission\n", mac_sizes[s], way_name[w], cycles(&r));
      }
    return failed;
  }

  printf("ctx_energy: the context-switch experiment of Pillai and Isha, \"A Quantitative Study Based on\n"
         "Direct Measurement on Embedded Processors: Limiting Context Switches for Energy Saving\", on %s\n", ctx_port_description());
  printf("kernel TC_POWER=%u TC_CHECKS=%u TC_STATS=%u TC_PRIORITIES=%u; board table lpc2148 "
         "(power/lpc2148.yaml), %s\n",
         (unsigned)TC_POWER, (unsigned)TC_CHECKS, (unsigned)TC_STATS, (unsigned)TC_PRIORITIES,
         ctx_port_scales() ? "the clock follows the point" : "points modelled (the clock cannot change)");
  printf("UART task: %u transmissions of %u bytes, each preempted after %u bytes; MAC task: n "
         "multiply-accumulates of int16 data, result checked\n",
         CTX_REPEATS, CTX_UART_BYTES, CTX_UART_SPLIT);
  if (ctx_switch_cost() != 0)
    printf("sim switch cost: %" PRIu64 " cycles per switch (tc_sim_set_switch_cost)\n", ctx_switch_cost());

  for (unsigned p = 0; p < POINTS; p++)
    for (unsigned s = 0; s < SIZES; s++)
      for (unsigned w = 0; w < WAYS; w++) run_case(p, mac_sizes[s], w, &results[p][s][w]);
  check_points();
  print_table2();
  print_points();
  printf("\n%s\n", failed ? "ctx_energy: FAILED" : "ctx_energy: every self-check held");
  return failed;
}
