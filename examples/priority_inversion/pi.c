/* SPDX-License-Identifier: MIT */
/* The experiment itself: port-neutral (see pi.h). */
#include "pi.h"

#include "tacet/mutex.h"
#include "tacet/tacet.h"

#define STACK_SIZE 8192u

const char *const pi_run_names[PI_RUNS] = {"plain", "threshold", "inherit", "both"};

/* Ticks (1 ms at TC_TICK_HZ 1000). Carbone does not give its workload; these figures were
 * picked among a few tried because they put the plain run's average and pair count near the
 * paper's (docs/priority-inversion.md). Medium computes 30 ticks of every 40 and Low's critical
 * section outlasts High's sleep, so High often wakes to find the mutex held. */
const pi_params pi_seed_params = {
    .run_ticks = 1000,
    .high_sleep_ticks = 15,
    .high_cs_ticks = 2,
    .medium_sleep_ticks = 10,
    .medium_work_ticks = 30,
    .low_cs_ticks = 20,
    .low_sleep_ticks = 2,
};

static tc_thread high_thread, medium_thread, low_thread;
static tc_mutex shared;
static uint8_t stacks[3][STACK_SIZE] __attribute__((aligned(16)));

static const pi_params *params;
static pi_result *result;
static volatile bool low_holds; /* Low owns `shared`: what High's get will find */
static volatile int failure;

static void high(void *arg)
{
  (void)arg;
  uint32_t start = tc_tick_get();
  for (;;) {
    uint32_t slept_at = tc_tick_get();
    if (tc_thread_sleep(params->high_sleep_ticks) != TC_OK) failure = 1;
    /* The tick that made High ready: its sleep ends `high_sleep_ticks` ticks on. */
    uint32_t woke = slept_at + params->high_sleep_ticks;
    bool contended = low_holds;
    uint32_t t0 = tc_tick_get();
    uint64_t c0 = tc_cycles();
    if (tc_mutex_lock(&shared, TC_WAIT_FOREVER) != TC_OK) failure = 2;
    if (low_holds) failure = 3; /* the mutex was handed to High while Low still held it */
    pi_work_ticks(params->high_cs_ticks);
    /* Read the clocks before the put: the put may hand the mutex to Low, which does not run
     * before High sleeps (lower priority), so nothing else happens in between anyway. */
    uint32_t t1 = tc_tick_get();
    uint64_t c1 = tc_cycles();
    if (tc_mutex_unlock(&shared) != TC_OK) failure = 4;

    uint64_t ticks = t1 - t0, cycles = c1 - c0, wake_to_put = t1 - woke;
    pi_result *r = result;
    if (r->pairs == 0 || ticks < r->ticks_min) r->ticks_min = ticks;
    if (r->pairs == 0 || cycles < r->cycles_min) r->cycles_min = cycles;
    if (ticks > r->ticks_max) r->ticks_max = ticks;
    if (cycles > r->cycles_max) r->cycles_max = cycles;
    if (wake_to_put > r->wake_to_put_max) r->wake_to_put_max = wake_to_put;
    r->ticks_sum += ticks;
    r->cycles_sum += cycles;
    r->pairs++;
    r->contended += contended ? 1u : 0u;

    if (t1 - start >= params->run_ticks) {
      tc_kernel_stats_t end;
      tc_kernel_stats(&end);
      r->context_switches = end.context_switches;
      r->preemptions = end.preemptions;
      pi_end_run();
    }
  }
}

static void medium(void *arg)
{
  (void)arg;
  for (;;) {
    if (tc_thread_sleep(params->medium_sleep_ticks) != TC_OK) failure = 5;
    pi_work_ticks(params->medium_work_ticks);
    result->medium_jobs++;
  }
}

static void low(void *arg)
{
  (void)arg;
  for (;;) {
    if (tc_mutex_lock(&shared, TC_WAIT_FOREVER) != TC_OK) failure = 6;
    low_holds = true;
    pi_work_ticks(params->low_cs_ticks);
    low_holds = false;
    if (tc_mutex_unlock(&shared) != TC_OK) failure = 7;
    result->low_sections++;
    if (tc_thread_sleep(params->low_sleep_ticks) != TC_OK) failure = 8;
  }
}

int pi_run(const pi_params *p, pi_result *out)
{
  params = p;
  result = out;
  *out = (pi_result){0};
  failure = 0;
  low_holds = false;
  bool threshold = p->kind == PI_THRESHOLD || p->kind == PI_BOTH;
  bool inherit = p->kind == PI_INHERIT || p->kind == PI_BOTH;
  if (tc_mutex_create(&shared, "Shared", inherit ? TC_INHERIT : 0u) != TC_OK) return 10;
  if (tc_thread_create(&high_thread, "High", high, NULL, stacks[0], STACK_SIZE, PI_HIGH_PRIORITY,
                       PI_HIGH_PRIORITY, 0, TC_AUTO_START) != TC_OK)
    return 11;
  if (tc_thread_create(&medium_thread, "Medium", medium, NULL, stacks[1], STACK_SIZE, PI_MEDIUM_PRIORITY,
                       PI_MEDIUM_PRIORITY, 0, TC_AUTO_START) != TC_OK)
    return 12;
  /* Carbone sets Low's threshold to High's priority: no thread up to High's priority may
   * preempt Low, so Low never sits preempted holding the mutex. */
  if (tc_thread_create(&low_thread, "Low", low, NULL, stacks[2], STACK_SIZE, PI_LOW_PRIORITY,
                       threshold ? PI_HIGH_PRIORITY : PI_LOW_PRIORITY, 0, TC_AUTO_START) != TC_OK)
    return 13;
  int code = tc_kernel_start();
  return failure != 0 ? failure : code;
}
