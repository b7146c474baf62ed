/* SPDX-License-Identifier: MIT */
/*
 * The port contract: everything the portable kernel needs from a CPU port, and nothing else.
 *
 * A port is a directory under ports/ whose include directory holds `tacet_port.h`. That
 * header defines every macro listed below (usually as a one-line mapping onto a static inline
 * or an extern function of the port). The kernel includes the port only through this file,
 * and this file refuses to compile when a piece is missing, naming it.
 *
 * Terms used below:
 *   "masked"  interrupts that may call kernel services are masked (on ARMv7-M: BASEPRI, so
 *             interrupts above the kernel's level keep running);
 *   "idle"    no thread is current; `NULL` stands for it wherever a thread pointer is expected.
 *
 * Required macros
 *
 *   TC_PORT_NAME                string literal naming the port ("sim", "cortex-m", "riscv").
 *   TC_PORT_STACK_ALIGN         alignment in bytes the port needs for a thread's stack top.
 *   TC_PORT_STACK_MIN           smallest stack, in bytes, tc_thread_create() accepts.
 *   TC_PORT_CONTEXT             type of the per-thread context the port saves; the kernel
 *                               embeds it as the first member of tc_thread so assembly can
 *                               reach it at offset 0.
 *   TC_PORT_INIT()              reset the port for a fresh run; called by tc_kernel_init().
 *   TC_PORT_IRQ_DISABLE()       mask interrupts; evaluates to an `unsigned` to restore later.
 *   TC_PORT_IRQ_RESTORE(s)      restore the mask state `s` returned by TC_PORT_IRQ_DISABLE().
 *   TC_PORT_STACK_INIT(t)       prepare t->ctx so that the first switch to `t` calls
 *                               tc__thread_run(t) with interrupts unmasked, on t's stack.
 *   TC_PORT_SWITCH(from, to)    hand the CPU from thread `from` to thread `to` (either may be
 *                               NULL = idle). It expands inside the kernel's C99 inline
 *                               functions, so it may not name a static function or object
 *                               (make an inline helper `inline`, with one external
 *                               definition). Called with interrupts masked, after the kernel
 *                               has made `to` current. The port may switch at once (sim) or
 *                               when interrupts are unmasked (PendSV); if it is called again
 *                               before it acted, only the last `to` counts. When
 *                               to->signals != 0, `to` runs its signal handlers first (see
 *                               tc__signal_deliver below; TC_PORT_SIGNAL_PENDING may take
 *                               care of it instead).
 *   TC_PORT_START()             called by tc_kernel_start() with interrupts masked, no thread
 *                               current and the first thread chosen (tc__k.next, may be NULL).
 *                               The port starts its tick source, calls tc__switch_commit() while
 *                               tc__k.next != tc__k.current, and turns the startup context into
 *                               the idle context: whenever the kernel switches to NULL the CPU
 *                               comes back there and waits for an interrupt. Evaluates to an int:
 *                               the sim port returns when the run ends; hardware never returns.
 *   TC_PORT_CYCLES()            uint64_t, the port's best free-running clock (tc_cycles()).
 *   TC_PORT_CYCLES_HZ()         uint32_t, the rate of that clock in Hz.
 *   TC_PORT_PANIC(msg, detail)  stop the system after an unrecoverable error; `msg` and
 *                               `detail` (may be NULL, e.g. a thread name) are strings.
 *
 * Optional macros
 *
 *   TC_PORT_CYCLES32_DOWN()     uint32_t that goes *down* by one per unit of TC_PORT_CYCLES() and
 *                               wraps modulo 2^32, read as cheaply as the port can: the switch
 *                               path accounts run time as the difference of two readings (hardware
 *                               timers often count down; reading one as it is saves the
 *                               complement). Default: ~(uint32_t)TC_PORT_CYCLES().
 *   TC_PORT_IRQ_RESTORE_QUIET(s) TC_PORT_IRQ_RESTORE(s) after a critical section that asked
 *                               for no switch: the port need not make an interrupt that was
 *                               held back take effect before the next instruction (Cortex-M:
 *                               no ISB; one or two more instructions may run first). Services
 *                               use it on their common paths that neither wait nor ready a
 *                               thread. Default: TC_PORT_IRQ_RESTORE(s).
 *   TC_PORT_STACK_GUARD         the port can guard stacks with its MPU (TC_MPU_STACK_GUARD):
 *                               the size in bytes of the guard region, a power of two, which
 *                               the region's address must be aligned to. The kernel then
 *                               starts a stack's usable part above the first so-aligned
 *                               TC_PORT_STACK_GUARD bytes of the memory it is given, and
 *                               TC_PORT_STACK_INIT finds the region right below t->stack_base.
 *                               The port arms the running context's region at each switch,
 *                               and when it catches a context writing into it, calls
 *                               tc__stack_guard_hit() (below). Undefined: the port refuses
 *                               TC_MPU_STACK_GUARD (the sim port: it has no MPU).
 *   TC_PORT_IN_ISR()            bool: the CPU runs an interrupt handler, as the hardware tells
 *                               (ARMv7-M: IPSR; RISC-V: mscratch, which the port's trap entry
 *                               sets). With it, handlers may call services without
 *                               tc_isr_enter()/tc_isr_exit(), which stay valid (they count
 *                               interrupts); the port then also defines TC_PORT_SWITCH_LATER(),
 *                               and says whether a handler can be above the kernel's mask:
 *                               TC_PORT_IN_UNMASKED_ISR() or TC_PORT_ALL_ISRS_MASKED (below), and
 *   TC_PORT_SWITCH_LATER()      with interrupts masked, from a handler outside the bracket: the
 *                               kernel has chosen another context; when the handlers are done
 *                               the port calls tc__switch_commit() (masked, if tc__k.next still
 *                               differs from tc__k.current, the scheduler is unlocked, no
 *                               bracket is open and the kernel started), then switches. Only
 *                               the last decision is committed, so the counters stay exact.
 *                               (Cortex-M: PendSV does it.)
 *   TC_PORT_IN_UNMASKED_ISR()   bool: the CPU runs an interrupt handler that TC_PORT_IRQ_DISABLE()
 *                               does not mask -- one whose priority is above the kernel's level
 *                               (ARMv7-M: a group priority more urgent than TC_CM_BASEPRI's; NMI
 *                               and HardFault). Such a handler may preempt any critical section
 *                               of the kernel, so it must never call the kernel. With
 *                               TC_CHECKS=1 every service tests it first and refuses the call
 *                               (tc_isr_priority_hook, then TC_CALLER_ERROR, nothing changed):
 *                               evaluated on every service call, threads included, it must be
 *                               cheap outside handlers (Cortex-M: one read of IPSR; the priority
 *                               is looked up only in a handler). Undefined: no handler is above
 *                               the kernel's mask (the sim port, whose simulated interrupts all
 *                               are masked by the kernel). With TC_PORT_IN_ISR it is required,
 *                               unless the port defines
 *   TC_PORT_ALL_ISRS_MASKED     1: TC_PORT_IRQ_DISABLE() masks every interrupt the CPU can take,
 *                               so no handler is ever above the kernel's mask and services test
 *                               nothing (RISC-V: mstatus.MIE; a port with priorities defines
 *                               TC_PORT_IN_UNMASKED_ISR instead). One of the two is required
 *                               with TC_PORT_IN_ISR: a port that tells handlers apart must say
 *                               which of them may call the kernel.
 *   TC_PORT_RUN_END()           from tc_kernel_start() once the port's start has returned and
 *                               the run's books are closed (run time, energy), before it
 *                               returns: the end of a kernel run as the port sees it (the sim
 *                               and Cortex-M ports write the trace dump there). Default: nothing.
 *   TC_PORT_SET_CLOCK(hz)       (TC_POWER) with interrupts masked, at a change of operating
 *                               point: run the CPU at `hz` from now on, keeping the tick's
 *                               period in time (its period in cycles follows the clock), and
 *                               evaluate to true; false when the board cannot change its
 *                               clock, and then the point is accounted by the energy model
 *                               alone (tc_energy_report_t.modelled). Default: false.
 *   TC_PORT_TICK_ELAPSED()      (TC_POWER) uint64_t, cycles of the current clock since the last
 *                               tick: the DVS policy then knows the time to a deadline to the
 *                               cycle. Default: undefined, and the policy counts the current
 *                               tick as spent, which errs on the safe side (a faster point).
 *   TC_PORT_STAMP               (TC_POWER) a uint32_t lvalue in which the kernel keeps the
 *                               TC_PORT_CYCLES32_DOWN() reading of its last accounting of run
 *                               time, for a port whose switch code stores a fresh reading
 *                               there as its last act before the incoming context runs: the
 *                               cycles from the commit to there are then the switch path's,
 *                               charged to no context (tc_energy_report_t.switching). Without
 *                               it the kernel keeps the stamp and those cycles are charged to
 *                               the incoming context, as without TC_POWER.
 *   TC_PORT_SIGNAL_PENDING(t)   with interrupts masked, from tc_signal_send(): `t`, another
 *                               thread than the sender, has signals pending and must run its
 *                               signal handlers before it goes on (see tc__signal_deliver
 *                               below): when it is next switched to, or, if an interrupt
 *                               handler sends to the thread it interrupted, when the handler
 *                               returns. A port that resumes threads by an exception return
 *                               uses it to divert that return into its trampoline, and then
 *                               need not test to->signals in TC_PORT_SWITCH; a port that sees
 *                               every resumption in C (sim) leaves it undefined, and it
 *                               compiles to nothing. It is only expanded in signal.c, so a
 *                               port may make it the reference that links its delivery code
 *                               only into programs that use signals.
 *
 * Kernel functions a port calls (declared at the end of this file)
 *
 *   tc__thread_run(t)     the entry of every thread: runs t's entry function, then completes t.
 *   tc__tick_announce()   one system tick; call from the tick interrupt, at a priority the
 *                         kernel masks, between tc_isr_enter() and tc_isr_exit() (the
 *                         bracket makes the tick count as an interrupt on every port), or
 *                         tc__isr_enter() and tc__isr_exit(): the same bracket without the
 *                         test of the caller's priority (TC_PORT_IN_UNMASKED_ISR), for a
 *                         handler whose priority the port itself keeps at a kernel level.
 *   tc__tick_interrupt()  (ports with TC_PORT_IN_ISR) the whole tick interrupt: the same as
 *                         tc__isr_enter(); tc__tick_announce(); tc__isr_exit(); -- counted
 *                         as an interrupt, a switch it makes necessary made when the handlers
 *                         are done -- without the bracket's two critical sections (with
 *                         TC_TRACE it is that bracket, which the trace marks).
 *   tc__switch_commit()   with interrupts masked: make tc__k.next current, account the
 *                         switch and call TC_PORT_SWITCH (used by TC_PORT_START and idle code).
 *   tc__stack_guard_hit(t) (TC_MPU_STACK_GUARD) from the port's guard fault handler, an
 *                         interrupt handler that the kernel's mask holds back (the kernel is
 *                         consistent): context `t` wrote into its stack guard region. Calls
 *                         tc_stack_overflow_hook(t) and terminates the thread; the port then
 *                         switches away from it without saving it (it must not touch its stack
 *                         below the guard's top). An HISR's context cannot be terminated: the
 *                         kernel stops the system (TC_PORT_PANIC) after the hook.
 *   tc__signal_deliver()  run the current thread's pending signal handlers (tc_signal_send).
 *                         A handler runs as the thread itself, before it continues. When the
 *                         CPU is about to resume a thread t with t->signals != 0 -- after a
 *                         switch to t, when an interrupt returns to t, before t's entry
 *                         function first runs -- the port calls tc__signal_deliver() in t's
 *                         context (on t's stack, thread privilege) with interrupts unmasked
 *                         and no kernel lock held, then lets t continue where it was. The
 *                         sim port calls it where its switch returns in t's context; a
 *                         port that switches in an exception (PendSV) redirects the return
 *                         into a small trampoline that calls it and then resumes t's frame.
 *                         A port without it still delivers signals to a thread that sends
 *                         to itself or is blocked; a ready thread's handler then runs when
 *                         the thread's next wait ends. Weak: it exists only when the
 *                         application links signals, and t->signals is never set otherwise.
 *                         TC_PORT_SWITCH and TC_PORT_SIGNAL_PENDING (above) tell the port
 *                         when it is due.
 */
