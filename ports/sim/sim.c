/* SPDX-License-Identifier: MIT */
/*
 * Sim port: contexts, the virtual clock, simulated interrupts and the idle loop.
 * See tacet_port.h for the model.
 */
#define _GNU_SOURCE /* pthread_getattr_np, for AddressSanitizer builds */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tacet/sim.h"

unsigned tc__sim_irq_masked = 1;
uint32_t tc__sim_hz = TC_SIM_CPU_HZ;
uint64_t tc__sim_now;
uint64_t tc__sim_next_event = UINT64_MAX;

typedef struct {
  uint64_t at;
  void (*lisr)(void);
} sim_irq;

static struct {
  uint64_t cycles_per_tick;
  uint64_t next_tick;
  bool ticking;
  uint64_t switch_cost;             /* a constant per switch, or */
  tc_sim_switch_cost_fn cost_fn;    /* a model of the switch (NULL: the constant) */
  void *cost_arg;
  sim_irq irq[TC_SIM_MAX_IRQS]; /* sorted by `at`, FIFO among equals */
  unsigned n_irq;
  tc_thread *on;       /* whose stack the CPU is on (NULL: the idle context) */
  tc_thread *last;     /* the last context other than idle the CPU ran (for the switch cost) */
  tc_sim_context idle; /* the context that called tc_kernel_start() */
  bool stopping;
  int exit_code;
} sim;

/* ---- machine contexts ------------------------------------------------------------------- */

#ifdef TC_ASAN
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>

/* AddressSanitizer keeps its own idea of the stack the CPU is on; every switch tells it where
 * the CPU goes (a thread's or an HISR's stack, or the idle context's: the stack of the host
 * thread that called tc_kernel_start) and, once there, that it arrived. Without this a frame
 * of one context is checked against another's stack. `fake` keeps the leaving context's fake
 * stack (stack-use-after-return) until it resumes; NULL: it never resumes. */
static const void *idle_bottom;
static size_t idle_size;
static pthread_t idle_owner;

/* Looked up once per host thread: pthread_getattr_np parses /proc/self/maps for the main
 * thread, which would dominate a harness that starts a short run per input (fuzz/). */
static void find_idle_stack(void)
{
  if (idle_size != 0 && pthread_equal(idle_owner, pthread_self())) return;
  pthread_attr_t a;
  void *bottom;
  if (pthread_getattr_np(pthread_self(), &a) != 0 || pthread_attr_getstack(&a, &bottom, &idle_size) != 0)
    tc__sim_panic("cannot find the host stack", NULL);
  pthread_attr_destroy(&a);
  idle_bottom = bottom;
  idle_owner = pthread_self();
}

static void asan_leave(void **fake, const tc_thread *to)
{
  if (to != NULL)
    __sanitizer_start_switch_fiber(fake, to->stack_base, to->stack_size);
  else
    __sanitizer_start_switch_fiber(fake, idle_bottom, idle_size);
}

static void asan_arrive(void *fake) { __sanitizer_finish_switch_fiber(fake, NULL, NULL); }
#else
static inline void find_idle_stack(void) {}
static inline void asan_leave(void **fake, const tc_thread *to) { (void)fake, (void)to; }
static inline void asan_arrive(void *fake) { (void)fake; }
#endif

/* The port's part of signal delivery (tacet/port.h, tc__signal_deliver): the CPU is about
 * to resume the current thread in its own context; run its pending handlers first, with
 * interrupts unmasked as they are wherever the thread itself runs. */
static void deliver_signals(void)
{
  tc_thread *t = tc__k.current;
  if (t == NULL || t->signals == 0 || tc__k.isr_nesting != 0) return;
  unsigned masked = tc__sim_irq_masked;
  tc__sim_irq_restore(0);
  tc__signal_deliver();
  tc__sim_irq_masked = masked;
}

static void thread_start(tc_thread *t)
{
  /* A thread is first entered from inside a switch, with interrupts masked. */
  asan_arrive(NULL);
  tc__sim_irq_restore(0);
  deliver_signals(); /* sent before it first ran */
  tc__thread_run(t);
}

#if TC_SIM_UCONTEXT

static void uc_entry(unsigned hi, unsigned lo)
{
  uintptr_t p = ((uintptr_t)hi << 16 << 16) | (uintptr_t)lo;
  thread_start((tc_thread *)p);
}

