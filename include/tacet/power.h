/* SPDX-License-Identifier: MIT */
/*
 * Operating points, energy accounting and power policies (Pillai and Isha; Ahn et al.; docs/energy.md).
 *
 * A board runs at one of a few operating points, each a clock frequency and a core voltage.
 * With TC_POWER=1 the kernel counts, in integer cycles of the port's clock and separately for
 * every operating point, what each thread and each HISR ran, what idle took and what the
 * context-switch path itself took (from the kernel's clock read when it commits a switch to
 * the first instruction of the context switched in). Nothing floating-point runs on the
 * switch path: energy is computed when asked, by the model of Pillai and Isha (eqs. 2-5):
 *
 *     E = C_eff * V^2 * N       (dynamic: N cycles at voltage V)
 *       + P_static * N / f      (static: the time those cycles took at frequency f)
 *
 * summed over the operating points. TC_POWER=0 (the default) compiles all of it away; these
 * functions then do not exist.
 *
 * Where a board can change its clock (the sim port: virtual time follows the frequency, and
 * the tick period in cycles follows the point) the port does it at each point change. On a
 * port that cannot (the QEMU boards), the point is accounted by the model alone and
 * tc_energy_report() says so (`modelled`).
 *
 * Policies choose the point:
 *   TC_POLICY_FIXED         the point set by tc_power_set_point(), always;
 *   TC_POLICY_IDLE_SCALING  that point while a thread or HISR runs, the lowest while idle;
 *   TC_POLICY_LOAD_SCALING  the point of the running thread's load class (Task+, Task, Task-,
 *                           Ahn et al.'s table 1) and of the idle class while idle;
 *   TC_POLICY_STATIC        the lowest point at which the periodic tasks declared with
 *                           tc_power_task() stay schedulable (response-time analysis with
 *                           their priorities and preemption thresholds), and the lowest
 *                           point while idle;
 *   TC_POLICY_RT_DVS        cycle-conserving rate-monotonic DVS (Pillai & Shin, SOSP 2001):
 *                           at every release (tc_power_release) and completion
 *                           (tc_power_complete) of a declared task, the lowest point that
 *                           still finishes the work allocated before the next deadline,
 *                           from the actual execution times of the completed jobs.
 * Every scaling policy runs idle at the lowest point, as Ahn et al.'s do. A point change is a
 * trace event (TC_TRACE_EV_POWER) where the trace is compiled in, a policy chosen another
 * (TC_TRACE_EV_POLICY), and tc_trace_disable()
 * records the energy books into the trace (TC_TRACE_EV_ENERGY; docs/trace.md, "The energy
 * snapshot"), so that `tacet trace` shows the energy of a traced run.
 */
#ifndef TACET_POWER_H
#define TACET_POWER_H

#include "tacet/hisr.h"
#include "tacet/thread.h"
#include "tacet/types.h"

/* An operating point: clock frequency and core voltage. */
typedef struct {
  uint32_t freq_hz;
  uint32_t millivolt;
} tc_opp;

/* Policies (tc_power_policy). */
#define TC_POLICY_FIXED        0u
#define TC_POLICY_IDLE_SCALING 1u
#define TC_POLICY_LOAD_SCALING 2u
#define TC_POLICY_STATIC       3u
#define TC_POLICY_RT_DVS       4u

/* Load classes of Ahn et al. (tc_power_thread_class, tc_power_classes). */
#define TC_LOAD_HIGH   0u /* Task+ */
#define TC_LOAD_NORMAL 1u /* Task (every thread's class until set) */
#define TC_LOAD_LOW    2u /* Task- */
#define TC_LOAD_IDLE   3u /* Idle (tc_power_classes only) */
#define TC_LOAD_CLASSES 4u

/* The energy of one part of a run: its cycles at each point and what they cost. */
typedef struct {
  uint64_t cycles[TC_POWER_POINTS]; /* tc_cycles units, per operating point */
  uint64_t total_cycles;
  double seconds;                   /* sum of cycles / frequency */
  double dynamic_joules;            /* C_eff * V^2 * cycles */
  double static_joules;             /* P_static * seconds */
  double joules;                    /* dynamic + static */
} tc_energy_t;

/* The whole run so far. `total` is the energy of the elapsed time, which is the sum of the
 * other four parts (to rounding): what every thread ran, what every HISR ran (timer
 * callbacks included), idle, and the context-switch path. */
typedef struct {
  tc_energy_t total, threads, hisrs, idle, switching;
  uint64_t context_switches;  /* switches counted by the kernel (tc_kernel_stats) plus
                                 switches into HISRs: the switches `switching` paid for */
  double joules_per_switch;   /* switching.joules / context_switches (0 with none) */
  unsigned point;             /* the operating point now */
  unsigned policy;
  uint64_t point_changes;     /* since tc_kernel_init() */
  bool modelled;              /* true: the port cannot change its clock; the points are
                                 accounted by the model only (QEMU boards) */
} tc_energy_report_t;

/* An application phase (tc_energy_phase_begin/end): the whole system's energy from begin to
 * end, and the share of the thread that began it. */
typedef struct {
  uint64_t system[TC_POWER_POINTS]; /* elapsed cycles per point at begin */
  uint64_t own[TC_POWER_POINTS];    /* the caller's cycles per point at begin */
  const tc_thread *thread;
} tc_energy_phase;

