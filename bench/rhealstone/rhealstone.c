/* SPDX-License-Identifier: MIT */
/*
 * The six Rhealstone parameters (Kar and Porter 1989, as Wang and Liu, "A New Method to Measure
 * Real-Time Performance Parameters of Embedded Operating Systems Based on Benchmark Program",
 * section II, measure them),
 * each measured two ways: between empty threads, and with the measurement points inside
 * realistic workloads (bench/workloads) at their start, middle and end, as Wang and Liu do.
 * K samples per parameter and way; every sample is kept and printed (measure.h's format) for
 * `tacet bench` to summarise.
 *
 *   rhealstone [K]     K samples per parameter and way (default 1000, at most 2000)
 *
 * A thread of the benchmark is an "actor": in the empty case it calls its parameter's action
 * in a loop and does nothing else; in the workload case it runs the workloads one after the
 * other (each thread starting at a different one) and the action is the hook they call at
 * their three points. A sample is tagged with the workload and point of the thread whose
 * action made the measured event happen (for the semaphore and the deadlock, the thread that
 * asks for the resource). Where each sample starts and ends (t1, t2):
 *
 *   task_switch        A yields to B of equal priority: t1 before A's tc_thread_yield(), t2
 *                      when B's tc_thread_yield() returns.
 *   preemption         L resumes H of higher priority, suspended: t1 before
 *                      tc_thread_resume(H), t2 when H's tc_thread_suspend() returns.
 *   interrupt_latency  an interrupt is asserted while an actor runs: to=handler at the
 *                      handler's first statement, to=thread when the higher-priority thread
 *                      the handler readies (a semaphore give) returns from tc_sem_take().
 *                      The assertion time is the interrupt source's own: on Cortex-M the MPS2
 *                      timer 1, armed by an actor to reach zero a pseudo-random 1..128 cycles
 *                      later, asserts its interrupt at zero, reloads 0xFFFFFFFF and counts on,
 *                      so 0xFFFFFFFF - value is the time since the assertion (one timer cycle,
 *                      1.25 instructions, of resolution); on the sim port the virtual cycle
 *                      the interrupt was raised for (tc_sim_irq_at). The empty case's actor
 *                      spins without calling the kernel; the workload case's two actors yield
 *                      to each other at each point, so the interrupt may fall inside the
 *                      kernel's masked sections.
 *   semaphore_shuffle  L holds a semaphore and resumes H; H asks for it: t1 before H's
 *                      tc_sem_take() (which blocks), t2 when it returns after L's tc_sem_give().
 *   deadlock_break     Wang and Liu fig. 2: L locks a priority-inheritance mutex and resumes H,
 *                      which asks for it (t1 before tc_mutex_lock(); L inherits H's priority);
 *                      L then resumes M of middle priority, which cannot preempt it, and
 *                      unlocks; t2 when H's tc_mutex_lock() returns.
 *   message            S sends to R of higher priority, waiting to receive: t1 before the
 *                      send, t2 when R's receive returns; a message queue (the message
 *                      copied), a message port (a pointer) and a task port (one word, the
 *                      message's index), for messages of 4 to 1024 bytes between empty
 *                      threads and 16 bytes in the workloads (Ahn et al. fig. 15).
 *   stamp              two time stamps back to back: what one stamp adds to every sample.
 *
 * On the sim port kernel code takes no virtual time: a sample in virtual cycles is the switch
 * cost the sim port charges (tc_sim_set_switch_cost; SIM_SWITCH_COST here) for each switch
 * inside it. The workload case adds a model of a cache refill (SIM_REFILL_*): a switch into a
 * thread stopped in a workload costs a refill of the data the workload had touched (none at
 * its start, half its footprint at the middle, all of it at the end), and the workload's own
 * time between two points is SIM_WORK virtual cycles. The host time per sample (unit host_ns)
 * is printed beside, for the simulator's own speed. Exit status 0; 1 when a workload's
 * self-check or a transfer's content check failed; 2 for a bad argument.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime on the sim port (measure.h) */
#include "../workloads/workloads.h"
#include "measure.h"

#if BM_SIM
#define STACK_SIZE (24u * 1024u) /* host C code, and a workload's data */
#define SIM_SWITCH_COST  BM_SIM_SWITCH_COST
#define SIM_REFILL_LINE  32u     /* bytes per cache line */
#define SIM_REFILL_CYCLES 10u    /* cycles per line refilled */
#define SIM_WORK 5000u           /* a workload's time between two points */
#elif BM_RV
#define STACK_SIZE (WL_STACK_BYTES + 2048u)
/* virt's Goldfish RTC (PLIC source 11), its alarm the latency's interrupt: it counts virtual
 * nanoseconds (-rtc clock=vm), one per instruction under -icount shift=0, as mcycle does. */
