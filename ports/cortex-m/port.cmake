# Cortex-M port (ARMv7-M): TACET_CPU = cortex-m3 | cortex-m4f, built with the toolchain file
# cmake/arm-none-eabi.cmake (which sets the code generation flags for TACET_CPU).
#
# The kernel library holds the port (context switch, tick, idle, start-up code, vector table,
# semihosting console) and the board (TACET_CM_BOARD, default mps2: QEMU mps2-an385 for the
# Cortex-M3, mps2-an386 for the Cortex-M4F). Linking against tacet::kernel brings the
# board's linker script, so any executable that links the kernel is a runnable ELF file.
# (Clang, cmake/arm-none-eabi-clang.cmake, builds the kernel libraries, not programs.)
if(NOT CMAKE_C_COMPILER_ID MATCHES "^(GNU|Clang)$" OR NOT CMAKE_SYSTEM_PROCESSOR STREQUAL "arm")
  message(FATAL_ERROR "TACET_PORT=cortex-m: configure with -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake")
endif()

set(TACET_CM_BOARD "mps2" CACHE STRING "Board of the Cortex-M port (boards/<name>)")
if(TACET_CPU STREQUAL "cortex-m3")
  set(TACET_CM_MACHINE mps2-an385)
  set(TACET_CM_QEMU_CPU cortex-m3)
elseif(TACET_CPU STREQUAL "cortex-m4f")
  set(TACET_CM_MACHINE mps2-an386)
  set(TACET_CM_QEMU_CPU cortex-m4)
else()
  message(FATAL_ERROR "TACET_CPU=${TACET_CPU}: expected cortex-m3 or cortex-m4f")
endif()

set(_cm ${CMAKE_CURRENT_LIST_DIR})
set(_cm_board ${_cm}/boards/${TACET_CM_BOARD})

set(TACET_PORT_SOURCES
  ${_cm}/cortex_m.c
  ${_cm}/pendsv.S
  ${_cm}/trampoline.c
  ${_cm}/trampoline.S
  ${_cm}/guard.c
  ${_cm}/startup.c
  ${_cm}/semihosting.c
  ${_cm_board}/${TACET_CM_BOARD}.c)
set(TACET_PORT_INCLUDES ${_cm}/include ${_cm_board}/include)

# Link options every program needs: the board's memory map, no host start files (startup.c
# is the start-up code), newlib. Installed (cmake/TacetInstall.cmake), both linker scripts are
# in one directory of the configuration, TACET_INSTALL_LIBDIR/ld.
if(NOT TARGET tacet_cm_link)
  add_library(tacet_cm_link INTERFACE)
  set(_cm_ld $<INSTALL_PREFIX>/${TACET_INSTALL_LIBDIR}/ld)
  target_link_options(tacet_cm_link INTERFACE
    -nostartfiles
    $<BUILD_INTERFACE:-L${_cm}> $<BUILD_INTERFACE:-L${_cm_board}>
    $<BUILD_INTERFACE:-T${_cm_board}/${TACET_CM_MACHINE}.ld>
    $<INSTALL_INTERFACE:-L${_cm_ld}> $<INSTALL_INTERFACE:-T${_cm_ld}/${TACET_CM_MACHINE}.ld>
    -Wl,--no-warn-rwx-segments)
  set_property(TARGET tacet_cm_link APPEND PROPERTY INTERFACE_LINK_DEPENDS
    $<BUILD_INTERFACE:${_cm}/cortex-m.ld> $<BUILD_INTERFACE:${_cm_board}/${TACET_CM_MACHINE}.ld>
    $<INSTALL_INTERFACE:${_cm_ld}/cortex-m.ld>
    $<INSTALL_INTERFACE:${_cm_ld}/${TACET_CM_MACHINE}.ld>)
endif()
# What cmake --install copies for a program to link against the installed kernel.
set(TACET_PORT_LINKER_SCRIPTS ${_cm}/cortex-m.ld ${_cm_board}/${TACET_CM_MACHINE}.ld)
set(TACET_PORT_LIBRARIES tacet_cm_link)

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
