/* SPDX-License-Identifier: MIT */
/*
 * Sim port: the kernel as an ordinary Linux process. One OS thread; each kernel thread is a
 * machine context on its own stack; time is a virtual clock in CPU cycles that advances only
 * when code says it spends time (tc_sim_consume), so every run is deterministic.
 *
 * Interrupts are simulated events on the virtual clock (the tick and tc_sim_irq_at). They
 * are taken only where virtual time passes -- inside tc_sim_consume, in idle, and when the
 * kernel unmasks interrupts after time passed in a masked stretch (a context switch cost) --
 * which is exactly where a real interrupt could land between two instructions of the workload.
 */
#ifndef TACET_PORT_SIM_H
#define TACET_PORT_SIM_H

#include <stdint.h>

/* Virtual CPU clock. 100 MHz is a mid-range Cortex-M4/M7 operating point. */
#ifndef TC_SIM_CPU_HZ
#define TC_SIM_CPU_HZ 100000000u
#endif

/* Simulated interrupts that may be queued at once (tc_sim_irq_at). */
#ifndef TC_SIM_MAX_IRQS
#define TC_SIM_MAX_IRQS 64u
#endif

/* Contexts are switched by a few instructions of assembly on x86-64 and AArch64; other hosts,
 * or TC_SIM_UCONTEXT=1, use ucontext's swapcontext (a system call per switch, much slower). */
#ifndef TC_SIM_UCONTEXT
#if defined(__x86_64__) || defined(__aarch64__)
#define TC_SIM_UCONTEXT 0
#else
#define TC_SIM_UCONTEXT 1
#endif
#endif

#if TC_SIM_UCONTEXT
#include <ucontext.h>
typedef struct {
  ucontext_t uc;
} tc_sim_context;
#else
typedef struct {
  void *sp; /* saved stack pointer; the callee-saved registers are on the stack */
} tc_sim_context;
#endif

extern unsigned tc__sim_irq_masked;
extern uint64_t tc__sim_now;
extern uint64_t tc__sim_next_event;

void tc__sim_init(void);
void tc__sim_stack_init(struct tc_thread *t);
void tc__sim_switch(struct tc_thread *from, struct tc_thread *to);
int tc__sim_start(void);
void tc__sim_run_end(void);
void tc__sim_take_interrupts(void);
_Noreturn void tc__sim_panic(const char *msg, const char *detail);

static inline unsigned tc__sim_irq_disable(void)
{
  unsigned old = tc__sim_irq_masked;
  tc__sim_irq_masked = 1;
  return old;
}

static inline void tc__sim_irq_restore(unsigned s)
{
  tc__sim_irq_masked = s;
  if (s == 0 && tc__sim_now >= tc__sim_next_event) tc__sim_take_interrupts();
}

#define TC_PORT_NAME                "sim"
#define TC_PORT_STACK_ALIGN         16u
#define TC_PORT_STACK_MIN           8192u /* host C code (printf ...) runs on thread stacks */
#define TC_PORT_CONTEXT             tc_sim_context
#define TC_PORT_INIT()              tc__sim_init()
#define TC_PORT_IRQ_DISABLE()       tc__sim_irq_disable()
#define TC_PORT_IRQ_RESTORE(s)      tc__sim_irq_restore(s)
#define TC_PORT_STACK_INIT(t)       tc__sim_stack_init(t)
#define TC_PORT_SWITCH(from, to)    tc__sim_switch((from), (to))
#define TC_PORT_START()             tc__sim_start()
#define TC_PORT_RUN_END()           tc__sim_run_end()
#define TC_PORT_CYCLES()            tc__sim_now
#define TC_PORT_CYCLES_HZ()         tc__sim_hz
/* The clock follows the operating point (TC_POWER): the same cycles take longer at a lower
 * frequency, and a tick is as long in time, so more or fewer cycles. */
extern uint32_t tc__sim_hz;
bool tc__sim_set_clock(uint32_t hz);
uint64_t tc_sim_tick_elapsed(void); /* tacet/sim.h */
#define TC_PORT_SET_CLOCK(hz)       tc__sim_set_clock(hz)
#define TC_PORT_TICK_ELAPSED()      tc_sim_tick_elapsed()
#define TC_PORT_PANIC(msg, detail)  tc__sim_panic((msg), (detail))

#endif /* TACET_PORT_SIM_H */
