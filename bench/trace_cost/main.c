/* SPDX-License-Identifier: MIT */
/*
 * trace_cost: what the event trace (TC_TRACE=1) costs, in instructions counted by QEMU
 * (-icount shift=5: tc_cycles() ticks at 25 MHz, 1.25 instructions per tick), on a kernel
 * built with the trace compiled in.
 *
 *   per recorded event   the same work with the trace recording and with it off, the
 *                        difference divided by the events the buffer's header says were
 *                        recorded: (a) a yield ping-pong between two equal-priority threads
 *                        (per switch: YIELD, SWITCH and the service's own event), (b) a
 *                        semaphore give that wakes a higher-priority thread, which takes again
 *                        (READY, SWITCH, BLOCK and two service events per round), and
 *                        (u) tc_trace_user() called in a loop.
 *   trace off            each of (a) and (b) per switch with the trace compiled in but not
 *                        recording: beside bench/cm_switch (TC_TRACE=0) it is what the trace
 *                        points cost when off (one load and one branch each).
 *
 * Each measurement runs twice and the second is kept, so that the threads' stacks have reached
 * their depth, the measuring calls' own included (a stack that grows past its last reported
 * high water is scanned once, for its STACK event: a one-off, not a cost per event).
 * As in cm_switch each measurement starts right after a tick and stays below one tick, so no
 * interrupt lands inside it and every run prints the same figures. Exit status 0 when every
 * figure was measured and every expected event was recorded.
 */
#include <stdio.h>

#include "../cm_figures.h"
#include "tacet/cortex_m.h"
#include "tacet/tacet.h"

#define ROUNDS 30u

static tc_thread a, b, low, high;
static tc_sem wake;
static uint8_t stacks[4][1024] __attribute__((aligned(8)));
static uint64_t trace_buf[2048]; /* 16 KB: every event of a measurement fits, no wrap */

static bool tracing; /* this run records */

static uint32_t recorded(void)
{
  size_t n;
  const tc_trace_header *h = tc_trace_buffer(&n);
  return h != NULL ? h->laps * h->events + h->next + h->lost : 0;
}

/* ---- (a) yield ping-pong ---------------------------------------------------------------- */

static uint64_t cycles;
static uint32_t events;

static void yielder_a(void *arg)
{
  (void)arg;
  for (int pass = 0; pass < 2; pass++) {
    tc_thread_sleep(1);
    uint32_t e0 = recorded();
    uint64_t t0 = tc_cycles();
    for (uint32_t i = 0; i < ROUNDS; i++) tc_thread_yield();
    cycles = tc_cycles() - t0;
    events = recorded() - e0;
  }
}

static void yielder_b(void *arg)
{
  (void)arg;
  for (int pass = 0; pass < 2; pass++) {
    tc_thread_sleep(1);
    for (uint32_t i = 0; i < ROUNDS; i++) tc_thread_yield();
  }
}

/* ---- (b) preemption by a semaphore give ------------------------------------------------- */

static void taker_entry(void *arg)
{
  (void)arg;
  for (;;) tc_sem_take(&wake, TC_WAIT_FOREVER);
}

static void giver_entry(void *arg)
{
  (void)arg;
  for (int pass = 0; pass < 2; pass++) {
    tc_thread_sleep(1);
    uint32_t e0 = recorded();
    uint64_t t0 = tc_cycles();
    for (uint32_t i = 0; i < ROUNDS; i++) tc_sem_give(&wake);
    cycles = tc_cycles() - t0;
    events = recorded() - e0;
  }
}

/* ---- (u) user events --------------------------------------------------------------------- */

static void user_entry(void *arg)
{
  (void)arg;
  for (int pass = 0; pass < 2; pass++) {
    tc_thread_sleep(1);
    uint32_t e0 = recorded();
    uint64_t t0 = tc_cycles();
    for (uint32_t i = 0; i < 2 * ROUNDS; i++) (void)tc_trace_user(TC_TRACE_USER_FIRST, i, 0);
    cycles = tc_cycles() - t0;
    events = recorded() - e0;
  }
}

static void start(void)
{
  tc_kernel_init();
  if (tracing) (void)tc_trace_enable(trace_buf, sizeof trace_buf, TC_TRACE_WRAP);
}

typedef struct {
  uint64_t cycles;
  uint32_t events;
} sample;

static sample measure(char which, bool on)
{
  tracing = on;
  start();
  switch (which) {
  case 'a':
    tc_thread_create(&a, "a", yielder_a, NULL, stacks[0], sizeof stacks[0], 10, 10, 0, TC_AUTO_START);
    tc_thread_create(&b, "b", yielder_b, NULL, stacks[1], sizeof stacks[1], 10, 10, 0, TC_AUTO_START);
    break;
  case 'b':
    tc_sem_create(&wake, "wake", 0, 1);
    tc_thread_create(&high, "high", taker_entry, NULL, stacks[2], sizeof stacks[2], 5, 5, 0, TC_AUTO_START);
    tc_thread_create(&low, "low", giver_entry, NULL, stacks[3], sizeof stacks[3], 10, 10, 0, TC_AUTO_START);
    break;
  default:
    tc_thread_create(&a, "user", user_entry, NULL, stacks[0], sizeof stacks[0], 10, 10, 0, TC_AUTO_START);
    break;
  }
  cycles = 0;
  events = 0;
  (void)tc_kernel_start();
  return (sample){cycles, events};
}

int main(void)
{
  const char *cpu = CM_FIGURES_CPU;
  printf("trace_cost on %s, QEMU -icount shift=5; kernel TC_TRACE=%u TC_PRIORITIES=%u TC_CHECKS=%u "
         "TC_STATS=%u TC_STACK_CHECK=%u, event %u bytes\n",
         cpu, (unsigned)TC_TRACE, (unsigned)TC_PRIORITIES, (unsigned)TC_CHECKS, (unsigned)TC_STATS,
         (unsigned)TC_STACK_CHECK, (unsigned)sizeof(tc_trace_event));
  int bad = 0;
  const char *names[] = {"(a) yield ping-pong", "(b) semaphore give / take, preemption", "(u) tc_trace_user()"};
  const char which[] = {'a', 'b', 'u'};
  uint32_t worst = 0;
  for (unsigned k = 0; k < 3; k++) {
    sample off = measure(which[k], false), on = measure(which[k], true);
    unsigned ops = 2u * ROUNDS; /* switches in (a) and (b), calls in (u) */
    bad |= off.cycles == 0 || on.cycles <= off.cycles || on.events < ops || off.events != 0;
    uint32_t per = per_event_x100(on.cycles - off.cycles, on.events);
    if (per > worst) worst = per;
    printf("  %s: %lu events per %s\n", names[k], (unsigned long)(on.events / ops), k < 2 ? "switch" : "call");
    print_x100("    trace off, per switch or call:", per_event_x100(off.cycles, ops));
    print_x100("    trace recording, per switch or call:", per_event_x100(on.cycles, ops));
    print_x100("    per recorded event:", per);
  }
  print_x100("  most per recorded event:", worst);
  return bad;
}
