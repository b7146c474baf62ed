/* SPDX-License-Identifier: MIT */
/*
 * The trap entry and exit, and the context switch (RV32, machine mode).
 *
 * The kernel has already chosen the next thread, made it current and accounted the switch
 * (tc__switch_commit); TC_PORT_SWITCH calls tc__rv_switch at once, with interrupts masked, from
 * wherever the kernel decided -- a thread's service, the idle loop, or the end of a trap. A
 * call needs to keep only what the calling convention says a callee keeps: ra, sp and s0-s11.
 * So every saved context has, on its own stack, the same switch frame,
 *
 *     sp ->  ra, s0 .. s11, [fs0 .. fs11, fcsr]     64 bytes [+ 64 with the FPU]
 *
 * and resumes by a return from tc__rv_switch: into the kernel code that called it (a thread
 * that waited), into the idle loop, into the trap exit below (a thread that an interrupt
 * preempted: its trap frame lies above the switch frame), into tc__rv_thread_start (a thread
 * that never ran) or into the signal trampoline (a thread diverted to its signal handlers,
 * riscv.c). One routine for all: no frame type to test.
 *
 * A trap (only interrupts are expected; an exception is a fault and stops the run) saves what
 * the interrupted code did not expect to lose -- the caller-saved registers, mepc and mstatus,
 * [and the caller-saved FP registers with fcsr, when the context uses the FPU: 96 bytes more
 * reserved in every trap frame of an FP build, written only then] -- below its
 * stack pointer (the trap frame), stores the frame's address in mscratch (non-zero: "in a
 * trap", TC_PORT_IN_ISR) and runs the handlers on the interrupt stack. Then it goes back to the
 * interrupted stack, clears mscratch, and when a handler asked for it (tc__rv_sw.attention)
 * calls tc__rv_trap_tail (riscv.c) -- which commits the kernel's last decision and switches --
 * before it restores the frame and returns with mret. The hart keeps MIE clear from the trap
 * to the mret, so handlers never nest and need no critical section of their own.
 */
#include "tacet_board.h"

#if defined(__riscv_flen)
#define TRAP_FRAME   176 /* and ft0-ft11, fa0-fa7, fcsr at FP_OFF (21 words, 16-byte aligned) */
#define FP_OFF       80
#else
#define TRAP_FRAME   80  /* 16 registers, mepc, mstatus; 16-byte aligned */
#endif
#define SWITCH_FRAME 64  /* ra, s0-s11, one spare word; 16-byte aligned */
#define MEPC_OFF     64
#define MSTATUS_OFF  68
#define ATTENTION_OFF 4  /* tc__rv_sw.attention */
#define STAMP_OFF     8  /* tc__rv_sw.stamp (TC_POWER; riscv.c asserts it) */

#if defined(__riscv_flen)
/* mstatus.FS: the FP registers' state. A context whose FS is Clean or Dirty uses the FPU. */
#define FS_MASK    0x6000
#define FS_INITIAL 0x2000
#define FS_CLEAN   0x4000
#define FP_SWITCH  64   /* fs0-fs11, fcsr: 13 words, 16-byte aligned */
#define FP_FLAG_OFF 8   /* tc_rv_context.fp */
#endif

        .section .text.tc__rv_trap, "ax", @progbits
        .balign 4                       /* mtvec, direct mode: 4-byte aligned */
        .globl  tc__rv_trap
        .type   tc__rv_trap, @function
tc__rv_trap:
        addi    sp, sp, -TRAP_FRAME
        sw      ra, 0(sp)
        sw      t0, 4(sp)
        sw      t1, 8(sp)
        sw      t2, 12(sp)
        sw      a0, 16(sp)
        sw      a1, 20(sp)
        sw      a2, 24(sp)
        sw      a3, 28(sp)
        sw      a4, 32(sp)
        sw      a5, 36(sp)
        sw      a6, 40(sp)
        sw      a7, 44(sp)
        sw      t3, 48(sp)
        sw      t4, 52(sp)
        sw      t5, 56(sp)
        sw      t6, 60(sp)
        csrr    t0, mepc
        csrr    t1, mstatus
        sw      t0, MEPC_OFF(sp)
        sw      t1, MSTATUS_OFF(sp)
