/* SPDX-License-Identifier: MIT */
/* The sim port: virtual time, simulated interrupts inside consume, switch cost, idle (and
 * its tick skipping), stop, determinism and repeated runs in one process. */
#include <stdio.h>
#include <string.h>

#include "tacet/sim.h"
#include "internal.h"
#include "tct.h"

static tc_thread th[4];
static tc_thread *const L = &th[0];
static tc_thread *const H = &th[1];

static void high_logs_time(void *arg)
{
  (void)arg;
  for (;;) {
    tct_log("H@%llu", (unsigned long long)tc_sim_now());
    OK(tc_thread_suspend(H));
  }
}

static void irq_resume_high(void) { OK(tc_thread_resume(H)); }

static void low_consumes(void *arg)
{
  (void)arg;
  OK(tc_sim_irq_at(300000, irq_resume_high));
  OK(tc_sim_irq_at(300001, irq_resume_high)); /* H has run and suspended itself again */
  tct_work(1000000);
  tct_log("L@%llu", (unsigned long long)tc_sim_now());
}

static void interrupt_preempts_inside_consume(void)
{
  tct_begin();
  OK(tc_thread_create(L, "L", low_consumes, NULL, TCT_STACK(0), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(H, "H", high_logs_time, NULL, TCT_STACK(1), 1, 1, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("H@300000 H@300001 L@1000000");
  tc_thread_info_t i;
  OK(tc_thread_info(L, &i));
  CHECK_EQ(i.cycles, 1000000);
  CHECK_EQ(i.preempted, 2); /* once per interrupt: L, H, L, H, L */
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK_EQ(k.interrupts, 2 + 10); /* two simulated interrupts, ten ticks */
  CHECK_EQ(tc_tick_get(), 10);
}

static void ponger(void *arg)
{
  (void)arg;
  for (unsigned i = 0; i < 100; i++) tc_thread_yield();
}

static void switch_cost_is_charged(void)
{
  tct_begin();
  tc_sim_set_switch_cost(250);
  OK(tc_thread_create(L, "a", ponger, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(H, "b", ponger, NULL, TCT_STACK(1), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  /* a starts; each of the 200 yields switches; a completes and b finishes: 202 switches,
   * 200 of them away from a ready thread. */
  CHECK_EQ(k.context_switches, 202);
  CHECK_EQ(k.switch_cycles, 202 * 250);
  CHECK_EQ(tc_sim_now(), 202 * 250);
  CHECK_EQ(k.preemptions, 200);
  tc_thread_info_t i;
  OK(tc_thread_info(L, &i));
  CHECK_EQ(i.cycles, 0); /* the threads themselves spent no time */
}

/* A cost model that charges by who comes in and remembers who went out. */
static struct {
  unsigned calls;
  const tc_thread *from[8], *to[8];
  uint64_t now[8];
} model;

static uint64_t cost_by_incoming(const tc_thread *from, const tc_thread *to, void *arg)
{
  CHECK(arg == &model);
  if (model.calls < 8) {
    model.from[model.calls] = from;
    model.to[model.calls] = to;
    model.now[model.calls] = tc_sim_now();
  }
  model.calls++;
  return to == L ? 100 : 7;
}

static void pings(void *arg)
{
  (void)arg;
  for (unsigned i = 0; i < 3; i++) {
    tct_work(1000);
    tc_thread_yield();
  }
}

static void switch_cost_fn_sees_both_threads(void)
{
  tct_begin();
  memset(&model, 0, sizeof model);
  tc_sim_set_switch_cost(5000); /* replaced by the function */
  tc_sim_set_switch_cost_fn(cost_by_incoming, &model);
  OK(tc_thread_create(L, "a", pings, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(H, "b", pings, NULL, TCT_STACK(1), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  /* a, b, a, b, a, b, then a completes and b completes: eight switches, four to each; a's
   * cost 100, b's 7. */
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK_EQ(model.calls, 8);
  CHECK_EQ(k.context_switches, 8);
  CHECK_EQ(k.switch_cycles, 4 * 100 + 4 * 7);
  CHECK_EQ(tc_sim_now(), 6 * 1000 + 4 * 100 + 4 * 7);
  CHECK(model.from[0] == NULL && model.to[0] == L);
  CHECK(model.from[1] == L && model.to[1] == H);
  CHECK(model.from[2] == H && model.to[2] == L);
  /* Asked before its own cost is charged: a's 1000, then the 100 of a's start. */
  CHECK_EQ(model.now[0], 0);
  CHECK_EQ(model.now[1], 100 + 1000);
  CHECK_EQ(model.now[2], 100 + 1000 + 7 + 1000);
  /* Forgotten by the next tc_kernel_init(): the constant 0 again. */
  tct_begin();
  OK(tc_thread_create(L, "a", pings, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_EQ(model.calls, 8);
  CHECK_EQ(tc_sim_now(), 3 * 1000);
  /* NULL goes back to the constant. */
  tct_begin();
  tc_sim_set_switch_cost_fn(cost_by_incoming, &model);
  tc_sim_set_switch_cost_fn(NULL, NULL);
  tc_sim_set_switch_cost(40);
  OK(tc_thread_create(L, "a", pings, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_EQ(model.calls, 8);
  CHECK_EQ(tc_sim_now(), 3 * 1000 + 40);
}

static void low_finishes(void *arg)
{
  bool finish = arg != NULL;
  OK(tc_sim_irq_at(5000, irq_resume_high)); /* at the very end of L's work */
  if (finish)
    tc_sim_finish(5000);
  else
    tct_work(5000);
  tct_log("L@%llu", (unsigned long long)tc_sim_now());
}

/* An interrupt at the cycle a consumption ends is taken inside tc_sim_consume (H runs
 * before L goes on) and after tc_sim_finish (L goes on first, H runs at L's next kernel call:
 * here its completion). */
static void finish_leaves_the_interrupt_at_its_end(void)
{
  for (unsigned finish = 0; finish < 2; finish++) {
    tct_begin();
    OK(tc_thread_create(L, "L", low_finishes, finish ? L : NULL, TCT_STACK(0), 10, 10, 0, TC_AUTO_START));
    OK(tc_thread_create(H, "H", high_logs_time, NULL, TCT_STACK(1), 1, 1, 0, 0));
    CHECK_EQ(tct_run_kernel(), 0);
    CHECK_LOG(finish ? "L@5000 H@5000" : "H@5000 L@5000");
    tc_thread_info_t i;
    OK(tc_thread_info(L, &i));
    CHECK_EQ(i.preempted, finish ? 0 : 1);
  }
}

static void worker_yields(void *arg)
{
  (void)arg;
  for (unsigned i = 0; i < 10; i++) {
    tct_work(1000);
    tc_thread_yield();
  }
}

/* Two equal threads take turns; `preset` starts L's counters just below the carry into their
 * high words (white box: the switch path adds to 32-bit low words). */
static void run_turns(bool preset, tc_thread_info_t *l, tc_kernel_stats_t *k)
{
  tct_begin();
  OK(tc_thread_create(L, "a", worker_yields, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(H, "b", worker_yields, NULL, TCT_STACK(1), 5, 5, 0, TC_AUTO_START));
  if (preset) {
    tc__counts(L)->switches_out = 0xFFFFFFFBu; /* five switches away from L before the carry */
    tc__counts(L)->cycles_lo = 0xFFFFFFFFu - 2500u;
  }
  CHECK_EQ(tct_run_kernel(), 0);
  OK(tc_thread_info(L, l));
  tc_kernel_stats(k);
  if (preset) {
    CHECK_EQ(tc__counts(L)->switches_out_hi, 1);
    CHECK_EQ(tc__counts(L)->cycles_hi, 1);
  }
}

static void counters_carry_into_their_high_words(void)
{
  tc_thread_info_t l0, l1;
  tc_kernel_stats_t k0, k1;
  run_turns(false, &l0, &k0);
  STEP();
  run_turns(true, &l1, &k1);
  CHECK_EQ(l0.switches_in, 11); /* ten turns, and the last one ends the thread */
  CHECK_EQ(l0.preempted, 10);
  CHECK_EQ(l0.cycles, 10000);
  CHECK_EQ(l1.switches_in, l0.switches_in + 0xFFFFFFFBu);
  CHECK_EQ(l1.preempted, l0.preempted + 0xFFFFFFFBu);
  CHECK_EQ(l1.cycles, l0.cycles + 0xFFFFFFFFu - 2500u);
  CHECK_EQ(k1.context_switches, k0.context_switches + 0xFFFFFFFBu);
  CHECK_EQ(k1.preemptions, k0.preemptions + 0xFFFFFFFBu);
}

static void idle_sleeper(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(3));
  tct_work(1000);
}

static void idle_time_is_counted(void)
{
  tct_begin();
  OK(tc_thread_create(L, "s", idle_sleeper, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK_EQ(k.idle_cycles, 3 * tc_sim_cycles_per_tick());
  CHECK_EQ(k.context_switches, 1); /* s, idle, s again: the same context */
  tc_thread_info_t i;
  OK(tc_thread_info(L, &i));
  CHECK_EQ(i.cycles, 1000);
  CHECK_EQ(i.switches_in, 1);
  CHECK_EQ(i.preempted, 0);
  CHECK_EQ(tc_cycles(), tc_sim_now());
  CHECK_EQ(tc_cycles_hz(), TC_SIM_CPU_HZ);
  CHECK_EQ(tc_sim_cycles_per_tick(), TC_SIM_CPU_HZ / TC_TICK_HZ);
}

static void noop_lisr(void) {}

/* Idle with no timeout pending until a distant interrupt: the ticks in between are skipped
 * in one jump (tickless idle) and still counted. */
static void suspends_then_logs_tick(void *arg)
{
  (void)arg;
  OK(tc_thread_suspend(H));
  tct_log("H@tick%u", (unsigned)tc_tick_get());
}

static void idle_without_timeouts_keeps_the_tick_count(void)
{
  tct_begin();
  OK(tc_thread_create(H, "H", suspends_then_logs_tick, NULL, TCT_STACK(1), 1, 1, 0, TC_AUTO_START));
  OK(tc_sim_irq_at(10 * tc_sim_cycles_per_tick() + tc_sim_cycles_per_tick() / 2, irq_resume_high));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("H@tick10");
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK_EQ(k.idle_cycles, 10 * tc_sim_cycles_per_tick() + tc_sim_cycles_per_tick() / 2);
}

static void log_second(void) { tct_log("second-isr"); }

static void same_cycle_interrupts_run_before_threads(void)
{
  tct_begin();
  OK(tc_thread_create(H, "H", high_logs_time, NULL, TCT_STACK(1), 1, 1, 0, 0));
  OK(tc_sim_irq_at(777, irq_resume_high));
  OK(tc_sim_irq_at(777, log_second)); /* pending together: both handlers run, then H */
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("second-isr H@777");
}

static void irq_at_errors(void)
{
  tct_begin();
  EXPECT(tc_sim_irq_at(10, NULL), TC_INVALID);
  for (unsigned i = 0; i < TC_SIM_MAX_IRQS; i++) OK(tc_sim_irq_at(1000 + i, noop_lisr));
  EXPECT(tc_sim_irq_at(5000, noop_lisr), TC_FULL);
  CHECK_EQ(tct_run_kernel(), 0); /* idle takes them all, then nothing is left */
  CHECK_EQ(tc_sim_now(), 1000 + TC_SIM_MAX_IRQS - 1);
  EXPECT(tc_sim_irq_at(5, noop_lisr), TC_INVALID); /* in the past */
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK_EQ(k.interrupts, TC_SIM_MAX_IRQS);
}

static void stopper(void *arg)
{
  (void)arg;
  tct_log("before");
  tc_sim_stop(42);
  tct_log("after");
}

static void stop_ends_the_run(void)
{
  tct_begin();
  OK(tc_thread_create(L, "s", stopper, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(H, "t", stopper, NULL, TCT_STACK(1), 6, 6, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 42);
  CHECK_LOG("before");
}

static void stop_in_idle_irq(void) { tc_sim_stop(7); }

static void stop_from_interrupt_in_idle(void)
{
  tct_begin();
  OK(tc_sim_irq_at(12345, stop_in_idle_irq));
  OK(tc_sim_irq_at(22345, noop_lisr)); /* never taken: the run is over */
  CHECK_EQ(tct_run_kernel(), 7);
  CHECK_EQ(tc_sim_now(), 12345);
}

static void masked_consumer(void *arg)
{
  (void)arg;
  OK(tc_sim_irq_at(500, irq_resume_high));
  unsigned s = tc_interrupt_disable();
  tct_work(1000); /* the interrupt falls due at 500 but is masked */
  tct_log("L@%llu", (unsigned long long)tc_sim_now());
  tc_interrupt_restore(s); /* taken here, late: H runs */
  tct_log("L-after");
}

static void masked_interrupt_is_deferred(void)
{
  tct_begin();
  OK(tc_thread_create(L, "L", masked_consumer, NULL, TCT_STACK(0), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(H, "H", high_logs_time, NULL, TCT_STACK(1), 1, 1, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("L@1000 H@1000 L-after");
}

static void log_tick(void) { tct_log("irq-tick=%u", (unsigned)tc_tick_get()); }

static void tick_comes_before_irq_on_same_cycle(void)
{
  tct_begin();
  OK(tc_sim_irq_at(tc_sim_cycles_per_tick(), log_tick));
  OK(tc_sim_irq_at(tc_sim_cycles_per_tick() - 1, log_tick));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("irq-tick=0 irq-tick=1");
}

static void locked_consumer(void *arg)
{
  (void)arg;
  OK(tc_sim_irq_at(1000, irq_resume_high));
  tc_sched_lock();
  tct_work(5000);
  tct_log("L-locked@%llu", (unsigned long long)tc_sim_now());
  tc_sched_unlock();
  tct_log("L-end");
}

static void sched_lock_defers_interrupt_switch(void)
{
  tct_begin();
  OK(tc_thread_create(L, "L", locked_consumer, NULL, TCT_STACK(0), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(H, "H", high_logs_time, NULL, TCT_STACK(1), 1, 1, 0, 0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("L-locked@5000 H@5000 L-end");
}

/* A busy little system: yields, sleeps, interrupts, time slices. Run it twice, with a run
 * stopped half-way between the two (its threads left mid-work and asleep, as the fuzz
 * harnesses leave one run per input): the event log, the counters and the final virtual time
 * must be identical. */
static void busy(void *arg)
{
  unsigned id = (unsigned)(uintptr_t)arg;
  for (unsigned i = 0; i < 20; i++) {
    tct_work(77000 + 1000 * id);
    if (id == 0 && i % 3 == 0) tc_thread_yield();
    if (i % 5 == 0) OK(tc_thread_sleep(1 + id));
    tct_log("%u.%u@%llu", id, i, (unsigned long long)tc_sim_now());
  }
}

static void wake_busy(void)
{
  tc_thread_info_t i;
  OK(tc_thread_info(H, &i));
  if (i.state == TC_SUSPENDED) OK(tc_thread_resume(H));
}

static void busy_high(void *arg)
{
  (void)arg;
  for (unsigned i = 0; i < 5; i++) {
    OK(tc_thread_suspend(H));
    tct_work(3000);
    tct_log("h@%llu", (unsigned long long)tc_sim_now());
  }
}

static void stop_half_way(void) { tc_sim_stop(3); }

/* stop_at: 0, or the cycle at which an interrupt ends the run. */
static void run_busy(char *log_copy, size_t size, tc_kernel_stats_t *k, uint64_t stop_at)
{
  tct_begin();
  tc_sim_set_switch_cost(120);
  if (stop_at != 0) OK(tc_sim_irq_at(stop_at, stop_half_way));
  for (unsigned i = 0; i < 5; i++) OK(tc_sim_irq_at(150000 + 210000 * i, wake_busy));
  OK(tc_thread_create(H, "h", busy_high, NULL, TCT_STACK(1), 2, 2, 0, TC_AUTO_START));
  OK(tc_thread_create(L, "a", busy, (void *)0u, TCT_STACK(0), 6, 6, 2, TC_AUTO_START));
  OK(tc_thread_create(&th[2], "b", busy, (void *)1u, TCT_STACK(2), 6, 6, 2, TC_AUTO_START));
  OK(tc_thread_create(&th[3], "c", busy, (void *)2u, TCT_STACK(3), 6, 4, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), stop_at != 0 ? 3 : 0);
  STEP();
  tc_kernel_stats(k);
  snprintf(log_copy, size, "%s|%llu", tct_log_text(), (unsigned long long)tc_sim_now());
  tct_log_reset();
}

static void runs_are_deterministic(void)
{
  static char first[4096], second[4096], stopped[4096];
  tc_kernel_stats_t k1, k2, ks;
  run_busy(first, sizeof first, &k1, 0);
  run_busy(stopped, sizeof stopped, &ks, 500000);
  CHECK(ks.context_switches < k1.context_switches); /* it did stop half-way */
  run_busy(second, sizeof second, &k2, 0);
  printf("    %llu switches, %llu preemptions, %llu slices\n", (unsigned long long)k1.context_switches,
         (unsigned long long)k1.preemptions, (unsigned long long)k1.time_slices);
  CHECK(strcmp(first, second) == 0);
  CHECK_EQ(k1.context_switches, k2.context_switches);
  CHECK_EQ(k1.preemptions, k2.preemptions);
  CHECK_EQ(k1.time_slices, k2.time_slices);
  CHECK_EQ(k1.interrupts, k2.interrupts);
  CHECK_EQ(k1.idle_cycles, k2.idle_cycles);
  CHECK(k1.context_switches > 30);
  CHECK(k1.time_slices > 0);
  CHECK(k1.preemptions > 0);
}

TCT_MAIN("test_sim",
         TCT_CASE(interrupt_preempts_inside_consume),
         TCT_CASE(switch_cost_is_charged),
         TCT_CASE(switch_cost_fn_sees_both_threads),
         TCT_CASE(finish_leaves_the_interrupt_at_its_end),
         TCT_CASE(idle_time_is_counted),
         TCT_CASE(idle_without_timeouts_keeps_the_tick_count),
         TCT_CASE(counters_carry_into_their_high_words),
         TCT_CASE(irq_at_errors),
         TCT_CASE(same_cycle_interrupts_run_before_threads),
         TCT_CASE(stop_ends_the_run),
         TCT_CASE(stop_from_interrupt_in_idle),
         TCT_CASE(masked_interrupt_is_deferred),
         TCT_CASE(tick_comes_before_irq_on_same_cycle),
         TCT_CASE(sched_lock_defers_interrupt_switch),
         TCT_CASE(runs_are_deterministic))
