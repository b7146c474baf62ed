# SPDX-License-Identifier: MIT
# Kernel tests on the Cortex-M port, included by tests/CMakeLists.txt: the port-neutral tests
# plus test_cortex_m, each built per configuration and run under QEMU by ctest (the emulator
# command, CMAKE_CROSSCOMPILING_EMULATOR, comes from port.cmake: -icount shift=5,sleep=off,
# semihosting; the program's exit status is the test result; tacet_add_test sets the timeout).
#
# The tests run at TC_TICK_HZ=10 on the target. On the sim port a test's own code takes no
# virtual time, and the tests are written that way (a tick arrives only inside tct_work or
# in idle); on QEMU every instruction takes 32 ns. At 1000 Hz a test that checks the kernel's
# invariants between steps (tc_check walks every priority list: 1,900 instructions at 32
# priorities, 8,900 at 256, 32,300 at 1024) sees ticks that the sim never shows it; at 10 Hz
# a tick is 3,125,000 instructions. Every configuration builds its own kernel library, with
# these definitions ("default" would reuse tacet::kernel, built at 1000 Hz).
#
# 32 priorities and the ucontext switch are covered on the sim port.
#
# name | definitions (comma-separated)
set(TACET_TEST_CONFIGS
  "base|"
  "prio1024|TC_PRIORITIES=1024"
  "nochecks|TC_CHECKS=0"
  "irqoff|TC_IRQ_OFF_MEASURE=1"
  "mpuguard|TC_MPU_STACK_GUARD=1")
set(harness tct.c tct_qemu.c tct_cortex_m.c)
set(tests ${TACET_TESTS} test_cortex_m)

add_compile_definitions(TC_TICK_HZ=10u)
# The spinning idle (TC_CM_IDLE_WFI=0): test_cortex_m.spin checks that ten ticks are ten
# SysTick periods. The event trace, energy accounting and the rest: tests/qemu.cmake.
set(spin TC_CM_IDLE_WFI=0)
set(port_test test_cortex_m)
include(${PROJECT_SOURCE_DIR}/tests/qemu.cmake)

# A service called from an interrupt above the kernel's mask: the default hook stops the run
# naming the service and the interrupt (tacet/kernel.h, "Interrupt handlers"), in the default
# configuration (TC_CHECKS=1). test_context and test_cortex_m check every service and
# context with a hook of their own.
add_executable(isr_priority_panics isr_priority_panics.c ${harness})
target_link_libraries(isr_priority_panics PRIVATE tacet_kernel_base)
target_compile_options(isr_priority_panics PRIVATE ${TACET_WARNINGS})
add_test(NAME isr_priority_panics COMMAND isr_priority_panics)
set_tests_properties(isr_priority_panics PROPERTIES
  PASS_REGULAR_EXPRESSION "tacet: panic: kernel service called from an interrupt above the kernel's mask: tc_sem_give \\(in exception 21, IRQ 5\\)"
  FAIL_REGULAR_EXPRESSION "not stopped"
  TIMEOUT 60)

# The MPU stack guard (docs/stack-guard.md): every test above runs with it in the `mpuguard`
# configuration; test_stack_guard overflows stacks every way the port knows, and
# test_stack_guard_fatal the overflows that stop the run (each its own run, by -append). On
# the M4F, test_stack_guard also runs with a 32-byte guard (`mpuguard32`), smaller than an FP
# frame: the lazy save of the FPU registers (MLSPERR) is then what faults.
function(tacet_guard_test exe kernel)
  add_executable(${exe} ${ARGN} ${harness})
  target_link_libraries(${exe} PRIVATE ${kernel})
  target_include_directories(${exe} PRIVATE ${PROJECT_SOURCE_DIR}/kernel)
  target_compile_options(${exe} PRIVATE ${TACET_WARNINGS} -Wno-missing-prototypes)
endfunction()
tacet_guard_test(test_stack_guard.mpuguard tacet_kernel_mpuguard test_stack_guard.c)
tacet_add_test(test_stack_guard.mpuguard)
tacet_guard_test(test_stack_guard_fatal.mpuguard tacet_kernel_mpuguard test_stack_guard_fatal.c)
foreach(pair
    "masked|tacet: panic: stack overflow where no thread can be stopped \\(kernel masked\\): v"
    "hisr|hook: h.*tacet: panic: stack overflow in an HISR \\(it cannot be terminated\\): h"
    "signal|tacet: panic: stack overflow: no room for a signal frame: v"
    "idle|tacet: panic: stack overflow in the startup/idle context"
    "other|tacet: fault: MemManage pc=0xe0000000")
  string(REPLACE "|" ";" p "${pair}")
  list(GET p 0 scenario)
  list(GET p 1 expected)
  add_test(NAME test_stack_guard_fatal.${scenario} COMMAND test_stack_guard_fatal.mpuguard -append ${scenario})
  set_tests_properties(test_stack_guard_fatal.${scenario} PROPERTIES PASS_REGULAR_EXPRESSION "${expected}"
                       TIMEOUT 60)
endforeach()
if(TACET_CPU STREQUAL "cortex-m4f")
  tacet_kernel_library(tacet_kernel_mpuguard32 DEFINITIONS TC_MPU_STACK_GUARD=1 TC_CM_STACK_GUARD_SIZE=32)
  tacet_guard_test(test_stack_guard.mpuguard32 tacet_kernel_mpuguard32 test_stack_guard.c)
  tacet_add_test(test_stack_guard.mpuguard32)
endif()