#define RTC(off)           (*(volatile uint32_t *)(0x00101000u + (off)))
#define RTC_TIME_LOW       0x00u /* reading it latches TIME_HIGH */
#define RTC_TIME_HIGH      0x04u
#define RTC_ALARM_LOW      0x08u /* writing it arms the alarm at ALARM_HIGH:ALARM_LOW */
#define RTC_ALARM_HIGH     0x0Cu
#define RTC_IRQ_ENABLED    0x10u
#define RTC_CLEAR_ALARM    0x14u
#define RTC_CLEAR_INTERRUPT 0x1Cu
#define LATENCY_IRQ        11u
#else
#define STACK_SIZE (WL_STACK_BYTES + 2048u)
#define LATENCY_IRQ TC_MPS2_TIMER1_IRQ
#endif
#define LATENCY_SPREAD 128u /* the interrupt comes 1..128 cycles after it is armed */

#define REPEAT_DEFAULT 1000u
#define REPEAT_MAX     2000u
#define EMPTY (-1)

/* ---- actors -------------------------------------------------------------------------------- */

typedef struct actor actor;
struct actor {
  void (*action)(actor *a);
  int workload; /* the one it is running, or EMPTY */
  wl_point point;
  unsigned first; /* the workload it starts with */
  tc_thread thread;
};

static actor actors[4];
static uint8_t stacks[4][STACK_SIZE] __attribute__((aligned(8)));
static bool with_workloads; /* this run's case */
static unsigned repeat;

static void actor_hook(wl_point point, void *ctx)
{
  actor *a = ctx;
  a->point = point;
#if BM_SIM
  if (a->workload != EMPTY) tc_sim_consume(SIM_WORK);
#endif
  a->action(a);
}

static void actor_entry(void *arg)
{
  actor *a = arg;
  if (!with_workloads) {
    a->workload = EMPTY;
    for (;;) actor_hook(WL_START, a);
  }
  for (unsigned i = a->first;; i = (i + 1u) % WL_COUNT) {
    a->workload = (int)i;
    if (!wl_workloads[i].run(actor_hook, a)) {
      printf("rhealstone: workload %s failed its self-check\n", wl_workloads[i].name);
      bm_failed = true;
    }
  }
}

static actor *actor_new(unsigned i, void (*action)(actor *), unsigned priority, bool start)
{
  actor *a = &actors[i];
  a->action = action;
  a->workload = EMPTY;
  a->point = WL_START;
  a->first = (i * 3u) % WL_COUNT; /* threads run different workloads side by side */
  if (tc_thread_create(&a->thread, "actor", actor_entry, a, stacks[i], STACK_SIZE, priority, priority, 0,
                       start ? TC_AUTO_START : 0u) != TC_OK)
    bm_die("rhealstone: creating a thread failed");
  return a;
}

/* ---- a parameter's series: one between empty threads, or one per workload and point -------- */

typedef struct {
  bm_series *empty;
  bm_series *at[WL_COUNT][WL_POINTS];
} series_set;

static unsigned run_first; /* the first series of this run */

static void set_init(series_set *s, const char *param, const char *detail)
{
  if (!with_workloads) {
    s->empty = bm_series_new(repeat, "param=%s case=empty%s", param, detail);
    return;
  }
  unsigned each = (repeat + WL_COUNT * WL_POINTS - 1u) / (WL_COUNT * WL_POINTS);
  for (unsigned w = 0; w < WL_COUNT; w++)
    for (unsigned p = 0; p < WL_POINTS; p++)
      s->at[w][p] = bm_series_new(each, "param=%s case=workload workload=%s point=%s%s", param, wl_workloads[w].name,
                                  wl_point_names[p], detail);
}

static bm_series *set_pick(series_set *s, int workload, wl_point point)
{
  return workload == EMPTY ? s->empty : s->at[workload][point];
}

/* End the run once every series of it is full. */
static void stop_when_full(void)
{
  for (unsigned i = run_first; i < bm_count; i++)
    if (!bm_full(&bm_all[i])) return;
  bm_stop(0);
}

static void run(void (*setup)(void))
{
  tc_kernel_init();
#if BM_SIM
  tc_sim_set_switch_cost(SIM_SWITCH_COST);
#endif
  run_first = bm_count;
  setup();
  tc_kernel_start();
}

