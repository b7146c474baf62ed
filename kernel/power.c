/* SPDX-License-Identifier: MIT */
/*
 * Operating points, energy accounting and power policies (include/tacet/power.h,
 * docs/energy.md).
 *
 * The switch path only adds integers: the outgoing context's cycles go to the counter of the
 * point in force (tc__add_cycles, at tc__k.power_off), idle's to idle's. Everything else is
 * here, off that path: a point change closes the books of the old point (the running
 * context's cycles so far, the elapsed cycles per point), the policies choose points, and the
 * report turns cycles into joules. The switch path's own cycles are not counted as such: they
 * are what no context and not idle ran, the elapsed cycles of each point less everything
 * charged, so that the parts add up to the whole by construction and the one thing measured
 * apart is the switch (the port leaves those cycles out: TC_PORT_SWITCH_STAMP, or the sim
 * port's switch cost).
 */
#include <string.h>

#include "internal.h"

#if TC_POWER

#define PW (tc__k.power)

static void put_in_force(unsigned p);
static unsigned point_for(const tc_thread *to);

static uint32_t lo_offset(unsigned point)
{
  return (uint32_t)(offsetof(tc_thread, counts) + point * sizeof(struct tc_counts));
}

void tc__power_reset(void) { tc__k.power_off = lo_offset(0); }

void tc__power_start(void)
{
  /* Until the first context runs the CPU is idle: at the idle point of the policy. The books
   * open now, at that point. */
  if (PW.n != 0) put_in_force(point_for(NULL));
  memset(PW.elapsed, 0, sizeof PW.elapsed);
  PW.since = TC_PORT_CYCLES();
  TC__STAMP = TC_PORT_CYCLES32_DOWN();
  PW.open = true;
}

/* (a * b) / c rounded down, without overflow for a * b past 2^64 when b and c fit 32 bits. */
static uint64_t muldiv(uint64_t a, uint32_t b, uint32_t c)
{
  return (a / c) * b + (a % c) * b / c;
}

/* ---- accounting ------------------------------------------------------------------------- */

/* Bring the books up to date at `now`: the running context's cycles, the elapsed cycles of
 * the point in force. Lock held. */
static void close_books(void)
{
  if (!PW.open) return;
  if (tc__k.started) tc__account_run_time(); /* a stopping port may have cleared it first */
  uint64_t now = TC_PORT_CYCLES();
  PW.elapsed[PW.point] += now - PW.since;
  PW.since = now;
}

void tc__power_stop(void)
{
  close_books();
  PW.open = false;
}

/* The trace event of point `p` coming into force after point `before` (TC_TRACE_NO_POINT
 * when the table is installed): a decoder needs to know whether the timestamps count at the
 * new frequency from here, which they do where the port changes its clock. */
static void trace_point(unsigned p, unsigned before)
{
#if TC_TRACE
  if (tc__k.trace != NULL)
    tc__trace_put4(TC_TRACE_EV_POWER, p, PW.points[p].freq_hz, PW.points[p].millivolt,
                   (PW.scaled ? TC_TRACE_POWER_CLOCK : 0u) | before << 8);
#else
  (void)p;
  (void)before;
#endif
}

/* Point `p` in force from now. Lock held. */
static void put_in_force(unsigned p)
{
  if (p == PW.point) return;
  unsigned before = PW.point;
  PW.point = p;
  tc__k.power_off = lo_offset(p);
  PW.changes++;
  (void)TC_PORT_SET_CLOCK(PW.points[p].freq_hz);
  trace_point(p, before);
}

/* The same, after the books of the point in force are closed. */
static void apply(unsigned p)
{
  if (p == PW.point) return;
  close_books();
  put_in_force(p);
}

/* The point the policy gives context `to` (NULL: idle). */
static unsigned point_for(const tc_thread *to)
{
  if (PW.policy == TC_POLICY_LOAD_SCALING)
    return PW.classes[to != NULL ? to->power_class : TC_LOAD_IDLE];
  if (to == NULL && PW.policy != TC_POLICY_FIXED) return 0;
  return PW.busy;
}