void tc__sim_stack_init(tc_thread *t)
{
  if (getcontext(&t->ctx.uc) != 0) tc__sim_panic("getcontext failed", t->name);
  t->ctx.uc.uc_stack.ss_sp = t->stack_base;
  t->ctx.uc.uc_stack.ss_size = t->stack_size;
  t->ctx.uc.uc_link = NULL;
  uintptr_t p = (uintptr_t)t;
  makecontext(&t->ctx.uc, (void (*)(void))uc_entry, 2, (unsigned)(p >> 16 >> 16), (unsigned)(p & 0xFFFFFFFFu));
}

static void ctx_switch(tc_sim_context *save, tc_sim_context *load) { swapcontext(&save->uc, &load->uc); }

#else /* assembly switch: context_*.S */

void tc__sim_ctx_switch(void **save_sp, void *load_sp);
void tc__sim_ctx_trampoline(void);

void tc__sim_stack_init(tc_thread *t)
{
  uintptr_t *sp = (uintptr_t *)(t->stack_base + t->stack_size);
#if defined(__x86_64__)
  /* Frame popped by tc__sim_ctx_switch: mxcsr|fcw, r15, r14, r13, r12, rbx, rbp, return. */
  *--sp = 0;
  *--sp = 0;
  *--sp = (uintptr_t)tc__sim_ctx_trampoline;
  *--sp = 0;                        /* rbp */
  *--sp = 0;                        /* rbx */
  *--sp = (uintptr_t)t;             /* r12: argument */
  *--sp = (uintptr_t)thread_start;  /* r13: function */
  *--sp = 0;                        /* r14 */
  *--sp = 0;                        /* r15 */
  *--sp = 0x1F80u | ((uintptr_t)0x037Fu << 32); /* default mxcsr and x87 control word */
#elif defined(__aarch64__)
  /* Frame of 22 words: x19..x30, d8..d15, fpcr, pad. */
  sp -= 22;
  memset(sp, 0, 22 * sizeof *sp);
  sp[0] = (uintptr_t)t;               /* x19: argument */
  sp[1] = (uintptr_t)thread_start;    /* x20: function */
  sp[11] = (uintptr_t)tc__sim_ctx_trampoline; /* x30 */
#else
#error "no assembly context switch for this host: build with TC_SIM_UCONTEXT=1"
#endif
  t->ctx.sp = sp;
}

static void ctx_switch(tc_sim_context *save, tc_sim_context *load) { tc__sim_ctx_switch(&save->sp, load->sp); }

#endif

/* ---- simulated interrupts --------------------------------------------------------------- */

static void update_next_event(void)
{
  uint64_t t = sim.ticking ? sim.next_tick : UINT64_MAX;
  if (sim.n_irq != 0 && sim.irq[0].at < t) t = sim.irq[0].at;
  tc__sim_next_event = t;
}

/* Take the earliest due interrupt: the tick first when it falls on the same cycle. */
static void take_one(void)
{
  bool tick = sim.ticking && sim.next_tick <= tc__sim_now && (sim.n_irq == 0 || sim.next_tick <= sim.irq[0].at);
  void (*lisr)(void) = NULL;
  if (tick) {
    sim.next_tick += sim.cycles_per_tick;
  } else {
    lisr = sim.irq[0].lisr;
    sim.n_irq--;
    memmove(&sim.irq[0], &sim.irq[1], sim.n_irq * sizeof sim.irq[0]);
  }
  update_next_event();
  tc_isr_enter();
  if (tick)
    tc__tick_announce();
  else
    lisr();
  tc_isr_exit(); /* may switch to another thread: we continue here when this one runs again */
}

void tc__sim_take_interrupts(void)
{
  bool taken = false;
  while (!tc__sim_irq_masked && tc__sim_now >= tc__sim_next_event && !sim.stopping) {
    tc__sim_irq_masked = 1; /* handlers do not nest in the simulation */
    take_one();
    tc__sim_irq_masked = 0;
    taken = true;
  }
  if (taken) deliver_signals(); /* a handler signalled the thread it returns to */
}

/* Spend `cycles`, taking the interrupts due inside; those due at the very cycle the time is
 * spent are taken there too (`at_end`), or left pending for the caller's next kernel call. */
static void consume(uint64_t cycles, bool at_end)
{
  while (cycles != 0) {
    uint64_t end = tc__sim_now + cycles;
    if (tc__sim_irq_masked || sim.stopping || tc__sim_next_event > end || (!at_end && tc__sim_next_event == end)) {
      tc__sim_now = end;
      return;
    }
    uint64_t step = tc__sim_next_event > tc__sim_now ? tc__sim_next_event - tc__sim_now : 0;
    tc__sim_now += step;
    cycles -= step;
    tc__sim_take_interrupts();
  }
}

