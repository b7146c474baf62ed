# SPDX-License-Identifier: MIT
# Toolchain file for the RISC-V port: Debian's riscv64-unknown-elf-gcc (its multilibs include
# rv32) with picolibc (Debian packages gcc-riscv64-unknown-elf and picolibc-riscv64-unknown-elf).
#
#   cmake -S . -B build/qemu-rv32 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/riscv32-unknown-elf.cmake \
#         -DTACET_PORT=riscv -DTACET_CPU=rv32imac                  (or rv32imafc)
#
# TACET_CPU picks -march and -mabi; they go into the default C, assembler and link flags so that
# every target -- kernel, tests, the application -- is built for the same core and links
# against the matching picolibc multilib. Default build: -Os -g.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)

set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_AR riscv64-unknown-elf-ar)
set(CMAKE_RANLIB riscv64-unknown-elf-ranlib)
set(CMAKE_OBJCOPY riscv64-unknown-elf-objcopy)
set(CMAKE_SIZE riscv64-unknown-elf-size)
set(CMAKE_NM riscv64-unknown-elf-nm)

# The compiler checks cannot link a program before the port provides its startup code.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TACET_CPU)

if(NOT TACET_CPU)
  set(TACET_CPU rv32imac)
endif()
# -misa-spec=2.2: the CSR instructions belong to the base ISA there. With the 2019 spec (GCC
# 12's default) they are an extension, Zicsr, and naming it in -march (rv32imac_zicsr) makes
# GCC 12 miss the rv32imac multilib and link picolibc's default, rv64, one.
if(TACET_CPU STREQUAL "rv32imac")
  set(_tacet_cpu_flags "-march=rv32imac -mabi=ilp32 -misa-spec=2.2")
elseif(TACET_CPU STREQUAL "rv32imafc")
  set(_tacet_cpu_flags "-march=rv32imafc -mabi=ilp32f -misa-spec=2.2")
else()
  message(FATAL_ERROR "TACET_CPU=${TACET_CPU}: expected rv32imac or rv32imafc")
endif()

# picolibc: its headers and libraries through its specs file, in the C flags, which CMake also
# passes when it links a program (the specs file may be given once only; the port's startup.c
# replaces picolibc's crt0, its linker script picolibc.ld).
set(CMAKE_C_FLAGS_INIT "${_tacet_cpu_flags} --specs=picolibc.specs -Os -g -ffunction-sections -fdata-sections")
set(CMAKE_ASM_FLAGS_INIT "${_tacet_cpu_flags} -g")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${_tacet_cpu_flags} -Wl,--gc-sections")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
