/* SPDX-License-Identifier: MIT */
/*
 * periodic_control: an application whose threads, objects, priorities and thresholds come
 * from its system description (app.yaml), turned into tacet_app.c / tacet_app.h at build
 * time. Three periodic threads, each released by a timer through a semaphore, share a mutex
 * (and the sensor feeds the controller through a queue); after one second the reporter ends
 * the run, and main prints every thread's worst observed response time against its deadline.
 * Exit status 0 when every job met its deadline and no release was lost.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "periodic.h"
#include "tacet/tacet.h"
#include "tacet_app.h"

/* Releases a thread may have pending: the semaphores' max in app.yaml. */
#define RING 4u

typedef struct {
  const char *name;
  tc_sem *release;
  uint32_t wcet, deadline, critical; /* cycles at TACET_APP_CLOCK_HZ */
  uint32_t period_ticks;
  unsigned priority, threshold;
  uint64_t released_at[RING]; /* tc_cycles() of the releases not yet served, by job number */
  uint32_t releases, lost, jobs, misses;
  uint64_t worst; /* tc_cycles() units */
} periodic;

static periodic periodics[] = {
  {"sensor", &sensor_release, TACET_APP_sensor_WCET_CYCLES, TACET_APP_sensor_DEADLINE_CYCLES,
   TACET_APP_sensor_LOCK_state_lock_CYCLES, TACET_APP_sensor_PERIOD_TICKS, TACET_APP_sensor_PRIORITY,
   TACET_APP_sensor_THRESHOLD, {0}, 0, 0, 0, 0, 0},
  {"control", &control_release, TACET_APP_control_WCET_CYCLES, TACET_APP_control_DEADLINE_CYCLES,
   TACET_APP_control_LOCK_state_lock_CYCLES, TACET_APP_control_PERIOD_TICKS, TACET_APP_control_PRIORITY,
   TACET_APP_control_THRESHOLD, {0}, 0, 0, 0, 0, 0},
  {"logger", &logger_release, TACET_APP_logger_WCET_CYCLES, TACET_APP_logger_DEADLINE_CYCLES,
   TACET_APP_logger_LOCK_state_lock_CYCLES, TACET_APP_logger_PERIOD_TICKS, TACET_APP_logger_PRIORITY,
   TACET_APP_logger_THRESHOLD, {0}, 0, 0, 0, 0, 0},
};
#define PERIODICS (sizeof periodics / sizeof periodics[0])

static uint32_t state;     /* what the mutex protects */
static uint32_t consumed;  /* samples the controller took from the queue */
static uint32_t failures;  /* service calls that did not return TC_OK */

static void expect_ok(tc_status s)
{
  if (s != TC_OK) failures++;
}

/* Timer callback (the timers' HISR): stamp the release, then hand it to the thread. */
void release(void *arg)
{
  periodic *p = &periodics[(uintptr_t)arg];
  p->released_at[p->releases % RING] = tc_cycles();
  if (tc_sem_give(p->release) == TC_OK)
    p->releases++;
  else
    p->lost++; /* RING releases pending: the thread is hopelessly late */
}

void stop(void *arg)
{
  (void)arg;
  expect_ok(tc_event_set(&finished, 1u));
}

/* One job: half its WCET of work, its critical section, a quarter more: under the WCET. */
static void job(periodic *p)
{
  periodic_work(p->wcet / 2u);
  expect_ok(tc_mutex_lock(&state_lock, TC_WAIT_FOREVER));
  periodic_work(p->critical);
  state++;
  expect_ok(tc_mutex_unlock(&state_lock));
  periodic_work(p->wcet / 4u);
}

static void wait_release(periodic *p) { expect_ok(tc_sem_take(p->release, TC_WAIT_FOREVER)); }

static void done(periodic *p)
{
  uint64_t response = tc_cycles() - p->released_at[p->jobs % RING];
  uint64_t deadline = (uint64_t)p->deadline * tc_cycles_hz() / TACET_APP_CLOCK_HZ;
  if (response > p->worst) p->worst = response;
  if (response > deadline) p->misses++;
  p->jobs++;
}