#ifndef TACET_PORT_H
#define TACET_PORT_H

#include "tacet/types.h"

struct tc_thread;

#include "tacet_port.h"

#ifndef TC_PORT_NAME
#error "port contract: tacet_port.h must define TC_PORT_NAME"
#endif
#ifndef TC_PORT_STACK_ALIGN
#error "port contract: tacet_port.h must define TC_PORT_STACK_ALIGN"
#endif
#ifndef TC_PORT_STACK_MIN
#error "port contract: tacet_port.h must define TC_PORT_STACK_MIN"
#endif
#ifndef TC_PORT_CONTEXT
#error "port contract: tacet_port.h must define TC_PORT_CONTEXT (per-thread saved context type)"
#endif
#ifndef TC_PORT_INIT
#error "port contract: tacet_port.h must define TC_PORT_INIT()"
#endif
#ifndef TC_PORT_IRQ_DISABLE
#error "port contract: tacet_port.h must define TC_PORT_IRQ_DISABLE()"
#endif
#ifndef TC_PORT_IRQ_RESTORE
#error "port contract: tacet_port.h must define TC_PORT_IRQ_RESTORE(state)"
#endif
#ifndef TC_PORT_STACK_INIT
#error "port contract: tacet_port.h must define TC_PORT_STACK_INIT(thread)"
#endif
#ifndef TC_PORT_SWITCH
#error "port contract: tacet_port.h must define TC_PORT_SWITCH(from, to)"
#endif
#ifndef TC_PORT_START
#error "port contract: tacet_port.h must define TC_PORT_START()"
#endif
#ifndef TC_PORT_CYCLES
#error "port contract: tacet_port.h must define TC_PORT_CYCLES()"
#endif
#ifndef TC_PORT_CYCLES_HZ
#error "port contract: tacet_port.h must define TC_PORT_CYCLES_HZ()"
#endif
#ifndef TC_PORT_PANIC
#error "port contract: tacet_port.h must define TC_PORT_PANIC(msg, detail)"
#endif