void tc__power_switch(const tc_thread *to) { apply(point_for(to)); }

/* Between two threads only load scaling gives the incoming one a point of its own; at idle's
 * edges every scaling policy does. */
void tc__power_edge(const tc_thread *from, const tc_thread *to)
{
  if (from == NULL || to == NULL || tc__k.power_by_thread) tc__power_switch(to);
}

/* The policy's point for what runs now. Before the start nothing runs: the first switch
 * applies the point of the first context. Lock held. */
static void enforce(void)
{
  if (tc__k.started)
    apply(point_for(tc__k.current));
  else
    apply(PW.policy == TC_POLICY_LOAD_SCALING ? PW.classes[TC_LOAD_NORMAL] : PW.busy);
}

static void context_cycles(const tc_thread *c, uint64_t out[TC_POWER_POINTS])
{
  for (unsigned p = 0; p < TC_POWER_POINTS; p++)
    out[p] = (uint64_t)c->counts[p].cycles_hi << 32 | c->counts[p].cycles_lo;
}

void tc__power_forget(tc_thread *c)
{
  uint64_t cycles[TC_POWER_POINTS];
  context_cycles(c, cycles);
  uint64_t *kept = PW.deleted[(c->flags & TC_TF_HISR) != 0];
  for (unsigned p = 0; p < TC_POWER_POINTS; p++) kept[p] += cycles[p];
  if (c->power_period != 0) tc__list_remove(&PW.tasks, &c->power_node);
}

/* Every cycle `c` has run, as tc_thread_info() reports it (stats.c). */
static uint64_t total_cycles(const tc_thread *c)
{
  uint64_t in, preempted, cycles;
  tc__thread_counters(c, &in, &preempted, &cycles);
  return cycles;
}

/* Cycles into joules: dynamic C_eff V^2 N, static P t (power.h). */
static void energy_of(const uint64_t cycles[TC_POWER_POINTS], tc_energy_t *e)
{
  memset(e, 0, sizeof *e);
  for (unsigned p = 0; p < PW.n; p++) {
    double n = (double)cycles[p], volts = PW.points[p].millivolt / 1000.0;
    e->cycles[p] = cycles[p];
    e->total_cycles += cycles[p];
    e->seconds += n / PW.points[p].freq_hz;
    e->dynamic_joules += PW.c_eff * volts * volts * n;
  }
  e->static_joules = PW.p_static * e->seconds;
  e->joules = e->dynamic_joules + e->static_joules;
}

/* ---- the table and the simple policies -------------------------------------------------- */

static bool table_valid(const tc_opp *points, unsigned n)
{
  if (points == NULL || n == 0 || n > TC_POWER_POINTS) return false;
  for (unsigned i = 0; i < n; i++) {
    /* A point slower than the tick has no whole cycle per tick: neither the sim's tick nor
     * the analysis (a period of at least a tick is at least a cycle) could work with it. */
    if (points[i].freq_hz < TC_TICK_HZ || points[i].millivolt == 0) return false;
    if (i > 0 && (points[i].freq_hz <= points[i - 1].freq_hz ||
                  points[i].millivolt < points[i - 1].millivolt))
      return false;
  }
  return true;
}

/* Every context of `list` (threads or HISRs) keeps its switches, now counted at point `top`;
 * its run time belongs to no point of a new table and starts again from zero. */
static void restart_counts(tc_list *list, size_t node_offset, unsigned top)
{
  tc_node *node = list->head;
  if (node == NULL) return;
  do {
    tc_thread *c = (tc_thread *)(void *)((char *)node - node_offset);
    uint64_t switches = tc__switches_out(c);
    memset(c->counts, 0, sizeof c->counts);
    c->counts[top].switches_out = (uint32_t)switches;
    c->counts[top].switches_out_hi = (uint32_t)(switches >> 32);
    node = node->next;
  } while (node != list->head);
}

