# SPDX-License-Identifier: MIT
# RISC-V port (RV32, machine mode): TACET_CPU = rv32imac | rv32imafc, built with the toolchain
# file cmake/riscv32-unknown-elf.cmake (which sets -march and -mabi for TACET_CPU).
#
# The kernel library holds the port (context switch, trap, tick, idle, start-up code) and the
# board (TACET_RV_BOARD: boards/<name>/; default virt, QEMU's generic machine). Linking against
# tacet::kernel brings the board's linker script, so any executable that links the kernel is a
# complete ELF file.
if(NOT CMAKE_C_COMPILER_ID STREQUAL "GNU" OR NOT CMAKE_SYSTEM_PROCESSOR STREQUAL "riscv32")
  message(FATAL_ERROR "TACET_PORT=riscv: configure with -DCMAKE_TOOLCHAIN_FILE=cmake/riscv32-unknown-elf.cmake")
endif()

set(TACET_RV_BOARD "virt" CACHE STRING "Board of the RISC-V port (boards/<name>)")
set(_rv ${CMAKE_CURRENT_LIST_DIR})
set(_rv_board ${_rv}/boards/${TACET_RV_BOARD})
if(NOT EXISTS ${_rv_board}/board.cmake)
  message(FATAL_ERROR "TACET_RV_BOARD=${TACET_RV_BOARD}: no such board (expected ${_rv_board}/board.cmake)")
endif()
# The board sets TACET_RV_LINKER_SCRIPT (its memory map) and, when QEMU models it, how to run a
# program (TACET_RV_QEMU, CMAKE_CROSSCOMPILING_EMULATOR); its code is boards/<name>/<name>.c.
include(${_rv_board}/board.cmake)

set(TACET_PORT_SOURCES
  ${_rv}/riscv.c
  ${_rv}/switch.S
  ${_rv}/startup.c
  ${_rv}/../common/trace_dump.c
  ${_rv}/../common/report.c
  ${_rv_board}/${TACET_RV_BOARD}.c)
set(TACET_PORT_INCLUDES ${_rv}/include ${_rv_board}/include)

# Link options every program needs: the board's memory map, no host start files (startup.c is
# the start-up code), picolibc's system calls over semihosting (libsemihost).
tacet_port_link(rv_link ${_rv} ${_rv_board} ${_rv}/riscv.ld ${TACET_RV_LINKER_SCRIPT} --oslib=semihost)
