/* SPDX-License-Identifier: MIT */
/*
 * Signal delivery on Cortex-M, the assembly half (trampoline.c has the C half, the frame
 * layout and the reasons). Linked only into programs that use signals: trampoline.c refers
 * to the trampoline.
 */
        .syntax unified
        .thumb
        .text

/*
 * The return path of a diverted context. PendSV returned into the trampoline, in Thread mode
 * on the thread's own stack, with r4-r11 (and s16-s31) already the thread's and the thread's
 * interrupted frame right above the stack pointer; r0 holds that frame's EXC_RETURN. SVC #0
 * (pendsv.S) returns through that frame.
 */
        .globl  tc__cm_signal_trampoline
        .type   tc__cm_signal_trampoline, %function
        .thumb_func
tc__cm_signal_trampoline:
        push    {r0, r1}                /* r1 only keeps the stack 8-byte aligned */
        bl      tc__cm_signal_run       /* the handlers, as the thread, unmasked */
        pop     {r0, r1}                /* the stack pointer is at the frame again */
        svc     #0
        .size   tc__cm_signal_trampoline, . - tc__cm_signal_trampoline