void tc_sim_consume(uint64_t cycles) { consume(cycles, true); }

void tc_sim_finish(uint64_t cycles) { consume(cycles, false); }

tc_status tc_sim_irq_at(uint64_t cycle, void (*lisr)(void))
{
  if (lisr == NULL || cycle < tc__sim_now) return TC_INVALID;
  unsigned s = tc__sim_irq_disable();
  if (sim.n_irq == TC_SIM_MAX_IRQS) {
    tc__sim_irq_restore(s);
    return TC_FULL;
  }
  unsigned i = sim.n_irq;
  while (i > 0 && sim.irq[i - 1].at > cycle) {
    sim.irq[i] = sim.irq[i - 1];
    i--;
  }
  sim.irq[i].at = cycle;
  sim.irq[i].lisr = lisr;
  sim.n_irq++;
  update_next_event();
  tc__sim_irq_restore(s);
  return TC_OK;
}

uint64_t tc_sim_now(void) { return tc__sim_now; }

uint64_t tc_sim_cycles_per_tick(void) { return sim.cycles_per_tick; }

/* `cycles` from now at the old clock take as long as the result at the new one (rounded up:
 * an event never comes early). */
static uint64_t rescale(uint64_t cycles, uint32_t from_hz, uint32_t to_hz)
{
  unsigned __int128 n = (unsigned __int128)cycles * to_hz;
  return (uint64_t)((n + from_hz - 1) / from_hz);
}

bool tc__sim_set_clock(uint32_t hz)
{
  if (hz == tc__sim_hz) return true;
  /* Every pending event keeps its time: the tick and the raised interrupts come as many
   * cycles of the new clock later as fit in the time that was left. */
  if (sim.next_tick > tc__sim_now) sim.next_tick = tc__sim_now + rescale(sim.next_tick - tc__sim_now, tc__sim_hz, hz);
  for (unsigned i = 0; i < sim.n_irq; i++)
    if (sim.irq[i].at > tc__sim_now) sim.irq[i].at = tc__sim_now + rescale(sim.irq[i].at - tc__sim_now, tc__sim_hz, hz);
  tc__sim_hz = hz;
  sim.cycles_per_tick = hz / TC_TICK_HZ != 0 ? hz / TC_TICK_HZ : 1;
  update_next_event();
  return true;
}

uint64_t tc_sim_tick_elapsed(void)
{
  if (!sim.ticking || sim.next_tick <= tc__sim_now) return 0;
  uint64_t left = sim.next_tick - tc__sim_now;
  return left < sim.cycles_per_tick ? sim.cycles_per_tick - left : 0;
}

void tc_sim_set_switch_cost(uint64_t cycles)
{
  sim.switch_cost = cycles;
  sim.cost_fn = NULL;
}

void tc_sim_set_switch_cost_fn(tc_sim_switch_cost_fn cost, void *arg)
{
  sim.cost_fn = cost;
  sim.cost_arg = arg;
}

/* ---- kernel hooks ----------------------------------------------------------------------- */

/* The trace dump (TC_TRACE): with TACET_TRACE=FILE in the environment (tacet run --trace FILE
 * sets it) every tc_kernel_init() starts a trace into a buffer of TACET_TRACE_SIZE bytes
 * (default 16 MiB), a ring unless TACET_TRACE_MODE=stop, and the end of each run writes it to
 * FILE: the first run of the process replaces the file, each later run appends its dump, so
 * that a program of several runs leaves one dump per run there, in order (docs/trace.md). */
#if TC_TRACE
static void trace_start(void)
{
  static void *buf;
  static size_t size;
  if (getenv("TACET_TRACE") == NULL) return;
  if (buf == NULL) {
    const char *s = getenv("TACET_TRACE_SIZE");
    size = s != NULL ? (size_t)strtoull(s, NULL, 0) : (size_t)16 << 20;
    buf = malloc(size);
    if (buf == NULL) {
      fprintf(stderr, "tacet: TACET_TRACE_SIZE=%zu: no memory for the trace\n", size);
      exit(1);
    }
  }
  const char *mode = getenv("TACET_TRACE_MODE");
  bool stop = mode != NULL && strcmp(mode, "stop") == 0;
  if (tc_trace_enable(buf, size, stop ? TC_TRACE_STOP : TC_TRACE_WRAP) != TC_OK) {
    fprintf(stderr, "tacet: TACET_TRACE_SIZE=%zu: too small for a trace\n", size);
    exit(1);
  }
}

