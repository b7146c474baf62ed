# SPDX-License-Identifier: MIT
# SiFive FE310-G002 (HiFive1 Rev B) as qemu-system-riscv32 models it: -M sifive_e,revb=true. The
# E31 core is RV32IMAC; code runs in place from the QSPI flash (fe310.ld), data lives in the
# 16 KB DTIM, the only RAM of the part (QEMU refuses any other -m).
if(NOT TACET_CPU STREQUAL "rv32imac")
  message(FATAL_ERROR "TACET_RV_BOARD=fe310: the FE310's E31 core is RV32IMAC (-DTACET_CPU=rv32imac)")
endif()
set(TACET_RV_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/fe310.ld)
# The board's RAM holds a test program only with small thread stacks and few of them
# (ports/riscv/tests.cmake).
set(TACET_RV_SMALL_RAM ON)

# revb=true: the reset code in QEMU's mask ROM jumps to 0x20010000, where the Rev B board's
# boot loader hands over to the program (Rev A's 0x20400000 otherwise). The CPU is the machine's
# own, sifive-e31. No -bios: the machine has no firmware to load. -icount shift=0 as on virt:
# mcycle counts instructions; mtime counts the 32,768 Hz low-frequency clock in virtual time.
# Semihosting gives the exit status, the command line and host files, as on virt.
set(TACET_RV_QEMU qemu-system-riscv32 -M sifive_e,revb=true -nographic -icount shift=0
  -semihosting-config enable=on,target=native -kernel)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-system-riscv32 -M sifive_e,revb=true -nographic
  -icount shift=0,sleep=off -semihosting-config enable=on,target=native -kernel)
