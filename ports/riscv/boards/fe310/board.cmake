# SPDX-License-Identifier: MIT
# SiFive FE310-G002 (HiFive1 Rev B) as qemu-system-riscv32 models it: -M sifive_e,revb=true. The
# E31 core is RV32IMAC; code runs in place from the QSPI flash (fe310.ld), data lives in the
# 16 KB DTIM, the only RAM of the part (QEMU refuses any other -m).
if(NOT TACET_CPU STREQUAL "rv32imac")
  message(FATAL_ERROR "TACET_RV_BOARD=fe310: the FE310's E31 core is RV32IMAC (-DTACET_CPU=rv32imac)")
endif()
set(TACET_RV_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/fe310.ld)
set(TACET_RV_CODE_PREFIX 2) # code addresses: the flash at 0x20000000 (riscv_fault's report)
# The tests' tick: 300 Hz, 33,333 1/3 counts of QEMU's 10 MHz mtime (tacet_board.h), so that the
# tick's carried fraction (riscv.c) runs in every test, as it would at 1 kHz on the part's
# 32,768 Hz.
set(TACET_RV_TEST_TICK_HZ 300u)
# The board's RAM holds a test program only with small thread stacks and few of them
# (ports/riscv/tests.cmake), and the programs below not at all: their static data alone passes
# the 13,312 bytes left beside the two stacks -- the linker refuses them ("cannot move location
# counter backwards"), by 1.7 KB (test_power.power) to 780 KB (the scaling programs);
# ports/riscv/README.md, "The FE310 board", has the figures. They are built only on demand and
# their tests disabled (cmake/TacetBoardFit.cmake).
set(TACET_RV_SMALL_RAM ON)
set(TACET_BOARD_UNFIT
  # kernel tests: fixtures, pools, trace buffers, a test's own 8 KB stacks (test_app), and the
  # trace and energy builds
  test_check.base test_random.base test_byte_pool.base test_context.base test_misuse.base
  test_trace.base test_app.base test_trace.trace test_power.power test_energy_trace.powertrace
  # the programs the Python tests drive, and the soak
  conformance trace_known soak
  # CMSIS-RTOS2's tests, and the examples whose thread stacks alone pass it
  test_os2_kernel test_os2_thread test_os2_sync test_os2_data
  test_os2_kernel.trace test_os2_thread.trace test_os2_sync.trace test_os2_data.trace
  producer_consumer priority_inversion periodic_control cmsis_producer_consumer
  # benchmarks: Thread-Metric, Rhealstone, the scaling programs
  thread_metric thread_metric_lean thread_metric_nochecks thread_metric_nostats rhealstone
  scaling_p32 scaling_p64 scaling_p256 scaling_p1024
  # not RAM: the example's device is virt's RTC, which sifive_e does not have
  device_interrupt)

# revb=true: the reset code in QEMU's mask ROM jumps to 0x20010000, where the Rev B board's
# boot loader hands over to the program (Rev A's 0x20400000 otherwise). The CPU is the
# machine's own, sifive-e31 (RV32IMAC), named. No -bios: the machine loads no firmware.
# -icount shift=0 as on virt: mcycle counts instructions. Semihosting gives the exit status,
# the command line and host files, as on virt. ctest: sleep=off, as on virt.
set(TACET_RV_QEMU qemu-system-riscv32 -M sifive_e,revb=true -cpu sifive-e31 -nographic -icount shift=0
  -semihosting-config enable=on,target=native -kernel)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-system-riscv32 -M sifive_e,revb=true -cpu sifive-e31 -nographic
  -icount shift=0,sleep=off -semihosting-config enable=on,target=native -kernel)
