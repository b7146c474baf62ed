# SPDX-License-Identifier: MIT
# Cortex-M port (ARMv7-M): TACET_CPU = cortex-m3 | cortex-m4f, built with the toolchain file
# cmake/arm-none-eabi.cmake (which sets the code generation flags for TACET_CPU).
#
# The kernel library holds the port (context switch, tick, idle, start-up code, vector table,
# console) and the board (TACET_CM_BOARD: boards/<name>/; default mps2, QEMU's mps2-an385 for
# the Cortex-M3 and mps2-an386 for the Cortex-M4F; stm32f407, built but not run, is the
# example of a real chip: docs/porting.md). Linking against tacet::kernel brings the board's
# linker script, so any executable that links the kernel is a complete ELF file.
# (Clang, cmake/arm-none-eabi-clang.cmake, builds the kernel libraries, not programs.)
if(NOT CMAKE_C_COMPILER_ID MATCHES "^(GNU|Clang)$" OR NOT CMAKE_SYSTEM_PROCESSOR STREQUAL "arm")
  message(FATAL_ERROR "TACET_PORT=cortex-m: configure with -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake")
endif()

set(TACET_CM_BOARD "mps2" CACHE STRING "Board of the Cortex-M port (boards/<name>)")
set(_cm ${CMAKE_CURRENT_LIST_DIR})
set(_cm_board ${_cm}/boards/${TACET_CM_BOARD})
if(NOT EXISTS ${_cm_board}/board.cmake)
  message(FATAL_ERROR "TACET_CM_BOARD=${TACET_CM_BOARD}: no such board (expected ${_cm_board}/board.cmake)")
endif()
# The board says which TACET_CPU it has and sets TACET_CM_LINKER_SCRIPT (its memory map), and
# may replace these defaults: its code (TACET_CM_BOARD_SOURCES) and its console
# (TACET_CM_CONSOLE_SOURCES: semihosting, which needs a debugger or QEMU). A board that QEMU
# models also sets how to run a program (TACET_CM_QEMU, CMAKE_CROSSCOMPILING_EMULATOR).
set(TACET_CM_BOARD_SOURCES ${_cm_board}/${TACET_CM_BOARD}.c)
set(TACET_CM_CONSOLE_SOURCES ${_cm}/semihosting.c)
include(${_cm_board}/board.cmake)

set(TACET_PORT_SOURCES
  ${_cm}/cortex_m.c
  ${_cm}/pendsv.S
  ${_cm}/trampoline.c
  ${_cm}/trampoline.S
  ${_cm}/guard.c
  ${_cm}/startup.c
  ${_cm}/../common/trace_dump.c
  ${_cm}/../common/report.c
  ${TACET_CM_CONSOLE_SOURCES}
  ${TACET_CM_BOARD_SOURCES})
set(TACET_PORT_INCLUDES ${_cm}/include ${_cm_board}/include)

# Link options every program needs: the board's memory map, no host start files (startup.c
# is the start-up code), newlib.
tacet_port_link(cm_link ${_cm} ${_cm_board} ${_cm}/cortex-m.ld ${TACET_CM_LINKER_SCRIPT})