/* What the measured switch into `to` costs on the sim port: the switch, and in the workload
 * case the refill of what `to`'s workload had touched where it stopped. */
static void sim_switch_cost(const actor *to)
{
#if BM_SIM
  uint64_t lines = 0;
  if (to->workload != EMPTY) {
    static const unsigned touched_x2[WL_POINTS] = {0, 1, 2}; /* none, half, all */
    lines = (uint64_t)wl_workloads[to->workload].footprint * touched_x2[to->point] / 2u / SIM_REFILL_LINE;
  }
  tc_sim_set_switch_cost(SIM_SWITCH_COST + lines * SIM_REFILL_CYCLES);
#else
  (void)to;
#endif
}

/* The thread that made the event happen, and when. */
static series_set set, set2;
static volatile bm_time t1;
static actor *volatile initiator;
static wl_point initiator_point;
static int initiator_workload;

static void initiate(actor *a, const actor *to)
{
  initiator = a;
  initiator_workload = a->workload;
  initiator_point = a->point;
  sim_switch_cost(to);
  t1 = bm_now();
}

static void record_initiator(series_set *s, bm_time t2)
{
  bm_record(set_pick(s, initiator_workload, initiator_point), t1, t2);
  stop_when_full();
}

/* ---- stamp: what a stamp costs ---------------------------------------------------------- */

static void stamp_action(actor *a)
{
  (void)a;
  bm_time a1 = bm_now();
  bm_time a2 = bm_now();
  bm_record(set.empty, a1, a2);
  stop_when_full();
}

static void stamp_setup(void)
{
  set_init(&set, "stamp", "");
  actor_new(0, stamp_action, 10, true);
}

/* ---- task switch -------------------------------------------------------------------------- */

static void switch_action(actor *a)
{
  initiate(a, a == &actors[0] ? &actors[1] : &actors[0]);
  tc_thread_yield();
  bm_time t2 = bm_now();
  if (initiator != a) record_initiator(&set, t2); /* the other thread yielded to this one */
}

static void switch_setup(void)
{
  set_init(&set, "task_switch", "");
  actor_new(0, switch_action, 10, true);
  actor_new(1, switch_action, 10, true);
}

/* ---- preemption --------------------------------------------------------------------------- */

static void preempt_low(actor *a)
{
  initiate(a, &actors[1]);
  tc_thread_resume(&actors[1].thread);
}

static void preempt_high(actor *a)
{
  tc_thread_suspend(&a->thread);
  record_initiator(&set, bm_now());
}

static void preemption_setup(void)
{
  set_init(&set, "preemption", "");
  actor_new(0, preempt_low, 20, true);
  actor_new(1, preempt_high, 10, false); /* its first hook suspends it until L's first resume */
}

/* ---- interrupt latency ------------------------------------------------------------------- */

static tc_sem latency_sem;
static volatile bool irq_outstanding;
static uint32_t irq_seed = 0x1A7E5u;
#if BM_SIM
static uint64_t irq_asserted; /* virtual cycle */
#elif BM_RV
static uint64_t irq_asserted; /* the RTC's ns */

static uint64_t rtc_now(void)
{
  uint32_t lo = RTC(RTC_TIME_LOW);
  return (uint64_t)RTC(RTC_TIME_HIGH) << 32 | lo;
}
#endif
static bm_time irq_armed_at;

static void latency_handler(void)
{
#if BM_SIM
  uint32_t since = (uint32_t)(tc_sim_now() - irq_asserted);
#elif BM_RV
  uint32_t since = (uint32_t)(rtc_now() - irq_asserted); /* first: the handler's first statement */
  RTC(RTC_CLEAR_INTERRUPT) = 1u;
#else
  uint32_t since = 0xFFFFFFFFu - TC_MPS2_TIMER1->value; /* first: the handler's first statement */
  TC_MPS2_TIMER1->intstatus = 1u;
#endif
  bm_record_cycles(set_pick(&set, initiator_workload, initiator_point), since, irq_armed_at, bm_now());
  tc_sem_give(&latency_sem);
}

#if BM_RV
void tc_rv_external_handler(unsigned source)
{
  if (source == LATENCY_IRQ) latency_handler();
}
#elif !BM_SIM
void TIMER1_Handler(void) { latency_handler(); }
#endif