tc_status tc_power_init(const tc_opp *points, unsigned n, double c_eff_farad, double p_static_watt)
{
  TC_ISR_CHECK("tc_power_init");
  TC_ARG_CHECK(table_valid(points, n), TC_INVALID);
  TC_ARG_CHECK(__builtin_isfinite(c_eff_farad) && c_eff_farad > 0.0, TC_INVALID);
  TC_ARG_CHECK(__builtin_isfinite(p_static_watt) && p_static_watt >= 0.0, TC_INVALID);
  TC_ARG_CHECK(!tc__k.started, TC_CALLER_ERROR);
  unsigned s = tc__lock();
  memcpy(PW.points, points, n * sizeof *points);
  PW.n = n;
  PW.c_eff = c_eff_farad;
  PW.p_static = p_static_watt;
  PW.policy = TC_POLICY_FIXED;
  tc__k.power_scaling = tc__k.power_by_thread = false;
  PW.busy = PW.set = PW.floor = n - 1;
  memset(PW.classes, (int)(n - 1), sizeof PW.classes);
  PW.point = n - 1;
  tc__k.power_off = lo_offset(n - 1);
  PW.changes = 0;
  PW.scaled = TC_PORT_SET_CLOCK(points[n - 1].freq_hz);
#if TC_TRACE
  trace_point(n - 1, TC_TRACE_NO_POINT); /* the clock may have changed: a decoder must know */
#endif
  /* Counters of a run before the table (there is none before the start) start from zero:
   * cycles counted at point 0 of no table belong to no point of this one. */
  restart_counts(&tc__k.threads, offsetof(tc_thread, created_node), n - 1);
  restart_counts(&tc__k.hisrs, offsetof(tc_hisr, created_node), n - 1);
  memset(PW.idle, 0, sizeof PW.idle);
  memset(PW.deleted, 0, sizeof PW.deleted);
  memset(PW.elapsed, 0, sizeof PW.elapsed);
  tc__unlock(s);
  return TC_OK;
}

tc_status tc_power_set_point(unsigned index)
{
  TC_ISR_CHECK("tc_power_set_point");
  TC_ARG_CHECK(index < PW.n, TC_INVALID);
  TC_ARG_CHECK(!tc__in_isr(), TC_CALLER_ERROR);
  unsigned s = tc__lock();
  PW.set = index;
  if (PW.policy == TC_POLICY_FIXED || PW.policy == TC_POLICY_IDLE_SCALING) {
    PW.busy = index;
    enforce();
  }
  tc__unlock(s);
  return TC_OK;
}

