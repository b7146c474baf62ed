/*
 * The context switch: the PendSV exception handler.
 *
 * The kernel has already chosen the next thread, made it current and accounted the switch
 * (tc__switch_commit); TC_PORT_SWITCH only stored the context to load in tc__cm_sw.next and
 * pended PendSV. PendSV has the lowest priority, so it runs once nothing else does: the
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
 * so the same 10 instructions (14 with the FPU test) switch threads and idle alike.
 */
        .syntax unified
        .thumb
        .text

        .globl  PendSV_Handler
        .type   PendSV_Handler, %function
        .thumb_func
PendSV_Handler:
        ldr     r3, =tc__cm_sw          /* r3 = &{cur, next} */
        ldrd    r1, r2, [r3]            /* r1 = cur, r2 = next */
        mrs     r0, psp
#if defined(__ARM_FP)
        tst     lr, #0x10               /* EXC_RETURN bit 4 clear: extended (FP) frame */
        it      eq
        vstmdbeq r0!, {s16-s31}
#endif
        stmdb   r0!, {r4-r11, lr}
        str     r0, [r1]                /* cur->sp */
        str     r2, [r3]                /* cur = next */
        ldr     r0, [r2]                /* next->sp */
        ldmia   r0!, {r4-r11, lr}
#if defined(__ARM_FP)
        tst     lr, #0x10
        it      eq
        vldmiaeq r0!, {s16-s31}
#endif
        msr     psp, r0
        bx      lr
        .size   PendSV_Handler, . - PendSV_Handler
        .pool