static void arm(actor *a)
{
  /* At least 1: a timer loaded with 0 would count a whole 2^32 before it interrupts. */
  uint32_t delay = 1u + wl_random(&irq_seed) % LATENCY_SPREAD;
  irq_outstanding = true;
  initiate(a, &actors[2]);
  irq_armed_at = bm_now();
#if BM_SIM
  irq_asserted = tc_sim_now() + delay;
  tc_sim_irq_at(irq_asserted, latency_handler);
#elif BM_RV
  irq_asserted = rtc_now() + delay;
  RTC(RTC_ALARM_HIGH) = (uint32_t)(irq_asserted >> 32);
  RTC(RTC_ALARM_LOW) = (uint32_t)irq_asserted;
#else
  TC_MPS2_TIMER1->ctrl = 0;
  TC_MPS2_TIMER1->intstatus = 1u;
  TC_MPS2_TIMER1->reload = 0xFFFFFFFFu; /* what it counts on from after zero */
  TC_MPS2_TIMER1->value = delay;
  TC_MPS2_TIMER1->ctrl = 1u | 8u; /* enable, interrupt at zero */
#endif
}

/* The empty case: arm, then spin without calling the kernel until the thread has run. */
static void latency_spin(actor *a)
{
  arm(a);
  while (irq_outstanding) {
#if BM_SIM
    tc_sim_consume(1);
#endif
  }
}

/* The workload case: arm when nothing is outstanding, and yield to the other actor. */
static void latency_yield(actor *a)
{
  if (!irq_outstanding) arm(a);
  tc_thread_yield();
}

static void latency_thread(actor *a)
{
  tc_sem_take(&latency_sem, TC_WAIT_FOREVER);
#if BM_SIM
  uint32_t since = (uint32_t)(tc_sim_now() - irq_asserted);
#elif BM_RV
  uint32_t since = (uint32_t)(rtc_now() - irq_asserted);
#else
  uint32_t since = 0xFFFFFFFFu - TC_MPS2_TIMER1->value;
  TC_MPS2_TIMER1->ctrl = 0;
#endif
  (void)a;
  bm_record_cycles(set_pick(&set2, initiator_workload, initiator_point), since, irq_armed_at, bm_now());
  irq_outstanding = false;
  stop_when_full();
}

static void latency_setup(void)
{
  set_init(&set, "interrupt_latency", " to=handler");
  set_init(&set2, "interrupt_latency", " to=thread");
  tc_sem_create(&latency_sem, "latency", 0, 1);
  irq_outstanding = false;
  if (with_workloads) {
    actor_new(0, latency_yield, 10, true);
    actor_new(1, latency_yield, 10, true);
  } else {
    actor_new(0, latency_spin, 10, true);
  }
  actor_new(2, latency_thread, 5, true);
}

/* ---- semaphore shuffle -------------------------------------------------------------------- */

static tc_sem shuffle_sem;

static void shuffle_low(actor *a)
{
  (void)a;
  tc_sem_take(&shuffle_sem, TC_WAIT_FOREVER); /* free: H gave it back */
  sim_switch_cost(&actors[1]);
  tc_thread_resume(&actors[1].thread); /* H runs to its next point and asks for it */
  tc_sem_give(&shuffle_sem);           /* to H, which preempts */
}

static void shuffle_high(actor *a)
{
  initiate(a, &actors[0]);
  tc_sem_take(&shuffle_sem, TC_WAIT_FOREVER);
  record_initiator(&set, bm_now());
  tc_sem_give(&shuffle_sem);
  tc_thread_suspend(&a->thread);
}

static void shuffle_setup(void)
{
  set_init(&set, "semaphore_shuffle", "");
  tc_sem_create(&shuffle_sem, "shuffle", 1, 1);
  actor_new(0, shuffle_low, 20, true);
  actor_new(1, shuffle_high, 10, false); /* started by L's first resume */
}

/* ---- deadlock breaking (priority inheritance, three threads) ----------------------------- */

static tc_mutex deadlock_mutex;

static void deadlock_low(actor *a)
{
  (void)a;
  tc_mutex_lock(&deadlock_mutex, TC_WAIT_FOREVER);
  sim_switch_cost(&actors[1]);
  tc_thread_resume(&actors[1].thread); /* H runs to its next point and asks for the mutex */
  tc_thread_resume(&actors[2].thread); /* M: no preemption, L runs at H's priority */
  tc_mutex_unlock(&deadlock_mutex);     /* to H, which preempts; then M runs */
}

static void deadlock_high(actor *a)
{
  initiate(a, &actors[0]);
  tc_mutex_lock(&deadlock_mutex, TC_WAIT_FOREVER);
  record_initiator(&set, bm_now());
  tc_mutex_unlock(&deadlock_mutex);
  tc_thread_suspend(&a->thread);
}

