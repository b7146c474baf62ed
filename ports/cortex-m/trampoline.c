/* SPDX-License-Identifier: MIT */
/*
 * Signal delivery on Cortex-M: run a thread's signal handlers in its own context before it
 * goes on (the port's part of tc__signal_deliver, tacet/port.h).
 *
 * The sim port sees every resumption of a thread in C. Here a thread resumes by an exception
 * return -- from PendSV after a switch, or from the interrupt that interrupted it -- so the
 * return is diverted: one more exception frame, whose pc is the trampoline, is pushed onto
 * the thread's saved stack. The hardware "returns"
 * into the trampoline, which calls the handlers as the thread (Thread mode, its stack, the
 * kernel unmasked) and then issues SVC #0, whose handler discards its own frame and returns
 * through the thread's real one, restoring every register exactly.
 *
 * A thread's saved stack, from its stack pointer up, before and after the diversion:
 *
 *     before                          after
 *     r4-r11, EXC_RETURN  (9 words)   r4-r11, EXC_RETURN     (moved down)
 *     [s16-s31            (16)]       [s16-s31               (16, moved down)]
 *     frame: r0-r3, r12, lr, pc,      added frame: r0 = EXC_RETURN, pc = trampoline,
 *            xPSR [, s0-s15, FPSCR]          xPSR = Thumb [, s0-s15 = 0, FPSCR = the thread's]
 *                                     frame (untouched)
 *
 * The added frame has the same type as the thread's own (EXC_RETURN bit 4), so PendSV's load
 * sequence is unchanged: s16-s31 are restored for an FP thread and the handlers may use the
 * FPU either way. The thread's frame starts 8-byte aligned (the hardware aligns it), so the
 * added frame directly below it needs no padding, and the trampoline leaves the stack pointer
 * exactly at the thread's frame when it issues SVC.
 *
 * When. tc_signal_send() tells the port about every thread it leaves signals pending for,
 * other than the sender itself (TC_PORT_SIGNAL_PENDING: tc__cm_signal_pending). A thread whose
 * context is saved -- ready, blocked, not started -- is diverted at once, so no switch has
 * to test for signals: PendSV loads the diverted context as any other. A thread whose
 * registers are live is the one a handler interrupted (possibly with PendSV about to switch
 * away from it): the port sets tc__cm_sw.deliver (and `attention`) and pends PendSV, which
 * saves the thread and then diverts its saved context, whichever context it loads next. The
 * live context is tc__cm_sw.cur: PendSV stores the outgoing stack pointer before it changes
 * `cur` and changes `cur` before it reads the incoming one, so a context that is not `cur`
 * is in memory whenever a handler can run. tc__cm_signal_pending, called only from signal.c,
 * is the strong reference to this file; PendSV's call (through tc__cm_pendsv_attention,
 * cortex_m.c) is a weak one, so a program that does not use signals does not carry it.
 *
 * A context already diverted and not yet through its trampoline is left alone (its
 * trampoline will see the new signals), so a thread's stack grows by one frame at a time. A
 * handler that is already running when more signals arrive is not re-entered:
 * tc__signal_deliver() returns at once and the running handler's loop takes them.
 */
#include <string.h>

#include "internal.h"

#define XPSR_THUMB  0x01000000u
#define EXC_FP_BIT  0x10u /* EXC_RETURN bit 4 clear: extended (FP) frame */
#define SAVED_WORDS 9u    /* r4-r11, EXC_RETURN, below the frame (+16 for s16-s31) */
#define FRAME_WORDS 8u    /* r0-r3, r12, lr, pc, xPSR (+18: s0-s15, FPSCR, reserved) */
#define FP_WORDS    16u
#define FRAME_FP_WORDS (FRAME_WORDS + 18u)
#define FRAME_FPSCR 24u   /* FPSCR's word in an extended frame */

void tc__cm_signal_trampoline(void); /* pendsv.S */
void tc__cm_signal_divert(tc_cm_context *ctx);
void tc__cm_signal_run(void);

/* Masked, for a context saved in memory (not tc__cm_sw.cur): push the trampoline's frame. */
void tc__cm_signal_divert(tc_cm_context *ctx)
{
  if (ctx == &tc__cm_idle || ctx->diverted) return;
  if (((tc_thread *)(void *)ctx)->signals == 0) return; /* taken meanwhile (handler cleared) */

  uint32_t *sp = ctx->sp;
  uint32_t exc_return = sp[SAVED_WORDS - 1u];
  bool fp = (exc_return & EXC_FP_BIT) == 0;
  unsigned saved = SAVED_WORDS + (fp ? FP_WORDS : 0u);
  unsigned added = fp ? FRAME_FP_WORDS : FRAME_WORDS;
  const uint32_t *frame = sp + saved;

  uint32_t *nsp = sp - added;
#if TC_MPU_STACK_GUARD
  /* Written by the kernel on a saved stack, whose guard is not armed: checked here instead.
   * The thread is not running and the kernel is masked in the middle of a service or of
   * PendSV: no place to terminate it. */
  if ((uint8_t *)nsp < ((tc_thread *)(void *)ctx)->stack_base)
    TC_PORT_PANIC("stack overflow: no room for a signal frame", ((tc_thread *)(void *)ctx)->name);
#endif
  memmove(nsp, sp, saved * sizeof *sp);
  uint32_t *f = nsp + saved;
  memset(f, 0, added * sizeof *f);
  f[0] = exc_return; /* r0: the trampoline hands it to SVC_Handler */
  f[6] = (uint32_t)(uintptr_t)tc__cm_signal_trampoline & ~1u;
  f[7] = XPSR_THUMB;
  if (fp) f[FRAME_FPSCR] = frame[FRAME_FPSCR]; /* the handlers compute in the thread's FP mode */
  ctx->sp = nsp;
  ctx->diverted = 1u;
}

/* Masked, from tc_signal_send(). */
void tc__cm_signal_pending(tc_thread *t)
{
  if (&t->ctx != tc__cm_sw.cur) {
    tc__cm_signal_divert(&t->ctx);
    return;
  }
  tc__cm_sw.deliver = &t->ctx;
  tc__cm_sw.attention = 1u;
  TC_CM_ICSR = TC_CM_PENDSVSET;
}

/* The trampoline's C half: in the thread's context, unmasked. */
void tc__cm_signal_run(void)
{
  /* Cleared first: signals that arrive from here on divert the thread again if the loop in
   * tc__signal_deliver() has already ended (and find it returning at once if not). */
  ((tc_cm_context *)(void *)tc__k.current)->diverted = 0u;
  tc__signal_deliver();
}
