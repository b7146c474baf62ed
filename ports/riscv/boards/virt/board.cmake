# SPDX-License-Identifier: MIT
# QEMU virt as qemu-system-riscv32 models it: -M virt -bios none (no firmware: the program is
# loaded at the start of RAM and entered there, in machine mode), one memory map (virt.ld).
if(NOT TACET_CPU MATCHES "^rv32ima(f)?c$")
  message(FATAL_ERROR "TACET_CPU=${TACET_CPU}: expected rv32imac or rv32imafc")
endif()
set(TACET_RV_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/virt.ld)
set(TACET_RV_CODE_PREFIX 8) # code addresses: RAM at 0x80000000 (riscv_fault's report)

# QEMU's CPU: the generic rv32 with exactly the extensions of TACET_CPU (QEMU's default rv32
# has F and D, which an rv32imac program would not notice, but a test of the FP configuration
# must run on a hart that has F and not D).
if(TACET_CPU STREQUAL "rv32imafc")
  set(TACET_RV_QEMU_CPU rv32,f=on,d=off)
else()
  set(TACET_RV_QEMU_CPU rv32,f=off,d=off)
endif()

# How to run a program: QEMU with a deterministic instruction clock and semihosting (exit
# status, command line, host files); the console is the UART, QEMU's standard output. This is
# the command line of `tacet run --target qemu-rv32`. -icount shift=0: one instruction per
# nanosecond, so that mcycle, tc_cycles(), counts instructions (tacet_board.h). (The Cortex-M
# boards run at shift=5, 32 ns, because their cycle timer is a 25 MHz device; here the hart's
# own counter is the clock, and the closest a counter of QEMU's can be to one cycle per
# instruction is shift=0.) -rtc clock=vm: the real-time clock, the one device timer of the
# machine (examples/device_interrupt), counts virtual time too.
set(TACET_RV_QEMU qemu-system-riscv32 -M virt -cpu ${TACET_RV_QEMU_CPU} -bios none -rtc clock=vm
  -nographic -icount shift=0 -semihosting-config enable=on,target=native -kernel)
# ctest: sleep=off, so that idle (WFI) costs no host time (QEMU jumps to the next timer deadline).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-system-riscv32 -M virt -cpu ${TACET_RV_QEMU_CPU} -bios none
  -rtc clock=vm -nographic -icount shift=0,sleep=off -semihosting-config enable=on,target=native -kernel)
