# SPDX-License-Identifier: MIT
# Toolchain file for the Cortex-M port: arm-none-eabi-gcc with newlib (Debian packages
# gcc-arm-none-eabi and libnewlib-arm-none-eabi).
#
#   cmake -S . -B build/qemu-m3 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake \
#         -DTACET_PORT=cortex-m -DTACET_CPU=cortex-m3        (or cortex-m4f)
#
# TACET_CPU picks the code generation flags; they go into the default C, assembler and link
# flags so that every target of the build -- kernel, tests, the application -- is compiled for
# the same core and links against the matching newlib multilib. Default build: -Os -g.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_AR arm-none-eabi-ar)
set(CMAKE_RANLIB arm-none-eabi-ranlib)
set(CMAKE_OBJCOPY arm-none-eabi-objcopy)
set(CMAKE_SIZE arm-none-eabi-size)
set(CMAKE_NM arm-none-eabi-nm)

# The compiler checks cannot link a program before the port provides its startup code.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TACET_CPU)

if(NOT TACET_CPU)
  set(TACET_CPU cortex-m3)
endif()
if(TACET_CPU STREQUAL "cortex-m3")
  set(_tacet_cpu_flags "-mcpu=cortex-m3 -mthumb -mfloat-abi=soft")
elseif(TACET_CPU STREQUAL "cortex-m4f")
  set(_tacet_cpu_flags "-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard")
else()
  message(FATAL_ERROR "TACET_CPU=${TACET_CPU}: expected cortex-m3 or cortex-m4f")
endif()

set(CMAKE_C_FLAGS_INIT "${_tacet_cpu_flags} -Os -g -ffunction-sections -fdata-sections")

# Debian's gcc-arm-none-eabi 12.2 installs GCC's freestanding <stdint.h>, which shadows
# newlib's; newlib's <inttypes.h> then lacks PRId64/PRIu64 (it keys them on a macro only
# newlib's <stdint.h> defines). Put newlib's headers first when that is the case; both
# define the same types from the compiler's __INT*_TYPE__ macros.
execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=include
                OUTPUT_VARIABLE _tacet_gcc_include OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE _tacet_rc ERROR_QUIET)
if(_tacet_rc EQUAL 0 AND EXISTS "${_tacet_gcc_include}/stdint.h")
  get_filename_component(_tacet_newlib_include "${_tacet_gcc_include}/../../../../arm-none-eabi/include" REALPATH)
  file(READ "${_tacet_gcc_include}/stdint.h" _tacet_stdint)
  if(NOT _tacet_stdint MATCHES "include_next" AND EXISTS "${_tacet_newlib_include}/stdint.h")
    string(APPEND CMAKE_C_FLAGS_INIT " -isystem ${_tacet_newlib_include}")
  endif()
endif()
set(CMAKE_ASM_FLAGS_INIT "${_tacet_cpu_flags} -g")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${_tacet_cpu_flags} -Wl,--gc-sections")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