#ifndef TC_PORT_SIGNAL_PENDING
#define TC_PORT_SIGNAL_PENDING(t) ((void)(t))
#endif
#ifndef TC_PORT_CYCLES32_DOWN
#define TC_PORT_CYCLES32_DOWN() (~(uint32_t)TC_PORT_CYCLES())
#endif
#ifndef TC_PORT_SET_CLOCK
#define TC_PORT_SET_CLOCK(hz) ((void)(hz), false)
#endif
#ifndef TC_PORT_RUN_END
#define TC_PORT_RUN_END() ((void)0)
#endif
#if defined(TC_PORT_IN_ISR) && !defined(TC_PORT_SWITCH_LATER)
#error "port contract: a port that defines TC_PORT_IN_ISR() must define TC_PORT_SWITCH_LATER()"
#endif
#if defined(TC_PORT_IN_ISR) && !defined(TC_PORT_IN_UNMASKED_ISR) && !defined(TC_PORT_ALL_ISRS_MASKED)
#error "port contract: a port that defines TC_PORT_IN_ISR() must define TC_PORT_IN_UNMASKED_ISR(), or TC_PORT_ALL_ISRS_MASKED when its mask holds back every interrupt"
#endif
#if defined(TC_PORT_IN_UNMASKED_ISR) && defined(TC_PORT_ALL_ISRS_MASKED)
#error "port contract: TC_PORT_IN_UNMASKED_ISR() and TC_PORT_ALL_ISRS_MASKED contradict each other"
#endif