tc_status tc_power_classes(const uint8_t points[TC_LOAD_CLASSES])
{
  TC_ISR_CHECK("tc_power_classes");
  TC_ARG_CHECK(PW.n != 0 && points != NULL, TC_INVALID);
  for (unsigned c = 0; c < TC_LOAD_CLASSES; c++) TC_ARG_CHECK(points[c] < PW.n, TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned s = tc__lock();
  memcpy(PW.classes, points, sizeof PW.classes);
  if (PW.policy == TC_POLICY_LOAD_SCALING) enforce();
  tc__unlock(s);
  return TC_OK;
}

static bool thread_valid(const tc_thread *t) { return t != NULL && t->magic == TC_MAGIC_THREAD; }

tc_status tc_power_thread_class(tc_thread *t, unsigned load_class)
{
  TC_ISR_CHECK("tc_power_thread_class");
  TC_ARG_CHECK(thread_valid(t) && load_class <= TC_LOAD_LOW, TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned s = tc__lock();
  t->power_class = (uint8_t)load_class;
  if (PW.policy == TC_POLICY_LOAD_SCALING) enforce(); /* (a policy needs a table) */
  tc__unlock(s);
  return TC_OK;
}

/* ---- periodic tasks: static scaling and cycle-conserving RM DVS ------------------------- */

#define TASK_OF(node) TC_CONTAINER_OF(node, tc_thread, power_node)
#define FOR_EACH_TASK(t)                                                                     \
  for (const tc_node *n_ = PW.tasks.head, *first_ = n_; n_ != NULL;                          \
       n_ = n_->next == first_ ? NULL : n_->next)                                            \
    for (tc_thread *t = TASK_OF(n_); t != NULL; t = NULL)

/* Cycles per tick and a task's period in cycles at point p, rounded down (the safe side); at
 * least 1 (table_valid: no point is slower than the tick; a period is at least a tick). */
static uint64_t tick_cycles(unsigned p) { return PW.points[p].freq_hz / TC_TICK_HZ; }
static uint64_t period_cycles(const tc_thread *t, unsigned p)
{
  return muldiv(t->power_period, PW.points[p].freq_hz, TC_TICK_HZ);
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

/* Response-time analysis with preemption thresholds (Wang and Saksena, RTCSA 1999) of
 * declared task `i` at point p, in cycles at that point: true when every job of its level-i
 * busy period ends by its deadline (the next release). Priorities and thresholds are the
 * ones the application set (0 most urgent); a task of equal priority counts as higher before
 * `i` starts (FIFO among equals) and cannot preempt it after. A busy period of more than
 * BUSY_JOBS jobs is taken as infeasible (the safe side). */
#define BUSY_JOBS 1000u
static bool feasible_task(const tc_thread *i, unsigned p)
{
  const uint64_t T = period_cycles(i, p), C = i->power_wcet;
  uint64_t B = 0;
  FOR_EACH_TASK(j)
  {
    if (j->user_priority > i->user_priority && j->user_threshold <= i->user_priority &&
        j->power_wcet > B)
      B = j->power_wcet;
  }
  /* The level-i busy period: i's own jobs and those of equal or higher priority. */
  uint64_t L = B + C, prev;
  do {
    prev = L;
    L = B;
    FOR_EACH_TASK(j)
    {
      if (j->user_priority > i->user_priority) continue;
      L += ceil_div(prev, period_cycles(j, p)) * j->power_wcet;
    }
    if (L > BUSY_JOBS * T) return false;
  } while (L != prev);
  uint64_t jobs = ceil_div(L, T);
  for (uint64_t q = 0; q < jobs; q++) {
    /* Start: blocking, q earlier jobs, and every job of higher (or equal) priority released
     * up to the start. */
    uint64_t S = B + q * C, s_prev;
    do {
      s_prev = S;
      S = B + q * C;
      FOR_EACH_TASK(j)
      {
        if (j == i || j->user_priority > i->user_priority) continue;
        S += (1 + s_prev / period_cycles(j, p)) * j->power_wcet;
      }
      if (S > q * T + T) return false;
    } while (S != s_prev);
    /* Finish: once started, only tasks above i's threshold preempt it. */
    uint64_t F = S + C, f_prev;
    do {
      f_prev = F;
      F = S + C;
      FOR_EACH_TASK(j)
      {
        if (j->user_priority >= i->user_threshold) continue;
        uint64_t Tj = period_cycles(j, p);
        F += (ceil_div(f_prev, Tj) - 1 - S / Tj) * j->power_wcet;
      }
      if (F > q * T + T) return false;
    } while (F != f_prev);
  }
  return true;
}

static bool feasible(unsigned p)
{
  FOR_EACH_TASK(t)
  {
    if (!feasible_task(t, p)) return false;
  }
  return true;
}

/* The lowest point at which the declared tasks stay schedulable; PW.n when none is. */
static unsigned lowest_feasible(void)
{
  unsigned p = 0;
  while (p < PW.n && !feasible(p)) p++;
  return p;
}

/* Charge every task the cycles it ran since the last call: its remaining work and its
 * allocation go down by them (Pillai and Shin's "during task execution"). Lock held, books
 * closed. */
static void tasks_run(void)
{
  FOR_EACH_TASK(t)
  {
    uint64_t total = total_cycles(t), ran = total - t->power_mark;
    t->power_mark = total;
    t->power_left = t->power_left > ran ? t->power_left - ran : 0;
    t->power_alloc = t->power_alloc > ran ? t->power_alloc - ran : 0;
  }
}

/* Cycles at the highest point from now to the next deadline of any task that has been
 * released (a completed job's deadline is its task's next release, where the allocation is
 * made again); false when a job is past its deadline with work left (then only the highest
 * point will do). A deadline that falls on this tick with the job done is the release about
 * to come, not the end of the window. */
static bool cycles_to_deadline(uint64_t *out)
{
  const unsigned top = PW.n - 1;
  const uint32_t now = tc__k.tick;
  bool any = false;
  uint32_t first = 0;
  FOR_EACH_TASK(t)
  {
    if (!t->power_released) continue;
    int32_t ahead = (int32_t)(t->power_deadline - now);
    if (ahead <= 0 && t->power_left != 0) return false;
    if (ahead <= 0) continue;
    if (!any || (uint32_t)ahead < first) first = (uint32_t)ahead;
    any = true;
  }
  if (!any) {
    *out = UINT64_MAX;
    return true;
  }
  uint64_t cycles = (uint64_t)first * tick_cycles(top);
#ifdef TC_PORT_TICK_ELAPSED
  uint64_t spent = muldiv(TC_PORT_TICK_ELAPSED(), PW.points[top].freq_hz, PW.points[PW.point].freq_hz);
#else
  uint64_t spent = tick_cycles(top); /* the current tick counted as spent: the safe side */
#endif
  *out = cycles > spent ? cycles - spent : 0;
  return true;
}

/* Cycle-conserving RM (Pillai and Shin, SOSP 2001, fig. 4): at a release, the cycles the
 * static point would run before the next deadline are allocated to the jobs in RM order
 * (the list's order: shortest period first); at every release and completion the point is
 * the lowest that runs all allocated work by that deadline. */
static void rt_dvs(bool release)
{
  uint64_t s_m;
  unsigned p = PW.n - 1;
  if (cycles_to_deadline(&s_m)) {
    if (release && s_m != UINT64_MAX) {
      uint64_t k = muldiv(s_m, PW.points[PW.floor].freq_hz, PW.points[PW.n - 1].freq_hz);
      FOR_EACH_TASK(t)
      {
        t->power_alloc = t->power_left < k ? t->power_left : k;
        k -= t->power_alloc;
      }
    }
    uint64_t work = 0;
    FOR_EACH_TASK(t) { work += t->power_alloc; }
    if (s_m == UINT64_MAX) {
      p = 0;
    } else {
      p = 0;
      while (p < PW.n - 1 && work > muldiv(s_m, PW.points[p].freq_hz, PW.points[PW.n - 1].freq_hz)) p++;
    }
  }
  PW.busy = p;
  enforce();
}

tc_status tc_power_task(tc_thread *t, uint32_t period_ticks, uint64_t wcet_cycles)
{
  TC_ISR_CHECK("tc_power_task");
  TC_ARG_CHECK(thread_valid(t), TC_INVALID);
  TC_ARG_CHECK((period_ticks == 0) == (wcet_cycles == 0), TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned s = tc__lock();
  if (t->power_period != 0) tc__list_remove(&PW.tasks, &t->power_node);
  t->power_period = period_ticks;
  t->power_wcet = wcet_cycles;
  t->power_left = t->power_alloc = 0;
  t->power_released = false;
  t->power_mark = total_cycles(t);
  if (period_ticks != 0) {
    tc_node *pos = NULL;
    FOR_EACH_TASK(u)
    {
      if (pos == NULL && (u->power_period > period_ticks ||
                          (u->power_period == period_ticks && u->user_priority > t->user_priority)))
        pos = &u->power_node;
    }
    tc__list_insert(&PW.tasks, pos, &t->power_node);
  }
  tc__unlock(s);
  return TC_OK;
}

tc_status tc_power_release(tc_thread *t)
{
  TC_ISR_CHECK("tc_power_release");
  TC_ARG_CHECK(thread_valid(t) && t->power_period != 0, TC_INVALID);
  unsigned s = tc__lock();
  close_books();
  tasks_run();
  t->power_left = t->power_wcet;
  t->power_deadline = tc__k.tick + t->power_period;
  t->power_released = true;
  if (PW.policy == TC_POLICY_RT_DVS) rt_dvs(true);
  tc__unlock(s);
  return TC_OK;
}

tc_status tc_power_complete(void)
{
  TC_ISR_CHECK("tc_power_complete");
  TC_ARG_CHECK(tc__in_thread(), TC_CALLER_ERROR);
  tc_thread *t = tc__k.current;
  TC_ARG_CHECK(t->power_period != 0, TC_INVALID);
  unsigned s = tc__lock();
  close_books();
  tasks_run();
  t->power_left = t->power_alloc = 0;
  if (PW.policy == TC_POLICY_RT_DVS) rt_dvs(false);
  tc__unlock(s);
  return TC_OK;
}

tc_status tc_power_policy(unsigned policy)
{
  TC_ISR_CHECK("tc_power_policy");
  TC_ARG_CHECK(PW.n != 0 && policy <= TC_POLICY_RT_DVS, TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned s = tc__lock();
  unsigned floor = PW.n - 1;
  if (policy == TC_POLICY_STATIC || policy == TC_POLICY_RT_DVS) {
    floor = PW.tasks.head != NULL ? lowest_feasible() : PW.n;
    if (floor == PW.n) {
      tc__unlock(s);
      return TC_NO_INSTANCE;
    }
  }
  close_books();
  tasks_run();
  PW.policy = policy;
  PW.floor = floor;
  tc__k.power_scaling = policy != TC_POLICY_FIXED;
  tc__k.power_by_thread = policy == TC_POLICY_LOAD_SCALING;
  if (policy == TC_POLICY_RT_DVS) {
    rt_dvs(true);
  } else {
    PW.busy = policy == TC_POLICY_STATIC ? floor : PW.set;
    enforce();
  }
  TC_TRACE_EVENT(TC_TRACE_EV_POLICY, policy, PW.point, 0);
  tc__unlock(s);
  return TC_OK;
}

/* ---- reports ---------------------------------------------------------------------------- */

unsigned tc_power_point(void) { return PW.point; }

const tc_opp *tc_power_points(unsigned *n)
{
  if (n != NULL) *n = PW.n;
  return PW.n != 0 ? PW.points : NULL;
}

static void add_cycles(uint64_t sum[TC_POWER_POINTS], const uint64_t part[TC_POWER_POINTS])
{
  for (unsigned p = 0; p < TC_POWER_POINTS; p++) sum[p] += part[p];
}

/* Every context of `list` (threads or HISRs, linked by the node at `node_offset`): `visit`
 * gets its cycles per point. Returns their switches in. Lock held, books closed. */
typedef void context_visit(const tc_thread *c, const uint64_t cycles[TC_POWER_POINTS], void *arg);
static uint64_t each_context(const tc_list *list, size_t node_offset, context_visit *visit, void *arg)
{
  uint64_t switches = 0;
  const tc_node *n = list->head;
  if (n == NULL) return 0;
  do {
    const tc_thread *c = (const tc_thread *)(const void *)((const char *)n - node_offset);
    uint64_t cycles[TC_POWER_POINTS], in, preempted, total;
    context_cycles(c, cycles);
    visit(c, cycles, arg);
    tc__thread_counters(c, &in, &preempted, &total);
    switches += in;
    n = n->next;
  } while (n != list->head);
  return switches;
}

static void add_context(const tc_thread *c, const uint64_t cycles[TC_POWER_POINTS], void *sum)
{
  (void)c;
  add_cycles(sum, cycles);
}

tc_status tc_energy_report(tc_energy_report_t *out)
{
  TC_ISR_CHECK("tc_energy_report");
  TC_ARG_CHECK(out != NULL && PW.n != 0, TC_INVALID);
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  tc_kernel_stats_t ks;
  tc_kernel_stats(&ks);
  unsigned s = tc__lock();
  close_books();
  uint64_t elapsed[TC_POWER_POINTS], threads[TC_POWER_POINTS], hisrs[TC_POWER_POINTS],
      switching[TC_POWER_POINTS];
  memcpy(elapsed, PW.elapsed, sizeof elapsed);
  memcpy(threads, PW.deleted[0], sizeof threads);
  memcpy(hisrs, PW.deleted[1], sizeof hisrs);
  (void)each_context(&tc__k.threads, offsetof(tc_thread, created_node), add_context, threads);
  /* An HISR's context is its first member (tacet/hisr.h). */
  uint64_t hisr_switches = each_context(&tc__k.hisrs, offsetof(tc_hisr, created_node), add_context, hisrs);
  for (unsigned p = 0; p < TC_POWER_POINTS; p++)
    switching[p] = elapsed[p] - threads[p] - hisrs[p] - PW.idle[p];
  energy_of(elapsed, &out->total);
  energy_of(threads, &out->threads);
  energy_of(hisrs, &out->hisrs);
  energy_of(PW.idle, &out->idle);
  energy_of(switching, &out->switching);
  out->context_switches = ks.context_switches + hisr_switches;
  out->joules_per_switch =
      out->context_switches != 0 ? out->switching.joules / (double)out->context_switches : 0.0;
  out->point = PW.point;
  out->policy = PW.policy;
  out->point_changes = PW.changes;
  out->modelled = !PW.scaled;
  tc__unlock(s);
  return TC_OK;
}

static tc_status context_energy(const tc_thread *c, tc_energy_t *out)
{
  TC_ARG_CHECK(!tc__in_handler(), TC_CALLER_ERROR);
  unsigned s = tc__lock();
  close_books();
  uint64_t cycles[TC_POWER_POINTS];
  context_cycles(c, cycles);
  energy_of(cycles, out);
  tc__unlock(s);
  return TC_OK;
}

tc_status tc_energy_thread(const tc_thread *t, tc_energy_t *out)
{
  TC_ISR_CHECK("tc_energy_thread");
  TC_ARG_CHECK(out != NULL && PW.n != 0 && thread_valid(t), TC_INVALID);
  return context_energy(t, out);
}

tc_status tc_energy_hisr(const tc_hisr *h, tc_energy_t *out)
{
  TC_ISR_CHECK("tc_energy_hisr");
  TC_ARG_CHECK(out != NULL && PW.n != 0 && h != NULL && h->magic == TC_MAGIC_HISR, TC_INVALID);
  return context_energy(&h->ctx, out);
}

tc_status tc_energy_phase_begin(tc_energy_phase *phase)
{
  TC_ISR_CHECK("tc_energy_phase_begin");
  TC_ARG_CHECK(phase != NULL && PW.n != 0, TC_INVALID);
  TC_ARG_CHECK(tc__in_thread(), TC_CALLER_ERROR);
  unsigned s = tc__lock();
  close_books();
  memcpy(phase->system, PW.elapsed, sizeof phase->system);
  context_cycles(tc__k.current, phase->own);
  phase->thread = tc__k.current;
  tc__unlock(s);
  return TC_OK;
}

tc_status tc_energy_phase_end(tc_energy_phase *phase, tc_energy_t *system, tc_energy_t *own)
{
  TC_ISR_CHECK("tc_energy_phase_end");
  TC_ARG_CHECK(phase != NULL && PW.n != 0, TC_INVALID);
  TC_ARG_CHECK(tc__in_thread(), TC_CALLER_ERROR);
  TC_ARG_CHECK(phase->thread == tc__k.current, TC_INVALID);
  unsigned s = tc__lock();
  close_books();
  uint64_t sys[TC_POWER_POINTS], mine[TC_POWER_POINTS];
  context_cycles(tc__k.current, mine);
  for (unsigned p = 0; p < TC_POWER_POINTS; p++) {
    sys[p] = PW.elapsed[p] - phase->system[p];
    mine[p] -= phase->own[p];
  }
  if (system != NULL) energy_of(sys, system);
  if (own != NULL) energy_of(mine, own);
  tc__unlock(s);
  return TC_OK;
}

#if TC_TRACE
/* ---- the energy snapshot of a trace ----------------------------------------------------- */

/* tc_trace_disable() records the books (trace.h, TC_TRACE_ENERGY_*; docs/trace.md): what
 * tc_energy_report() computes from, so that `tacet trace` computes the same from the dump
 * alone. Off every switch and service path: it runs once per trace, at its end. */
typedef struct {
  uint32_t records;
  uint32_t context; /* the a0 of the context records being made: kind and part */
} snapshot;

static void record(snapshot *s, uint32_t a0, uintptr_t a1, uint64_t value)
{
  tc__trace_put4(TC_TRACE_EV_ENERGY, a0, a1, (uint32_t)(value >> 32), (uint32_t)value);
  s->records++;
}

/* A record for every point at which `cycles` is not zero. */
static void record_cycles(snapshot *s, uint32_t a0, uintptr_t a1, const uint64_t cycles[TC_POWER_POINTS])
{
  for (unsigned p = 0; p < PW.n; p++)
    if (cycles[p] != 0) record(s, a0 | p << 8, a1, cycles[p]);
}

static void record_context(const tc_thread *c, const uint64_t cycles[TC_POWER_POINTS], void *arg)
{
  snapshot *s = arg;
  record_cycles(s, s->context, (uintptr_t)c, cycles);
}

static uint64_t double_bits(double d)
{
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  return bits;
}

void tc__power_trace_snapshot(void)
{
  if (PW.n == 0) return;
  close_books();
  /* Set before the records: a decoder that finds none of them knows they were lost. */
  tc__k.trace->flags |= TC_TRACE_F_ENERGY;
  snapshot s = {0, 0};
  uint32_t shape = PW.n << 8 | PW.policy << 16 | (uint32_t)!PW.scaled << 24;
  record(&s, TC_TRACE_ENERGY_BEGIN + shape, PW.point, PW.changes);
  for (unsigned p = 0; p < PW.n; p++)
    record(&s, TC_TRACE_ENERGY_POINT | p << 8, PW.points[p].freq_hz, PW.points[p].millivolt);
  record(&s, TC_TRACE_ENERGY_C_EFF, 0, double_bits(PW.c_eff));
  record(&s, TC_TRACE_ENERGY_P_STATIC, 0, double_bits(PW.p_static));
  record_cycles(&s, TC_TRACE_ENERGY_ELAPSED, 0, PW.elapsed);
  record_cycles(&s, TC_TRACE_ENERGY_IDLE, 0, PW.idle);
  record_cycles(&s, TC_TRACE_ENERGY_DELETED, 0, PW.deleted[0]);
  record_cycles(&s, TC_TRACE_ENERGY_DELETED | 1u << 16, 0, PW.deleted[1]);
  /* The switches as tc_energy_report() counts them: tc_kernel_stats()'s (the threads', deleted
   * ones included) and the HISRs'. */
  s.context = TC_TRACE_ENERGY_CONTEXT;
  uint64_t switches = tc__k.deleted_switches_in +
                      each_context(&tc__k.threads, offsetof(tc_thread, created_node), record_context, &s);
  s.context = TC_TRACE_ENERGY_CONTEXT | 1u << 16;
  switches += each_context(&tc__k.hisrs, offsetof(tc_hisr, created_node), record_context, &s);
  record(&s, TC_TRACE_ENERGY_SWITCHES, 0, switches);
  record(&s, TC_TRACE_ENERGY_END, s.records + 1u, 0);
}
#endif /* TC_TRACE */

#endif /* TC_POWER */
