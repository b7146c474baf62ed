# SPDX-License-Identifier: MIT
# MPS2 as QEMU models it: -M mps2-an385 (Cortex-M3) or -M mps2-an386 (Cortex-M4F), one memory
# map (mps2-an385.ld, mps2-an386.ld), the console through semihosting.
if(TACET_CPU STREQUAL "cortex-m3")
  set(TACET_CM_MACHINE mps2-an385)
  set(TACET_CM_QEMU_CPU cortex-m3)
elseif(TACET_CPU STREQUAL "cortex-m4f")
  set(TACET_CM_MACHINE mps2-an386)
  set(TACET_CM_QEMU_CPU cortex-m4)
else()
  message(FATAL_ERROR "TACET_CPU=${TACET_CPU}: expected cortex-m3 or cortex-m4f")
endif()
set(TACET_CM_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/${TACET_CM_MACHINE}.ld)

# How to run a program: QEMU with a deterministic instruction clock and semihosting
# (console, exit status). This is the command line of `tacet run --target qemu-m3|qemu-m4`.
set(TACET_CM_QEMU qemu-system-arm -M ${TACET_CM_MACHINE} -cpu ${TACET_CM_QEMU_CPU} -nographic
  -icount shift=5 -semihosting-config enable=on,target=native -kernel)
# ctest runs every add_test() of an executable with sleep=off added: idle (WFI) then costs
# no host time, because QEMU jumps to the next timer deadline instead of waiting for the
# host's clock, and runs are reproducible. (QEMU 7.2 jumps twice as far as the deadline;
# only tc_cycles() measured across idle sees that, and no test does.)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-system-arm -M ${TACET_CM_MACHINE} -cpu ${TACET_CM_QEMU_CPU}
  -nographic -icount shift=5,sleep=off -semihosting-config enable=on,target=native -kernel)