/* Install the board's operating points, `n` of them (1 .. TC_POWER_POINTS), in strictly
 * increasing frequency and non-decreasing voltage, each with a non-zero voltage and a
 * frequency of at least TC_TICK_HZ (a whole cycle per tick); the effective switched
 * capacitance C_eff (farads, > 0) and the static power (watts, >= 0). The point becomes the
 * highest, the policy TC_POLICY_FIXED, every thread's load class TC_LOAD_NORMAL and the
 * classes Ahn et al.'s Default row (every class at the highest point). The counters start at
 * zero. The table is copied.
 * Context: startup only (after tc_kernel_init, before tc_kernel_start).
 * Returns TC_OK; TC_INVALID (points NULL, n out of range, a point out of order, slower than
 * the tick or at zero volts, c_eff not positive or p_static negative or either not finite);
 * TC_CALLER_ERROR (after the start). On an error nothing changes. */
tc_status tc_power_init(const tc_opp *points, unsigned n, double c_eff_farad, double p_static_watt);

/* The point that TC_POLICY_FIXED runs at and TC_POLICY_IDLE_SCALING runs threads at; under
 * those policies it takes effect at once (the port changes the clock where it can).
 * Context: any (not from a LISR). Returns TC_OK; TC_INVALID (no table, index out of range);
 * TC_CALLER_ERROR (from a LISR). */
tc_status tc_power_set_point(unsigned index);

/* Choose the policy; the point it implies takes effect at once. TC_POLICY_STATIC computes its
 * point now, from the tasks declared so far, and returns TC_NO_INSTANCE, changing nothing, if
 * no point keeps them schedulable (or none are declared).
 * Context: thread or startup. Returns TC_OK; TC_INVALID (no table, unknown policy);
 * TC_NO_INSTANCE (static: no feasible point); TC_CALLER_ERROR (from a handler). */
tc_status tc_power_policy(unsigned policy);

/* The point each load class runs at under TC_POLICY_LOAD_SCALING: one index per class, in
 * the order Task+, Task, Task-, Idle (the columns of Ahn et al.'s table 1).
 * Context: thread or startup. Returns TC_OK; TC_INVALID (no table, points NULL, an index out
 * of range); TC_CALLER_ERROR (from a handler). */
tc_status tc_power_classes(const uint8_t points[TC_LOAD_CLASSES]);

/* A thread's load class (TC_LOAD_HIGH, TC_LOAD_NORMAL, TC_LOAD_LOW).
 * Context: thread or startup. Returns TC_OK; TC_INVALID (t not a created thread, class out of
 * range); TC_CALLER_ERROR (from a handler). */
tc_status tc_power_thread_class(tc_thread *t, unsigned load_class);

/* Declare `t` a periodic task for TC_POLICY_STATIC and TC_POLICY_RT_DVS: a job every
 * `period_ticks` (its deadline: the next release), at most `wcet_cycles` of work (tc_cycles
 * units, the same at every point: a slower point takes longer to do them). 0 for both
 * removes the declaration.
 * Context: thread or startup. Returns TC_OK; TC_INVALID (t not a created thread, a period or
 * a WCET of 0 without the other); TC_CALLER_ERROR (from a handler). */
tc_status tc_power_task(tc_thread *t, uint32_t period_ticks, uint64_t wcet_cycles);

/* A job of declared task `t` is released now (call it where the job is released: the timer
 * callback or the handler that wakes the task). Under TC_POLICY_RT_DVS the point is chosen
 * again. Context: any. Returns TC_OK; TC_INVALID (t not a declared task). */
tc_status tc_power_release(tc_thread *t);

/* The calling thread's job is complete. Under TC_POLICY_RT_DVS the point is chosen again.
 * Context: thread. Returns TC_OK; TC_INVALID (the caller is not a declared task);
 * TC_CALLER_ERROR (not from a thread). */
tc_status tc_power_complete(void);

/* The energy of the run so far (see tc_energy_report_t).
 * Context: thread or startup, or after tc_kernel_start() returned (sim).
 * Returns TC_OK; TC_INVALID (out NULL, no table); TC_CALLER_ERROR (from a handler). */
tc_status tc_energy_report(tc_energy_report_t *out);

/* The energy a thread or an HISR has run so far.
 * Context: as tc_energy_report. Returns TC_OK; TC_INVALID (out NULL, no table, not a created
 * thread / HISR); TC_CALLER_ERROR (from a handler). */
tc_status tc_energy_thread(const tc_thread *t, tc_energy_t *out);
tc_status tc_energy_hisr(const tc_hisr *h, tc_energy_t *out);

/* Energy of a phase of the application: begin records where the system and the calling
 * thread stand; end returns the energy of the whole system since (`system`) and the calling
 * thread's own share (`own`), either may be NULL. The same thread calls both.
 * Context: thread. Returns TC_OK; TC_INVALID (phase NULL, no table, end by another thread
 * than begin); TC_CALLER_ERROR (not from a thread). */
tc_status tc_energy_phase_begin(tc_energy_phase *phase);
tc_status tc_energy_phase_end(tc_energy_phase *phase, tc_energy_t *system, tc_energy_t *own);

/* The operating point now and the table installed (NULL and 0 without one). Context: any. */
unsigned tc_power_point(void);
const tc_opp *tc_power_points(unsigned *n);

#endif /* TACET_POWER_H */