static void trace_write(void)
{
  const char *path = getenv("TACET_TRACE");
  if (path == NULL) return;
  (void)tc_trace_disable(); /* first: it records the last TIME event */
  static bool written; /* by an earlier run of this process: append */
  size_t n;
  const void *buf = tc_trace_buffer(&n);
  if (buf == NULL) return;
  FILE *f = fopen(path, written ? "ab" : "wb");
  written = true;
  bool ok = f != NULL && fwrite(buf, 1, n, f) == n;
  if (f != NULL && fclose(f) != 0) ok = false;
  if (!ok) fprintf(stderr, "tacet: cannot write the trace to %s\n", path);
}
#endif

void tc__sim_init(void)
{
  memset(&sim, 0, sizeof sim);
  tc__sim_hz = TC_SIM_CPU_HZ;
  sim.cycles_per_tick = (uint64_t)TC_SIM_CPU_HZ / TC_TICK_HZ;
  tc__sim_now = 0;
  tc__sim_next_event = UINT64_MAX;
  tc__sim_irq_masked = 1;
#if TC_TRACE
  trace_start();
#endif
}

void tc__sim_switch(tc_thread *from, tc_thread *to)
{
  if (sim.stopping && sim.on == NULL) return; /* the run is over: stay in the idle context */
  /* The switch cost is charged when the CPU begins a context other than the last one it ran
   * (not when it returns from idle to the same thread). */
  if (to != NULL && to != sim.last) {
    uint64_t cost = sim.cost_fn != NULL ? sim.cost_fn(sim.last, to, sim.cost_arg) : sim.switch_cost;
    if (cost != 0) {
      tc__sim_now += cost;
      tc__account_switch_cycles(cost);
    }
    sim.last = to;
  }
  tc_sim_context *save = from != NULL ? &from->ctx : &sim.idle;
  tc_sim_context *load = to != NULL ? &to->ctx : &sim.idle;
  sim.on = to;
  void *fake = NULL;
  asan_leave(&fake, to);
  ctx_switch(save, load);
  asan_arrive(fake);
  /* Back in `from`'s context: it is current again. */
  deliver_signals();
}

/* The idle context: the startup code's own stack. It hands the CPU to the chosen thread;
 * when nothing is ready it jumps virtual time to the next event. Ticks that would expire
 * nothing are suppressed (as in a tickless kernel) and only added to the tick count. */
int tc__sim_start(void)
{
  find_idle_stack();
  sim.ticking = true;
  sim.next_tick = tc__sim_now + sim.cycles_per_tick;
  update_next_event();
  sim.on = NULL;
  for (;;) {
    if (sim.stopping) break;
    if (tc__k.next != tc__k.current) {
      tc__switch_commit();
      continue;
    }
    uint32_t ticks = tc__time_ticks_to_expiry();
    if (ticks == UINT32_MAX && sim.n_irq == 0) break; /* no thread can ever run again */
    uint64_t target = sim.n_irq != 0 ? sim.irq[0].at : UINT64_MAX;
    if (ticks != UINT32_MAX) {
      uint64_t expiry = sim.next_tick + (uint64_t)(ticks - 1) * sim.cycles_per_tick;
      if (expiry < target) target = expiry;
    }
    if (target > sim.next_tick) {
      uint64_t n = (target - sim.next_tick + sim.cycles_per_tick - 1) / sim.cycles_per_tick;
      tc__time_skip((uint32_t)n);
      sim.next_tick += n * sim.cycles_per_tick;
    }
    if (target > tc__sim_now) {
      tc__account_idle_jump(target - tc__sim_now);
      tc__sim_now = target;
    }
    update_next_event();
    tc__sim_irq_masked = 0;
    tc__sim_take_interrupts();
    tc__sim_irq_masked = 1;
  }
  sim.ticking = false;
  tc__sim_next_event = UINT64_MAX;
  return sim.stopping ? sim.exit_code : 0;
}

void tc__sim_run_end(void)
{
#if TC_TRACE
  trace_write();
#endif
}

void tc_sim_stop(int exit_code)
{
  (void)tc__sim_irq_disable();
  sim.stopping = true;
  sim.exit_code = exit_code;
  if (sim.on != NULL) {
    tc_sim_context abandoned;
    sim.on = NULL;
    asan_leave(NULL, NULL);
    ctx_switch(&abandoned, &sim.idle);
  }
  /* From an interrupt taken in idle: the idle loop ends when the handler returns. */
}

void tc__sim_panic(const char *msg, const char *detail)
{
  fflush(stdout);
  fprintf(stderr, "tacet: panic: %s%s%s\n", msg, detail != NULL ? ": " : "", detail != NULL ? detail : "");
  abort();
}
