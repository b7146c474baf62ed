/* SPDX-License-Identifier: MIT */
/* HISRs, signals and timers with real simulated interrupts (sim port): exact cycles of HISR
 * runs and preemption inside tc_sim_consume, switch costs and counters, signal delivery where
 * it needs the port (an interrupt returning to its thread, a preempted thread; suspended and
 * not yet started threads are in test_signal, on both ports), wait data surviving a handler,
 * timers and tick suppression in idle. */
#include "tacet/sim.h"
#include "tct.h"

static tc_thread th[4];
static tc_thread *const L = &th[0];
static tc_thread *const H = &th[1];
static tc_hisr hs[2];
static tc_hisr *const H0 = &hs[0];
static tc_hisr *const H2 = &hs[1];

#define HSTACK(i) TCT_STACK(8 + (i))
#define NOW ((unsigned long long)tc_sim_now())

/* ---- HISRs ------------------------------------------------------------------------------- */

static void h2_fn(void)
{
  tct_log("h2@%llu", NOW);
  tct_work(5000); /* h0's interrupt lands in here */
  tct_log("h2-end@%llu", NOW);
}

static void h0_fn(void)
{
  tct_log("h0@%llu", NOW);
  tct_work(1000);
  STEP();
}

static void lisr_h2(void) { OK(tc_hisr_activate(H2)); }
static void lisr_h0(void) { OK(tc_hisr_activate(H0)); }

static void consumer(void *arg)
{
  (void)arg;
  tct_work(1000000);
  tct_log("L@%llu", NOW);
}

static void run_hisr_scenario(uint64_t switch_cost)
{
  tct_begin();
  tc_sim_set_switch_cost(switch_cost);
  OK(tc_hisr_create(H0, "h0", h0_fn, 0, HSTACK(0)));
  OK(tc_hisr_create(H2, "h2", h2_fn, 2, HSTACK(1)));
  OK(tc_thread_create(L, "L", consumer, NULL, TCT_STACK(0), 10, 10, 0, TC_AUTO_START));
  OK(tc_sim_irq_at(300000, lisr_h2));
  OK(tc_sim_irq_at(300000 + switch_cost + 2000, lisr_h0));
  CHECK_EQ(tct_run_kernel(), 0);
}

static void hisrs_at_exact_cycles(void)
{
  run_hisr_scenario(0);
  CHECK_LOG("h2@300000 h0@302000 h2-end@306000 L@1006000");
  tc_thread_info_t t;
  OK(tc_thread_info(L, &t));
  CHECK_EQ(t.cycles, 1000000);
  CHECK_EQ(t.preempted, 1);
  CHECK(t.last_preempted_by == &H2->ctx);
  tc_hisr_info_t h;
  OK(tc_hisr_info(H2, &h));
  CHECK_EQ(h.cycles, 5000);
  CHECK_EQ(h.switches_in, 2); /* entered, and resumed after h0 */
  OK(tc_hisr_info(H0, &h));
  CHECK_EQ(h.cycles, 1000);
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK_EQ(k.context_switches, 2); /* L at start, L after the HISRs */
  CHECK_EQ(k.preemptions, 1);
}

static void hisr_switches_cost_like_thread_switches(void)
{
  run_hisr_scenario(100);
  /* L -> h2 -> h0 -> h2 -> L: five switches charged (the first one into L included). */
  CHECK_LOG("h2@300100 h0@302200 h2-end@306300 L@1006500");
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK_EQ(k.switch_cycles, 500);
  CHECK_EQ(k.context_switches, 2);
}

static void hisr_from_idle(void)
{
  tct_begin();
  OK(tc_hisr_create(H0, "h0", h0_fn, 0, HSTACK(0)));
  OK(tc_sim_irq_at(777, lisr_h0));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("h0@777");
  CHECK_EQ(tc_sim_now(), 1777);
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK_EQ(k.idle_cycles, 777);
}

/* ---- signals ----------------------------------------------------------------------------- */

static void now_handler(uint32_t signals)
{
  tct_log("h%x:%s@%llu", (unsigned)signals, tc_thread_self()->name, NOW);
  EXPECT(tc_signal_abort_wait(), TC_STATE_ERROR); /* its thread was not waiting */
}

static void lisr_signal_l(void) { OK(tc_signal_send(L, 0x1)); }

static void signalled_consumer(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(L, now_handler));
  tct_work(1000000);
  tct_log("L@%llu", NOW);
}