#if defined(__riscv_flen)
        /* The interrupted context's caller-saved FP registers, when it uses the FPU (FS Clean or
         * Dirty): handlers are C code that may use them. A context that never executed an FP
         * instruction (FS Initial) has none to keep, and its frame's FP part stays unwritten. */
        li      t2, FS_CLEAN
        and     t0, t1, t2
        beqz    t0, 1f
        fsw     ft0, FP_OFF + 0(sp)
        fsw     ft1, FP_OFF + 4(sp)
        fsw     ft2, FP_OFF + 8(sp)
        fsw     ft3, FP_OFF + 12(sp)
        fsw     ft4, FP_OFF + 16(sp)
        fsw     ft5, FP_OFF + 20(sp)
        fsw     ft6, FP_OFF + 24(sp)
        fsw     ft7, FP_OFF + 28(sp)
        fsw     fa0, FP_OFF + 32(sp)
        fsw     fa1, FP_OFF + 36(sp)
        fsw     fa2, FP_OFF + 40(sp)
        fsw     fa3, FP_OFF + 44(sp)
        fsw     fa4, FP_OFF + 48(sp)
        fsw     fa5, FP_OFF + 52(sp)
        fsw     fa6, FP_OFF + 56(sp)
        fsw     fa7, FP_OFF + 60(sp)
        fsw     ft8, FP_OFF + 64(sp)
        fsw     ft9, FP_OFF + 68(sp)
        fsw     ft10, FP_OFF + 72(sp)
        fsw     ft11, FP_OFF + 76(sp)
        frcsr   t0
        sw      t0, FP_OFF + 80(sp)
1:
#endif
        csrw    mscratch, sp            /* in a trap, and where its frame is */
        la      sp, __tc_rv_isr_stack_top
        csrr    a0, mcause
        bgez    a0, 3f                  /* an exception: a fault */
        call    tc__rv_interrupt        /* riscv.c: every pending interrupt */
        csrr    sp, mscratch
        csrw    mscratch, zero
        lw      t0, tc__rv_sw + ATTENTION_OFF
        bnez    t0, 2f
        /* The exit: also where a preempted context resumes, after tc__rv_trap_tail's switch. */
.Lrestore:
#if defined(__riscv_flen)
        lw      t1, MSTATUS_OFF(sp)     /* FS at the trap's entry: was the FP part written? */
        li      t2, FS_CLEAN
        and     t0, t1, t2
        beqz    t0, 4f
        flw     ft0, FP_OFF + 0(sp)
        flw     ft1, FP_OFF + 4(sp)
        flw     ft2, FP_OFF + 8(sp)
        flw     ft3, FP_OFF + 12(sp)
        flw     ft4, FP_OFF + 16(sp)
        flw     ft5, FP_OFF + 20(sp)
        flw     ft6, FP_OFF + 24(sp)
        flw     ft7, FP_OFF + 28(sp)
        flw     fa0, FP_OFF + 32(sp)
        flw     fa1, FP_OFF + 36(sp)
        flw     fa2, FP_OFF + 40(sp)
        flw     fa3, FP_OFF + 44(sp)
        flw     fa4, FP_OFF + 48(sp)
        flw     fa5, FP_OFF + 52(sp)
        flw     fa6, FP_OFF + 56(sp)
        flw     fa7, FP_OFF + 60(sp)
        flw     ft8, FP_OFF + 64(sp)
        flw     ft9, FP_OFF + 68(sp)
        flw     ft10, FP_OFF + 72(sp)
        flw     ft11, FP_OFF + 76(sp)
        lw      t0, FP_OFF + 80(sp)
        fscsr   t0
4:
#endif
        lw      t0, MEPC_OFF(sp)
        lw      t1, MSTATUS_OFF(sp)
        csrw    mepc, t0
        csrw    mstatus, t1             /* MIE stays clear until mret sets it from MPIE */
        lw      ra, 0(sp)
        lw      t0, 4(sp)
        lw      t1, 8(sp)
        lw      t2, 12(sp)
        lw      a0, 16(sp)
        lw      a1, 20(sp)
        lw      a2, 24(sp)
        lw      a3, 28(sp)
        lw      a4, 32(sp)
        lw      a5, 36(sp)
        lw      a6, 40(sp)
        lw      a7, 44(sp)
        lw      t3, 48(sp)
        lw      t4, 52(sp)
        lw      t5, 56(sp)
        lw      t6, 60(sp)
        addi    sp, sp, TRAP_FRAME
        mret
2:      call    tc__rv_trap_tail        /* riscv.c: commit, switch, signals; masked */
        j       .Lrestore
3:      csrr    a1, mscratch            /* a0 = mcause, a1 = the trap frame */
        tail    tc__rv_fault            /* riscv.c: reports and stops */
        .size   tc__rv_trap, . - tc__rv_trap

/*
 * void tc__rv_switch(tc_thread *to): to's context is at offset 0 of the thread (NULL: idle).
 * Interrupts masked. Saves the switch frame, stores the stack pointer in cur->sp, makes `to`
 * current and returns from `to`'s own call (see the top of this file).
 */
        .section .text.tc__rv_switch, "ax", @progbits
        .globl  tc__rv_switch
        .type   tc__rv_switch, @function
tc__rv_switch:
        la      t0, tc__rv_sw
        lw      t1, 0(t0)               /* t1 = cur */
        beqz    a0, 5f
