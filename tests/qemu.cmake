# SPDX-License-Identifier: MIT
# What the kernel tests of every port under QEMU share (Cortex-M, RISC-V), included by the
# port's tests.cmake after it set TACET_TEST_CONFIGS, `harness` (tct.c, tct_qemu.c and its
# tct_<port>.c), `tests`, its TC_TICK_HZ, `spin` (the definition of its spinning idle) and
# `port_test` (its own test, test_<port>):
#   - the harness times tc_check() apart from the kernel's critical sections (tct_qemu.c);
#   - a longer timeout: QEMU emulates the target at roughly 50-100 million instructions per
#     second, and a test such as test_time's million-tick sleep needs more than the default;
#   - the event trace, energy accounting and both together, each its own test (the sim port
#     runs every test so built);
#   - the port's own test on the spinning idle (exact idle time under -icount):
#     <port_test>.spin.

# 4 KB per test thread is plenty on the target (the C library's vsnprintf in tct_log needs
# about 1.2 KB) and keeps stack painting short. A board with less RAM sets tct_stack_size.
if(NOT DEFINED tct_stack_size)
  set(tct_stack_size 4096u)
endif()
add_compile_definitions(TCT_STACK_SIZE=${tct_stack_size})
add_link_options(-Wl,--wrap=tc_check)

function(tacet_add_test exe)
  add_test(NAME ${exe} COMMAND ${exe})
  set_tests_properties(${exe} PROPERTIES TIMEOUT 600)
endfunction()

# tacet_kernel_test (tests/CMakeLists.txt): a program of its own, against the kernel library
# named, with the kernel's private header (test_trace calls the recorders directly).
tacet_kernel_library(tacet_kernel_trace DEFINITIONS TC_TRACE=1)
tacet_kernel_test(test_trace.trace test_trace.c tacet_kernel_trace)
tacet_kernel_library(tacet_kernel_power DEFINITIONS TC_POWER=1)
tacet_kernel_test(test_power.power test_power.c tacet_kernel_power)
tacet_kernel_library(tacet_kernel_powertrace DEFINITIONS TC_POWER=1 TC_TRACE=1)
tacet_kernel_test(test_energy_trace.powertrace test_energy_trace.c tacet_kernel_powertrace)

tacet_kernel_library(tacet_kernel_spin DEFINITIONS ${spin})
tacet_kernel_test(${port_test}.spin ${port_test}.c tacet_kernel_spin)
