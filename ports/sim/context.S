/* SPDX-License-Identifier: MIT */
/*
 * Sim port context switch: tc__sim_ctx_switch(void **save_sp, void *load_sp) pushes the
 * callee-saved registers (and the floating-point control state) on the current stack, stores
 * the stack pointer in *save_sp, loads load_sp and pops the other context's registers.
 * Everything else is caller-saved under the host ABI, so this is the whole context.
 * A new context is a frame built by tc__sim_stack_init whose return address is
 * tc__sim_ctx_trampoline, which calls function(argument) from two callee-saved registers.
 */
#if defined(__x86_64__)
        .text
        .globl  tc__sim_ctx_switch
        .type   tc__sim_ctx_switch, @function
tc__sim_ctx_switch:
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        subq    $8, %rsp
        stmxcsr (%rsp)
        fnstcw  4(%rsp)
        movq    %rsp, (%rdi)
        movq    %rsi, %rsp
        ldmxcsr (%rsp)
        fldcw   4(%rsp)
        addq    $8, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .size   tc__sim_ctx_switch, .-tc__sim_ctx_switch

        .globl  tc__sim_ctx_trampoline
        .type   tc__sim_ctx_trampoline, @function
tc__sim_ctx_trampoline:
        movq    %r12, %rdi
        callq   *%r13
        ud2
        .size   tc__sim_ctx_trampoline, .-tc__sim_ctx_trampoline

#elif defined(__aarch64__)
        .text
        .globl  tc__sim_ctx_switch
        .type   tc__sim_ctx_switch, %function
tc__sim_ctx_switch:
        sub     sp, sp, #176
        stp     x19, x20, [sp, #0]
        stp     x21, x22, [sp, #16]
        stp     x23, x24, [sp, #32]
        stp     x25, x26, [sp, #48]
        stp     x27, x28, [sp, #64]
        stp     x29, x30, [sp, #80]
        stp     d8, d9, [sp, #96]
        stp     d10, d11, [sp, #112]
        stp     d12, d13, [sp, #128]
        stp     d14, d15, [sp, #144]
        mrs     x9, fpcr
        str     x9, [sp, #160]
        mov     x9, sp
        str     x9, [x0]
        mov     sp, x1
        ldp     x19, x20, [sp, #0]
        ldp     x21, x22, [sp, #16]
        ldp     x23, x24, [sp, #32]
        ldp     x25, x26, [sp, #48]
        ldp     x27, x28, [sp, #64]
        ldp     x29, x30, [sp, #80]
        ldp     d8, d9, [sp, #96]
        ldp     d10, d11, [sp, #112]
        ldp     d12, d13, [sp, #128]
        ldp     d14, d15, [sp, #144]
        ldr     x9, [sp, #160]
        msr     fpcr, x9
        add     sp, sp, #176
        ret
        .size   tc__sim_ctx_switch, .-tc__sim_ctx_switch

        .globl  tc__sim_ctx_trampoline
        .type   tc__sim_ctx_trampoline, %function
tc__sim_ctx_trampoline:
        mov     x0, x19
        blr     x20
        brk     #0
        .size   tc__sim_ctx_trampoline, .-tc__sim_ctx_trampoline
#endif

#if defined(__linux__) && defined(__ELF__)
        .section .note.GNU-stack, "", %progbits
#endif