1:      addi    sp, sp, -SWITCH_FRAME
        sw      ra, 0(sp)
        sw      s0, 4(sp)
        sw      s1, 8(sp)
        sw      s2, 12(sp)
        sw      s3, 16(sp)
        sw      s4, 20(sp)
        sw      s5, 24(sp)
        sw      s6, 28(sp)
        sw      s7, 32(sp)
        sw      s8, 36(sp)
        sw      s9, 40(sp)
        sw      s10, 44(sp)
        sw      s11, 48(sp)
#if defined(__riscv_flen)
        /* The FPU's callee-saved registers, only for a context that uses it (FS Clean or
         * Dirty); the context records whether they are in its frame. */
        csrr    t2, mstatus
        li      t3, FS_CLEAN
        and     t2, t2, t3
        snez    t2, t2
        sw      t2, FP_FLAG_OFF(t1)
        beqz    t2, 2f
        addi    sp, sp, -FP_SWITCH
        fsw     fs0, 0(sp)
        fsw     fs1, 4(sp)
        fsw     fs2, 8(sp)
        fsw     fs3, 12(sp)
        fsw     fs4, 16(sp)
        fsw     fs5, 20(sp)
        fsw     fs6, 24(sp)
        fsw     fs7, 28(sp)
        fsw     fs8, 32(sp)
        fsw     fs9, 36(sp)
        fsw     fs10, 40(sp)
        fsw     fs11, 44(sp)
        frcsr   t2
        sw      t2, 48(sp)
2:
#endif
        sw      sp, 0(t1)               /* cur->sp */
        sw      a0, 0(t0)               /* cur = to */
        lw      sp, 0(a0)
#if defined(__riscv_flen)
        /* FS follows the incoming context: Clean with its registers loaded, Initial (its
         * first FP instruction makes it Dirty) when it has none. */
        li      t3, FS_MASK
        csrc    mstatus, t3
        lw      t2, FP_FLAG_OFF(a0)
        li      t3, FS_INITIAL
        beqz    t2, 3f
        li      t3, FS_CLEAN
        csrs    mstatus, t3             /* the FPU on before its registers are written */
        flw     fs0, 0(sp)
        flw     fs1, 4(sp)
        flw     fs2, 8(sp)
        flw     fs3, 12(sp)
        flw     fs4, 16(sp)
        flw     fs5, 20(sp)
        flw     fs6, 24(sp)
        flw     fs7, 28(sp)
        flw     fs8, 32(sp)
        flw     fs9, 36(sp)
        flw     fs10, 40(sp)
        flw     fs11, 44(sp)
        lw      t2, 48(sp)
        fscsr   t2
        addi    sp, sp, FP_SWITCH
        li      t3, FS_MASK             /* loading them made FS Dirty: Clean again */
        csrc    mstatus, t3
        li      t3, FS_CLEAN
3:      csrs    mstatus, t3
#endif
        lw      ra, 0(sp)
        lw      s0, 4(sp)
        lw      s1, 8(sp)
        lw      s2, 12(sp)
        lw      s3, 16(sp)
        lw      s4, 20(sp)
        lw      s5, 24(sp)
        lw      s6, 28(sp)
        lw      s7, 32(sp)
        lw      s8, 36(sp)
        lw      s9, 40(sp)
        lw      s10, 44(sp)
        lw      s11, 48(sp)
        addi    sp, sp, SWITCH_FRAME
#if TC_POWER
        /* The switch path's cycles are no context's (tc_energy_report: switching): the stamp
         * the kernel took when it committed the switch moves to here. */
        csrr    t2, mcycle
        not     t2, t2
        sw      t2, STAMP_OFF(t0)       /* t0 = &tc__rv_sw still */
#endif
        ret
5:      la      a0, tc__rv_idle         /* idle: the rare case, out of line */
        j       1b
        .size   tc__rv_switch, . - tc__rv_switch

/*
 * Where a thread's first switch returns (tc__rv_stack_init): s0 holds the thread. It runs
 * with interrupts unmasked, as the contract asks.
 */
        .globl  tc__rv_thread_start
        .type   tc__rv_thread_start, @function
tc__rv_thread_start:
        mv      a0, s0
        csrsi   mstatus, 8
        tail    tc__thread_run
        .size   tc__rv_thread_start, . - tc__rv_thread_start

/*
 * Where a diverted context's switch returns (riscv.c, tc__rv_signal_divert): its switch frame
 * was moved 16 bytes down and the return address it had lies at the stack pointer. The
 * handlers run (C keeps s0-s11), then the context returns where its switch would have.
 */
        .globl  tc__rv_signal_trampoline
        .type   tc__rv_signal_trampoline, @function
tc__rv_signal_trampoline:
        call    tc__rv_signal_run
        lw      ra, 0(sp)
        addi    sp, sp, 16
        ret
        .size   tc__rv_signal_trampoline, . - tc__rv_signal_trampoline
