/* SPDX-License-Identifier: MIT */
/*
 * The context switch: the PendSV exception handler.
 *
 * The kernel has already chosen the next thread, made it current and accounted the switch
 * (tc__switch_commit); TC_PORT_SWITCH only stored the context to load in tc__cm_sw.next and
 * pended PendSV. A thread with signals pending was diverted when it was signalled
 * (trampoline.c), so its saved context is loaded like any other. PendSV has the lowest priority, so it runs once nothing else does: the
 * hardware has pushed r0-r3, r12, lr, pc and xPSR of the interrupted context on its process
 * stack (and s0-s15 + FPSCR, lazily, if that context had used the FPU); the handler does the
 * rest:
 *
 *   save    s16-s31 (only if EXC_RETURN bit 4 is clear: the context used the FPU),
 *           r4-r11 and EXC_RETURN below the hardware frame, the stack pointer in cur->sp;
 *   swap    cur = next;
 *   load    the same from next->sp, then return through next's EXC_RETURN.
 *
 * It needs no critical section. An interrupt that preempts it and requests another switch
 * stores a new `next` and pends PendSV again, which tail-chains: the context loaded here is
 * saved again at once and the newest `next` is loaded. The handler reads `next` once and
 * stores exactly that as `cur`, so the two never disagree.
 *
 * Every context, the idle context included, runs on the process stack (PSP) in Thread mode,
 * so the same 11 instructions (17 with the FPU tests) switch threads and idle alike. The one
 * branch not taken on that path tests `attention`, set in two rare cases that C handles
 * after the outgoing context is saved and before the next is loaded: an interrupt handler
 * took the decision without committing it (the kernel cannot commit a switch in a handler:
 * a later decision of the same or a nested handler may change it, and only the last one is
 * a switch), and a handler signalled the context it interrupted, which must be diverted
 * through the signal trampoline once it is saved.
 */
#include "tacet_cm_guard.h"
#include "tacet_board.h"

        .syntax unified
        .thumb
        .text

/*
 * With the MPU stack guard (TC_MPU_STACK_GUARD, guard.c) the handler also moves the guard
 * region: as soon as `cur` names the incoming context, one store of that context's
 * precomputed RBAR value (address, VALID, region number; the region's size and no-access
 * attributes never change) puts the region below its stack: 3 instructions. No barrier: the
 * exception return that ends the handler makes the new region effective for the context
 * it returns to, and nothing in between touches a guard. A guard of fewer than 64 bytes also
 * splits the save, EXC_RETURN first: a save that does not fit then faults on its first
 * write, in the region, instead of writing its lowest word below it (STMDB writes upwards).
 */
#if TC_POWER
#define STAMP_OFFSET 20 /* tc__cm_sw.stamp, the kernel's stamp (cortex_m.c asserts it) */
#endif
#if TC_MPU_STACK_GUARD
#define MPU_RBAR 0xE000ED9C
#define GUARD_OFFSET 8 /* tc_cm_context.guard */
#endif

        .globl  PendSV_Handler
        .type   PendSV_Handler, %function
        .thumb_func
PendSV_Handler:
        ldr     r3, =tc__cm_sw          /* r3 = &{cur, next, attention, ...} */
        ldm     r3, {r0, r1, r2}        /* r0 = cur, r1 = next, r2 = attention */
        mrs     r12, psp
#if defined(__ARM_FP)
        tst     lr, #0x10               /* EXC_RETURN bit 4 clear: extended (FP) frame */
        it      eq
        vstmdbeq r12!, {s16-s31}
#endif
#if TC_MPU_STACK_GUARD && TC_CM_STACK_GUARD_SIZE < 64
        str     lr, [r12, #-4]!
        stmdb   r12!, {r4-r11}
#else
        stmdb   r12!, {r4-r11, lr}
#endif
        str     r12, [r0]               /* cur->sp */
        str     r1, [r3]                /* cur = next */
        cbnz    r2, 2f                  /* a handler's decision, signals: C first (rare) */
1:
#if TC_POWER
        /* The switch path's cycles are no context's (tc_energy_report: switching): the stamp
         * the kernel took when it committed the switch moves to here. */
        ldr     r2, =TC_BOARD_CYCLES32_DOWN_ADDR
        ldr     r2, [r2]
        str     r2, [r3, #STAMP_OFFSET] /* r3 = &tc__cm_sw still */
#endif
#if TC_MPU_STACK_GUARD
        ldr     r2, [r1, #GUARD_OFFSET] /* the guard follows `cur` */
        ldr     r3, =MPU_RBAR
        str     r2, [r3]
#endif
        ldr     r0, [r1]                /* next->sp */
        ldmia   r0!, {r4-r11, lr}
#if defined(__ARM_FP)
        tst     lr, #0x10
        it      eq
        vldmiaeq r0!, {s16-s31}
#endif
        msr     psp, r0
        bx      lr
2:      push    {r3, lr}                /* (and MSP's 8-byte alignment) */
        bl      tc__cm_pendsv_attention /* cortex_m.c: commit, divert; r0 = what to load */
        pop     {r3, lr}
        mov     r1, r0
        str     r1, [r3]                /* cur = next, as it is now */
        b       1b
        .size   PendSV_Handler, . - PendSV_Handler
        .pool

/*
 * SVC #0 comes only from the signal trampoline (trampoline.S): drop the SVC's own frame and
 * return through the interrupted one, with its EXC_RETURN, so that the hardware restores
 * r0-r3, r12, lr, pc and xPSR exactly (an interrupted IT block or LDM included, which no
 * Thread-mode code could resume) and s0-s15 + FPSCR for an FP frame. Other SVC numbers go to
 * tc_cm_svc().
 */
        .globl  SVC_Handler
        .type   SVC_Handler, %function
        .thumb_func
SVC_Handler:
        mrs     r1, psp                 /* the SVC's frame: the trampoline runs on PSP */
        ldr     r2, [r1, #24]           /* stacked pc: the instruction after the svc */
        ldrb    r0, [r2, #-2]           /* the svc's immediate */
        cbnz    r0, 2f
        ldr     r0, [r1]                /* stacked r0: the EXC_RETURN to return with */
        adds    r1, r1, #32             /* the SVC's basic frame; 8-byte aligned, no pad */
#if defined(__ARM_FP)
        tst     lr, #0x10
        bne     1f
        adds    r1, r1, #72             /* the handlers used the FPU: s0-s15, FPSCR, spare */
        ldr     r2, =0xE000EF34         /* FPCCR */
        ldr     r3, [r2]
        bic     r3, r3, #1              /* LSPACT: the handlers' s0-s15 need no lazy save, */
        str     r3, [r2]                /* and the interrupted frame's must be loaded */
1:
#endif
        msr     psp, r1
        bx      r0
2:      b       tc_cm_svc               /* r0 = number, r1 = frame */
        .size   SVC_Handler, . - SVC_Handler
        .pool