static void interrupt_returns_into_the_handler(void)
{
  tct_begin();
  OK(tc_thread_create(L, "L", signalled_consumer, NULL, TCT_STACK(0), 10, 10, 0, TC_AUTO_START));
  OK(tc_sim_irq_at(500000, lisr_signal_l));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("h1:L@500000 L@1000000");
}

static void lisr_resume_h(void) { OK(tc_thread_resume(H)); }

static void signals_preempted(void *arg)
{
  (void)arg;
  tct_log("H@%llu", NOW);
  OK(tc_signal_send(L, 0x2)); /* L is ready, preempted: pending */
  CHECK_EQ(tc_signal_pending(L), 0x2);
  tct_work(100);
  tct_log("H-end@%llu", NOW);
}

static void preempted_thread_runs_handler_first(void)
{
  tct_begin();
  OK(tc_thread_create(L, "L", signalled_consumer, NULL, TCT_STACK(0), 10, 10, 0, TC_AUTO_START));
  OK(tc_thread_create(H, "H", signals_preempted, NULL, TCT_STACK(1), 1, 1, 0, 0));
  OK(tc_sim_irq_at(1000, lisr_resume_h));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("H@1000 H-end@1100 h2:L@1100 L@1000100");
}

/* A thread's wait has ended with a block handed over; before it runs, a signal arrives and
 * its handler blocks on a byte pool (using the thread's wait data): the block still comes
 * out of tc_block_alloc(). */
static tc_block_pool bpool;
static uint64_t bmem[8];
static tc_byte_pool ypool;
static uint64_t ymem[16];
static void *handed, *filler;

static void blocking_handler(uint32_t signals)
{
  (void)signals;
  void *p;
  EXPECT(tc_byte_alloc(&ypool, &p, 64, 3), TC_TIMEOUT); /* waits 3 ticks */
  tct_log("h-done");
}

static void pool_client(void *arg)
{
  (void)arg;
  OK(tc_signal_handler_set(L, blocking_handler));
  void *blk = NULL;
  OK(tc_block_alloc(&bpool, &blk, TC_WAIT_FOREVER));
  CHECK(blk == handed);
  tct_log("got");
}

static void pool_giver(void *arg)
{
  (void)arg;
  OK(tc_thread_sleep(1));
  OK(tc_block_free(handed)); /* to L, which stays ready behind us */
  OK(tc_signal_send(L, 1));
  tct_log("given");
}

static void wait_data_survives_a_handler(void)
{
  tct_begin();
  OK(tc_block_pool_create(&bpool, "b", 8, bmem, TC_BLOCK_POOL_MEM(8, 1)));
  OK(tc_block_alloc(&bpool, &handed, TC_NO_WAIT));
  OK(tc_byte_pool_create(&ypool, "y", ymem, sizeof ymem));
  tc_byte_pool_info_t yi;
  OK(tc_byte_pool_info(&ypool, &yi));
  OK(tc_byte_alloc(&ypool, &filler, yi.largest, TC_NO_WAIT));
  OK(tc_thread_create(L, "L", pool_client, NULL, TCT_STACK(0), 5, 5, 0, TC_AUTO_START));
  OK(tc_thread_create(H, "G", pool_giver, NULL, TCT_STACK(1), 1, 1, 0, TC_AUTO_START));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("given h-done got");
}

/* ---- timers ------------------------------------------------------------------------------ */

static tc_timer tm;
static unsigned expiries;

static void every_100(void *arg)
{
  (void)arg;
  tct_log("t@%u", (unsigned)tc_tick_get());
  if (++expiries == 5) OK(tc_timer_delete(&tm));
}

static void idle_timers_are_tickless(void)
{
  tct_begin();
  expiries = 0;
  OK(tc_timer_create(&tm, "t", every_100, NULL, 100, 100, TC_AUTO_ACTIVATE));
  CHECK_EQ(tct_run_kernel(), 0);
  CHECK_LOG("t@100 t@200 t@300 t@400 t@500");
  tc_kernel_stats_t k;
  tc_kernel_stats(&k);
  CHECK_EQ(k.interrupts, 5); /* only the ticks that expire the timer */
  CHECK_EQ(tc_sim_now(), 500 * tc_sim_cycles_per_tick());
}

TCT_MAIN("test_sim_deferred",
         TCT_CASE(hisrs_at_exact_cycles),
         TCT_CASE(hisr_switches_cost_like_thread_switches),
         TCT_CASE(hisr_from_idle),
         TCT_CASE(interrupt_returns_into_the_handler),
         TCT_CASE(preempted_thread_runs_handler_first),
         TCT_CASE(wait_data_survives_a_handler),
         TCT_CASE(idle_timers_are_tickless))
