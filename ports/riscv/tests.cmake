# SPDX-License-Identifier: MIT
# Kernel tests on the RISC-V port, included by tests/CMakeLists.txt: the port-neutral tests
# plus test_riscv, each built per configuration and run under QEMU by ctest (the emulator
# command, CMAKE_CROSSCOMPILING_EMULATOR, comes from the board: -icount shift=5,sleep=off,
# semihosting; the program's exit status is the test result).
#
# The tests run at TC_TICK_HZ=320: a tick is 3,125,000 instructions (QEMU at -icount shift=0,
# one instruction per nanosecond), as the Cortex-M tests' 10 Hz at shift=5 -- and for the same
# reason: on the sim port a test's own code takes no virtual time, and a test that checks the
# kernel's invariants between steps must see no tick the sim would not show it. (320 divides
# mtime's 10 MHz into whole ticks, and each of test_power's points.)
#
# name | definitions (comma-separated)
set(TACET_TEST_CONFIGS
  "base|"
  "prio1024|TC_PRIORITIES=1024"
  "nochecks|TC_CHECKS=0"
  "irqoff|TC_IRQ_OFF_MEASURE=1")
set(harness tct.c tct_qemu.c tct_riscv.c)
set(tests ${TACET_TESTS} test_riscv)

# A board with little RAM (TACET_RV_SMALL_RAM: the FE310's 16 KB) runs the tests in the base
# configuration only, with thread stacks of 640 bytes (at 512 the signal, HISR and task-port
# tests overflow theirs), 12 of them (7.5 KB: a test takes up to twelve at once), 8 for the
# tests that take no more and would not fit otherwise (stacks_8), and a 1 KB event log.
# The tests that still do not fit are the board's TACET_BOARD_UNFIT: built only on demand,
# their ctest entries disabled (cmake/TacetBoardFit.cmake).
if(TACET_RV_SMALL_RAM)
  set(TACET_TEST_CONFIGS "base|")
  set(tct_stack_size 640u)
  set(stacks_8 "$<OR:$<STREQUAL:$<TARGET_PROPERTY:NAME>,test_thread.base>,$<STREQUAL:$<TARGET_PROPERTY:NAME>,test_block_pool.base>>")
  add_compile_definitions(TCT_LOG_SIZE=1024u TCT_MAX_STACKS=$<IF:${stacks_8},8u,12u>)
endif()

# A board may choose another rate (TACET_RV_TEST_TICK_HZ): the FE310's tests run at 300 Hz,
# 33,333 1/3 mtime counts a tick, so that they run the tick's carried fraction (riscv.c).
if(NOT DEFINED TACET_RV_TEST_TICK_HZ)
  set(TACET_RV_TEST_TICK_HZ 320u)
endif()
# test_riscv.frac (virt): test_riscv at 300 Hz, against its own kernel, so that the tickless
# idle's boundaries with a carried fraction meet the RTC's device interrupt in a suppressed
# stretch, which the FE310 (no timed device in QEMU) cannot test.
set(frac_targets "$<OR:$<STREQUAL:$<TARGET_PROPERTY:NAME>,test_riscv.frac>,$<STREQUAL:$<TARGET_PROPERTY:NAME>,tacet_kernel_frac>>")
add_compile_definitions(TC_TICK_HZ=$<IF:${frac_targets},300u,${TACET_RV_TEST_TICK_HZ}>)
# The spinning idle (TC_RV_IDLE_WFI=0): test_riscv.spin checks that a hundred ticks are a
# hundred mtime periods. The event trace, energy accounting and the rest: tests/qemu.cmake.
set(spin TC_RV_IDLE_WFI=0)
set(port_test test_riscv)
include(${PROJECT_SOURCE_DIR}/tests/qemu.cmake)
if(NOT TACET_RV_SMALL_RAM)
  tacet_kernel_library(tacet_kernel_frac)
  tacet_kernel_test(test_riscv.frac test_riscv.c tacet_kernel_frac)
endif()

# A fault stops the run with a report naming its cause (mcause 2: an illegal instruction) and the
# exit status 136; the report decides the test (PASS_REGULAR_EXPRESSION), not the status.
add_executable(riscv_fault riscv_fault.c ${harness})
target_link_libraries(riscv_fault PRIVATE tacet_kernel_base)
target_compile_options(riscv_fault PRIVATE ${TACET_WARNINGS})
add_test(NAME riscv_fault COMMAND riscv_fault)
set_tests_properties(riscv_fault PROPERTIES
  PASS_REGULAR_EXPRESSION "tacet: fault: mcause=0x00000002 mepc=0x${TACET_RV_CODE_PREFIX}"
  FAIL_REGULAR_EXPRESSION "not stopped"
  TIMEOUT 60)