void sensor_main(void *arg)
{
  periodic *p = &periodics[(uintptr_t)arg];
  for (uint32_t seq = 0;; seq++) {
    wait_release(p);
    job(p);
    uint32_t sample[TACET_APP_samples_MESSAGE_WORDS] = {seq, state};
    tc_status s = tc_queue_send(&samples, sample, TC_NO_WAIT);
    if (s != TC_OK && s != TC_FULL) failures++;
    done(p);
  }
}

void control_main(void *arg)
{
  periodic *p = &periodics[(uintptr_t)arg];
  for (;;) {
    wait_release(p);
    uint32_t sample[TACET_APP_samples_MESSAGE_WORDS];
    while (tc_queue_receive(&samples, sample, TC_NO_WAIT) == TC_OK) consumed++;
    job(p);
    done(p);
  }
}

void logger_main(void *arg)
{
  periodic *p = &periodics[(uintptr_t)arg];
  for (;;) {
    wait_release(p);
    job(p);
    done(p);
  }
}

/* The least urgent thread: once the run is over, stop the releases. It runs only when no
 * periodic thread is ready, so every job released before has completed. */
void reporter_main(void *arg)
{
  (void)arg;
  uint32_t flags;
  expect_ok(tc_event_wait(&finished, 1u, TC_EVENT_ANY, &flags, TC_WAIT_FOREVER));
  expect_ok(tc_timer_deactivate(&sensor_timer));
  expect_ok(tc_timer_deactivate(&control_timer));
  expect_ok(tc_timer_deactivate(&logger_timer));
  periodic_stop(0);
}

int main(void)
{
  tc_kernel_init();
  tc_status s = tacet_app_create();
  if (s != TC_OK) {
    printf("periodic_control: creating %s failed (status %d)\n", tacet_app_failed, (int)s);
    return 1;
  }
  int code = tc_kernel_start();
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);

  printf("periodic_control on port %s: the threads of %s, %" PRIu32 " ticks\n", TC_PORT_NAME,
         TACET_APP_SOURCE, tc_tick_get());
  printf("%-8s %4s %4s %7s %5s %15s %9s %6s\n", "thread", "prio", "thr", "period", "jobs",
         "worst response", "deadline", "misses");
  uint32_t jobs = 0, misses = 0, lost = 0;
  for (unsigned i = 0; i < PERIODICS; i++) {
    const periodic *p = &periodics[i];
    uint64_t worst_us = p->worst * 1000000u / tc_cycles_hz();
    uint64_t deadline_us = (uint64_t)p->deadline * 1000000u / TACET_APP_CLOCK_HZ;
    printf("%-8s %4u %4u %4" PRIu32 " ms %5" PRIu32 " %12" PRIu64 " us %6" PRIu64 " us %6" PRIu32 "\n",
           p->name, p->priority, p->threshold, p->period_ticks * 1000u / TACET_APP_TICK_HZ, p->jobs,
           worst_us, deadline_us, p->misses);
    jobs += p->jobs;
    misses += p->misses;
    lost += p->lost + (p->releases - p->jobs);
  }
  printf("context switches %" PRIu64 ", preemptions %" PRIu64 "; %" PRIu32
         " samples through the queue, %" PRIu32 " critical sections\n",
         k.context_switches, k.preemptions, consumed, state);
  if (code != 0 || failures != 0) {
    printf("FAILED: run ended with %d, %" PRIu32 " service calls failed\n", code, failures);
    return 1;
  }
  if (misses != 0 || lost != 0) {
    printf("FAILED: %" PRIu32 " deadline misses, %" PRIu32 " releases lost\n", misses, lost);
    return 1;
  }
  printf("all %" PRIu32 " jobs met their deadlines\n", jobs);
  return 0;
}