#if TC_MPU_STACK_GUARD
#ifndef TC_PORT_STACK_GUARD
#error "TC_MPU_STACK_GUARD: this port has no MPU stack guard (the sim port has no MPU: it keeps the painted guard and AddressSanitizer)"
#elif TC_PORT_STACK_GUARD < TC_PORT_STACK_ALIGN || (TC_PORT_STACK_GUARD & (TC_PORT_STACK_GUARD - 1)) != 0
#error "port contract: TC_PORT_STACK_GUARD must be a power of two, at least TC_PORT_STACK_ALIGN"
#endif
#endif

#if (TC_PORT_STACK_ALIGN & (TC_PORT_STACK_ALIGN - 1)) != 0
#error "port contract: TC_PORT_STACK_ALIGN must be a power of two"
#endif

/* Kernel entry points for ports. */
void tc__thread_run(struct tc_thread *t);
void tc__tick_announce(void);
#ifdef TC_PORT_IN_ISR
void tc__tick_interrupt(void);
#endif
void tc__isr_enter(void);
void tc__isr_exit(void);
void tc__switch_commit(void);
void tc__signal_deliver(void) __attribute__((weak));
#if TC_MPU_STACK_GUARD
void tc__stack_guard_hit(struct tc_thread *t);
#endif

#endif /* TACET_PORT_H */
