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
set(harness tct.c tct_irqoff.c tct_riscv.c)
set(tests ${TACET_TESTS} test_riscv)

add_compile_definitions(TCT_STACK_SIZE=4096u TC_TICK_HZ=320u)
# The harness times tc_check() apart from the kernel's critical sections (tct_irqoff.c).
add_link_options(-Wl,--wrap=tc_check)

function(tacet_add_test exe)
  add_test(NAME ${exe} COMMAND ${exe})
  set_tests_properties(${exe} PROPERTIES TIMEOUT 600)
endfunction()

# The event trace compiled in: its own test (the sim port runs every test so built).
tacet_kernel_library(tacet_kernel_trace DEFINITIONS TC_TRACE=1)
add_executable(test_trace.trace test_trace.c ${harness})
target_link_libraries(test_trace.trace PRIVATE tacet_kernel_trace)
target_include_directories(test_trace.trace PRIVATE ${PROJECT_SOURCE_DIR}/kernel)
target_compile_options(test_trace.trace PRIVATE ${TACET_WARNINGS} -Wno-missing-prototypes)
tacet_add_test(test_trace.trace)

# Energy accounting compiled in (TC_POWER=1).
tacet_kernel_library(tacet_kernel_power DEFINITIONS TC_POWER=1)
tacet_kernel_test(test_power.power test_power.c tacet_kernel_power)
tacet_kernel_library(tacet_kernel_powertrace DEFINITIONS TC_POWER=1 TC_TRACE=1)
tacet_kernel_test(test_energy_trace.powertrace test_energy_trace.c tacet_kernel_powertrace)

# The spinning idle (TC_RV_IDLE_WFI=0), whose idle time is exact under -icount.
tacet_kernel_library(tacet_kernel_spin DEFINITIONS TC_RV_IDLE_WFI=0)
add_executable(test_riscv.spin test_riscv.c ${harness})
target_link_libraries(test_riscv.spin PRIVATE tacet_kernel_spin)
target_include_directories(test_riscv.spin PRIVATE ${PROJECT_SOURCE_DIR}/kernel)
target_compile_options(test_riscv.spin PRIVATE ${TACET_WARNINGS} -Wno-missing-prototypes)
tacet_add_test(test_riscv.spin)