static void deadlock_middle(actor *a) { tc_thread_suspend(&a->thread); }

static void deadlock_setup(void)
{
  set_init(&set, "deadlock_break", "");
  tc_mutex_create(&deadlock_mutex, "deadlock", TC_INHERIT);
  actor_new(0, deadlock_low, 30, true);
  actor_new(1, deadlock_high, 10, false);
  actor_new(2, deadlock_middle, 20, false);
}

/* ---- message transfer -------------------------------------------------------------------- */

enum { QUEUE, PORT, TASKPORT };
static const char *const mechanism_names[] = {"queue", "port", "taskport"};
#define MSG_MAX 1024u

static unsigned mechanism, msg_size;
static tc_queue msg_queue;
static tc_port msg_port;
static void *port_slot[1];
static uint32_t queue_buf[MSG_MAX / 4u];
static uint32_t messages[2][MSG_MAX / 4u]; /* the sender's, and the receiver's copy */
static uint32_t msg_sequence;

static void message_send(actor *a)
{
  messages[0][0] = ++msg_sequence;
  initiate(a, &actors[1]);
  switch (mechanism) {
  case QUEUE: tc_queue_send(&msg_queue, messages[0], TC_WAIT_FOREVER); break;
  case PORT: tc_port_send(&msg_port, messages[0], TC_WAIT_FOREVER); break;
  default: tc_thread_post(&actors[1].thread, 0, TC_WAIT_FOREVER); break; /* message 0 */
  }
}

static void message_receive(actor *a)
{
  (void)a;
  bool ok;
  switch (mechanism) {
  case QUEUE:
    ok = tc_queue_receive(&msg_queue, messages[1], TC_WAIT_FOREVER) == TC_OK;
    ok &= messages[1][0] == msg_sequence;
    break;
  case PORT: {
    void *p = NULL;
    ok = tc_port_receive(&msg_port, &p, TC_WAIT_FOREVER) == TC_OK && p == messages[0];
    break;
  }
  default: {
    uint32_t word = 1;
    ok = tc_thread_receive(&word, TC_WAIT_FOREVER) == TC_OK && word == 0;
    break;
  }
  }
  bm_time t2 = bm_now();
  if (!ok) {
    printf("rhealstone: a %s message arrived wrong\n", mechanism_names[mechanism]);
    bm_failed = true;
  }
  record_initiator(&set, t2);
}

static void message_setup(void)
{
  char detail[40];
  snprintf(detail, sizeof detail, " mechanism=%s size=%u", mechanism_names[mechanism], msg_size);
  set_init(&set, "message", detail);
  tc_queue_create(&msg_queue, "msg", msg_size, queue_buf, msg_size);
  tc_port_create(&msg_port, "msg", port_slot, 1);
  actor_new(0, message_send, 20, true);
  actor_new(1, message_receive, 10, true);
}

/* ---- the runs -------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
  repeat = bm_repeat_arg(argc, argv, REPEAT_DEFAULT, REPEAT_MAX);
  bm_header("rhealstone", repeat);
#if BM_SIM
  printf("config sim_switch_cost=%u sim_refill_line=%u sim_refill_cycles=%u sim_work=%u\n", SIM_SWITCH_COST,
         SIM_REFILL_LINE, SIM_REFILL_CYCLES, SIM_WORK);
#elif BM_RV
  RTC(RTC_IRQ_ENABLED) = 1u;
  tc_rv_irq_enable(LATENCY_IRQ, 1); /* every handler is at the kernel's level on RISC-V */
#else
  tc_cm_irq_priority(LATENCY_IRQ, 0xC0); /* a kernel interrupt: it may give the semaphore */
  tc_cm_irq_enable(LATENCY_IRQ);
#endif
  with_workloads = false;
  run(stamp_setup);
  for (unsigned c = 0; c < 2; c++) {
    with_workloads = c == 1;
    run(switch_setup);
    run(preemption_setup);
    run(latency_setup);
    run(shuffle_setup);
    run(deadlock_setup);
    static const unsigned sizes[] = {4, 16, 64, 256, MSG_MAX};
    for (mechanism = QUEUE; mechanism <= TASKPORT; mechanism++)
      for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        msg_size = sizes[s];
        if (with_workloads && msg_size != 16u) continue; /* Thread-Metric's message size */
        run(message_setup);
      }
  }
  return bm_print();
}
