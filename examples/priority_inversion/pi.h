/* SPDX-License-Identifier: MIT */
/*
 * The mutex experiment of Carbone ("Preemption-threshold can help avoid priority
 * inversion"): three threads, High, Medium and Low, and one mutex that High and Low share.
 *   Low     takes the mutex, works `low_cs_ticks` holding it, releases it, sleeps a little;
 *   Medium  sleeps, then computes `medium_work_ticks` (it never touches the mutex);
 *   High    sleeps, then takes the mutex, works `high_cs_ticks`, releases it.
 * When High wakes while Low holds the mutex, High waits for Low; if Medium becomes ready
 * meanwhile it preempts Low, and High -- the most urgent thread -- waits for Medium's work
 * too: a priority inversion with no bound but Medium's load. The application code is the same
 * in every run; only Low's preemption threshold and the mutex's option change:
 *   plain       Low's threshold is its priority, the mutex has no inheritance;
 *   threshold   Low's threshold is High's priority (as Carbone does): nobody preempts Low,
 *               so High never finds the mutex taken (it starts only once Low sleeps);
 *   inherit     TC_INHERIT: while High waits, Low runs at High's priority, Medium waits;
 *   both        both of them.
 */
#ifndef PI_H
#define PI_H

#include <stdbool.h>
#include <stdint.h>

typedef enum { PI_PLAIN, PI_THRESHOLD, PI_INHERIT, PI_BOTH, PI_RUNS } pi_run_kind;

/* The threads' priorities (smaller is more urgent). */
#define PI_HIGH_PRIORITY   4u
#define PI_MEDIUM_PRIORITY 8u
#define PI_LOW_PRIORITY    12u

typedef struct {
  pi_run_kind kind;
  uint32_t run_ticks;         /* the run ends at High's first release of the mutex after this */
  uint32_t high_sleep_ticks;  /* High's sleep before each get */
  uint32_t high_cs_ticks;     /* High's work holding the mutex */
  uint32_t medium_sleep_ticks;
  uint32_t medium_work_ticks;
  uint32_t low_cs_ticks;      /* Low's work holding the mutex: its critical section */
  uint32_t low_sleep_ticks;   /* Low's sleep after each release */
} pi_params;

/* What the application measured, from the kernel's clocks only (no trace). */
typedef struct {
  uint32_t pairs;                            /* High's mutex get/put pairs */
  uint32_t contended;                        /* of them, gets that found Low holding it */
  uint64_t ticks_sum, ticks_min, ticks_max;  /* get to put, tc_tick_get() difference */
  uint64_t cycles_sum, cycles_min, cycles_max; /* get to put, tc_cycles() difference */
  uint64_t wake_to_put_max;                  /* ticks from High's wake-up to its put */
  uint32_t medium_jobs, low_sections;        /* Medium's computations, Low's critical sections */
  uint64_t context_switches, preemptions;    /* tc_kernel_stats() over the run */
} pi_result;

extern const char *const pi_run_names[PI_RUNS]; /* "plain", "threshold", "inherit", "both" */
/* The workload main.c runs (`kind` aside), chosen to resemble Carbone's: see pi.c. */
extern const pi_params pi_seed_params;

/* Run one case on a freshly initialised kernel (the caller calls tc_kernel_init() first);
 * returns 0, or a failure code when a service failed or the mutex was found in a state the
 * experiment cannot produce. */
int pi_run(const pi_params *p, pi_result *out);

/* Port glue (pi_port_<port>.c). */
void pi_work_ticks(uint32_t ticks); /* spend that many ticks of CPU time, preemptibly */
void pi_end_run(void);              /* end the run: tc_kernel_start() returns */
const char *pi_port_cycles_unit(void); /* what a tc_cycles() unit is on this port */

#endif
